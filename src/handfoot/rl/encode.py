"""The observation vector of one seat, built from that seat's view alone (layout in ``layout``).

``Encoder.encode`` reads nothing but its arguments: the seat's ``SeatInfo`` (the engine's view of a seat,
the same knowledge as its ``View`` in the shapes it is kept in: own cards as counts, sizes, the table),
its staged opening among them, and the public game totals. It never sees a ``HandState``, so it cannot
leak another hand, a Foot, the stock or the hidden part of the pile.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

import numpy as np
import numpy.typing as npt

from handfoot import cards as C
from handfoot.engine import Group, Meld, Seating
from handfoot.engine.views import SeatInfo
from handfoot.rl.layout import KINDS, MAX_SEATS, OFFSETS, POINTS_SCALE, SIZE, START
from handfoot.rules.options import RuleSet

KIND_OF = C.KIND_OF
JOKER, DEUCE, JOKER_ID = C.JOKER, C.DEUCE, C.JOKER_ID

_HAND = START["hand"]
_STAGED = START["staged"]
_STAGED_MELDS = START["staged_melds"]
_STAGED_POINTS = START["staged_points"]
_FOOT = START["foot"]
_SEAT_PRESENT = START["seat_present"]
_SEAT_HAND = START["seat_hand_count"]
_SEAT_IN_FOOT = START["seat_in_foot"]
_SEAT_FOOT = START["seat_foot_count"]
_SEAT_PARTNER = START["seat_partner"]
_SEAT_TO_MOVE = START["seat_to_move"]
_SEAT_TURN = START["seat_turn"]
_SEAT_DEALER = START["seat_dealer"]
_SEAT_KNOWN = START["seat_known"]
_OWNER_PRESENT = START["owner_present"]
_OWNER_DOWN = START["owner_down"]
_OWNER_MINIMUM = START["owner_minimum"]
_OWNER_BOOKS = START["owner_books"]
_MELD_OPEN = START["meld_open"]
_MELD_EARLIER = START["meld_earlier"]
_SIDE_PRESENT = START["side_present"]
_SIDE_RED = START["side_red_threes"]
_SIDE_TOTAL = START["side_total"]
_PILE_TOP = START["pile_top"]
_PILE_SIZE = START["pile_size"]
_PILE_SEEN = START["pile_seen"]
_STOCK = START["stock_size"]
_PHASE = START["phase"]
_PERMISSION = START["permission"]
_LAST_ROUND = START["last_round_left"]
_HAND_INDEX = START["hand_index"]
_OUT = START["out_seat"]


_NONE_KNOWN = (0,) * KINDS
# The table's entries, meld_open then meld_earlier: one stretch of the vector, kept per observer and table
# (``_TableEntries``) and copied in whole.
_MELDS = START["meld_open"]
_MELDS_END = OFFSETS["meld_earlier"].stop
assert OFFSETS["meld_open"].stop == START["meld_earlier"], "meld_open and meld_earlier must be adjacent"
# Tables' entries kept at once by one encoder (a batch of tables shares one: 32 tables of 4 seats is 128);
# one more starts afresh.
_TABLES_KEPT = 512


def _slots(out: npt.NDArray[np.float32]) -> MutableSequence[float]:
    """``out``'s entries as a memoryview: item by item, a Python number goes straight into its slot."""
    view: MutableSequence[float] = memoryview(out)  # type: ignore[arg-type,assignment]
    return view


def _order(first: int, items: Sequence[int]) -> list[int]:
    """Distinct values of ``items`` (indexed by seat) met going around from seat ``first``."""
    out: list[int] = []
    count = len(items)
    for step in range(count):
        value = items[(first + step) % count]
        if value not in out:
            out.append(value)
    return out


class _TableEntries:
    """One observer's table entries as last written (``Encoder._encode_table``): the melds met so far, in
    table order (the engine only adds melds to the end and cards to a meld), each one's size then and its
    entry key, and the entries themselves."""

    __slots__ = ("block", "first", "keys", "melds", "sizes")

    def __init__(self, first: Meld) -> None:
        self.first = first  # the table's first meld: held, so its id names this table while the entry lives
        self.melds: list[Meld] = []
        self.sizes: list[int] = []
        self.keys: list[int] = []
        self.block: npt.NDArray[np.float32] = np.zeros(_MELDS_END - _MELDS, dtype=np.float32)


