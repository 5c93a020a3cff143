"""The commit-msg hook (tools/commit_msg.py) holds CONTRIBUTING.md's "Commits and history": a subject
under 72 characters, without a closing period, a blank second line; the subjects git writes pass."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "commit_msg.py"
CONFIG = (ROOT / ".pre-commit-config.yaml").read_text("utf-8")


def check(message: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the hook's script on ``message`` as git hands it over: a file named by the one argument."""
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message, "utf-8")
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False, timeout=60
    )


GOOD = {
    "subject alone": "Refuse a meld of wilds where the table plays none\n",
    "subject of 71": "A" * 71 + "\n",
    "subject and body": "Store a move before telling the seats\n\nA crash between the two lost the move.\n",
    "git's comments": "Add a lobby filter\n# Please enter the commit message for your changes.\n#\n",
    "below the scissors": "Add a lobby filter\n# ------------------------ >8 ------------------------\n"
    + "diff --git a/x b/x\n"
    + "+"
    + "x" * 100
    + ".\n",
    "leading blank lines": "\n\nAdd a lobby filter\n",
    "merge": "Merge branch 'work-" + "x" * 80 + "' into main.\nno blank line here\n",
    "merge of a pull request": "Merge pull request #12 from someone/" + "x" * 80 + "\n",
    "fixup": "fixup! " + "A" * 90 + ".\n",
    "squash": "squash! Add a lobby filter.\n",
    "revert": 'Revert "' + "A" * 70 + '"\n\nThis reverts commit abc.\n',
}

BAD = {
    "subject of 72": ("A" * 72 + "\n", "the subject is 72 characters: keep it under 72 (71 at most)"),
    "subject of 557": ("A" * 557 + "\n", "the subject is 557 characters"),
    "empty": ("\n\n# only comments\n", "the subject is empty"),
    "period": ("Add a lobby filter.\n", "the subject ends with a period"),
    "second line": ("Add a lobby filter\nbecause players asked\n", "the second line is not blank"),
    "a human's merge": ("Merge the two score tables into one.\n", "the subject ends with a period"),
}


@pytest.mark.parametrize("message", GOOD.values(), ids=GOOD.keys())
def test_a_well_shaped_message_passes(message: str, tmp_path: Path) -> None:
    done = check(message, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(("message", "says"), BAD.values(), ids=BAD.keys())
def test_a_misshapen_message_is_refused_saying_why(message: str, says: str, tmp_path: Path) -> None:
    done = check(message, tmp_path)
    assert done.returncode == 1
    assert says in done.stdout
    assert "commit message refused" in done.stdout


def test_every_problem_is_told_at_once(tmp_path: Path) -> None:
    done = check("A" * 80 + ".\nno blank line\n", tmp_path)
    assert done.returncode == 1
    assert re.findall(r"^  - the (\w+ \w+)", done.stdout, re.MULTILINE) == [
        "subject is",
        "subject ends",
        "second line",
    ]


def test_no_message_file_prints_the_usage(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 2
    assert "usage:" in done.stdout


def test_the_config_runs_it_at_the_commit_msg_stage() -> None:
    """pre-commit hands a commit-msg hook the message file; `pre-commit install` installs that hook type
    too, and the file checks (ruff, mypy) stay at the pre-commit stage."""
    hook = re.search(r"- id: commit-msg\n((?:\s+\w+: .*\n?)*)", CONFIG)
    assert hook, "no commit-msg hook in .pre-commit-config.yaml"
    fields = dict(re.findall(r"(\w+): (.*)", hook[1]))
    assert fields["entry"] == "python tools/commit_msg.py"
    assert fields["stages"] == "[commit-msg]"
    assert re.search(r"^default_install_hook_types: \[.*\bcommit-msg\b.*\]$", CONFIG, re.MULTILINE)
    assert re.search(r"^default_stages: \[pre-commit\]$", CONFIG, re.MULTILINE)
