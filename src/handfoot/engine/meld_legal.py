"""Listing the single meld groups a seat may lay now (``meld_ids``), with a memo of what earlier positions
found.

A rank's groups are judged by the rules of ``melding``: the shape rules alone where the seat keeps cards
to spare, ``plan_groups`` where a group could leave it out of cards (going out, or unable to) and for
black 3s. What a rank's groups come to depends on the rules and on a handful of numbers, the context of
the position (``context_memo``) and the ``RankKey`` of the rank, so it is worked out once for each such
case and looked up afterwards (``judged_meld_ids`` judges every rank afresh: the reference the memo is
tested against).

The memo is laid out for cheap lookups, by list index where it can be: per rule set a ``RulesMemo``;
in it a ``RankMemo`` per context, the common ones (a seat with cards to spare) found by the opening
minimum and the wilds held, the rest by a tuple; in a ``RankMemo`` a rank with no meld found by rank and
count held, a rank with a meld by its ``RankKey``.
"""

from __future__ import annotations

from typing import Final

from handfoot import cards as C
from handfoot.engine.melding import (
    CLOSED,
    NEW,
    PARTNER_NOT_ASKED,
    SPARE_CARDS,
    GroupSpec,
    Plan,
    added_wilds_refusal,
    lone_group_place,
    lone_wild_refusal,
    opening_refusal,
    plan_groups,
    unmet_books,
    unmet_by_partners,
)
from handfoot.engine.moves import ADD_BASE, NEW_BASE, RANK_TRIPLES, SINGLES, WILD_TRIPLES
from handfoot.engine.state import HandState
from handfoot.rules.cache import RulesCache
from handfoot.rules.options import BlackThreeBooks, OpeningWaiver, RuleSet

JOKER: Final = C.JOKER
DEUCE: Final = C.DEUCE
BLACK_THREE: Final = C.BLACK_THREE
WILD_RANK: Final = C.WILD_RANK
NO_WAIVER: Final = OpeningWaiver.NONE
NO_THREE_BOOKS: Final = BlackThreeBooks.NONE  # bound once: cheaper than the enum's attribute on Python 3.11
NATURAL_RANKS: Final = C.NATURAL_KINDS


# What a rank's ids depend on beyond the position's context: the rank, how many of it the seat holds (up to
# three), the size of the owner's meld of it (-1: none) and the wilds in that meld, packed in one int by
# ``rank_key`` (an int is cheaper to hash than a tuple).
RankKey = int
# A shoe holds at most 16 decks of 60 cards, fewer than ``_FIELD``: a meld's size and wilds fit a field.
_FIELD: Final = 1024
# Counts held a rank's ids tell apart: 0 to 3 (no group takes more than three of a rank).
_COUNTS: Final = 4


class RankMemo:
    """The ids found for each rank in one context: ``unmelded`` by ``rank * 4 + held`` (held up to 3) where
    the owner has no meld of the rank (None: not judged yet; the wild rank counts 0 held), ``melded`` by
    ``RankKey`` where it has one."""

    __slots__ = ("melded", "unmelded")

    def __init__(self) -> None:
        self.unmelded: list[tuple[int, ...] | None] = [None] * (C.NUM_KINDS * _COUNTS)
        self.melded: dict[RankKey, tuple[int, ...]] = {}


class RulesMemo:
    """The memos under one rule set, by context (``context_memo``): ``plain`` where no group can leave the
    seat out of cards, by the opening minimum still to make and then by ``jokers * 4 + deuces`` held (each
    up to 3; None: not met yet); ``careful`` where one can, by (jokers, deuces, minimum, hand size,
    ``go_out_mask``)."""

    __slots__ = ("careful", "plain")

    def __init__(self) -> None:
        self.plain: dict[int, list[RankMemo | None]] = {}
        self.careful: dict[tuple[int, int, int, int, int], RankMemo] = {}


_MEMOS: RulesCache[RulesMemo] = RulesCache()
# Ranks' ids remembered at once over every rule set (about 150 bytes each; one more starts the memo
# afresh). Random play under in-laws, the preset with most, remembers about 53,000 after 1,000 hands.
_ENTRIES_KEPT = 100_000
_entries = 0


# Cards left after a group at or below which a seat in its Foot has it judged by ``plan_groups``
# (``careful_below``): fewer than ``SPARE_CARDS``.
_CAREFUL_LEFT: Final = SPARE_CARDS - 1


