"""One seat's observation vector, kept and written where its view changed (the layout in ``layout``).

This is the item-by-item part of ``encode.Encoder``: it needs no numpy (it writes into memoryviews of
float32 buffers) and is compiled with the engine, which it reads from (``SeatInfo``, ``Meld``).

A ``SeatVector`` is one seat's vector at one table, kept from one observation to the next: the first is
written whole (``write_entries``, into a vector holding only the seat's unchanging entries), each later one
only where the seat's view differs from the last one written (``write_changes``), and the table's melds
where they grew or began (``table_changes``, ``write_rank``). Every field is compared, so the vector is the
one written whole for any view given, from any table; it is only quicker when the views follow one table.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, cast

from handfoot import cards as C
from handfoot.engine.moves import Group
from handfoot.engine.state import Meld
from handfoot.engine.views import SeatInfo
from handfoot.rl.layout import KINDS, MAX_SEATS, OFFSETS, POINTS_SCALE, SIZE, START

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
VECTOR_SIZE: Final = SIZE
# the own staged opening (staged, staged_melds, staged_points) is one stretch of the vector, as are the
# table's entries (meld_open, meld_earlier): each is cleared in whole when it changes
STAGED_END: Final = OFFSETS["staged_points"].stop
MELDS: Final = MELD_OPEN
MELDS_END: Final = OFFSETS["meld_earlier"].stop
assert OFFSETS["staged"].stop == STAGED_MELDS and OFFSETS["staged_melds"].stop == STAGED_POINTS
assert OFFSETS["meld_open"].stop == MELD_EARLIER, "meld_open and meld_earlier must be adjacent"


def float_buffer(size: int) -> memoryview[float]:
    """``size`` float32 entries, all 0, as a memoryview (format ``f``, as numpy's float32 arrays show)."""
    return memoryview(bytearray(4 * size)).cast("f")


def as_floats(buffer: memoryview[float]) -> MutableSequence[float]:
    """A memoryview of floats as the sequence it is: item by item, a Python number goes into its slot."""
    return cast(MutableSequence[float], buffer)


ZERO_STAGED: Final = as_floats(float_buffer(STAGED_END - STAGED))
ZERO_FOOT: Final = as_floats(float_buffer(KINDS))
ZERO_PILE: Final = as_floats(float_buffer(KINDS))
ZERO_MELDS: Final = as_floats(float_buffer(MELDS_END - MELDS))


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
    obs[PILE_TOP + _top_entry(pile_top)] = 1
    obs[PILE_SIZE] = info.pile_size
    obs[STOCK] = info.stock_size
    obs[PHASE + int(info.phase)] = 1
    obs[PERMISSION] = info.permission
    obs[LAST_ROUND] = info.last_round_left
    obs[HAND_INDEX] = info.hand_index
    obs[OUT + _out_entry(seat_slot, out_seat)] = 1
    for card in info.pile:
        obs[PILE_SEEN + KIND_OF[card]] += 1


def _write_staged(obs: MutableSequence[float], staged: Sequence[Group], values: list[int]) -> None:
    """Add the seat's staged groups to ``obs``'s staged entries (left at 0): cards per kind, each
    rank's naturals, jokers and deuces, and their points (``values``: each kind's card value)."""
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
    melds: list[Meld],
    sizes: list[int],
    keys: list[int],
    holders: dict[int, list[int]],
    table: Sequence[Meld],
    rank_base: list[int],
) -> list[int]:
    """The entry keys (owner slot and rank) whose melds grew or began since ``melds`` (with their
    ``sizes`` and ``keys`` then, and ``holders``: the indexes of each key's melds) were last written
    from ``table``; brings the four up to date."""
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
        held = holders.get(key)
        if held is None:
            holders[key] = [index]
        else:
            held.append(index)
        if key not in changed:
            changed.append(key)
    return changed


def write_rank(obs: MutableSequence[float], key: int, melds: list[Meld], indexes: list[int]) -> None:
    """Write the entries of one (owner slot, rank) ``key`` from the table's melds (``indexes``: those of
    the key's melds, in table order, at least one): its latest meld's naturals, jokers and deuces
    (``meld_open``); the melds before the latest (closed books) and their cards (``meld_earlier``)."""
    earlier = len(indexes) - 1
    earlier_cards = 0
    for at in range(earlier):
        earlier_cards += len(melds[indexes[at]].cards)
    meld = melds[indexes[earlier]]
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


