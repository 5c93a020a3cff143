"""Moves: what a player does, their stable integer ids, and the public text notation.

Text forms (the actor is always whoever is to move)::

    draw
    draw 7H                      split_draw: take the pile's top card (named) and one stock card fewer
    pickup KS KH [| G2 ...]     take the discard pile; the first group goes with the top card
    meld KS KH KD [| 8S 8H 2C]  lay groups; "K: 2C JK" names the target rank of a group of wilds
    discard 5H
    lay 3H                       lay a red 3 down (red_threes = "lay_by_choice")
    ask / yes / no               "May I go out?" and the partner's answer
    end                          told no while holding one card: end the turn holding it (ask_with_last_card)
    keep / swap                  with pick_foot_seen: keep the dealt Hand, or take the other pile as the Hand
    stage KS KH KD               set a group aside toward an opening (one card: onto a staged group)
    commit                       lay the staged groups as one meld (the opening is judged then)
    cancel                       take the staged groups back (once a phase: the next staging cannot be)

Atomic moves have ids (``move_id``): ``draw``, the split draw (``draw 7H``), a pickup with 0-3 naturals
from the hand (or one natural and one wild, ``pickup_with_wild``), a discard of one kind, ask/yes/no,
``end``, a single meld group of one card or of three cards, and the steps of a lay-down of several
groups: a staged group of three cards or of one card (``stage``), ``commit`` and ``cancel``; in the draw
phase a pickup commits the staged groups. A meld or pickup of several groups written at once
(``meld A | B``) is notation for its steps (``engine.steps.steps_of``); as a ``Move`` it has no id
(``-1``).
Ids depend only on kinds, never on suits; ``Move`` objects name exact cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Final, NamedTuple

from handfoot import cards as C
from handfoot.wording import sentence_list, show


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
    STAGE = 10  # set a group aside toward an opening (or a pickup's groups, or a book of black 3s)
    COMMIT = 11  # lay the staged groups as one meld
    CANCEL = 12  # take the staged groups back
    END = 13  # end the turn holding the last card after the partner's no (ask_with_last_card)


# The actions, bound once: reading ``Action.MELD`` costs several times reading a module constant on
# Python 3.11 (``move_id`` and ``move_for`` run for every move).
DRAW_ACTION: Final = Action.DRAW
PICKUP_ACTION: Final = Action.PICKUP
MELD_ACTION: Final = Action.MELD
DISCARD_ACTION: Final = Action.DISCARD
ASK_ACTION: Final = Action.ASK
YES_ACTION: Final = Action.YES
NO_ACTION: Final = Action.NO
KEEP_ACTION: Final = Action.KEEP
SWAP_ACTION: Final = Action.SWAP
LAY_ACTION: Final = Action.LAY
STAGE_ACTION: Final = Action.STAGE
COMMIT_ACTION: Final = Action.COMMIT
CANCEL_ACTION: Final = Action.CANCEL
END_ACTION: Final = Action.END


class Group(NamedTuple):
    """Cards laid together on one meld (``rank`` is the meld's rank kind; ``C.WILD_RANK`` for wild melds)."""

    rank: int
    cards: tuple[int, ...]


class Move(NamedTuple):
    """One move. ``groups`` for meld and pickup (pickup: the first group goes with the top card);
    ``card`` for discard, lay, and the split draw (the pile's top card); ``-1`` otherwise."""

    action: Action
    groups: tuple[Group, ...] = ()
    card: int = -1

    def __str__(self) -> str:
        return move_text(self)


class MoveSyntaxError(ValueError):
    """A move's text that does not follow the notation."""

    def sentence(self) -> str:
        """What the notation says, as a sentence for a person: capitalised, ending in a full stop."""
        said = str(self)
        return said[:1].upper() + said[1:] + ("" if said.endswith(".") else ".")


# --- stable ids ---------------------------------------------------------------------------------
DRAW_ID: Final = 0
PICKUP_BASE: Final = 1  # + naturals from hand (0..3)
MAX_PICKUP_NATURALS: Final = 3
PICKUP_JOKER_ID: Final = 5  # one natural and a joker (pickup_with_wild)
PICKUP_DEUCE_ID: Final = 6  # one natural and a 2 (pickup_with_wild)
DISCARD_BASE: Final = 8  # + kind
ASK_ID: Final = 23
YES_ID: Final = 24
NO_ID: Final = 25
KEEP_ID: Final = 26
SWAP_ID: Final = 27
NEW_BASE: Final = 32  # + rank * 8 + combo index
ADD_BASE: Final = 160  # + rank * 3 + card type (0 natural, 1 joker, 2 deuce)
LAY_RED_THREE_ID: Final = ADD_BASE + 3 * C.NUM_KINDS  # 205: lay a red 3 down (red_threes = "lay_by_choice")
STAGE_NEW_BASE: Final = LAY_RED_THREE_ID + 1  # 206 + rank * 8 + combo index: a three-card group staged
STAGE_ADD_BASE: Final = STAGE_NEW_BASE + 8 * C.NUM_KINDS  # 326 + rank * 3 + card type: one card staged
COMMIT_ID: Final = STAGE_ADD_BASE + 3 * C.NUM_KINDS  # 371: lay the staged groups
CANCEL_ID: Final = COMMIT_ID + 1  # 372: take the staged groups back
SPLIT_DRAW_ID: Final = CANCEL_ID + 1  # 373: the pile's top card and the rest from the stock (split_draw)
END_ID: Final = SPLIT_DRAW_ID + 1  # 374: end the turn holding the last card (ask_with_last_card)
NUM_MOVE_IDS: Final = END_ID + 1
# What a staged group's id adds to the meld group's id of the same cards.
STAGE_OFFSET_NEW: Final = STAGE_NEW_BASE - NEW_BASE
STAGE_OFFSET_ADD: Final = STAGE_ADD_BASE - ADD_BASE

# Three-card groups: (naturals, jokers, deuces).
TRIPLE_COMBOS: Final[tuple[tuple[int, int, int], ...]] = (
    (3, 0, 0),
    (2, 1, 0),
    (2, 0, 1),
    (0, 3, 0),
    (0, 2, 1),
    (0, 1, 2),
    (0, 0, 3),
)
# (naturals, jokers, deuces, combo index) of the three-card groups of a natural rank (one natural at least)
# and of the wild rank (wilds only), and (naturals, jokers, deuces, card type) of the one-card groups added
# to a meld: what a rank's meld and stage ids are made of.
RANK_TRIPLES: Final = tuple((n, j, d, i) for i, (n, j, d) in enumerate(TRIPLE_COMBOS) if n)
WILD_TRIPLES: Final = tuple((n, j, d, i) for i, (n, j, d) in enumerate(TRIPLE_COMBOS) if not n)
SINGLES: Final = ((1, 0, 0, 0), (0, 1, 0, 1), (0, 0, 1, 2))
_COMBO_INDEX = {combo: i for i, combo in enumerate(TRIPLE_COMBOS)}
# Ranks a meld group may name: the natural ranks, black 3 and the wild pseudo-rank.
_GROUP_RANKS: Final = frozenset((*C.MELD_RANKS, C.WILD_RANK))
ADD_TYPES: Final = ("natural", "joker", "deuce")


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
    if action is DRAW_ACTION:
        return DRAW_ID if move.card < 0 else SPLIT_DRAW_ID
    if action is DISCARD_ACTION:
        return DISCARD_BASE + C.KIND_OF[move.card]
    if action is ASK_ACTION:
        return ASK_ID
    if action is YES_ACTION:
        return YES_ID
    if action is NO_ACTION:
        return NO_ID
    if action is KEEP_ACTION:
        return KEEP_ID
    if action is SWAP_ACTION:
        return SWAP_ID
    if action is LAY_ACTION:
        return LAY_RED_THREE_ID
    if action is COMMIT_ACTION:
        return COMMIT_ID
    if action is CANCEL_ACTION:
        return CANCEL_ID
    if action is END_ACTION:
        return END_ID
    if len(move.groups) != 1:
        return -1
    group = move.groups[0]
    naturals, jokers, deuces = group_counts(group)
    if action is PICKUP_ACTION:
        if jokers or deuces:
            if naturals != 1 or jokers + deuces != 1:
                return -1
            return PICKUP_JOKER_ID if jokers else PICKUP_DEUCE_ID
        if naturals > MAX_PICKUP_NATURALS:
            return -1
        return PICKUP_BASE + naturals
    mid = -1
    if len(group.cards) == 1 and group.rank in _GROUP_RANKS:
        if group.rank == C.WILD_RANK and naturals:
            return -1
        mid = single_id(group.rank, C.KIND_OF[group.cards[0]])
        return mid + STAGE_OFFSET_ADD if action is STAGE_ACTION else mid
    if (
        len(group.cards) == 3
        and group.rank in _GROUP_RANKS
        and (group.rank == C.WILD_RANK) == (naturals == 0)
    ):
        mid = triple_id(group.rank, naturals, jokers, deuces)
        return mid + STAGE_OFFSET_NEW if action is STAGE_ACTION and mid >= 0 else mid
    return -1


def merge_groups(groups: Sequence[Group]) -> tuple[Group, ...]:
    """Groups (a staging's steps) as one group per rank, in the order each rank first comes."""
    order: list[int] = []
    cards: dict[int, list[int]] = {}
    for group in groups:
        if group.rank not in cards:
            order.append(group.rank)
            cards[group.rank] = []
        cards[group.rank].extend(group.cards)
    return tuple(Group(rank, tuple(cards[rank])) for rank in order)


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
    if mid == SPLIT_DRAW_ID:
        return DecodedId(Action.DRAW, naturals=1)  # one card from the pile
    if NEW_BASE <= mid < NEW_BASE + 8 * C.NUM_KINDS:
        rank, index = divmod(mid - NEW_BASE, 8)
        if index < len(TRIPLE_COMBOS) and rank in _GROUP_RANKS:
            naturals, jokers, deuces = TRIPLE_COMBOS[index]
            if (rank == C.WILD_RANK) == (naturals == 0):
                return DecodedId(Action.MELD, rank, naturals, jokers, deuces)
    if ADD_BASE <= mid < LAY_RED_THREE_ID:
        rank, card_type = divmod(mid - ADD_BASE, 3)
        if rank in _GROUP_RANKS and not (rank == C.WILD_RANK and card_type == 0):
            return DecodedId(Action.MELD, rank, int(card_type == 0), int(card_type == 1), int(card_type == 2))
    if STAGE_NEW_BASE <= mid < STAGE_ADD_BASE:
        return _decode(mid - STAGE_OFFSET_NEW)._replace(action=Action.STAGE)
    if STAGE_ADD_BASE <= mid < COMMIT_ID:
        return _decode(mid - STAGE_OFFSET_ADD)._replace(action=Action.STAGE)
    if mid == COMMIT_ID:
        return DecodedId(Action.COMMIT)
    if mid == CANCEL_ID:
        return DecodedId(Action.CANCEL)
    if mid == END_ID:
        return DecodedId(Action.END)
    raise ValueError(f"{mid} is not a move id")


def _decoded_or_none(mid: int) -> DecodedId | None:
    try:
        return _decode(mid)
    except ValueError:
        return None


# Every id taken apart once: ``DECODED[mid]`` is its DecodedId, or None for a number that is no move.
DECODED: Final[tuple[DecodedId | None, ...]] = tuple(_decoded_or_none(mid) for mid in range(NUM_MOVE_IDS))


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
    if action is Action.DRAW and move.card >= 0:
        return f"draw {C.CODE_OF[move.card]}"
    if action is Action.LAY:
        return f"lay {C.CODE_OF[move.card]}"
    if action in (Action.MELD, Action.PICKUP, Action.STAGE):
        word = action.name.lower()
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
        names = sentence_list(sorted(C.KIND_PLURALS[r] for r in ranks))
        raise MoveSyntaxError(
            f"a group holds cards of one rank (and wilds), not {names}: meld them as separate groups"
        )
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
            "wild cards alone make no group: put them with natural cards of one rank, or onto a meld "
            "(in the notation, name its rank first: 'K:', or 'W:' for a meld of wilds)"
        )
    return Group(target, cards)


