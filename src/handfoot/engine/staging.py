"""Staging: a lay-down of several groups made as a sequence of atomic steps within one turn.

A side (or player) that is not down opens with groups whose points together reach the minimum; a pickup
before opening takes the pile with such groups; a book of black 3s (``black_three_books``) goes down
whole. Each is made in steps with ids: ``stage`` sets one group aside (three cards of a rank not staged
yet, or one card onto a staged rank; in the draw phase one card onto the pile's top rank), the staged
cards staying in the hand, seen by the player alone; ``commit`` lays the staged groups as one meld (in
the draw phase a pickup id takes the pile with them), judged whole then by ``judge.check``, the opening
minimum included; ``cancel`` takes them back.

No dead ends: a step is offered only where it leads somewhere, decided exactly for the cards held
(``engine.completion``): the staging grown by it can still become a lay-down the judge accepts, so by
offered steps the player always reaches a commit (a pickup in the draw phase). The naturals of the top
card's rank staged in the draw phase count toward the pickup (``pile.staged_pickup``).

The turn cannot cycle: every ``stage`` sets aside cards not staged yet, and ``cancel`` returns to the
position before staging, every choice of it open again (staging too), but once per phase: the next
staging of the phase offers no ``cancel`` (``HandState.cancelled``), and since each of its steps leads
to a lay-down, none is needed. A turn so holds at most two stagings per phase (the Foot picked up by
staging allows one cancel more), each of at most as many steps as the cards held.

Under ``opening_scope = "turn"`` (family: the minimum is laid "in one turn", Foot cards included), the
stage that sets aside the last Hand card picks up the Foot, and staging goes on from the Foot's cards;
the offer depends on the Hand alone (a step is offered where the staging can be laid from the Hand, or
where every Hand card can be staged, which picks up the Foot: the Foot turned over is a completed
action). A ``cancel`` after that returns the staged cards to the hand and leaves the Foot picked up (a
Foot turned over is never put back).
"""

from __future__ import annotations

from typing import Final

from handfoot import cards as C
from handfoot.engine.completion import leading_on, might_open, stages_every_card
from handfoot.engine.errors import Refusal
from handfoot.engine.melding import meld_refusal
from handfoot.engine.moves import (
    ADD_BASE,
    NEW_BASE,
    RANK_TRIPLES,
    SINGLES,
    STAGE_OFFSET_ADD,
    STAGE_OFFSET_NEW,
    WILD_TRIPLES,
    Action,
    Group,
    Move,
    merge_groups,
    move_for,
    move_id,
)
from handfoot.engine.pile import pickup_needed, top_refusal
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import BlackThreeBooks, OpeningScope, PickupBeforeDown

KIND_OF: Final = C.KIND_OF
JOKER: Final = C.JOKER
DEUCE: Final = C.DEUCE
BLACK_THREE: Final = C.BLACK_THREE
WILD_RANK: Final = C.WILD_RANK
NATURAL_RANKS: Final = C.NATURAL_KINDS

# Enum members read on every call, bound once (cheaper than ``Phase.PLAY`` on Python 3.11).
PLAY_PHASE: Final = Phase.PLAY
DRAW_PHASE: Final = Phase.DRAW
NO_THREE_BOOKS: Final = BlackThreeBooks.NONE
NEVER_BEFORE_DOWN: Final = PickupBeforeDown.NEVER
# What staging is open for (``staging_mode``).
NONE: Final = 0
OPENING: Final = 1
PICKUP: Final = 2
BLACK_THREES: Final = 3


def staging_mode(s: HandState, seat: int) -> int:
    """What ``seat`` (to move) may stage now, by the position alone: ``OPENING`` (play phase, not down),
    ``PICKUP`` (draw phase, not down, where the pile may be taken with an opening and the seat holds the
    naturals it needs), ``BLACK_THREES`` (a whole book of black 3s from the Foot) or ``NONE``. Whether a
    staging can be completed from the cards held is ``stage_ids``'s business: it offers only the steps
    that can."""
    phase = s.phase
    rules = s.rules
    owner = s.seating.owner_of[seat]
    if s.down[owner]:
        if (
            phase is PLAY_PHASE
            and rules.black_three_books is not NO_THREE_BOOKS
            and s.in_foot[seat]
            and s.hands[seat][BLACK_THREE] >= rules.book_size
            and s.meld_of[owner][BLACK_THREE] < 0
        ):
            return BLACK_THREES
        return NONE
    if phase is PLAY_PHASE:
        return OPENING
    if phase is DRAW_PHASE and rules.pickup_before_down is not NEVER_BEFORE_DOWN:
        if top_refusal(s, seat) is not None:
            return NONE
        if s.hands[seat][KIND_OF[s.pile[-1]]] < pickup_needed(s, seat):
            return NONE
        return PICKUP
    return NONE


