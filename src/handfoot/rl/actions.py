"""The action space: the engine's stable atomic move ids, plus one action that cancels a staged opening.

Actions ``0 .. NUM_MOVE_IDS - 1`` are the engine's move ids (``handfoot.engine.moves``; numbers that are
no move id are never legal). ``CANCEL = NUM_MOVE_IDS`` takes back a staged opening.

Openings of several melds at once. The engine lays a side's first melds as one compound move (their
points together must reach the opening minimum), which has no id. Here a player whose side (or who,
where melds belong to players) has not opened *stages* the groups one atomic id at a time:

* In the play phase a meld-group id whose group would not open alone is set aside (``Opening``) instead of
  played. After each staged group the env asks the engine whether the staged groups together are a legal
  meld; the moment they are, it plays them as one compound move and the side is down.
* In the draw phase (rules that let a player take the pile before opening) meld-group ids stage groups from
  the hand, and a pickup id then takes the pile with the top-card group *and* every staged group, one
  compound pickup, legal only when the engine accepts it whole.
* While groups are staged only more staging, the committing pickups and ``CANCEL`` are legal; ``CANCEL``
  returns the staged cards to the hand (nothing was played). A group of four or more cards is staged as a
  three-card group and then one-card groups on it (naturals first), which the engine judges the same way.

Staging offers the groups the player's remaining cards can make (three-card groups of a rank not staged
yet, one-card groups on a staged rank, or in the draw phase on the pile's top rank); whether the
opening is legal is always the engine's judgement, at the moment of committing. Staged groups are cards
in the player's own hand, so they appear in that seat's observation only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from handfoot import cards as C
from handfoot.engine import Action, Group, Move, Phase
from handfoot.engine.moves import DECODED, NUM_MOVE_IDS
from handfoot.engine.views import SeatInfo
from handfoot.rules.options import PickupBeforeDown

CANCEL = NUM_MOVE_IDS
NUM_ACTIONS = NUM_MOVE_IDS + 1
KIND_OF = C.KIND_OF
NATURAL_RANKS = frozenset(C.NATURAL_KINDS)

# (id, rank, naturals, jokers, deuces) of every meld-group id: three-card groups, then one-card groups.
_TRIPLES: tuple[tuple[int, int, int, int, int], ...] = tuple(
    (mid, d.kind, d.naturals, d.jokers, d.deuces)
    for mid, d in enumerate(DECODED)
    if d is not None and d.action is Action.MELD and d.naturals + d.jokers + d.deuces == 3
)
_SINGLES: tuple[tuple[int, int, int, int, int], ...] = tuple(
    (mid, d.kind, d.naturals, d.jokers, d.deuces)
    for mid, d in enumerate(DECODED)
    if d is not None and d.action is Action.MELD and d.naturals + d.jokers + d.deuces == 1
)


_PICKUPS = tuple(mid for mid, d in enumerate(DECODED) if d is not None and d.action is Action.PICKUP)


def is_pickup(action: int) -> bool:
    """True for the ids of a pickup."""
    decoded = DECODED[action] if 0 <= action < NUM_MOVE_IDS else None
    return decoded is not None and decoded.action is Action.PICKUP


def action_text(action: int) -> str:
    """A short name for an action: the move it stands for by kinds (``meld K K JK``), or ``cancel``."""
    if action == CANCEL:
        return "cancel"
    decoded = DECODED[action] if 0 <= action < NUM_MOVE_IDS else None
    if decoded is None:
        return f"<no action {action}>"
    name = decoded.action.name.lower()
    if decoded.action is Action.DISCARD:
        return f"discard {C.KIND_NAMES[decoded.kind]}"
    if decoded.action is Action.PICKUP:
        return f"pickup with {decoded.naturals}"
    if decoded.action is Action.MELD:
        parts = [C.KIND_NAMES[decoded.kind]] * decoded.naturals + ["JK"] * decoded.jokers
        parts += ["2"] * decoded.deuces
        target = "W" if decoded.kind == C.WILD_RANK else C.KIND_NAMES[decoded.kind]
        return f"{name} {target}: {' '.join(parts)}"
    return name


class Opening:
    """Groups a seat has staged this turn for an opening, and the cards it has left to stage from."""

    __slots__ = ("groups", "pool", "seat")

    def __init__(self) -> None:
        self.seat = -1
        self.groups: list[Group] = []
        self.pool: list[int] = []  # counts by card id: the seat's hand minus the staged cards

    def clear(self) -> None:
        """Nothing staged."""
        self.seat = -1
        self.groups = []
        self.pool = []

    def start(self, seat: int, held: Sequence[int]) -> None:
        """Begin staging for ``seat`` holding ``held`` (counts by card id)."""
        self.seat = seat
        self.groups = []
        self.pool = list(held)

    def take(self, kind: int, count: int) -> list[int]:
        """Remove ``count`` cards of ``kind`` from the pool (lowest suit first) and return them."""
        out: list[int] = []
        pool = self.pool
        for card in C.IDS_OF_KIND[kind]:
            while pool[card] and len(out) < count:
                pool[card] -= 1
                out.append(card)
        if len(out) < count:
            raise ValueError(f"not {count} {C.KIND_PLURALS[kind]} left to stage")
        return out

    def pool_kinds(self) -> list[int]:
        """Cards per kind left to stage from."""
        kinds = [0] * C.NUM_KINDS
        for card, count in enumerate(self.pool):
            if count:
                kinds[KIND_OF[card]] += count
        return kinds

    def stage(self, action: int) -> Group:
        """Set aside the group meld-group id ``action`` stands for (cards from the pool); returns it."""
        decoded = DECODED[action]
        if decoded is None or decoded.action is not Action.MELD:
            raise ValueError(f"action {action} is not a meld group")
        cards = self.take(decoded.kind, decoded.naturals) if decoded.kind != C.WILD_RANK else []
        cards += self.take(C.JOKER, decoded.jokers)
        cards += self.take(C.DEUCE, decoded.deuces)
        group = Group(decoded.kind, tuple(cards))
        self.groups.append(group)
        return group

    def meld(self) -> Move:
        """The staged groups as one compound meld."""
        return Move(Action.MELD, tuple(self.groups))

    def pickup(self, top: int, action: int) -> Move | None:
        """The compound pickup pickup id ``action`` stands for with the staged groups (None: too few
        naturals of the top card's kind left), naming cards without taking them from the pool."""
        decoded = DECODED[action]
        if decoded is None or decoded.action is not Action.PICKUP:
            raise ValueError(f"action {action} is not a pickup")
        kind = KIND_OF[top]
        cards: list[int] = []
        wanted = ((kind, decoded.naturals), (C.JOKER, decoded.jokers), (C.DEUCE, decoded.deuces))
        for of_kind, count in wanted:
            held = [card for card in C.IDS_OF_KIND[of_kind] for _ in range(self.pool[card])]
            if len(held) < count:
                return None
            cards += held[:count]
        return Move(Action.PICKUP, (Group(kind, tuple(cards)), *self.groups))


def may_stage_before_pickup(info: SeatInfo) -> bool:
    """True when a seat that has not opened could take the pile with an opening (draw phase): the rules
    allow it and the top card is a natural rank the seat holds enough of."""
    rules = info.rules
    if not rules.pickup_allowed or rules.pickup_before_down is PickupBeforeDown.NEVER or info.pile_top < 0:
        return False
    top = KIND_OF[info.pile_top]
    return top in NATURAL_RANKS and info.kinds[top] >= rules.pickup_naturals


def stage_ids(
    opening: Opening, phase: Phase, pile_top: int, wild_melds: bool, black_threes: bool
) -> list[int]:
    """Meld-group ids the seat could stage next from its remaining cards (see the module docstring)."""
    kinds = opening.pool_kinds()
    jokers, deuces = kinds[C.JOKER], kinds[C.DEUCE]
    staged = {group.rank for group in opening.groups}
    if phase is Phase.DRAW and pile_top >= 0:
        staged.add(KIND_OF[pile_top])
    out: list[int] = []
    for mid, rank, naturals, j, d in _TRIPLES:
        if rank in staged or j > jokers or d > deuces:
            continue
        if rank == C.WILD_RANK:
            if not wild_melds:
                continue
        elif naturals > kinds[rank] or (rank == C.BLACK_THREE and not black_threes):
            continue
        out.append(mid)
    for mid, rank, naturals, j, d in _SINGLES:
        if rank in staged and j <= jokers and d <= deuces and naturals <= kinds[rank]:
            out.append(mid)
    return out


def pickup_ids(opening: Opening, pile_top: int, is_legal: Callable[[Move], bool]) -> list[int]:
    """Pickup ids that take the pile with the staged groups as one compound pickup ``is_legal`` accepts."""
    out: list[int] = []
    if pile_top < 0:
        return out
    for action in _PICKUPS:
        move = opening.pickup(pile_top, action)
        if move is not None and is_legal(move):
            out.append(action)
    return out
