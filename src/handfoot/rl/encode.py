"""The observation vector of one seat, built from that seat's ``View`` alone (layout in ``layout``).

``Encoder.encode`` reads nothing but its arguments: the seat's view, the public game totals and the
seat's own staged opening. It never sees a ``HandState``, so it cannot leak another hand, a Foot, the
stock or the hidden part of the pile.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from handfoot import cards as C
from handfoot.engine import Group, MeldView, Seating, View
from handfoot.rl.layout import KINDS, MAX_SEATS, POINTS_SCALE, SIZE, START
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


_ZEROS = array("f", bytes(4 * SIZE))
_NONE_KNOWN = (0,) * KINDS


def _kind_counts(cards: Sequence[int]) -> array[float]:
    """Cards per kind, as float32 entries to copy into the vector."""
    counts = [0] * KINDS
    for card in cards:
        counts[KIND_OF[card]] += 1
    return array("f", counts)


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
    """Observation vectors for one table (rules and player count): relative slots are worked out once."""

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

    def encode(self, v: View, totals: Sequence[int], staged: Sequence[Group] = ()) -> npt.NDArray[np.float32]:
        """The observation vector of ``v.seat`` (a seat, not a spectator): its view, the game totals per
        side (public), and the groups it has staged this turn for an opening (its own cards)."""
        me = v.seat
        if not 0 <= me < self.players:
            raise ValueError(f"seat {me} is not a seat of this {self.players}-player table")
        obs = _ZEROS[:]  # filled as an array.array (cheap item writes), handed out as a numpy view of it
        obs[_HAND : _HAND + KINDS] = _kind_counts(v.hand)
        if staged:
            self._encode_staged(obs, staged)
        if v.foot:
            obs[_FOOT : _FOOT + KINDS] = _kind_counts(v.foot)
        seat_slot = self.seat_slot[me]
        for seat, info in enumerate(v.seats):
            slot = seat_slot[seat]
            obs[_SEAT_PRESENT + slot] = 1
            obs[_SEAT_HAND + slot] = info.hand_count
            obs[_SEAT_IN_FOOT + slot] = info.in_foot
            obs[_SEAT_FOOT + slot] = info.foot_count
            if info.known != _NONE_KNOWN:
                base = _SEAT_KNOWN + KINDS * slot
                obs[base : base + KINDS] = array("f", info.known)
        for slot in self.partner_slots[me]:
            obs[_SEAT_PARTNER + slot] = 1
        if v.to_move >= 0:
            obs[_SEAT_TO_MOVE + seat_slot[v.to_move]] = 1
        obs[_SEAT_TURN + seat_slot[v.turn_seat]] = 1
        obs[_SEAT_DEALER + seat_slot[v.dealer]] = 1
        owner_slot = self.owner_slot[me]
        for owner in range(self.num_owners):
            slot = owner_slot[owner]
            obs[_OWNER_PRESENT + slot] = 1
            obs[_OWNER_DOWN + slot] = v.down[owner]
            obs[_OWNER_MINIMUM + slot] = v.minimums[owner] / POINTS_SCALE
            clean, dirty, wild = v.books[owner]
            at = _OWNER_BOOKS + 3 * slot
            obs[at] = clean
            obs[at + 1] = dirty
            obs[at + 2] = wild
        latest: dict[int, MeldView] = {}  # the last meld of each (owner slot, rank): the open one
        for meld in v.melds:
            key = KINDS * owner_slot[meld.owner] + meld.rank
            earlier = latest.get(key)
            if earlier is not None:  # a closed book of this rank came first
                obs[_MELD_EARLIER + 2 * key] += 1
                obs[_MELD_EARLIER + 2 * key + 1] += len(earlier.cards)
            latest[key] = meld
        for key, meld in latest.items():
            at = _MELD_OPEN + 3 * key
            jokers = meld.cards.count(JOKER_ID)
            obs[at] = len(meld.cards) - meld.wilds
            obs[at + 1] = jokers
            obs[at + 2] = meld.wilds - jokers
        side_slot = self.side_slot[me]
        for side in range(self.num_sides):
            slot = side_slot[side]
            obs[_SIDE_PRESENT + slot] = 1
            obs[_SIDE_RED + slot] = len(v.red_threes[side])
            obs[_SIDE_TOTAL + slot] = totals[side] / POINTS_SCALE
        obs[_PILE_TOP + (KIND_OF[v.pile_top] if v.pile_top >= 0 else KINDS)] = 1
        obs[_PILE_SIZE] = v.pile_size
        if v.pile:
            obs[_PILE_SEEN : _PILE_SEEN + KINDS] = _kind_counts(v.pile)
        obs[_STOCK] = v.stock_size
        obs[_PHASE + int(v.phase)] = 1
        obs[_PERMISSION] = v.permission
        obs[_LAST_ROUND] = v.last_round_left
        obs[_HAND_INDEX] = v.hand_index
        obs[_OUT + (seat_slot[v.out_seat] if v.out_seat >= 0 else MAX_SEATS)] = 1
        return np.frombuffer(obs, dtype=np.float32)

    def _encode_staged(self, obs: array[float], staged: Sequence[Group]) -> None:
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