_NO_RANKS: Final[frozenset[int]] = frozenset()


def _pool_kinds(s: HandState, seat: int) -> list[int]:
    """``seat``'s cards by kind, minus the staged ones."""
    kinds = list(s.hands[seat])
    for group in s.staged:
        for card in group.cards:
            kinds[KIND_OF[card]] -= 1
    return kinds


def stage_ids(s: HandState, seat: int, mode: int) -> list[int]:
    """The stage ids ``seat`` may play in ``mode`` (``staging_mode``), sorted: three-card groups of a rank
    not staged yet (not the pile's top rank in the draw phase) and one-card groups onto a staged rank (or
    the top rank), from the cards not staged yet, each only where it leads somewhere: the staging grown by
    it can still become a lay-down the judge accepts (``completion``), or, under ``opening_scope =
    "turn"``, set aside the Hand's last card and so pick up the Foot."""
    if mode == NONE:
        return []
    if mode == OPENING and not s.staged and not might_open(s, seat) and not picks_up_foot_possible(s, seat):
        return []
    candidates = _stage_candidates(s, seat, mode)
    if not candidates:
        return candidates
    return _leading_somewhere(s, seat, mode, candidates)


def _stage_candidates(s: HandState, seat: int, mode: int) -> list[int]:
    """The stage ids of ``stage_ids`` before it asks which lead somewhere."""
    rules = s.rules
    kinds = _pool_kinds(s, seat) if s.staged else s.hands[seat]
    jokers, deuces = kinds[JOKER], kinds[DEUCE]
    staged = {group.rank for group in s.staged} if s.staged else _NO_RANKS
    top = KIND_OF[s.pile[-1]] if mode == PICKUP else -1
    if mode == BLACK_THREES:
        ranks = [BLACK_THREE]
    else:
        ranks = [
            r
            for r in NATURAL_RANKS
            if kinds[r] >= 3 or r in staged or r == top or (kinds[r] == 2 and (jokers or deuces))
        ]
        threes_ok = rules.black_three_melds or (
            rules.black_three_books is not NO_THREE_BOOKS and s.in_foot[seat]
        )
        if threes_ok and (kinds[BLACK_THREE] >= 3 or BLACK_THREE in staged):
            ranks.append(BLACK_THREE)
        if rules.wild_melds and jokers + deuces:
            ranks.append(WILD_RANK)
    out: list[int] = []
    for rank in ranks:
        have = kinds[rank] if rank != WILD_RANK else 0
        if rank in staged or rank == top:
            for n, j, d, card_type in SINGLES:
                if n <= have and j <= jokers and d <= deuces:
                    if (n and rank == WILD_RANK) or ((j or d) and rank == BLACK_THREE):
                        continue
                    out.append(ADD_BASE + STAGE_OFFSET_ADD + rank * 3 + card_type)
            continue
        triples = WILD_TRIPLES if rank == WILD_RANK else RANK_TRIPLES
        for n, j, d, index in triples:
            if n <= have and j <= jokers and d <= deuces and not ((j or d) and rank == BLACK_THREE):
                out.append(NEW_BASE + STAGE_OFFSET_NEW + rank * 8 + index)
    out.sort()
    return out


def _leading_somewhere(s: HandState, seat: int, mode: int, candidates: list[int]) -> list[int]:
    """The ``candidates`` (stage ids) after which the staging can still be completed (``completion``), or,
    under ``opening_scope = "turn"``, every Hand card staged, which picks up the Foot."""
    top = s.pile[-1] if s.pile else -1
    if mode == BLACK_THREES:
        pool = s.unstaged_cards(seat)
        return [
            mid for mid in candidates if _black_threes_complete(s, seat, move_for(pool, top, mid).groups[0])
        ]
    leads = leading_on(s, seat, candidates)
    if not picks_up_foot_possible(s, seat):
        return [mid for mid, lead in zip(candidates, leads, strict=True) if lead]
    pool = s.unstaged_cards(seat)
    return [
        mid
        for mid, lead in zip(candidates, leads, strict=True)
        if lead or stages_every_card(s, seat, move_for(pool, top, mid).groups[0])
    ]


