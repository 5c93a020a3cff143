"""The one declaration of ``HandState``'s fields: each field's name, type, starting value, and how it is
copied, compared, written to JSON and read back, and whether ``sample_world`` takes it from the view.

Nothing imports this module at run time. ``tools/state_fields.py`` writes the code that handles the fields
from it, straight-line (no loop over the fields, so copying costs what hand-written code costs, pure or
compiled): ``HandState.__slots__``, the starting values in ``__init__``, ``copy`` and ``__eq__``
(``engine/state.py``), ``state_to_json`` and ``state_from_json`` (``engine/serialize.py``) and the public
fields of ``sample_world`` (``engine/views.py``), each between ``# <generated ...>`` markers. ``make
test`` runs ``tools/state_fields.py --check``, which fails when a generated block differs from what this
declaration gives. To add a field: add it here, run ``python tools/state_fields.py``, and write what the
generator cannot know (how a view shows it, how ``sample_world`` deals hidden cards).
"""

from __future__ import annotations

from dataclasses import dataclass

# How ``copy`` copies a field's value ``x``.
COPY_KINDS: dict[str, str] = {
    "same": "{x}",  # immutable (int, bool, an enum, the rules) or shared (the seating)
    "list": "list({x})",  # a list of immutable values
    "lists": "[list(row) for row in {x}]",  # a list of lists of immutable values
    "melds": "[m.copy() for m in {x}]",  # a list of Meld
    "dict": "dict({x})",  # a dict of immutable keys and values
}

# How ``state_to_json`` writes a field's value ``x`` ("": not written) and ``state_from_json`` reads the
# JSON value ``j`` back ("": the constructor sets it); ``{t}`` is the field's type (for enums). Cards are
# written as card codes.
JSON_KINDS: dict[str, tuple[str, str]] = {
    "rules": ("rules_to_mapping({x})", ""),
    "int": ("{x}", "int({j})"),
    "bool": ("{x}", "bool({j})"),
    "ints": ("list({x})", "[int(n) for n in {j}]"),
    "bools": ("list({x})", "[bool(b) for b in {j}]"),
    "int_lists": ("[list(row) for row in {x}]", "[[int(n) for n in row] for row in {j}]"),
    "int_tuples": ("[list(row) for row in {x}]", "[tuple([int(n) for n in row]) for row in {j}]"),
    "cards": ("C.codes({x})", "C.parse_cards({j})"),
    "card_lists": ("[C.codes(row) for row in {x}]", "[C.parse_cards(row) for row in {j}]"),
    "card_tuples": ("[C.codes(row) for row in {x}]", "[tuple(C.parse_cards(row)) for row in {j}]"),
    "card_counts": ("[_cards_out(row) for row in {x}]", "[_card_counts(row) for row in {j}]"),
    "kinds_of_hand_cards": ("", "[_kind_counts(row) for row in s.hand_cards]"),
    "sizes_of_hands": ("", "[sum(row) for row in s.hands]"),
    "enum": ("{x}.name.lower()", "{t}[str({j}).upper()]"),
    "melds": (
        '[{{"owner": m.owner, "rank": m.rank, "cards": C.codes(m.cards), "wilds": m.wilds}} for m in {x}]',
        '[Meld(int(m["owner"]), int(m["rank"]), C.parse_cards(m["cards"]), int(m["wilds"])) for m in {j}]',
    ),
    "groups": (
        '[{{"rank": g.rank, "cards": C.codes(g.cards)}} for g in {x}]',
        '[Group(int(g["rank"]), tuple(C.parse_cards(g["cards"]))) for g in {j}]',
    ),
    "int_map": (
        "[[key, value] for key, value in sorted({x}.items())]",
        "{{int(key): int(value) for key, value in {j}}}",
    ),
}


@dataclass(frozen=True)
class Field:
    """One field of ``HandState``.

    ``init``: its starting value in ``__init__`` (an expression over the constructor's arguments and the
    fields before it); with ``param`` it is set before a blank construction returns, so ``copy`` gets it
    through the constructor. ``copy``: a key of ``COPY_KINDS``. ``json``: a key of ``JSON_KINDS``, or
    ``""`` for a field the JSON does not hold (derived); ``json_key``: its key in the JSON when not its
    name; ``json_default``:
    the value read when a snapshot written before the field existed lacks it. ``compared``: part of
    ``__eq__``. ``public``: ``sample_world`` copies it from the ``View`` field of the same name. ``note``:
    the comment above its starting value."""

    name: str
    type: str
    init: str
    copy: str
    json: str
    json_key: str = ""
    param: bool = False
    json_default: str = ""
    compared: bool = True
    public: bool = False
    note: str = ""