class SeatVector:
    """One seat's vector at one table, brought up to date view by view (``update``; module docstring).

    ``ones``: the entries that are 1 whatever happens at this table (who is present, who are the
    partners). The vector is ``buffer``, a memoryview of float32 entries (copied out by the encoder), and
    ``entries`` the same memoryview typed as the sequence it is written through."""

    __slots__ = (
        "buffer",
        "entries",
        "first",
        "holders",
        "keys",
        "last",
        "melds",
        "ones",
        "sizes",
        "slots",
        "totals",
    )

    def __init__(self, slots: SeatSlots, ones: list[int]) -> None:
        self.slots = slots
        self.ones = ones
        self.buffer = float_buffer(VECTOR_SIZE)
        self.entries = obs = as_floats(self.buffer)  # the buffer as the sequence it is, made once
        for index in ones:
            obs[index] = 1
        self.last: SeatInfo | None = None  # the view last written, with the totals then
        self.totals: tuple[int, ...] = ()
        self.first: Meld | None = None  # the table's first meld: the melds below are that table's
        self.melds: list[Meld] = []  # the melds met so far in table order, each one's size then and key
        self.sizes: list[int] = []
        self.keys: list[int] = []
        self.holders: dict[int, list[int]] = {}  # each key's melds, by index in ``melds``

    def __reduce__(self) -> tuple[type[SeatVector], tuple[SeatSlots, list[int]]]:
        """Pickled and copied as a new vector (written whole at its next view): what it kept names melds
        by identity."""
        return (SeatVector, (self.slots, self.ones))

    def update(self, info: SeatInfo, totals: Sequence[int]) -> memoryview[float]:
        """The vector for ``info`` (the seat's view, a seat of this vector's) and the game ``totals``:
        ``buffer``, written where it differed from the last view's."""
        obs = self.entries
        last = self.last
        if last is None:
            write_entries(obs, self.slots, info, totals)
        else:
            write_changes(obs, self.slots, last, self.totals, info, totals)
        self._update_table(obs, info.table)
        self.last = info
        self.totals = tuple(totals)
        return self.buffer

    def _update_table(self, obs: MutableSequence[float], table: Sequence[Meld]) -> None:
        """Write the table's entries where its melds grew or began since the last view; cleared and
        written whole for another table (or an older view of this one)."""
        if not table or table[0] is not self.first or len(table) < len(self.melds):
            if self.first is not None:
                obs[MELDS:MELDS_END] = ZERO_MELDS
                self.first = None
                self.melds, self.sizes, self.keys, self.holders = [], [], [], {}
            if not table:
                return
            self.first = table[0]
        melds, holders = self.melds, self.holders
        for key in table_changes(melds, self.sizes, self.keys, holders, table, self.slots.rank_base):
            write_rank(obs, key, melds, holders[key])