def careful_below(s: HandState, seat: int) -> int:
    """Cards left after a group at or below which it is judged by ``plan_groups``: a seat in its Foot
    left with one card or none may be going out (or be unable to), which the shape rules alone do not
    judge; a seat with a Foot still to pick up never is."""
    return _CAREFUL_LEFT if s.in_foot[seat] else -99


def context_memo(s: HandState, seat: int, minimum: int) -> RankMemo | None:
    """The memo of the ids of every rank in this position, or None where they depend on more than the
    rules, the position's context and the rank's own ``RankKey`` (an opening relief, a per-turn wild
    limit). The context: the wilds held (up to three: no group uses more) and the opening ``minimum``
    still to make; and where a group could leave the seat with one card or none, the exact hand size and
    wilds, and whether the seat could go out with the books its side would have after the group
    (``go_out_mask``)."""
    rules = s.rules
    if rules.max_wilds_added_per_turn:
        return None
    if minimum > 0 and (rules.opening_counts_books or rules.opening_waived_if_emptied is not NO_WAIVER):
        return None
    memos = _MEMOS.get(rules)
    if memos is None:
        memos = _MEMOS.put(rules, RulesMemo())
    hand = s.hands[seat]
    jokers, deuces = hand[JOKER], hand[DEUCE]
    # a group of three leaves its size less 3 cards: where that is above ``careful_below`` (always,
    # outside the Foot) no group is careful, so the hand size is not counted
    size = s.hand_sizes[seat]
    if not s.in_foot[seat] or size - 3 > _CAREFUL_LEFT:
        row = memos.plain.get(minimum)
        if row is None:
            row = memos.plain[minimum] = [None] * (_COUNTS * _COUNTS)
        slot = (jokers if jokers < 3 else 3) * _COUNTS + (deuces if deuces < 3 else 3)
        memo = row[slot]
        if memo is None:
            memo = row[slot] = RankMemo()
        return memo
    context = (jokers, deuces, minimum, size, go_out_mask(s, seat))
    careful = memos.careful.get(context)
    if careful is None:
        careful = memos.careful[context] = RankMemo()
    return careful


# How one group can change its owner's books (clean, dirty, wild): none, one book more of a kind, or a
# clean book made dirty (a wild added to it).
_BOOK_CHANGES: Final = ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (-1, 1, 0))


def go_out_mask(s: HandState, seat: int) -> int:
    """Bit ``i`` set if ``seat`` may go out (``may_go_out``) with its side's books changed as
    ``_BOOK_CHANGES[i]`` says: all a group's going out depends on besides the group. Under
    ``ask_with_last_card``, where the partner's yes is all the seat lacks, the bits are those it could go
    out with once asked (``may_go_out_once_asked``), moved past the first five."""
    unmet = unmet_by_partners(s, seat, True)
    rules = s.rules
    shift = 0
    if unmet:
        if not (rules.ask_with_last_card and unmet == [PARTNER_NOT_ASKED]):
            return 0  # the same for any books: no bit set
        shift = len(_BOOK_CHANGES)
    clean, dirty, wild = s.books[s.seating.owner_of[seat]]
    mask = 0
    for bit, (more_clean, more_dirty, more_wild) in enumerate(_BOOK_CHANGES):
        books = (clean + more_clean, dirty + more_dirty, wild + more_wild)
        if books[0] >= 0 and not unmet_books(rules, books, True):
            mask |= 1 << (bit + shift)
    return mask


def rank_key(rank: int, have: int, meld_size: int, meld_wilds: int) -> RankKey:
    """The memo key of a rank: ``have`` (0 to 3) of it held, the owner's meld of it ``meld_size`` cards
    (-1: none) with ``meld_wilds`` wilds."""
    return ((rank * 4 + have) * _FIELD + meld_size + 1) * _FIELD + meld_wilds


# ``rank_key`` of each rank and count held (0 to 3) with no meld of the rank; with a meld of ``size``
# cards and ``wilds`` wilds the key is this plus ``(size + 1) * _FIELD + wilds``.
_KEYS_NO_MELD: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(rank_key(rank, have, -1, 0) for have in range(4)) for rank in range(C.NUM_KINDS)
)


def _count_entry() -> None:
    """Count one entry more kept in the memos: past ``_ENTRIES_KEPT`` every memo starts afresh (the memo
    the caller holds still takes the entry, whether or not it is still in use)."""
    global _entries
    _entries += 1
    if _entries > _ENTRIES_KEPT:
        _MEMOS.clear()
        _entries = 1