FIELDS: tuple[Field, ...] = (
    Field("rules", "RuleSet", "rules", "same", "rules", param=True),
    Field("players", "int", "players", "same", "int", param=True),
    Field(
        "seating",
        "Seating",
        "seating_for(rules, players) if seating is None else seating",
        "same",
        "",
        param=True,
        compared=False,
        note="derived from the rules and the player count: may be shared",
    ),
    Field("hand_index", "int", "hand_index", "same", "int", param=True),
    Field("dealer", "int", "dealer", "same", "int", param=True),
    Field("first_player", "int", "(dealer + 1) % players", "same", "", param=True),
    Field("minimums", "list[int]", "list(minimums)", "list", "ints", note="opening minimum per owner"),
    Field(
        "hand_cards",
        "list[list[int]]",
        "[[0] * C.NUM_CARD_IDS for _ in range(players)]",
        "lists",
        "card_counts",
        json_key="hands",
        note="per seat: counts by card id and by kind (what is shown, what the rules count), kept together",
    ),
    Field(
        "hands",
        "list[list[int]]",
        "[[0] * C.NUM_KINDS for _ in range(players)]",
        "lists",
        "kinds_of_hand_cards",
    ),
    Field(
        "hand_sizes",
        "list[int]",
        "[0] * players",
        "list",
        "sizes_of_hands",
        note="per seat: the cards in its hand, the sum of its ``hands`` row, kept with it (read far more "
        "often than the hand changes)",
    ),
    Field(
        "feet", "list[list[int]]", "[[] for _ in range(players)]", "lists", "card_lists", note="unplayed Feet"
    ),
    Field("in_foot", "list[bool]", "[False] * players", "list", "bools"),
    Field(
        "known",
        "list[tuple[int, ...]]",
        "[(0,) * C.NUM_KINDS] * players",
        "list",
        "int_tuples",
        note="cards each seat is publicly known to hold (seen taken from a visible pile), by kind (a "
        "seat's tuple is replaced when it changes: views share it)",
    ),
    Field("stock", "list[int]", "[]", "list", "cards", note="top is the end"),
    Field("pile", "list[int]", "[]", "list", "cards", note="top is the end"),
    Field("melds", "list[Meld]", "[]", "melds", "melds"),
    Field(
        "meld_of",
        "list[list[int]]",
        "[[-1] * C.NUM_KINDS for _ in range(self.seating.num_owners)]",
        "lists",
        "int_lists",
        note="per owner and rank: the index of the owner's latest meld of that rank, or -1",
    ),
    Field(
        "books",
        "list[tuple[int, ...]]",
        "[(0, 0, 0)] * self.seating.num_owners",
        "list",
        "int_tuples",
        public=True,
        note="per owner: clean, dirty, wild (an owner's tuple is replaced when it changes: views share it)",
    ),
    Field("down", "list[bool]", "[False] * self.seating.num_owners", "list", "bools", public=True),
    Field(
        "red_threes",
        "list[tuple[int, ...]]",
        "[() for _ in range(self.seating.num_sides)]",
        "list",
        "card_tuples",
        public=True,
        note="laid down, per side (a side's tuple is replaced when one more is laid: views share it)",
    ),
    Field("turn_seat", "int", "self.first_player", "same", "int", public=True, note="whose turn it is"),
    Field(
        "to_move",
        "int",
        "self.first_player",
        "same",
        "int",
        public=True,
        note="who must act (the partner while answering)",
    ),
    Field("phase", "Phase", "Phase.DRAW", "same", "enum", public=True),
    Field(
        "permission",
        "int",
        "0",
        "same",
        "int",
        public=True,
        note="this turn: 0 not asked, 1 granted, -1 refused",
    ),
    Field(
        "last_round_left",
        "int",
        "-1",
        "same",
        "int",
        public=True,
        note="turns left once someone went out with a last round to play",
    ),
    Field("out_seat", "int", "-1", "same", "int", public=True),
    Field("end_reason", "EndReason", "EndReason.NONE", "same", "enum", public=True),
    Field("move_count", "int", "0", "same", "int", public=True),
    Field(
        "reshuffle_seed",
        "int",
        "0",
        "same",
        "int",
        json_default="0",
        note='empty_stock = "reshuffle_pile": the hand\'s own seed for reshuffling the pile (secret, never '
        "in a view), and how many times it was reshuffled",
    ),
    Field("reshuffles", "int", "0", "same", "int", json_default="0"),
    Field(
        "turn_wilds",
        "dict[int, int]",
        "{}",
        "dict",
        "int_map",
        json_default="[]",
        public=True,
        note="wilds added this turn to melds already on the table, by meld index (max_wilds_added_per_turn)",
    ),
    Field(
        "staged",
        "list[Group]",
        "[]",
        "list",
        "groups",
        json_default="[]",
        public=True,
        note="groups the player to move has set aside this turn (``stage``), still in their hand, in the "
        "order staged",
    ),
    Field(
        "cancelled",
        "bool",
        "False",
        "same",
        "bool",
        json_default="False",
        public=True,
        note="whether a staging was taken back (``cancel``) in this phase: staging stays open, but the next "
        "staging cannot be cancelled (every step it offers leads on to a lay-down)",
    ),
)
