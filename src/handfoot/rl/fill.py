"""Writing one seat's observation entries into a flat buffer of floats (the layout in ``layout``).

This is the item-by-item part of ``encode.Encoder``: it needs no numpy (the encoder hands it a memoryview of
the vector, or of one row of a batch) and is compiled with the engine, which it reads from (``SeatInfo``,
``Meld``). Every entry written here is one the encoder's copy of the observer's unchanging entries left at 0.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final

from handfoot import cards as C
from handfoot.engine.moves import Group
from handfoot.engine.state import Meld
from handfoot.engine.views import SeatInfo
from handfoot.rl.layout import KINDS, MAX_SEATS, POINTS_SCALE, START

KIND_OF: Final = C.KIND_OF
JOKER: Final = C.JOKER
DEUCE: Final = C.DEUCE
JOKER_ID: Final = C.JOKER_ID
NUM_KINDS: Final = KINDS
NO_SEAT_SLOT: Final = MAX_SEATS
SCALE: Final = POINTS_SCALE

HAND: Final = START["hand"]
STAGED: Final = START["staged"]
STAGED_MELDS: Final = START["staged_melds"]
STAGED_POINTS: Final = START["staged_points"]
FOOT: Final = START["foot"]
SEAT_HAND: Final = START["seat_hand_count"]
SEAT_IN_FOOT: Final = START["seat_in_foot"]
SEAT_FOOT: Final = START["seat_foot_count"]
SEAT_TO_MOVE: Final = START["seat_to_move"]
SEAT_TURN: Final = START["seat_turn"]
SEAT_DEALER: Final = START["seat_dealer"]
SEAT_KNOWN: Final = START["seat_known"]
OWNER_DOWN: Final = START["owner_down"]
OWNER_MINIMUM: Final = START["owner_minimum"]
OWNER_BOOKS: Final = START["owner_books"]
MELD_OPEN: Final = START["meld_open"]
MELD_EARLIER: Final = START["meld_earlier"]
SIDE_RED: Final = START["side_red_threes"]
SIDE_TOTAL: Final = START["side_total"]
PILE_TOP: Final = START["pile_top"]
PILE_SIZE: Final = START["pile_size"]
PILE_SEEN: Final = START["pile_seen"]
STOCK: Final = START["stock_size"]
PHASE: Final = START["phase"]
PERMISSION: Final = START["permission"]
LAST_ROUND: Final = START["last_round_left"]
HAND_INDEX: Final = START["hand_index"]
OUT: Final = START["out_seat"]
NONE_KNOWN: Final = (0,) * KINDS


class SeatSlots:
    """Where one observer puts each seat, meld owner and side of its table (relative slots: its own first,
    then going round), and each kind's card value (for the staged points)."""

    __slots__ = ("owner_slot", "rank_base", "seat_slot", "side_slot", "values")

    def __init__(
        self, seat_slot: list[int], owner_slot: list[int], side_slot: list[int], values: list[int]
    ) -> None:
        self.seat_slot = seat_slot
        self.owner_slot = owner_slot
        self.side_slot = side_slot
        self.rank_base = [KINDS * slot for slot in owner_slot]  # an owner's first meld entry key
        self.values = values

    def __reduce__(self) -> tuple[type[SeatSlots], tuple[list[int], list[int], list[int], list[int]]]:
        """Pickled and copied through the constructor (compiled, it has no ``__dict__`` to copy)."""
        return (SeatSlots, (self.seat_slot, self.owner_slot, self.side_slot, self.values))


