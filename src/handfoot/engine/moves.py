"""Moves: what a player does, their stable integer ids, and the public text notation.

Text forms (the actor is always whoever is to move)::

    draw
    pickup KS KH [| G2 ...]     take the discard pile; the first group goes with the top card
    meld KS KH KD [| 8S 8H 2C]  lay groups; "K: 2C JK" names the target rank of a group of wilds
    discard 5H
    lay 3H                       lay a red 3 down (red_threes = "lay_by_choice")
    ask / yes / no               "May I go out?" and the partner's answer
    keep / swap                  with pick_foot_seen: keep the dealt Hand, or take the other pile as the Hand

Atomic moves have ids (``move_id``): ``draw``, a pickup with 0-3 naturals from the hand (or one natural
and one wild, ``pickup_with_wild``), a discard of
one kind, ask/yes/no, and a single meld group of one card or of three cards. A meld or pickup of several
groups (an opening) is a compound move: it is verified as a unit and has no id (``-1``).
Ids depend only on kinds, never on suits; ``Move`` objects name exact cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

from handfoot import cards as C
from handfoot.wording import show


class Action(IntEnum):
    """The kinds of move."""

    DRAW = 0
    PICKUP = 1
    MELD = 2
    DISCARD = 3
    ASK = 4
    YES = 5
    NO = 6
    KEEP = 7  # keep the dealt Hand as the Hand (pick_foot_seen)
    SWAP = 8  # take the other pile as the Hand, the dealt Hand as the Foot (pick_foot_seen)
    LAY = 9  # lay a red 3 down from the hand (red_threes = "lay_by_choice")


class Group(NamedTuple):
    """Cards laid together on one meld (``rank`` is the meld's rank kind; ``C.WILD_RANK`` for wild melds)."""

    rank: int
    cards: tuple[int, ...]


class Move(NamedTuple):
    """One move. ``groups`` for meld and pickup (pickup: the first group goes with the top card);
    ``card`` for discard (``-1`` otherwise)."""

    action: Action
    groups: tuple[Group, ...] = ()
    card: int = -1

    def __str__(self) -> str:
        return move_text(self)


class MoveSyntaxError(ValueError):
    """A move's text that does not follow the notation."""


# --- stable ids ---------------------------------------------------------------------------------
DRAW_ID = 0
PICKUP_BASE = 1  # + naturals from hand (0..3)
MAX_PICKUP_NATURALS = 3
PICKUP_JOKER_ID = 5  # one natural and a joker (pickup_with_wild)
PICKUP_DEUCE_ID = 6  # one natural and a 2 (pickup_with_wild)
DISCARD_BASE = 8  # + kind
ASK_ID = 23
YES_ID = 24
NO_ID = 25
KEEP_ID = 26
SWAP_ID = 27
NEW_BASE = 32  # + rank * 8 + combo index
ADD_BASE = 160  # + rank * 3 + card type (0 natural, 1 joker, 2 deuce)
LAY_RED_THREE_ID = ADD_BASE + 3 * C.NUM_KINDS  # 205: lay a red 3 down (red_threes = "lay_by_choice")
NUM_MOVE_IDS = LAY_RED_THREE_ID + 1

# Three-card groups: (naturals, jokers, deuces).
TRIPLE_COMBOS: tuple[tuple[int, int, int], ...] = (
    (3, 0, 0),
    (2, 1, 0),
    (2, 0, 1),
    (0, 3, 0),
    (0, 2, 1),
    (0, 1, 2),
    (0, 0, 3),
)
_COMBO_INDEX = {combo: i for i, combo in enumerate(TRIPLE_COMBOS)}
# Ranks a meld group may name: the natural ranks, black 3 and the wild pseudo-rank.
_GROUP_RANKS = frozenset((*C.MELD_RANKS, C.WILD_RANK))
ADD_TYPES = ("natural", "joker", "deuce")


def triple_id(rank: int, naturals: int, jokers: int, deuces: int) -> int:
    """The id of a three-card meld group, or -1 if that mix has none."""
    index = _COMBO_INDEX.get((naturals, jokers, deuces), -1)
    return -1 if index < 0 else NEW_BASE + rank * 8 + index


def single_id(rank: int, kind: int) -> int:
    """The id of a one-card meld group of ``kind`` laid on a meld of ``rank``."""
    card_type = 1 if kind == C.JOKER else 2 if kind == C.DEUCE else 0
    return ADD_BASE + rank * 3 + card_type


def group_counts(group: Group) -> tuple[int, int, int]:
    """(naturals, jokers, deuces) of a group."""
    jokers = deuces = 0
    for card in group.cards:
        kind = C.KIND_OF[card]
        if kind == C.JOKER:
            jokers += 1
        elif kind == C.DEUCE:
            deuces += 1
    return len(group.cards) - jokers - deuces, jokers, deuces


def move_id(move: Move) -> int:
    """The stable id of an atomic move, or -1 for a compound move."""
    action = move.action
    if action is Action.DRAW:
        return DRAW_ID
    if action is Action.DISCARD:
        return DISCARD_BASE + C.KIND_OF[move.card]
    if action is Action.ASK:
        return ASK_ID
    if action is Action.YES:
        return YES_ID
    if action is Action.NO:
        return NO_ID
    if action is Action.KEEP:
        return KEEP_ID
    if action is Action.SWAP:
        return SWAP_ID
    if action is Action.LAY:
        return LAY_RED_THREE_ID
    if len(move.groups) != 1:
        return -1
    group = move.groups[0]
    naturals, jokers, deuces = group_counts(group)
    if action is Action.PICKUP:
        if jokers or deuces:
            if naturals != 1 or jokers + deuces != 1:
                return -1
            return PICKUP_JOKER_ID if jokers else PICKUP_DEUCE_ID
        if naturals > MAX_PICKUP_NATURALS:
            return -1
        return PICKUP_BASE + naturals
    if len(group.cards) == 1:
        return single_id(group.rank, C.KIND_OF[group.cards[0]])
    if len(group.cards) == 3 and (group.rank == C.WILD_RANK) == (naturals == 0):
        return triple_id(group.rank, naturals, jokers, deuces)
    return -1


class DecodedId(NamedTuple):
    """An id taken apart: the action and, where they apply, the rank/kind and the group's mix."""

    action: Action
    kind: int = -1
    naturals: int = 0
    jokers: int = 0
    deuces: int = 0


def decode_id(mid: int) -> DecodedId:
    """Take an atomic id apart; raises ValueError for a number that is no move id."""
    decoded = DECODED[mid] if 0 <= mid < NUM_MOVE_IDS else None
    if decoded is None:
        raise ValueError(f"{mid} is not a move id")
    return decoded


def _decode(mid: int) -> DecodedId:
    if mid == DRAW_ID:
        return DecodedId(Action.DRAW)
    if PICKUP_BASE <= mid <= PICKUP_BASE + MAX_PICKUP_NATURALS:
        return DecodedId(Action.PICKUP, naturals=mid - PICKUP_BASE)
    if mid in (PICKUP_JOKER_ID, PICKUP_DEUCE_ID):
        return DecodedId(
            Action.PICKUP, naturals=1, jokers=int(mid == PICKUP_JOKER_ID), deuces=int(mid == PICKUP_DEUCE_ID)
        )
    if DISCARD_BASE <= mid < DISCARD_BASE + C.NUM_KINDS:
        return DecodedId(Action.DISCARD, kind=mid - DISCARD_BASE)
    if mid == ASK_ID:
        return DecodedId(Action.ASK)
    if mid == YES_ID:
        return DecodedId(Action.YES)
    if mid == NO_ID:
        return DecodedId(Action.NO)
    if mid == KEEP_ID:
        return DecodedId(Action.KEEP)
    if mid == SWAP_ID:
        return DecodedId(Action.SWAP)
    if mid == LAY_RED_THREE_ID:
        return DecodedId(Action.LAY, kind=C.RED_THREE)
    if NEW_BASE <= mid < NEW_BASE + 8 * C.NUM_KINDS:
        rank, index = divmod(mid - NEW_BASE, 8)
        if index < len(TRIPLE_COMBOS) and rank in _GROUP_RANKS:
            naturals, jokers, deuces = TRIPLE_COMBOS[index]
            if (rank == C.WILD_RANK) == (naturals == 0):
                return DecodedId(Action.MELD, rank, naturals, jokers, deuces)
    if ADD_BASE <= mid < NUM_MOVE_IDS:
        rank, card_type = divmod(mid - ADD_BASE, 3)
        if rank in _GROUP_RANKS and not (rank == C.WILD_RANK and card_type == 0):
            return DecodedId(Action.MELD, rank, int(card_type == 0), int(card_type == 1), int(card_type == 2))
    raise ValueError(f"{mid} is not a move id")


def _decoded_or_none(mid: int) -> DecodedId | None:
    try:
        return _decode(mid)
    except ValueError:
        return None


# Every id taken apart once: ``DECODED[mid]`` is its DecodedId, or None for a number that is no move.
DECODED: tuple[DecodedId | None, ...] = tuple(_decoded_or_none(mid) for mid in range(NUM_MOVE_IDS))


# --- text -----------------------------------------------------------------------------------------
def _group_text(group: Group, with_target: bool) -> str:
    body = " ".join(C.CODE_OF[c] for c in group.cards)
    natural_present = any(not C.is_wild(C.KIND_OF[c]) for c in group.cards)
    if with_target and not natural_present:
        return f"{C.RANK_LETTER[group.rank]}: {body}"
    return body


def move_text(move: Move) -> str:
    """The notation of a move."""
    action = move.action
    if action is Action.DISCARD:
        return f"discard {C.CODE_OF[move.card]}"
    if action is Action.LAY:
        return f"lay {C.CODE_OF[move.card]}"
    if action in (Action.MELD, Action.PICKUP):
        word = "meld" if action is Action.MELD else "pickup"
        parts = [
            _group_text(g, with_target=not (action is Action.PICKUP and i == 0))
            for i, g in enumerate(move.groups)
        ]
        return (word + " " + " | ".join(parts)).rstrip()
    return action.name.lower()


def _parse_group(text: str, pickup_first: bool) -> Group:
    target = -1
    if ":" in text:
        head, _, text = text.partition(":")
        try:
            target = C.parse_rank(head)
        except C.CardError as exc:
            raise MoveSyntaxError(str(exc)) from None
    tokens = text.split()
    if not tokens and not pickup_first:
        raise MoveSyntaxError("a group needs at least one card")
    try:
        cards = tuple(C.parse_card(t) for t in tokens)
    except C.CardError as exc:
        raise MoveSyntaxError(str(exc)) from None
    ranks = {C.KIND_OF[c] for c in cards if not C.is_wild(C.KIND_OF[c])}
    if len(ranks) > 1:
        names = ", ".join(sorted(C.KIND_PLURALS[r] for r in ranks))
        raise MoveSyntaxError(f"a group holds one rank (with wilds), not {names}: separate groups with |")
    if ranks:
        rank = ranks.pop()
        if rank == C.RED_THREE:
            raise MoveSyntaxError("red 3s are never melded")
        if target >= 0 and target != rank:
            raise MoveSyntaxError(
                f"the group names rank {C.RANK_LETTER[target]} but holds {C.KIND_PLURALS[rank]}"
            )
        return Group(rank, cards)
    if pickup_first:
        return Group(-1, cards)  # the top card's rank, filled in by the engine
    if target < 0:
        raise MoveSyntaxError(
            "a group of wilds only must name its rank first, as in 'K: 2C JK' (W: for a wild meld)"
        )
    return Group(target, cards)


def parse_move(text: str) -> Move:
    """The Move a text names; raises MoveSyntaxError (saying what the notation allows) otherwise."""
    words = text.strip().split(None, 1)
    if not words:
        raise MoveSyntaxError(
            "an empty move: use draw, pickup, meld, discard, lay, ask, yes, no, keep or swap"
        )
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    if verb in ("draw", "ask", "yes", "no", "keep", "swap"):
        if rest.strip():
            raise MoveSyntaxError(f"'{verb}' takes nothing after it")
        return Move(Action[verb.upper()])
    if verb in ("discard", "lay"):
        tokens = rest.split()
        example = "discard 5H" if verb == "discard" else "lay 3H"
        if len(tokens) != 1:
            raise MoveSyntaxError(f"{verb} names exactly one card, as in '{example}'")
        try:
            card = C.parse_card(tokens[0])
        except C.CardError as exc:
            raise MoveSyntaxError(str(exc)) from None
        if verb == "lay" and C.KIND_OF[card] != C.RED_THREE:
            raise MoveSyntaxError("only a red 3 is laid down on its own, as in 'lay 3H'")
        return Move(Action.DISCARD if verb == "discard" else Action.LAY, card=card)
    if verb in ("meld", "pickup"):
        pieces = rest.split("|")
        groups = tuple(_parse_group(p, verb == "pickup" and i == 0) for i, p in enumerate(pieces))
        if verb == "meld" and not rest.strip():
            raise MoveSyntaxError("meld needs at least one group of cards")
        return Move(Action.MELD if verb == "meld" else Action.PICKUP, groups)
    raise MoveSyntaxError(
        f"{show(verb)} is not a move: use draw, pickup, meld, discard, ask, yes, no, keep or swap"
    )


def first_card(held: Sequence[int], kind: int) -> int:
    """The first card of ``kind`` in ``held`` (counts by card id), lowest suit first (or the kind's first)."""
    for card in C.IDS_OF_KIND[kind]:
        if held[card]:
            return card
    return C.IDS_OF_KIND[kind][0]


def pick_cards(held: Sequence[int], kind: int, count: int, taken: dict[int, int]) -> list[int]:
    """``count`` cards of ``kind`` from ``held`` (counts by card id), lowest suit first, not reusing the
    cards counted in ``taken`` (which it updates). Where too few are held, the kind's first card stands
    in (a move naming it will be refused)."""
    out: list[int] = []
    for card in C.IDS_OF_KIND[kind]:
        spare = held[card] - taken.get(card, 0)
        while spare > 0 and len(out) < count:
            out.append(card)
            taken[card] = taken.get(card, 0) + 1
            spare -= 1
        if len(out) == count:
            break
    while len(out) < count:
        out.append(C.IDS_OF_KIND[kind][0])
    return out


def lowest_cards(held: Sequence[int], kind: int, count: int) -> list[int]:
    """``count`` cards of ``kind`` from ``held`` (counts by card id), lowest suit first: ``pick_cards``
    for a group that takes nothing else of the kind. Where too few are held, the kind's first card stands
    in (a move naming it will be refused)."""
    out: list[int] = []
    if count <= 0:
        return out
    ids = C.IDS_OF_KIND[kind]
    for card in ids:
        spare = held[card]
        if spare >= count - len(out):
            out += [card] * (count - len(out))
            return out
        if spare > 0:
            out += [card] * spare
    out += [ids[0]] * (count - len(out))
    return out


# The moves that name no card, by id (None: the move names cards or the number is no id); the kind a
# discard id discards (-1: not a discard); and the discard of each card id. Moves are immutable: shared.
_NAMING_CARDS = (Action.PICKUP, Action.MELD, Action.DISCARD, Action.LAY)
_PLAIN_MOVES: tuple[Move | None, ...] = tuple(
    None if d is None or d.action in _NAMING_CARDS else Move(d.action) for d in DECODED
)
_DISCARD_KINDS: tuple[int, ...] = tuple(
    d.kind if d is not None and d.action is Action.DISCARD else -1 for d in DECODED
)
_DISCARDS: tuple[Move, ...] = tuple(Move(Action.DISCARD, card=card) for card in range(C.NUM_CARD_IDS))


def move_for(held: Sequence[int], pile_top: int, mid: int) -> Move:
    """The Move an atomic id stands for, naming cards from ``held`` (the mover's counts by card id) and
    the pile's top card (-1: empty). It needs nothing a seat does not see, so a bot can build it from its
    view. A move that names no card, and a discard, is a shared value. Raises ValueError for a number
    that is no move id."""
    if 0 <= mid < NUM_MOVE_IDS:
        plain = _PLAIN_MOVES[mid]
        if plain is not None:
            return plain
        kind = _DISCARD_KINDS[mid]
        if kind >= 0:
            return _DISCARDS[first_card(held, kind)]
    decoded = decode_id(mid)
    action = decoded.action
    if action is Action.MELD:
        # the group's naturals, jokers and deuces are three different kinds: no card can be picked twice
        kind = decoded.kind
        cards = lowest_cards(held, kind, decoded.naturals) if kind != C.WILD_RANK else []
        if decoded.jokers:
            cards += lowest_cards(held, C.JOKER, decoded.jokers)
        if decoded.deuces:
            cards += lowest_cards(held, C.DEUCE, decoded.deuces)
        return Move(Action.MELD, (Group(kind, tuple(cards)),))
    if action is Action.LAY:
        return Move(action, card=first_card(held, decoded.kind))
    if action is Action.PICKUP:
        if pile_top < 0:
            return Move(Action.PICKUP, (Group(-1, ()),))
        top = C.KIND_OF[pile_top]
        used: dict[int, int] = {}
        group = pick_cards(held, top, decoded.naturals, used)
        if decoded.jokers or decoded.deuces:  # pickup_with_wild (a wild top would share the kind: ``used``)
            group += pick_cards(held, C.JOKER, decoded.jokers, used)
            group += pick_cards(held, C.DEUCE, decoded.deuces, used)
        return Move(Action.PICKUP, (Group(top, tuple(group)),))
    return Move(action)