def _judged_new(s: HandState, seat: int, rank: int, index: int, minimum: int) -> tuple[int, ...]:
    """The ids of ``rank`` (``index``: the owner's meld of it, -1 for none), judged (``_rank_ids``) for a
    memo to keep: one entry more (``_count_entry``)."""
    _count_entry()
    meld_size = len(s.melds[index].cards) if index >= 0 else -1
    meld_wilds = s.melds[index].wilds if index >= 0 else 0
    return tuple(_rank_ids(s, seat, rank, index, meld_size, meld_wilds, minimum))


def naturals_cap(rules: RuleSet, wilds: int) -> int:
    """Naturals in a meld with ``wilds`` wilds past which a group's ids no longer change: the most any rule
    compares them with. A group lays three cards at most, so at ``wilds + 4`` naturals or more a meld
    holds more naturals than wilds with any group; at ``book_size`` or more it is a book (where the group
    goes, what crossing the book's size allows, the book's kind) and at ``min_naturals`` or more it holds
    the naturals a meld needs."""
    return max(rules.book_size, rules.min_naturals, wilds + 4)


def _judged_melded(
    s: HandState,
    seat: int,
    rank: int,
    index: int,
    minimum: int,
    melded: dict[RankKey, tuple[int, ...]],
    key: int,
) -> tuple[int, ...]:
    """The ids of natural ``rank``, whose owner's meld is at ``index`` (``key``: its memo key), for a memo
    to keep: those of the same meld with ``naturals_cap`` naturals where it holds more (judged, and kept
    under that meld's key too, where not met yet), else judged (``_judged_new``)."""
    meld = s.melds[index]
    wilds = meld.wilds
    past = len(meld.cards) - wilds - naturals_cap(s.rules, wilds)
    if past <= 0:
        return _judged_new(s, seat, rank, index, minimum)
    like = key - past * _FIELD  # the key of the meld at the cap: the size field is ``past`` less
    found = melded.get(like)
    if found is None:
        found = melded[like] = _judged_new(s, seat, rank, index, minimum)
    _count_entry()  # the caller keeps it under ``key`` too
    return found


def meld_ids(s: HandState, seat: int) -> list[int]:
    """Ids of the legal one- and three-card meld groups for ``seat`` (PLAY phase), by rank: the natural
    ranks from ace to four, then black 3s, then wilds. The same list as ``judged_meld_ids``; a rank's ids
    are looked up in the memo of the position's context (``context_memo``; black 3s are always judged)."""
    rules = s.rules
    hand = s.hands[seat]
    owner = s.seating.owner_of[seat]
    minimum = 0 if s.down[owner] else s.minimums[owner]
    memo = context_memo(s, seat, minimum)
    if memo is None:
        return judged_meld_ids(s, seat)
    unmelded, melded = memo.unmelded, memo.melded
    meld_of = s.meld_of[owner]
    melds = s.melds
    holds_wild = hand[JOKER] + hand[DEUCE] > 0
    out: list[int] = []
    for rank in NATURAL_RANKS:
        have = hand[rank]
        index = meld_of[rank]
        if index < 0:
            if not have:
                continue
            slot = rank * _COUNTS + (have if have < 3 else 3)
            found = unmelded[slot]
            if found is None:  # not met yet in this context
                found = unmelded[slot] = _judged_new(s, seat, rank, index, minimum)
        elif have or holds_wild:
            meld = melds[index]
            key = _KEYS_NO_MELD[rank][have if have < 3 else 3] + (len(meld.cards) + 1) * _FIELD + meld.wilds
            found = melded.get(key)
            if found is None:
                found = melded[key] = _judged_melded(s, seat, rank, index, minimum, melded, key)
        else:
            continue
        out += found
    if hand[BLACK_THREE] and _black_threes_meldable(s, seat):
        out += _judged_rank(s, seat, BLACK_THREE, minimum)
    if holds_wild and rules.wild_melds:
        index = meld_of[WILD_RANK]
        if index >= 0:
            key = rank_key(WILD_RANK, 0, len(melds[index].cards), melds[index].wilds)
            found = melded.get(key)
            if found is None:
                found = melded[key] = _judged_new(s, seat, WILD_RANK, index, minimum)
        else:
            slot = WILD_RANK * _COUNTS
            found = unmelded[slot]
            if found is None:
                found = unmelded[slot] = _judged_new(s, seat, WILD_RANK, index, minimum)
        out += found
    return out