def write_changes(
    obs: MutableSequence[float],
    slots: SeatSlots,
    last: SeatInfo,
    last_totals: Sequence[int],
    info: SeatInfo,
    totals: Sequence[int],
) -> None:
    """Bring ``obs``, the vector ``write_entries`` (and later calls of this) wrote for ``last`` and
    ``last_totals``, to the one it writes for ``info`` and ``totals``: each entry whose value differs is
    written, the rest left as they are (the table's melds aside)."""
    old_kinds, kinds = last.kinds, info.kinds
    if old_kinds != kinds:
        for kind in range(len(kinds)):
            if old_kinds[kind] != kinds[kind]:
                obs[HAND + kind] = kinds[kind]
    if last.staged != info.staged:
        obs[STAGED:STAGED_END] = ZERO_STAGED
        if info.staged:
            _write_staged(obs, info.staged, slots.values)
    if last.foot != info.foot:
        obs[FOOT : FOOT + NUM_KINDS] = ZERO_FOOT
        for card in info.foot:
            obs[FOOT + KIND_OF[card]] += 1
    seat_slot = slots.seat_slot
    old_hands, hands = last.hand_counts, info.hand_counts
    old_in_foot, in_foot = last.in_foot, info.in_foot
    old_feet, feet = last.foot_counts, info.foot_counts
    old_known, known = last.known, info.known
    for seat in range(len(seat_slot)):
        if old_hands[seat] != hands[seat]:
            obs[SEAT_HAND + seat_slot[seat]] = hands[seat]
    # who is in their Foot and the Feet's sizes change on few moves: compared whole first
    if old_in_foot != in_foot:
        _write_changed(obs, SEAT_IN_FOOT, seat_slot, old_in_foot, in_foot, 1.0)
    if old_feet != feet:
        _write_changed(obs, SEAT_FOOT, seat_slot, old_feet, feet, 1.0)
    if old_known != known:  # what is known of a seat's cards changes on few moves: compared whole first
        for seat in range(len(seat_slot)):
            was, seen = old_known[seat], known[seat]
            if was != seen:
                at = SEAT_KNOWN + NUM_KINDS * seat_slot[seat]
                for kind in range(len(seen)):
                    if was[kind] != seen[kind]:
                        obs[at + kind] = seen[kind]
    if last.to_move != info.to_move:
        _move_one_hot(obs, SEAT_TO_MOVE, seat_slot, last.to_move, info.to_move)
    if last.turn_seat != info.turn_seat:
        _move_one_hot(obs, SEAT_TURN, seat_slot, last.turn_seat, info.turn_seat)
    if last.dealer != info.dealer:
        _move_one_hot(obs, SEAT_DEALER, seat_slot, last.dealer, info.dealer)
    owner_slot = slots.owner_slot
    old_down, down = last.down, info.down
    old_minimums, minimums = last.minimums, info.minimums
    old_books, books = last.books, info.books
    # whether the owners are down, their minimums and books and the red 3s change on few moves: each
    # is compared whole first
    if old_down != down:
        _write_changed(obs, OWNER_DOWN, owner_slot, old_down, down, 1.0)
    if old_minimums != minimums:
        _write_changed(obs, OWNER_MINIMUM, owner_slot, old_minimums, minimums, SCALE)
    if old_books != books:
        for owner in range(len(owner_slot)):
            book = books[owner]
            if old_books[owner] != book:
                at = OWNER_BOOKS + 3 * owner_slot[owner]
                obs[at] = book[0]
                obs[at + 1] = book[1]
                obs[at + 2] = book[2]
    side_slot = slots.side_slot
    old_red, red = last.red_threes, info.red_threes
    if old_red != red:
        for side in range(len(side_slot)):
            if len(old_red[side]) != len(red[side]):
                obs[SIDE_RED + side_slot[side]] = len(red[side])
    for side in range(len(side_slot)):  # (a list and a tuple of the same totals are unequal whole)
        if last_totals[side] != totals[side]:
            obs[SIDE_TOTAL + side_slot[side]] = totals[side] / SCALE
    if last.pile_top != info.pile_top:
        _move_hot(obs, PILE_TOP, _top_entry(last.pile_top), _top_entry(info.pile_top))
    if last.pile_size != info.pile_size:
        obs[PILE_SIZE] = info.pile_size
    if last.stock_size != info.stock_size:
        obs[STOCK] = info.stock_size
    if last.phase is not info.phase:
        _move_hot(obs, PHASE, int(last.phase), int(info.phase))
    if last.permission != info.permission:
        obs[PERMISSION] = info.permission
    if last.last_round_left != info.last_round_left:
        obs[LAST_ROUND] = info.last_round_left
    if last.hand_index != info.hand_index:
        obs[HAND_INDEX] = info.hand_index
    if last.out_seat != info.out_seat:
        _move_hot(obs, OUT, _out_entry(seat_slot, last.out_seat), _out_entry(seat_slot, info.out_seat))
    if last.pile != info.pile:
        obs[PILE_SEEN : PILE_SEEN + NUM_KINDS] = ZERO_PILE
        for card in info.pile:
            obs[PILE_SEEN + KIND_OF[card]] += 1


def _write_changed(
    obs: MutableSequence[float],
    start: int,
    slot_of: list[int],
    old: Sequence[int],
    new: Sequence[int],
    scale: float,
) -> None:
    """Write ``new[i] / scale`` at ``start + slot_of[i]`` for each ``i`` (a seat or owner) where ``new``
    differs from ``old`` (a flag is written as 1 or 0)."""
    for index in range(len(slot_of)):
        if old[index] != new[index]:
            obs[start + slot_of[index]] = new[index] / scale


def _move_one_hot(obs: MutableSequence[float], start: int, slot_of: list[int], was: int, now: int) -> None:
    """Move a one-hot over seat slots from seat ``was`` to seat ``now`` (-1: none)."""
    if was != now:
        if was >= 0:
            obs[start + slot_of[was]] = 0
        if now >= 0:
            obs[start + slot_of[now]] = 1


def _move_hot(obs: MutableSequence[float], start: int, was: int, now: int) -> None:
    """Move a one-hot that is always set from entry ``was`` to entry ``now`` of the field at ``start``."""
    if was != now:
        obs[start + was] = 0
        obs[start + now] = 1


def _top_entry(card: int) -> int:
    """The pile_top entry of a top card (the last one: the pile is empty)."""
    return KIND_OF[card] if card >= 0 else NUM_KINDS


def _out_entry(slot_of: list[int], seat: int) -> int:
    """The out_seat entry of the seat that went out (the last one: nobody)."""
    return slot_of[seat] if seat >= 0 else NO_SEAT_SLOT