def _black_threes_complete(s: HandState, seat: int, group: Group) -> bool:
    """True where the black 3s staged with ``group`` can grow into a book of black 3s the judge accepts
    (every black 3 still held may join it)."""
    staged = [c for g in s.staged for c in g.cards] + list(group.cards)
    pool = s.unstaged_cards(seat)
    for card in group.cards:
        pool = list(pool)
        pool[card] -= 1
    spare = [c for c in C.IDS_OF_KIND[BLACK_THREE] for _ in range(max(pool[c], 0))]
    for extra in range(len(spare), -1, -1):
        cards = (*staged, *spare[:extra])
        if meld_refusal(s, seat, (Group(BLACK_THREE, cards),)) is None:
            return True
    return False


def picks_up_foot_possible(s: HandState, seat: int) -> bool:
    """True where setting aside the Hand's last card would pick up the Foot (``opening_scope = "turn"``,
    play phase, the Foot still down)."""
    rules = s.rules
    return (
        rules.opening_scope is OpeningScope.TURN
        and rules.foot_at_once
        and s.phase is PLAY_PHASE
        and not s.in_foot[seat]
        and bool(s.feet[seat])
    )


def stage_refusal(s: HandState, seat: int, move: Move) -> Refusal | None:
    """Why ``seat`` may not stage ``move``'s group now, or None."""
    mode = staging_mode(s, seat)
    if mode == NONE:
        if s.down[s.seating.owner_of[seat]]:
            return Refusal("turn", "Your side is down: lay groups directly (stage is for an opening).")
        return Refusal(
            "opening_minimums",
            "Nothing to stage now: staging sets aside groups toward an opening that your cards can make.",
        )
    mid = move_id(move)
    if mid < 0 or len(move.groups) != 1:
        return Refusal(
            "turn", "Stage one group at a time: three cards of a rank, or one card onto a staged rank."
        )
    pool = s.unstaged_cards(seat)
    need: dict[int, int] = {}
    for card in move.groups[0].cards:
        need[card] = need.get(card, 0) + 1
    for card, count in need.items():
        if pool[card] < count:
            return Refusal("hand", f"You do not hold {C.CODE_OF[card]} outside the staged groups.")
    if mid not in _stage_candidates(s, seat, mode):
        return Refusal(
            "turn",
            "Stage three cards of a rank not staged yet, or one card onto a rank already staged"
            + (" (or onto the pile's top card)." if mode == PICKUP else "."),
        )
    if mid not in stage_ids(s, seat, mode):
        return _leads_nowhere(s, seat, mode)
    return None


def _leads_nowhere(s: HandState, seat: int, mode: int) -> Refusal:
    """The refusal of a stage step after which the staging could never be laid down."""
    if mode == BLACK_THREES:
        return Refusal(
            "black_three_books",
            f"Black 3s go down only as a whole book of {s.rules.book_size}: these could not make one.",
        )
    minimum = s.minimums[s.seating.owner_of[seat]]
    if mode == PICKUP:
        return Refusal(
            "opening_minimums",
            f"With this group set aside your cards could no longer take the pile with an opening of "
            f"{minimum} points.",
        )
    return Refusal(
        "opening_minimums",
        f"With this group set aside your cards could no longer make an opening of {minimum} points.",
    )


def staged_meld(s: HandState) -> Move:
    """The meld ``commit`` lays: the staged groups, one per rank."""
    return Move(Action.MELD, merge_groups(s.staged))


def picks_up_foot(s: HandState, seat: int, move: Move) -> bool:
    """True if staging ``move`` sets aside the last Hand card and so picks up the Foot
    (``opening_scope = "turn"``: the Foot's cards laid in the turn count toward the opening)."""
    rules = s.rules
    if rules.opening_scope is not OpeningScope.TURN or s.in_foot[seat] or not s.feet[seat]:
        return False
    if not rules.foot_at_once or s.phase is not Phase.PLAY:
        return False
    staged = sum(len(g.cards) for g in s.staged) + len(move.groups[0].cards)
    return staged == s.hand_size(seat)
