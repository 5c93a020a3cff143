"""``handfoot play`` as a player sees it at 80x24: the real command in tmux, its screen read back with
capture-pane. The end of a hand stays until a key with each side's score item by item; the history is
in words and fills the free lines; no line is cut at 80 columns or broken inside a phrase; a server
table's seats are named. The screens read are written to $HANDFOOT_SCREENSHOTS (``docs/screenshots``
refreshes the committed ``terminal-*.txt``), else to a temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.browser import SCREENSHOTS

ROOT = Path(__file__).resolve().parents[2]
PLAY = f"cd {ROOT} && PYTHONPATH={ROOT / 'src'} {sys.executable} -m handfoot play"
ACTS = re.compile(r"^(You|West|North|East|[A-Z][a-z]+ bot \d) (drew|took|melded|added|discarded|laid)")


class Terminal:
    """A command running in a tmux session of 80x24."""

    def __init__(self, session: str, command: str) -> None:
        self.session = session
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command], check=True
        )

    def screen(self) -> str:
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", self.session], capture_output=True, text=True
        )
        return done.stdout

    def wait_for(self, text: str, tries: int = 900) -> str:
        shown = ""
        for _ in range(tries):
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{shown}")

    def wait_any(self, texts: tuple[str, ...], tries: int = 600) -> str:
        shown = ""
        for _ in range(tries):
            shown = self.screen()
            if any(text in shown for text in texts):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"none of {texts!r} appeared:\n{shown}")

    def wait_gone(self, text: str, tries: int = 300) -> str:
        shown = ""
        for _ in range(tries):
            shown = self.screen()
            if text not in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} stayed:\n{shown}")

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.session, *keys], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.session], capture_output=True)


@pytest.fixture
def tmux() -> Iterator[None]:
    if shutil.which("tmux") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("tmux is not installed: make terminal installs it")
        pytest.skip("tmux is not installed (make terminal installs it)")
    yield


def keep(name: str, shown: str) -> None:
    """Write a screen read to the screenshots folder (``terminal-NAME.txt``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"terminal-{name}.txt").write_text(shown.rstrip("\n") + "\n", encoding="utf-8")


def fits(shown: str, history: bool = True) -> None:
    """24 lines of at most 80 columns, nothing broken inside a phrase: the header's turn words whole,
    each side's book count whole on one line, no history in the notation's steps."""
    lines = shown.rstrip("\n").splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, shown
    assert shown.count("books:") == len(re.findall(r"books: \d+ clean, \d+ dirty", shown)), shown
    if "your turn:" in shown:
        assert re.search(r"your turn: (draw or take the pile|meld, then discard)", shown), shown
    for line in lines if history else ():
        assert not re.search(r"\b(stage|commit|cancel)\b", line), line


def test_a_hand_at_80x24_its_end_history_and_keys(tmux: None, tmp_path: Path) -> None:
    term = Terminal(
        f"handfoot-words-{tmp_path.name}",
        f"{PLAY} --seed 3 --bot-delay 0 --hint-seconds 0",
    )
    try:
        shown = term.wait_for(" h hint ")
        fits(shown)
        term.keys("?")  # the keys page: every line whole inside the overlay
        shown = term.wait_for("Keys (")
        fits(shown, history=False)
        for words in (
            "m      meld the selection, or lay what is staged",
            "(p takes it with the selected naturals and the staged groups)",
            'a      ask "May I go out?"        y / n  answer yes / no',
            "h      hint (enter plays it)      t      history",
        ):
            assert words in shown, (words, shown)
        keep("keys", shown)
        term.keys("Escape")
        term.wait_gone("Keys (")
        decisions, most_history, over = 0, 0, "is over (any key goes on)"
        while True:
            shown = term.wait_any((over, "your turn"))
            if over in shown:
                break
            term.keys("h")
            term.wait_for("Hint: ")
            term.keys("Enter")
            shown = term.wait_gone("Hint: ")  # played: the app has taken the key
            if over in shown:
                break
            fits(shown)
            decisions += 1
            acts = [line for line in shown.splitlines() if ACTS.match(line)]
            most_history = max(most_history, len(acts))
            if decisions == 8:
                keep("table", shown)
            assert decisions < 200, "the hand never ended"
        # more than the last 3 moves: the free lines fill with the history, in words with the cards
        assert most_history > 4, most_history
        fits(shown)
        # the end of the hand stays until a key, with each side's score item by item
        assert "Hand 1 is over (any key goes on)" in shown
        for words in ("Us", "West+East", "cards on the table", "this hand", "total"):
            assert words in shown, (words, shown)
        keep("hand-over", shown)
        time.sleep(1.5)
        assert "Hand 1 is over (any key goes on)" in term.screen()
        term.keys("Space")
        shown = term.wait_for("s shows the score sheet")
        assert "(any key goes on)" not in shown and "Hand 1 is over: Us " in shown
        term.keys("t")  # the whole history: the hand's end and the next hand's deal in words
        shown = term.wait_for("History (")
        fits(shown)
        term.keys("Escape", "q")
    finally:
        term.close()


