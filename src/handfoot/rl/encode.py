"""The observation vector of one seat, built from that seat's view alone (layout in ``layout``).

``Encoder.encode`` reads nothing but its arguments: the seat's ``SeatInfo`` (the engine's view of a seat,
the same knowledge as its ``View`` in the shapes it is kept in: own cards as counts, sizes, the table),
its staged opening among them, and the public game totals. It never sees a ``HandState``, so it cannot
leak another hand, a Foot, the stock or the hidden part of the pile.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from handfoot import cards as C
from handfoot.engine import Seating
from handfoot.engine.views import SeatInfo
from handfoot.rl.fill import SeatSlots, SeatVector
from handfoot.rl.layout import MAX_SEATS, START
from handfoot.rules.options import RuleSet

_SEAT_PRESENT = START["seat_present"]
_SEAT_PARTNER = START["seat_partner"]
_OWNER_PRESENT = START["owner_present"]
_SIDE_PRESENT = START["side_present"]
FLOAT32 = np.dtype(np.float32)
# Seat vectors kept at once by one encoder (a batch of tables shares one: 32 tables of 4 seats is 128); one
# more and they all start afresh.
_VECTORS_KEPT = 512


def _order(first: int, items: Sequence[int]) -> list[int]:
    """Distinct values of ``items`` (indexed by seat) met going around from seat ``first``."""
    out: list[int] = []
    count = len(items)
    for step in range(count):
        value = items[(first + step) % count]
        if value not in out:
            out.append(value)
    return out


class Encoder:
    """Observation vectors for one table (rules and player count): relative slots are worked out once.

    Each seat's vector is kept per table named (``table``; one encoder may serve several tables, as
    ``BatchEnv``'s does) and written again only where the seat's view changed since (``fill.SeatVector``):
    a vector is the same as one encoded afresh."""

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
        # present, who are the partners)
        self.ones = [
            [
                *(_SEAT_PRESENT + slot for slot in range(players)),
                *(_SEAT_PARTNER + slot for slot in self.partner_slots[me]),
                *(_OWNER_PRESENT + slot for slot in self.owner_slot[me]),
                *(_SIDE_PRESENT + slot for slot in self.side_slot[me]),
            ]
            for me in range(players)
        ]
        self._vectors: dict[tuple[int, int], tuple[SeatVector, npt.NDArray[np.float32]]] = {}

    def __getstate__(self) -> dict[str, object]:
        """Pickled (and deep-copied) without the kept seat vectors: they name melds by identity."""
        state = dict(self.__dict__)
        state["_vectors"] = {}
        return state

    def encode(self, info: SeatInfo, totals: Sequence[int], table: int = 0) -> npt.NDArray[np.float32]:
        """The observation vector of ``info.seat`` (a seat, not a spectator) from its ``SeatInfo`` (the
        engine's view of that seat, with the groups it has staged this turn for an opening: its own cards)
        and the game totals per side (public): a new array. ``table`` names the table the view is from, for
        an encoder shared by several (module ``fill``: any view gives the same vector, the views of one
        table the quickest)."""
        vector, entries = self._kept(info, table)
        vector.update(info, totals)
        return entries.copy()

    def encode_into(
        self,
        out: npt.NDArray[np.float32],
        info: SeatInfo,
        totals: Sequence[int],
        table: int = 0,
    ) -> None:
        """``encode`` written into ``out`` (a C-contiguous float32 array of ``SIZE``, such as one row of a
        batch), every entry overwritten; no array is allocated. Raises ValueError for a seat that is not
        one of this table's."""
        view: memoryview[float] = memoryview(out)  # type: ignore[arg-type]  # numpy's float32: format "f"
        view[:] = self._kept(info, table)[0].update(info, totals)

    def _kept(self, info: SeatInfo, table: int) -> tuple[SeatVector, npt.NDArray[np.float32]]:
        """The kept vector of ``info.seat`` at ``table`` (made where there is none yet), with an array
        of its entries (the same memory). Raises ValueError for a seat that is not one of this table's."""
        me = info.seat
        if not 0 <= me < self.players:
            raise ValueError(f"seat {me} is not a seat of this {self.players}-player table")
        kept = self._vectors.get((table, me))
        if kept is None:
            if len(self._vectors) >= _VECTORS_KEPT:
                self._vectors.clear()
            vector = SeatVector(self.slots[me], self.ones[me])
            entries = np.frombuffer(vector.buffer, FLOAT32)  # type: ignore[arg-type]  # float32: format "f"
            kept = self._vectors[(table, me)] = (vector, entries)
        return kept