def judged_meld_ids(s: HandState, seat: int) -> list[int]:
    """``meld_ids`` with every rank judged afresh, no memo."""
    hand = s.hands[seat]
    owner = s.seating.owner_of[seat]
    minimum = 0 if s.down[owner] else s.minimums[owner]
    meld_of = s.meld_of[owner]
    holds_wild = hand[JOKER] + hand[DEUCE] > 0
    ranks = [r for r in NATURAL_RANKS if hand[r] or (meld_of[r] >= 0 and holds_wild)]
    if _black_threes_meldable(s, seat):
        ranks.append(BLACK_THREE)
    if s.rules.wild_melds and holds_wild:
        ranks.append(WILD_RANK)
    out: list[int] = []
    for rank in ranks:
        out += _judged_rank(s, seat, rank, minimum)
    return out


def _black_threes_meldable(s: HandState, seat: int) -> bool:
    """True if black 3s may make a group at all: three held where they meld, or one to add to a book of
    them where they make books. Where they make no books, three held only when going out: ``plan_groups``
    lets black 3s down then alone, from the Foot and leaving one card at most (so four held at most)."""
    rules = s.rules
    hand = s.hands[seat]
    threes = hand[BLACK_THREE]
    if rules.black_three_books is NO_THREE_BOOKS:
        return rules.black_three_melds and threes >= 3 and s.in_foot[seat] and s.hand_sizes[seat] <= 4
    if rules.black_three_melds and threes >= 3:
        return True
    owner = s.seating.owner_of[seat]
    return threes > 0 and s.meld_of[owner][BLACK_THREE] >= 0


def _judged_rank(s: HandState, seat: int, rank: int, minimum: int) -> list[int]:
    index = s.meld_of[s.seating.owner_of[seat]][rank]
    meld_size = len(s.melds[index].cards) if index >= 0 else -1
    meld_wilds = s.melds[index].wilds if index >= 0 else 0
    return _rank_ids(s, seat, rank, index, meld_size, meld_wilds, minimum)


def _rank_ids(
    s: HandState, seat: int, rank: int, index: int, meld_size: int, meld_wilds: int, minimum: int
) -> list[int]:
    """The legal meld ids of one rank for ``seat``: ``index``, ``meld_size`` and ``meld_wilds`` describe
    the owner's meld of the rank (index -1 and size -1: none)."""
    rules = s.rules
    hand = s.hands[seat]
    jokers, deuces = hand[JOKER], hand[DEUCE]
    size = s.hand_sizes[seat]
    careful_from = careful_below(s, seat)
    values = rules.card_values
    joker_value, deuce_value = values[JOKER], values[DEUCE]
    relief = minimum > 0 and (rules.opening_counts_books or rules.opening_waived_if_emptied is not NO_WAIVER)
    per_turn = rules.max_wilds_added_per_turn
    have = hand[rank] if rank != WILD_RANK else 0
    exists = index >= 0
    if not exists:
        meld_size = meld_wilds = 0
    triples = WILD_TRIPLES if rank == WILD_RANK else RANK_TRIPLES
    tries: list[tuple[int, int, int, int]] = [
        (n, j, d, NEW_BASE + rank * 8 + i)
        for n, j, d, i in triples
        if n <= have and j <= jokers and d <= deuces
    ]
    if exists:
        tries.extend(
            (n, j, d, ADD_BASE + rank * 3 + t)
            for n, j, d, t in SINGLES
            if n <= have and j <= jokers and d <= deuces and not (n and rank == WILD_RANK)
        )
    out: list[int] = []
    for naturals, j, d, mid in tries:
        wilds = j + d
        points = naturals * values[rank] + j * joker_value + d * deuce_value
        count = naturals + wilds
        if points < minimum:
            if not relief:
                continue
            spec = GroupSpec(rank, naturals, j, d, points)
            if opening_refusal(s, seat, points, [spec], size - count) is None and _single_ok(
                s, seat, spec, size - count, jokers + deuces - wilds
            ):
                out.append(mid)
            continue
        if size - count <= careful_from or rank == BLACK_THREE:
            spec = GroupSpec(rank, naturals, j, d, points)
            if _single_ok(s, seat, spec, size - count, jokers + deuces - wilds):
                out.append(mid)
            continue
        where = lone_group_place(rules, rank, exists, meld_size - meld_wilds, meld_wilds, naturals, wilds)
        if where == CLOSED:
            continue
        if where == NEW or not per_turn or not wilds or added_wilds_refusal(s, index, wilds) is None:
            out.append(mid)
    return out


def _single_ok(s: HandState, seat: int, spec: GroupSpec, left: int, wilds_left: int) -> bool:
    """True if one group ``spec`` may be laid (``plan_groups``), keeping a non-wild to go out with where
    ``wild_final_discard`` is off."""
    plan = plan_groups(s, seat, [spec], left)
    return isinstance(plan, Plan) and lone_wild_refusal(s, seat, plan, wilds_left) is None