class Encoder:
    """Observation vectors for one table (rules and player count): relative slots are worked out once.

    The table's entries (each meld's) change a meld at a time, so they are kept per observing seat and
    table (by the table's first meld) and only the ranks whose melds changed are written again; a vector
    is the same as one encoded afresh."""

    def __init__(self, rules: RuleSet, players: int) -> None:
        if not 1 <= players <= MAX_SEATS:
            raise ValueError(f"{players} players: the observation has room for 1 to {MAX_SEATS}")
        seating = Seating(rules, players)
        self.rules = rules
        self.players = players
        self.values = [rules.card_value(kind) for kind in range(C.RED_THREE)] + [0]
        # per observing seat: slot of each seat, of each side, of each meld owner
        self.seat_slot = [[(seat - me) % players for seat in range(players)] for me in range(players)]
        self.side_slot: list[list[int]] = []
        self.owner_slot: list[list[int]] = []
        self.partner_slots: list[list[int]] = []
        for me in range(players):
            sides = _order(me, seating.side_of)
            owners = _order(me, seating.owner_of)
            self.side_slot.append([sides.index(side) for side in range(seating.num_sides)])
            self.owner_slot.append([owners.index(owner) for owner in range(seating.num_owners)])
            self.partner_slots.append([self.seat_slot[me][p] for p in seating.partners[me]])
        self.num_sides = seating.num_sides
        self.num_owners = seating.num_owners
        self.rank_base = [[KINDS * slot for slot in slots] for slots in self.owner_slot]
        # per observing seat: the vector's entries that are 1 at this table whatever happens (who is
        # present, who are the partners); every vector of that seat starts as a copy of it
        self.static: list[npt.NDArray[np.float32]] = []
        for me in range(players):
            base = np.zeros(SIZE, dtype=np.float32)
            for index in (
                *(_SEAT_PRESENT + slot for slot in range(players)),
                *(_SEAT_PARTNER + slot for slot in self.partner_slots[me]),
                *(_OWNER_PRESENT + slot for slot in self.owner_slot[me]),
                *(_SIDE_PRESENT + slot for slot in self.side_slot[me]),
            ):
                base[index] = 1
            self.static.append(base)
        self._tables: dict[tuple[int, int], _TableEntries] = {}

    def __getstate__(self) -> dict[str, object]:
        """Pickled (and deep-copied) without the kept table entries: they name melds by identity."""
        state = dict(self.__dict__)
        state["_tables"] = {}
        return state

    def encode(self, info: SeatInfo, totals: Sequence[int]) -> npt.NDArray[np.float32]:
        """The observation vector of ``info.seat`` (a seat, not a spectator) from its ``SeatInfo`` (the
        engine's view of that seat, with the groups it has staged this turn for an opening: its own cards)
        and the game totals per side (public): a new array."""
        out = np.empty(SIZE, dtype=np.float32)
        self.encode_into(out, info, totals)
        return out

    def encode_into(
        self,
        out: npt.NDArray[np.float32],
        info: SeatInfo,
        totals: Sequence[int],
    ) -> None:
        """``encode`` written into ``out`` (a C-contiguous float32 array of ``SIZE``, such as one row of a
        batch), every entry overwritten; no array is allocated. Raises ValueError for a seat that is not
        one of this table's."""
        me = info.seat
        if not 0 <= me < self.players:
            raise ValueError(f"seat {me} is not a seat of this {self.players}-player table")
        out[:] = self.static[me]
        # entries are written one by one through a memoryview: a Python number into a float32 slot,
        # no array built for a handful of values
        obs = _slots(out)
        at = _HAND
        for count in info.kinds:
            if count:
                obs[at] = count
            at += 1
        if info.staged:
            self._encode_staged(obs, info.staged)
        if info.foot:
            for card in info.foot:
                obs[_FOOT + KIND_OF[card]] += 1
        seat_slot = self.seat_slot[me]
        hand_counts, in_foot, foot_counts = info.hand_counts, info.in_foot, info.foot_counts
        known = info.known
        for seat, slot in enumerate(seat_slot):
            obs[_SEAT_HAND + slot] = hand_counts[seat]
            obs[_SEAT_IN_FOOT + slot] = in_foot[seat]
            obs[_SEAT_FOOT + slot] = foot_counts[seat]
            seen = known[seat]
            if seen != _NONE_KNOWN:
                at = _SEAT_KNOWN + KINDS * slot
                for count in seen:
                    if count:
                        obs[at] = count
                    at += 1
        if info.to_move >= 0:
            obs[_SEAT_TO_MOVE + seat_slot[info.to_move]] = 1
        obs[_SEAT_TURN + seat_slot[info.turn_seat]] = 1
        obs[_SEAT_DEALER + seat_slot[info.dealer]] = 1
        down, minimums, books = info.down, info.minimums, info.books
        for owner, slot in enumerate(self.owner_slot[me]):
            obs[_OWNER_DOWN + slot] = down[owner]
            obs[_OWNER_MINIMUM + slot] = minimums[owner] / POINTS_SCALE
            at = _OWNER_BOOKS + 3 * slot
            clean, dirty, wild = books[owner]
            obs[at] = clean
            obs[at + 1] = dirty
            obs[at + 2] = wild
        if info.table:
            self._encode_table(out, obs, me, info.table)
        red_threes = info.red_threes
        for side, slot in enumerate(self.side_slot[me]):
            obs[_SIDE_RED + slot] = len(red_threes[side])
            obs[_SIDE_TOTAL + slot] = totals[side] / POINTS_SCALE
        pile_top = info.pile_top
        out_seat = info.out_seat
        obs[_PILE_TOP + (KIND_OF[pile_top] if pile_top >= 0 else KINDS)] = 1
        obs[_PILE_SIZE] = info.pile_size
        obs[_STOCK] = info.stock_size
        obs[_PHASE + int(info.phase)] = 1
        obs[_PERMISSION] = info.permission
        obs[_LAST_ROUND] = info.last_round_left
        obs[_HAND_INDEX] = info.hand_index
        obs[_OUT + (seat_slot[out_seat] if out_seat >= 0 else MAX_SEATS)] = 1
        if info.pile:
            for card in info.pile:
                obs[_PILE_SEEN + KIND_OF[card]] += 1

    def _encode_table(
        self, out: npt.NDArray[np.float32], obs: MutableSequence[float], me: int, table: Sequence[Meld]
    ) -> None:
        """Write the table's entries (``meld_open``, ``meld_earlier``) as seat ``me`` sees them: copied
        from what was written for ``me`` at this table before, the ranks whose melds grew or began since
        then written again."""
        first = table[0]
        entry = self._tables.get((me, id(first)))  # the entry holds ``first``: no other meld has its id
        if entry is None or len(table) < len(entry.melds):  # none yet, or a view older than the entries
            if len(self._tables) >= _TABLES_KEPT:
                self._tables.clear()
            entry = self._tables[(me, id(first))] = _TableEntries(first)  # the entries start all zero
        else:
            out[_MELDS:_MELDS_END] = entry.block
        melds, sizes, keys = entry.melds, entry.sizes, entry.keys
        changed: list[int] = []
        for index, meld in enumerate(melds):
            size = len(meld.cards)
            if size != sizes[index]:
                sizes[index] = size
                if keys[index] not in changed:
                    changed.append(keys[index])
        rank_base = self.rank_base[me]  # KINDS * owner slot, per owner
        for meld in table[len(melds) :]:
            key = rank_base[meld.owner] + meld.rank
            melds.append(meld)
            sizes.append(len(meld.cards))
            keys.append(key)
            if key not in changed:
                changed.append(key)
        if not changed:
            return
        for key in changed:
            _write_rank(obs, key, melds, keys)
        entry.block[:] = out[_MELDS:_MELDS_END]

    def _encode_staged(self, obs: MutableSequence[float], staged: Sequence[Group]) -> None:
        values = self.values
        points = 0
        for group in staged:
            base = _STAGED_MELDS + 3 * group.rank
            for card in group.cards:
                kind = KIND_OF[card]
                obs[_STAGED + kind] += 1
                obs[base + (1 if kind == JOKER else 2 if kind == DEUCE else 0)] += 1
                points += values[kind]
        obs[_STAGED_POINTS] = points / POINTS_SCALE


def _write_rank(obs: MutableSequence[float], key: int, melds: Sequence[Meld], keys: Sequence[int]) -> None:
    """Write the entries of one (owner slot, rank) ``key`` from the table's melds (``keys``: each one's
    key): its latest meld's naturals, jokers and deuces (``meld_open``); the melds before the latest
    (closed books) and their cards (``meld_earlier``)."""
    latest: Meld | None = None
    earlier = earlier_cards = 0
    for index, meld_key in enumerate(keys):
        if meld_key == key:
            if latest is not None:
                earlier += 1
                earlier_cards += len(latest.cards)
            latest = melds[index]
    assert latest is not None, "a key is written only for the melds that have it"
    cards = latest.cards
    wilds = latest.wilds
    jokers = cards.count(JOKER_ID) if wilds else 0
    at = _MELD_OPEN + 3 * key
    obs[at] = len(cards) - wilds
    obs[at + 1] = jokers
    obs[at + 2] = wilds - jokers
    at = _MELD_EARLIER + 2 * key
    obs[at] = earlier
    obs[at + 1] = earlier_cards
