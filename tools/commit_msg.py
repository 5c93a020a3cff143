"""Check a commit message's shape before git records it (pre-commit's commit-msg hook runs this).

The subject says in the imperative what the commit changes, in under 72 characters, with no closing
period; if a body follows, a blank line parts it from the subject. Git's comment lines and anything
below the scissors line of ``git commit -v`` are not part of the message and are not read. The
subjects git writes itself pass: a merge's ("Merge branch ...", "Merge pull request ..."), a
revert's ('Revert "..."') and the ``fixup!``/``squash!``/``amend!`` subjects that ``git rebase
--autosquash`` folds away. Each problem is printed with what is allowed, and the exit status is 1
when there is one.

    python tools/commit_msg.py .git/COMMIT_EDITMSG
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

MAX_SUBJECT: Final = 71  # "under 72 characters"
SCISSORS: Final = "# ------------------------ >8 ------------------------"
GIT_WRITTEN: Final = (
    "Merge branch ",
    "Merge remote-tracking branch ",
    "Merge pull request ",
    "Merge tag ",
    "Merge commit ",
    'Revert "',
    "fixup! ",
    "squash! ",
    "amend! ",
)


def message_lines(text: str) -> list[str]:
    """The lines of a message as git records it: comment lines, what follows the scissors line and
    leading blank lines dropped, trailing spaces cut."""
    lines: list[str] = []
    for line in text.splitlines():
        if line == SCISSORS:
            break
        if not line.startswith("#"):
            lines.append(line.rstrip())
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def problems(text: str) -> list[str]:
    """What is wrong with the commit message ``text``, one sentence each (empty when it is fine)."""
    lines = message_lines(text)
    subject = lines[0] if lines else ""
    if subject.startswith(GIT_WRITTEN):
        return []
    found: list[str] = []
    if not subject.strip():
        found.append("the subject is empty: write one line in the imperative saying what the commit changes.")
        return found
    if len(subject) > MAX_SUBJECT:
        found.append(
            f"the subject is {len(subject)} characters: keep it under 72 ({MAX_SUBJECT} at most) "
            "and put the rest in the body, after a blank line."
        )
    if subject.endswith("."):
        found.append("the subject ends with a period: a subject is a title, end it without one.")
    if len(lines) > 1 and lines[1]:
        found.append(
            "the second line is not blank: leave line 2 empty and start the body on line 3 "
            "(git reads everything up to the first blank line as the subject)."
        )
    return found


def main(argv: list[str] | None = None) -> int:
    """Check the message in the file named by the one argument; print each problem and return 1 if
    there is any, else 0. A wrong number of arguments returns 2 with the usage."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python tools/commit_msg.py MESSAGE_FILE (the file git hands the commit-msg hook)")
        return 2
    text = Path(args[0]).read_text("utf-8", errors="replace")
    found = problems(text)
    if found:
        subject = (message_lines(text) or [""])[0]
        print(f"commit message refused (subject: {subject!r}):")
        for problem in found:
            print(f"  - {problem}")
        print(f"The message is kept: `git commit -e -F {args[0]}` takes it up again in the editor.")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
