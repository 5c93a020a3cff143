"""A rule set in plain words: first the newcomer's card (``rules.card``: how a turn goes, the Hand and
the Foot, how to begin, books, going out, scoring and the game's end, only the rules that apply, with
this rule set's numbers), then as an appendix every option grouped as the lobby groups them, each option
that differs from the preset it extends marked, with the scoring table and the opening minimums.
``rule_sheet`` builds it; ``sheet_markdown`` and ``sheet_html`` write it (``handfoot rules show
--format``, the server's print pages). Printed, the HTML's card fills the first sheet of A4 or Letter
and the appendix starts on the next.

Standard library only: the rules ring, below the engine.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from handfoot import cards as C
from handfoot.rules.card import CardSection, rules_card
from handfoot.rules.load import rules_to_mapping
from handfoot.rules.options import (
    OPTION_CHOICES,
    OPTION_HELP,
    OPTION_NAMES,
    OPTION_SECTION,
    GameEnd,
    OpeningBy,
    RuleSet,
)

# The lobby shows the options in groups named in plain words, in this order. An option goes to its
# section's group, unless it is named here (the sheets' "game" section holds both how long a game lasts
# and the opening minimum, which belongs with melding).
PLAIN_GROUPS = {
    "dealing": "Dealing",
    "game": "How long a game lasts",
    "melding": "Melding",
    "pile": "Drawing and taking the pile",
    "going_out": "Going out",
    "scoring": "Scoring",
}
_GROUP_OF_SECTION = {
    "table": "dealing",
    "game": "game",
    "melds": "melding",
    "turn": "pile",
    "out": "going_out",
    "scoring": "scoring",
}
_GROUP_OF_OPTION = {
    "opening_by": "melding",
    "opening_minimums": "melding",
    "opening_thresholds": "melding",
    "opening_increment": "melding",
    "short_opening_penalty": "melding",
    "opening_counts_books": "melding",
    "opening_waived_if_emptied": "melding",
    "opening_scope": "melding",
}
# A preset's name, title and summary describe it; they are not rules a table changes.
IDENTITY_SECTION = "identity"
RULE_OPTIONS = tuple(name for name in OPTION_NAMES if OPTION_SECTION[name] != IDENTITY_SECTION)
# Scored separately, in the scoring table.
_IN_SCORING_TABLE = ("card_values",)
_KIND_LABELS = ("Joker", "2", "Ace", "King", "Queen", "Jack", "Ten", "9", "8", "7", "6", "5", "4", "Black 3")


def option_group(name: str) -> str:
    """The plain-words group (a key of ``PLAIN_GROUPS``) the lobby shows rule option ``name`` in."""
    return _GROUP_OF_OPTION.get(name) or _GROUP_OF_SECTION[OPTION_SECTION[name]]


def value_words(value: Any) -> str:
    """An option's value in words: ``yes``/``no``, numbers, words with spaces, lists joined by commas,
    tables as ``key: value`` pairs, ``none`` for an empty table."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, list):
        return ", ".join(value_words(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {value_words(v)}" for k, v in value.items()) if value else "none"
    return str(value)


@dataclass(frozen=True)
class RuleLine:
    """One option in plain words: its help sentence, its value in words, and (when it differs from the
    preset extended) that preset's value."""

    name: str
    help: str
    value: str
    base_value: str | None

    @property
    def differs(self) -> bool:
        """True when the option differs from the preset extended."""
        return self.base_value is not None


@dataclass(frozen=True)
class RuleGroup:
    """The options of one lobby group."""

    key: str
    title: str
    lines: tuple[RuleLine, ...]


@dataclass(frozen=True)
class RuleSheet:
    """A rule set in plain words (see the module docstring)."""

    name: str
    title: str
    summary: str
    base: str | None  # the preset it extends, None for a preset itself
    players: str
    groups: tuple[RuleGroup, ...]
    scoring: tuple[tuple[str, str], ...]
    openings: tuple[tuple[str, str], ...]
    opening_note: str
    card: tuple[CardSection, ...] = ()  # the newcomer's card (``rules.card.rules_card``)

    @property
    def differing(self) -> tuple[RuleLine, ...]:
        """Every option that differs from the preset extended."""
        return tuple(line for group in self.groups for line in group.lines if line.differs)


def scoring_rows(rules: RuleSet) -> list[tuple[str, str]]:
    """The scoring table: card values (kinds of equal value together), red 3s, books, going out."""
    rows: list[tuple[str, str]] = []
    values = rules.card_values
    kinds = list(range(C.BLACK_THREE + 1))
    used: set[int] = set()
    for kind in kinds:
        if kind in used:
            continue
        same = [k for k in kinds if values[k] == values[kind] and k not in used]
        used.update(same)
        rows.append((" or ".join(_KIND_LABELS[k] for k in same), str(values[kind])))
    red_when = (
        "if your side melded" if rules.red_three_bonus_if.value == "melded" else "if your side went out"
    )
    rows.append((f"Red 3 laid down ({red_when})", f"{rules.red_three_bonus} each"))
    rows.append(("Red 3 laid down, otherwise", f"{rules.red_three_unmelded} each"))
    if rules.red_three_held:
        rows.append(("Red 3 still held at the end", f"{rules.red_three_held} each"))
    rows.append((f"Clean book ({rules.book_size}, no wilds)", str(rules.clean_book_bonus)))
    rows.append((f"Dirty book ({rules.book_size}, with wilds)", str(rules.dirty_book_bonus)))
    if rules.wild_melds:
        rows.append(("Wild book", str(rules.wild_book_bonus)))
    for rank, status, points in rules.book_bonuses:
        status_word = ("clean", "dirty", "wild", "any")[status] if 0 <= status <= 3 else "any"
        what = "wilds" if rank == C.WILD_RANK else C.KIND_PLURALS[rank]
        rows.append((f"Book of {what} ({status_word})", str(points)))
    bonus = rules_to_mapping(rules)["going_out_bonus"]
    rows.append(("Going out", value_words(bonus) + (" (by hand)" if isinstance(bonus, list) else "")))
    left = "Cards left in Hand or Foot" if rules.unplayed_foot_counts else "Cards left in Hand"
    rows.append((left, "minus their values"))
    if rules.game_end is GameEnd.TARGET:
        rows.append((f"A side reaches {rules.target_score}", "that side wins"))
    else:
        rows.append((f"After {rules.hands_per_game} hands", "the higher total wins"))
    return rows


def opening_rows(rules: RuleSet) -> tuple[list[tuple[str, str]], str]:
    """The opening minimums as rows (score band or hand, minimum) and a note on what counts."""
    mins = rules.opening_minimums
    rows: list[tuple[str, str]] = []
    if rules.opening_by is OpeningBy.SCORE:
        bounds = [0, *rules.opening_thresholds]
        for i, low in enumerate(bounds[: len(mins)]):
            minimum = mins[min(i, len(mins) - 1)]
            if i + 1 < len(bounds) and i + 1 < len(mins):
                rows.append((f"{low} to {bounds[i + 1] - 1}", str(minimum)))
            else:
                rows.append((f"{low} and more", str(minimum)))
        head = "Your side's score going into the hand"
    else:
        for i, minimum in enumerate(mins):
            rows.append((f"Hand {i + 1}", str(minimum)))
        if rules.opening_increment:
            rows.append(("Each hand after", f"+{rules.opening_increment}"))
        head = "The hand"
    books = "book bonuses count" if rules.opening_counts_books else "card values only, not book bonuses"
    return rows, f"{head}: the first meld must be at least this many points ({books})."


def rule_sheet(rules: RuleSet, base: RuleSet | None = None, base_name: str | None = None) -> RuleSheet:
    """``rules`` in plain words; options that differ from ``base`` (the preset it extends, named
    ``base_name``) carry that preset's value. ``base`` None: nothing is marked (a preset itself)."""
    mine = rules_to_mapping(rules)
    theirs = rules_to_mapping(base) if base is not None else None
    groups = []
    for key, title in PLAIN_GROUPS.items():
        lines = []
        for name in RULE_OPTIONS:
            if option_group(name) != key:
                continue
            differs = theirs is not None and theirs[name] != mine[name]
            if name in _IN_SCORING_TABLE and not differs:
                continue
            words = OPTION_CHOICES.get(name)
            help_text = OPTION_HELP[name]
            if words and len(words) > 2:
                help_text += f" ({', '.join(w.replace('_', ' ') for w in words)})"
            lines.append(
                RuleLine(
                    name,
                    help_text,
                    value_words(mine[name]),
                    value_words(theirs[name]) if differs and theirs is not None else None,
                )
            )
        groups.append(RuleGroup(key, title, tuple(lines)))
    openings, note = opening_rows(rules)
    title, summary = rules.title, rules.summary
    if base is not None and title == base.title:  # a house built on the preset, not named by itself
        changed = sum(1 for group in groups for line in group.lines if line.differs)
        title = f"{base.title}: house rules"
        summary = f"{base_name} with {changed} option{'s' if changed != 1 else ''} changed."
    players = ", ".join(map(str, rules.players_allowed))
    partners = ", ".join(map(str, rules.partners_at)) or "never"
    return RuleSheet(
        name=rules.name,
        title=title,
        summary=summary,
        base=base_name if base is not None else None,
        players=f"{players} players (default {rules.default_players}); partnerships at {partners}",
        groups=tuple(groups),
        scoring=tuple(scoring_rows(rules)),
        openings=tuple(openings),
        opening_note=note,
        card=rules_card(rules),
    )


def sheet_json(sheet: RuleSheet) -> dict[str, Any]:
    """The sheet as JSON, for a page that lays it out itself (the table's "These rules" panel):
    ``groups`` of ``lines`` (``name``, ``help``, ``value``, ``differs``, ``base_value``), ``scoring``
    and ``openings`` as [label, points] rows, and the rest of the sheet's fields."""
    return {
        "name": sheet.name,
        "title": sheet.title,
        "summary": sheet.summary,
        "base": sheet.base,
        "players": sheet.players,
        "groups": [
            {
                "key": group.key,
                "title": group.title,
                "lines": [
                    {
                        "name": line.name,
                        "help": line.help,
                        "value": line.value,
                        "differs": line.differs,
                        "base_value": line.base_value,
                    }
                    for line in group.lines
                ],
            }
            for group in sheet.groups
        ],
        "scoring": [list(row) for row in sheet.scoring],
        "openings": [list(row) for row in sheet.openings],
        "opening_note": sheet.opening_note,
    }


CHANGED = "changed"


APPENDIX = "Appendix: every option"


def card_markdown(sheet: RuleSheet) -> list[str]:
    """The newcomer's card as Markdown lines: each section a heading and its sentences as a list."""
    out = ["## The rules on one page", ""]
    for section in sheet.card:
        out += [f"### {section.title}", ""]
        out += [f"- {line}" if not line[:2].rstrip(".").isdigit() else line for line in section.lines]
        out.append("")
    return out


def sheet_markdown(sheet: RuleSheet) -> str:
    """The sheet as Markdown: title and summary, the newcomer's card, then the appendix: each group's
    options (a differing option in bold, marked *changed* with the preset's value), the scoring table
    and the opening minimums."""
    out = [
        f"# {sheet.title}",
        "",
        sheet.summary,
        "",
        f"Rule set `{sheet.name}`"
        + (
            f", extending `{sheet.base}`: options marked **{CHANGED}** differ from it." if sheet.base else "."
        ),
        "",
    ]
    out += card_markdown(sheet)
    out += [f"# {APPENDIX}", "", f"Players: {sheet.players}.", ""]
    for group in sheet.groups:
        out += [f"## {group.title}", ""]
        for line in group.lines:
            if line.differs:
                out.append(
                    f"- **{CHANGED}:** {line.help} **{line.value}** ({sheet.base}: {line.base_value})"
                    f" `{line.name}`"
                )
            else:
                out.append(f"- {line.help} **{line.value}** `{line.name}`")
        out.append("")
    out += ["## Scoring table", "", "| What | Points |", "|---|---|"]
    out += [f"| {what} | {points} |" for what, points in sheet.scoring]
    out += [
        "",
        "## Opening minimums",
        "",
        sheet.opening_note,
        "",
        "| When | First meld at least |",
        "|---|---|",
    ]
    out += [f"| {when} | {points} |" for when, points in sheet.openings]
    return "\n".join(out) + "\n"


PRINT_CSS = """
@page { size: auto; margin: 9mm; }
.card { break-after: page; font-size: 9.6pt; line-height: 1.3; }
.card h1 { font-size: 15pt; margin: 0 0 1mm; }
.card h2 { font-size: 10.5pt; margin: 2.2mm 0 0.6mm; border-bottom: 0.5pt solid #000; }
.card p { margin: 0 0 0.9mm; }
.card .cols { column-count: 2; column-gap: 6mm; }
.card .cols section { break-inside: avoid-column; }
.card .lead { font-style: italic; }
.appendix h1 { font-size: 11pt; }
* { box-sizing: border-box; }
body { font: 6.4pt/1.22 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
h1 { font-size: 11pt; margin: 0 0 1mm; }
h2 { font-size: 7.4pt; margin: 1.4mm 0 0.4mm; break-after: avoid; border-bottom: 0.3pt solid #000; }
p { margin: 0 0 0.8mm; }
.cols { column-count: 3; column-gap: 4mm; }
ul { list-style: none; margin: 0; padding: 0; }
li { margin: 0 0 0.35mm; break-inside: avoid; }
li .v { font-weight: bold; }
li .n { color: #555; font-size: 5.4pt; }
li.changed { background: #eee; outline: 0.4pt solid #000; }
li.changed::before { content: "CHANGED "; font-weight: bold; }
table { border-collapse: collapse; width: 100%; margin: 0.5mm 0; break-inside: avoid; }
td, th { border: 0.3pt solid #777; padding: 0.2mm 0.8mm; text-align: left; }
@media screen { body { max-width: 60em; margin: 1em auto; font-size: 10pt; } .cols { column-count: 2; }
  .card { border-bottom: 1pt solid #000; padding-bottom: 1em; margin-bottom: 1em; } }
@media screen and (max-width: 40em) { body { margin: 0.5em; } .cols, .card .cols { column-count: 1; } }
"""


def card_html(sheet: RuleSheet) -> list[str]:
    """The newcomer's card as HTML lines: a ``<div class="card">`` that prints as the first page."""
    e = html.escape
    parts = [
        '<div class="card">',
        f"<h1>{e(sheet.title)}</h1>",
        f'<p class="lead">{e(sheet.summary)} The rules on one page; every option follows in the '
        "appendix.</p>",
        '<div class="cols">',
    ]
    for section in sheet.card:
        parts.append(f'<section><h2 class="card-part">{e(section.title)}</h2>')
        parts += [f"<p>{e(line)}</p>" for line in section.lines]
        parts.append("</section>")
    parts.append("</div></div>")
    return parts


def sheet_html(sheet: RuleSheet) -> str:
    """The sheet as one HTML page for printing: the newcomer's card (``card_html``, the first sheet),
    then the appendix (``PRINT_CSS``: three columns, small type, every option on one sheet of A4 or
    Letter); a differing option is marked CHANGED with the preset's value."""
    e = html.escape
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(sheet.title)}: house rules</title>",
        f"<style>{PRINT_CSS}</style></head><body>",
        *card_html(sheet),
        '<div class="appendix">',
        f"<h1>{e(APPENDIX)}: {e(sheet.title)}</h1>",
        f"<p>{e(sheet.summary)} Players: {e(sheet.players)}. Rule set <b>{e(sheet.name)}</b>"
        + (f", extending <b>{e(sheet.base)}</b>: options marked CHANGED differ from it" if sheet.base else "")
        + ".</p>",
        '<div class="cols">',
    ]
    for group in sheet.groups:
        parts.append(f"<h2>{e(group.title)}</h2><ul>")
        for line in group.lines:
            cls = ' class="changed"' if line.differs else ""
            was = f" (was {e(line.base_value or '')})" if line.differs else ""
            parts.append(
                f'<li{cls} data-option="{e(line.name)}">{e(line.help)} <span class="v">{e(line.value)}</span>'
                f'{was} <span class="n">{e(line.name)}</span></li>'
            )
        parts.append("</ul>")
    parts.append("<h2>Scoring table</h2><table><tr><th>What</th><th>Points</th></tr>")
    parts += [f"<tr><td>{e(w)}</td><td>{e(p)}</td></tr>" for w, p in sheet.scoring]
    parts.append("</table><h2>Opening minimums</h2>")
    parts.append(f"<p>{e(sheet.opening_note)}</p><table><tr><th>When</th><th>First meld at least</th></tr>")
    parts += [f"<tr><td>{e(w)}</td><td>{e(p)}</td></tr>" for w, p in sheet.openings]
    parts.append("</table></div></div></body></html>")
    return "\n".join(parts) + "\n"


__all__ = [
    "APPENDIX",
    "PLAIN_GROUPS",
    "RULE_OPTIONS",
    "RuleGroup",
    "RuleLine",
    "RuleSheet",
    "card_html",
    "card_markdown",
    "option_group",
    "rule_sheet",
    "sheet_html",
    "sheet_json",
    "sheet_markdown",
    "value_words",
]