def parse_move(text: str) -> Move:
    """The Move a text names; raises MoveSyntaxError (saying what the notation allows) otherwise."""
    words = text.strip().split(None, 1)
    if not words:
        raise MoveSyntaxError(
            "an empty move: use draw, pickup, meld, discard, lay, ask, yes, no, end, keep, swap, stage, "
            "commit or cancel"
        )
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    if verb == "draw" and rest.strip():
        tokens = rest.split()
        if len(tokens) != 1:
            raise MoveSyntaxError(
                "draw takes nothing after it, or the pile's top card alone, as in 'draw 7H' (split_draw)"
            )
        try:
            return Move(Action.DRAW, card=C.parse_card(tokens[0]))
        except C.CardError as exc:
            raise MoveSyntaxError(str(exc)) from None
    if verb in ("draw", "ask", "yes", "no", "keep", "swap", "commit", "cancel", "end"):
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
    if verb in ("meld", "pickup", "stage"):
        pieces = rest.split("|")
        if verb == "stage" and len(pieces) > 1:
            raise MoveSyntaxError("stage sets one group aside at a time, as in 'stage KS KH KD'")
        groups = tuple(_parse_group(p, verb == "pickup" and i == 0) for i, p in enumerate(pieces))
        if verb != "pickup" and not rest.strip():
            raise MoveSyntaxError(f"{verb} needs at least one group of cards")
        return Move(Action[verb.upper()], groups)
    raise MoveSyntaxError(
        f"{show(verb)} is not a move: use draw, pickup, meld, discard, lay, ask, yes, no, end, keep, swap, "
        "stage, commit or cancel"
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
_NAMING_CARDS: Final = (Action.PICKUP, Action.MELD, Action.DISCARD, Action.LAY, Action.STAGE)
_PLAIN_MOVES: Final[tuple[Move | None, ...]] = tuple(
    None if d is None or d.action in _NAMING_CARDS or mid == SPLIT_DRAW_ID else Move(d.action)
    for mid, d in enumerate(DECODED)
)
_DISCARD_KINDS: Final[tuple[int, ...]] = tuple(
    d.kind if d is not None and d.action is Action.DISCARD else -1 for d in DECODED
)
_DISCARDS: Final[tuple[Move, ...]] = tuple(Move(Action.DISCARD, card=card) for card in range(C.NUM_CARD_IDS))


# ``tuple.__new__`` and the Move and Group classes, looked up once: compiled with mypyc, a method of a
# built-in type is otherwise looked up by name at every call, and a class from the module's dictionary.
NEW_TUPLE: Final = tuple.__new__
MOVE: Final = Move
GROUP: Final = Group


def one_group_move(action: Action, rank: int, cards: tuple[int, ...]) -> Move:
    """``Move(action, (Group(rank, cards),))``, the same value, made as the tuples it is: a NamedTuple's
    own constructor runs a ``__new__`` written in Python, which code compiled with mypyc calls back into
    the interpreter for (``move_for`` makes every meld and stage this way)."""
    return NEW_TUPLE(MOVE, (action, (NEW_TUPLE(GROUP, (rank, cards)),), -1))


def move_for(held: Sequence[int], pile_top: int, mid: int) -> Move:
    """The Move an atomic id stands for, naming cards from ``held`` (the mover's counts by card id) and
    the pile's top card (-1: empty). It needs nothing a seat does not see, so a bot can build it from its
    view. A move that names no card, and a discard, is a shared value. Raises ValueError for a number
    that is no move id."""
    decoded: DecodedId | None = None
    if 0 <= mid < NUM_MOVE_IDS:
        plain = _PLAIN_MOVES[mid]
        if plain is not None:
            return plain
        kind = _DISCARD_KINDS[mid]
        if kind >= 0:
            return _DISCARDS[first_card(held, kind)]
        decoded = DECODED[mid]
    if mid == SPLIT_DRAW_ID:  # with no pile an ace stands in (a move naming it will be refused)
        return Move(DRAW_ACTION, card=pile_top if pile_top >= 0 else C.IDS_OF_KIND[C.ACE][0])
    if decoded is None:
        decoded = decode_id(mid)  # raises ValueError: no move has this id
    action = decoded.action
    if action is MELD_ACTION or action is STAGE_ACTION:
        # the group's naturals, jokers and deuces are three different kinds: no card can be picked twice
        kind = decoded.kind
        cards = lowest_cards(held, kind, decoded.naturals) if kind != C.WILD_RANK else []
        if decoded.jokers:
            cards += lowest_cards(held, C.JOKER, decoded.jokers)
        if decoded.deuces:
            cards += lowest_cards(held, C.DEUCE, decoded.deuces)
        return one_group_move(action, kind, tuple(cards))
    if action is LAY_ACTION:
        return Move(action, card=first_card(held, decoded.kind))
    if action is PICKUP_ACTION:
        if pile_top < 0:
            return Move(PICKUP_ACTION, (Group(-1, ()),))
        top = C.KIND_OF[pile_top]
        used: dict[int, int] = {}
        group = pick_cards(held, top, decoded.naturals, used)
        if decoded.jokers or decoded.deuces:  # pickup_with_wild (a wild top would share the kind: ``used``)
            group += pick_cards(held, C.JOKER, decoded.jokers, used)
            group += pick_cards(held, C.DEUCE, decoded.deuces, used)
        if not group:  # no card from the hand (the staged ones, or none asked): as ``pickup`` parses
            return Move(PICKUP_ACTION, (Group(-1, ()),))
        return Move(PICKUP_ACTION, (Group(top, tuple(group)),))
    return Move(action)
