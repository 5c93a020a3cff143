"""The browser's table and the terminal game decide nothing about the rules: they build moves from the
seat's offers (engine/offers.py, sent as ``offers``) and show the engine's sentences. This reads their
source for the ways a rule crept in before: points summed from card values, a minimum compared, the pile
guessed from its size or from a missing refusal, a card matched to a meld by its rank, the legal list
scanned for a kind of move, and the terminal importing the engine's rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web-client" / "src"
# The browser's table page and its modules, in any folder below (not the generated types, not the unit
# tests).
WEB_FILES = sorted(
    [WEB / "table.tsx", *(p for p in (WEB / "table").rglob("*.ts*") if ".test." not in p.name)]
)
# Every module of the terminal game but ``source.py``, which is where it meets the engine (a local table
# plays the engine's game and sends its offers as the server does).
TUI_FILES = sorted(p for p in (ROOT / "src" / "handfoot" / "tui").glob("*.py") if p.name != "source.py")

WEB_RULES = {
    "points summed from the card values": re.compile(r"card_values|pointsOf|\bkindOf\("),
    "a minimum compared or subtracted": re.compile(
        r"minimums\[[^\]]*\][^;\n]*?\s(?:[<>]=?|[-+])\s|\s(?:[<>]=?|[-+])\s[^;\n]*?minimums\["
    ),
    "the pile guessed from its size": re.compile(r"pile_size\s*[<>=!]"),
    "the pile guessed from a missing refusal": re.compile(r"pile_refusal\s*[=!]==?\s*null"),
    "a card matched to a group by its rank": re.compile(r"rankOf\([^)]*\)\s*[=!]=="),
    "the legal list scanned for a kind of move": re.compile(
        r"legal\.(?:includes|some|find|filter)\([^)\n]*(?:meld|pickup|stage|discard)"
    ),
}
TUI_RULES = {
    "the engine's or the rules' modules imported": re.compile(
        r"^\s*(?:from|import)\s+handfoot\.(?:engine|cards|rules|bots)\b", re.M
    ),
    "moves read from their text": re.compile(r"parse_move|\.text\.startswith\("),
    "points summed from the card values": re.compile(r"card_values"),
    "a minimum compared or subtracted": re.compile(r"minimums'\]\[[^\]]*\]\s*(?:[<>]=?|[-+])"),
}


def offences(path: Path, rules: dict[str, re.Pattern[str]]) -> list[str]:
    """Each line of ``path`` that matches one of ``rules``, named by the rule it re-derives."""
    text = path.read_text(encoding="utf-8")
    found = []
    for what, pattern in rules.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {what}: {match.group(0)[:60]!r}")
    return found


@pytest.mark.parametrize("path", WEB_FILES, ids=lambda p: p.name)
def test_the_browser_table_computes_no_rule(path: Path) -> None:
    assert offences(path, WEB_RULES) == []


@pytest.mark.parametrize("path", TUI_FILES, ids=lambda p: p.name)
def test_the_terminal_game_computes_no_rule(path: Path) -> None:
    assert offences(path, TUI_RULES) == []


def test_the_guard_finds_the_rules_the_clients_once_held() -> None:
    """The patterns catch the lines the clients held before they read the offers (so the test can fail)."""
    old_web = [
        "const points = pointsOf([...allStaged, ...withTop], outlook.card_values);",
        'const canPickup = legal.some((m) => m.startsWith("pickup")) || (view.pile_size > 0 && pileOpen);',
        "const pileOpen = outlook.pile_refusal === null;",
        "cards.every((c) => rankOf(c) === rank && legal.includes(`meld ${c}`));",
        '{points >= minimum ? ": enough" : `: ${minimum - points} more`} view.minimums[myOwner] - points',
    ]
    old_tui = [
        'pickups = [offer.text for offer in self.snap.offers if offer.text.startswith("pickup")]',
        "from handfoot.engine.moves import parse_move",
    ]
    web_hits = {what for what, rule in WEB_RULES.items() for line in old_web if rule.search(line)}
    tui_hits = {what for what, rule in TUI_RULES.items() for line in old_tui if rule.search(line)}
    assert web_hits == set(WEB_RULES)
    assert tui_hits == {"moves read from their text", "the engine's or the rules' modules imported"}
