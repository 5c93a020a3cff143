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
from handfoot.engine import Meld, Seating
from handfoot.engine.views import SeatInfo
from handfoot.rl.fill import SeatSlots, table_changes, write_entries, write_rank
from handfoot.rl.layout import MAX_SEATS, OFFSETS, SIZE, START
from handfoot.rules.options import RuleSet

_SEAT_PRESENT = START["seat_present"]
_SEAT_PARTNER = START["seat_partner"]
_OWNER_PRESENT = START["owner_present"]
_SIDE_PRESENT = START["side_present"]
# The table's entries, meld_open then meld_earlier: one stretch of the vector, kept per observer and table
# (``_TableEntries``) and copied in whole.
_MELDS = START["meld_open"]
_MELDS_END = OFFSETS["meld_earlier"].stop
assert OFFSETS["meld_open"].stop == START["meld_earlier"], "meld_open and meld_earlier must be adjacent"
# Tables' entries kept at once by one encoder (a batch of tables shares one: 32 tables of 4 seats is 128);
# one more starts afresh.
_TABLES_KEPT = 512


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
    """One observer's table as last written (``Encoder._table_base``): the melds met so far, in table order
    (the engine only adds melds to the end and cards to a meld), each one's size then and its entry key,
    and the observer's vector as it starts at this table (its unchanging entries and the table's)."""

    __slots__ = ("base", "first", "keys", "melds", "sizes")

    def __init__(self, first: Meld, static: npt.NDArray[np.float32]) -> None:
        self.first = first  # the table's first meld: held, so its id names this table while the entry lives
        self.melds: list[Meld] = []
        self.sizes: list[int] = []
        self.keys: list[int] = []
        self.base: npt.NDArray[np.float32] = static.copy()


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
        self.slots = [
            SeatSlots(self.seat_slot[me], self.owner_slot[me], self.side_slot[me], self.values)
            for me in range(players)
        ]
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
        # entries are written one by one through a memoryview (``fill``, compiled with the engine): a
        # number into a float32 slot, no array built for a handful of values
        obs: MutableSequence[float] = memoryview(out)  # type: ignore[arg-type,assignment]
        if info.table:
            self._encode_table(out, obs, me, info.table)
        else:
            out[:] = self.static[me]
        write_entries(obs, self.slots[me], info, totals)

    def _encode_table(
        self, out: npt.NDArray[np.float32], obs: MutableSequence[float], me: int, table: Sequence[Meld]
    ) -> None:
        """Start ``out`` as seat ``me``'s vector at this table with the table's entries (``meld_open``,
        ``meld_earlier``) written: copied from what was written for ``me`` at this table before, the ranks
        whose melds grew or began since then written again."""
        first = table[0]
        entry = self._tables.get((me, id(first)))  # the entry holds ``first``: no other meld has its id
        if entry is None or len(table) < len(entry.melds):  # none yet, or a view older than the entries
            if len(self._tables) >= _TABLES_KEPT:
                self._tables.clear()
            entry = self._tables[(me, id(first))] = _TableEntries(first, self.static[me])
        out[:] = entry.base
        melds, keys = entry.melds, entry.keys
        changed = table_changes(melds, entry.sizes, keys, table, self.slots[me].rank_base)
        if changed:
            for key in changed:
                write_rank(obs, key, melds, keys)
            entry.base[_MELDS:_MELDS_END] = out[_MELDS:_MELDS_END]