def test_a_server_tables_seats_by_name_at_80x24(tmux: None, tmp_path: Path) -> None:
    """``handfoot play LINK``: the other seats named as the browser names them (a player by the name
    they joined with, a bot without one as "Random bot 2"), never "Bot" for everyone."""
    import httpx

    from handfoot.server.settings import Settings
    from helpers.server import running_server

    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as base:
        body = {
            "preset": "kitchen-table",
            "players": 4,
            "seats": [
                {"kind": "invite"},
                {"kind": "bot", "bot": "random"},
                {"kind": "invite"},
                {"kind": "bot", "bot": "easy"},
            ],
        }
        created = httpx.post(f"{base}/api/tables", json=body).json()
        links = [invite["link"] for invite in created["invites"]]
        # Ann takes her seat first: Bea's name comes to her screen when Bea joins
        term = Terminal(f"handfoot-server-{tmp_path.name}", f"{PLAY} '{links[0]}' --name Ann")
        partner: Terminal | None = None
        try:
            term.wait_for(" h hint ")
            partner = Terminal(f"handfoot-partner-{tmp_path.name}", f"{PLAY} '{links[1]}' --name Bea")
            partner.wait_for(" h hint ")
            shown = term.wait_for("Bea · partner")
            shown = term.wait_for(" h hint ")
            fits(shown)
            assert "Random bot 2:" in shown and "Easy bot 4:" in shown and "Bea · partner:" in shown
            assert not re.search(r"\bBot\b", shown), shown
            keep("server", shown)
            term.keys("q")
            partner.keys("q")
        finally:
            term.close()
            if partner is not None:
                partner.close()


def test_the_history_names_the_cards_laid_never_the_steps() -> None:
    """A turn staged and committed reads as what the table saw: the melds with their cards, cards added
    to one meld in one clause (the book it made after them), the discard; staging adds nothing."""
    from handfoot.tui.words import history_lines

    def event(kind: str, seat: int, cards: list[str] = [], **more: object) -> dict[str, object]:  # noqa: B006
        return {"type": kind, "seat": seat, "cards": cards, "amount": more.pop("amount", 0), **more}

    entries = [
        {"seat": 1, "move": "draw", "events": [event("drew", 1, amount=2)]},
        {"seat": 1, "move": "stage", "events": []},
        {"seat": 1, "move": "stage", "events": []},
        {
            "seat": 1,
            "move": "commit",
            "events": [
                event("melded", 1, ["KS", "KH", "JK"], rank="K", added=False),
                event("melded", 1, ["QS"], rank="Q", added=True),
                event("melded", 1, ["QH", "2D"], rank="Q", added=True),
                event("book", 1, [], rank="Q", detail="dirty", amount=7),
            ],
        },
        {"seat": 1, "move": "discard 4C", "events": [event("discarded", 1, ["4C"]), event("turn", 2)]},
        {"seat": 0, "move": "draw", "events": [event("drew", 0, amount=2)]},
    ]
    lines = history_lines(["You", "West (medium)", "North"], entries, ascii_only=True)
    assert lines == [
        "West drew 2 cards; melded kings (KS KH JK); added QS QH 2D to the queens; "
        "made a dirty book of queens; discarded 4C.",
        "You drew 2 cards.",
    ]
