"""The observation vector's layout: named fields at fixed offsets, the same for every rule set and table.

Seats, sides and meld owners are numbered *relative to the observer*: slot 0 is the observer (or its side,
or the owner of the melds it plays on), slot 1 the next one met going around the table to the left, and so
on. Slots past the table's size stay zero (their ``*_present`` flag is 0). Card kinds use the engine's kind
order (``handfoot.cards``): JK 2 A K Q J T 9 8 7 6 5 4 3B 3R; a meld "rank" slot uses the same index (wild
melds under the joker's index 0). Points (totals, minimums, staged points) are divided by 100.

``FIELDS`` lists every field with its size and meaning; ``OFFSETS[name]`` is its slice in the vector and
``SIZE`` the vector's length. ``docs/rl.md`` prints this table.
"""

from __future__ import annotations

from typing import NamedTuple

from handfoot import cards as C
from handfoot.engine import Phase

MAX_SEATS = 6  # the most players an environment seats (a rule set up to 10); also the most sides, owners
KINDS = C.NUM_KINDS
POINTS_SCALE = 100.0
# Every entry lies within these bounds (card counts are at most a few hundred; points are divided by 100).
LOW, HIGH = -10_000.0, 10_000.0


class Field(NamedTuple):
    """One named part of the observation vector."""

    name: str
    size: int
    doc: str


FIELDS: tuple[Field, ...] = (
    Field("hand", KINDS, "own Hand (the Foot once picked up): cards per kind"),
    Field("staged", KINDS, "own cards set aside this turn for an opening not yet laid (also in `hand`)"),
    Field("staged_melds", KINDS * 3, "staged opening per meld rank: naturals, jokers, deuces"),
    Field("staged_points", 1, "points of the staged cards / 100"),
    Field("foot", KINDS, "own unplayed Foot per kind, only where the rules show it (`pick_foot_seen`)"),
    Field("seat_present", MAX_SEATS, "per seat slot: 1 if that seat exists"),
    Field("seat_hand_count", MAX_SEATS, "per seat slot: cards in its Hand"),
    Field("seat_in_foot", MAX_SEATS, "per seat slot: 1 once it has picked up its Foot"),
    Field("seat_foot_count", MAX_SEATS, "per seat slot: cards in its unplayed Foot"),
    Field("seat_partner", MAX_SEATS, "per seat slot: 1 for the observer's partners"),
    Field("seat_to_move", MAX_SEATS, "one-hot: the seat that must act now (the partner while answering)"),
    Field("seat_turn", MAX_SEATS, "one-hot: the seat whose turn it is"),
    Field("seat_dealer", MAX_SEATS, "one-hot: this hand's dealer"),
    Field("seat_known", MAX_SEATS * KINDS, "per seat slot, per kind: cards it was publicly seen to take"),
    Field("owner_present", MAX_SEATS, "per meld-owner slot: 1 if that owner exists"),
    Field("owner_down", MAX_SEATS, "per owner slot: 1 once it has opened this hand"),
    Field("owner_minimum", MAX_SEATS, "per owner slot: its opening minimum this hand / 100"),
    Field("owner_books", MAX_SEATS * 3, "per owner slot: clean, dirty and wild books"),
    Field(
        "meld_open",
        MAX_SEATS * KINDS * 3,
        "per owner slot, per rank: naturals, jokers, deuces of its latest meld of that rank",
    ),
    Field(
        "meld_earlier",
        MAX_SEATS * KINDS * 2,
        "per owner slot, per rank: melds of that rank before the latest (closed books), and their cards",
    ),
    Field("side_present", MAX_SEATS, "per side slot: 1 if that side exists"),
    Field("side_red_threes", MAX_SEATS, "per side slot: red 3s laid down this hand"),
    Field("side_total", MAX_SEATS, "per side slot: game total before this hand / 100"),
    Field("pile_top", KINDS + 1, "one-hot kind of the discard pile's top card; the last entry: pile empty"),
    Field("pile_size", 1, "cards in the discard pile"),
    Field("pile_seen", KINDS, "the whole pile per kind, only where the rules show it (`pile_visible = all`)"),
    Field("stock_size", 1, "cards in the stock"),
    Field("phase", len(Phase), "one-hot phase: draw, play, answer, over, pick_foot"),
    Field("permission", 1, "this turn's answer to 'May I go out?': 1 yes, -1 no, 0 not asked"),
    Field("last_round_left", 1, "turns left in a last round after someone went out; -1 when none"),
    Field("hand_index", 1, "0-based number of this hand in the game"),
    Field("out_seat", MAX_SEATS + 1, "one-hot seat slot that went out; the last entry: nobody"),
)


def _offsets() -> tuple[dict[str, slice], int]:
    out: dict[str, slice] = {}
    start = 0
    for item in FIELDS:
        out[item.name] = slice(start, start + item.size)
        start += item.size
    return out, start


OFFSETS, SIZE = _offsets()
START: dict[str, int] = {name: part.start for name, part in OFFSETS.items()}


def field_table() -> str:
    """The layout as a Markdown table (offset, size, name, meaning), as printed in ``docs/rl.md``."""
    lines = ["| offset | size | field | meaning |", "|---:|---:|---|---|"]
    for item in FIELDS:
        lines.append(f"| {START[item.name]} | {item.size} | `{item.name}` | {item.doc} |")
    lines.append(f"| | **{SIZE}** | | total |")
    return "\n".join(lines)