def write_entries(
    obs: MutableSequence[float], slots: SeatSlots, info: SeatInfo, totals: Sequence[int]
) -> None:
    """Write every entry of ``info.seat``'s vector but the unchanging ones and the table's melds into
    ``obs``, whose entries are 0 where this writes (counts are added to, one-hots set)."""
    at = HAND
    for count in info.kinds:
        if count:
            obs[at] = count
        at += 1
    if info.staged:
        _write_staged(obs, info.staged, slots.values)
    for card in info.foot:
        obs[FOOT + KIND_OF[card]] += 1
    seat_slot = slots.seat_slot
    hand_counts, in_foot, foot_counts = info.hand_counts, info.in_foot, info.foot_counts
    known = info.known
    for seat in range(len(seat_slot)):
        slot = seat_slot[seat]
        obs[SEAT_HAND + slot] = hand_counts[seat]
        if in_foot[seat]:
            obs[SEAT_IN_FOOT + slot] = 1
        obs[SEAT_FOOT + slot] = foot_counts[seat]
        seen = known[seat]
        if seen != NONE_KNOWN:
            at = SEAT_KNOWN + NUM_KINDS * slot
            for count in seen:
                if count:
                    obs[at] = count
                at += 1
    if info.to_move >= 0:
        obs[SEAT_TO_MOVE + seat_slot[info.to_move]] = 1
    obs[SEAT_TURN + seat_slot[info.turn_seat]] = 1
    obs[SEAT_DEALER + seat_slot[info.dealer]] = 1
    down, minimums, books = info.down, info.minimums, info.books
    owner_slot = slots.owner_slot
    for owner in range(len(owner_slot)):
        slot = owner_slot[owner]
        if down[owner]:
            obs[OWNER_DOWN + slot] = 1
        obs[OWNER_MINIMUM + slot] = minimums[owner] / SCALE
        at = OWNER_BOOKS + 3 * slot
        book = books[owner]
        obs[at] = book[0]
        obs[at + 1] = book[1]
        obs[at + 2] = book[2]
    red_threes = info.red_threes
    side_slot = slots.side_slot
    for side in range(len(side_slot)):
        slot = side_slot[side]
        obs[SIDE_RED + slot] = len(red_threes[side])
        obs[SIDE_TOTAL + slot] = totals[side] / SCALE
    pile_top = info.pile_top
    out_seat = info.out_seat
    obs[PILE_TOP + (KIND_OF[pile_top] if pile_top >= 0 else NUM_KINDS)] = 1
    obs[PILE_SIZE] = info.pile_size
    obs[STOCK] = info.stock_size
    obs[PHASE + int(info.phase)] = 1
    obs[PERMISSION] = info.permission
    obs[LAST_ROUND] = info.last_round_left
    obs[HAND_INDEX] = info.hand_index
    obs[OUT + (seat_slot[out_seat] if out_seat >= 0 else NO_SEAT_SLOT)] = 1
    for card in info.pile:
        obs[PILE_SEEN + KIND_OF[card]] += 1


def _write_staged(obs: MutableSequence[float], staged: Sequence[Group], values: list[int]) -> None:
    points = 0
    for group in staged:
        base = STAGED_MELDS + 3 * group.rank
        for card in group.cards:
            kind = KIND_OF[card]
            obs[STAGED + kind] += 1
            obs[base + (1 if kind == JOKER else 2 if kind == DEUCE else 0)] += 1
            points += values[kind]
    obs[STAGED_POINTS] = points / SCALE


def table_changes(
    melds: list[Meld], sizes: list[int], keys: list[int], table: Sequence[Meld], rank_base: list[int]
) -> list[int]:
    """The entry keys (owner slot and rank) whose melds grew or began since ``melds`` (with their
    ``sizes`` and ``keys`` then) were last written from ``table``; brings the three lists up to date."""
    changed: list[int] = []
    for index in range(len(melds)):
        size = len(melds[index].cards)
        if size != sizes[index]:
            sizes[index] = size
            key = keys[index]
            if key not in changed:
                changed.append(key)
    for index in range(len(melds), len(table)):
        meld = table[index]
        key = rank_base[meld.owner] + meld.rank
        melds.append(meld)
        sizes.append(len(meld.cards))
        keys.append(key)
        if key not in changed:
            changed.append(key)
    return changed


def write_rank(obs: MutableSequence[float], key: int, melds: list[Meld], keys: list[int]) -> None:
    """Write the entries of one (owner slot, rank) ``key`` from the table's melds (``keys``: each one's
    key): its latest meld's naturals, jokers and deuces (``meld_open``); the melds before the latest
    (closed books) and their cards (``meld_earlier``)."""
    latest = -1
    earlier = earlier_cards = 0
    for index in range(len(keys)):
        if keys[index] == key:
            if latest >= 0:
                earlier += 1
                earlier_cards += len(melds[latest].cards)
            latest = index
    assert latest >= 0, "a key is written only for the melds that have it"
    meld = melds[latest]
    cards = meld.cards
    wilds = meld.wilds
    jokers = cards.count(JOKER_ID) if wilds else 0
    at = MELD_OPEN + 3 * key
    obs[at] = len(cards) - wilds
    obs[at + 1] = jokers
    obs[at + 2] = wilds - jokers
    at = MELD_EARLIER + 2 * key
    obs[at] = earlier
    obs[at + 1] = earlier_cards


def flags(ids: Sequence[int], size: int) -> bytearray:
    """``size`` bytes, 1 at each of ``ids`` (each below ``size``) and 0 elsewhere: an action mask, which
    numpy reads without a copy (``numpy.frombuffer``)."""
    out = bytearray(size)
    for index in ids:
        out[index] = 1
    return out


def move_flags(flags: memoryview, old: Sequence[int], new: Sequence[int]) -> None:
    """Turn a mask that marks ``old`` into one that marks ``new``: 0 at each of ``old``, then 1 at each of
    ``new`` (``flags``: a memoryview of the mask's bytes)."""
    for index in old:
        flags[index] = 0
    for index in new:
        flags[index] = 1
