"""Views: what one seat (or a spectator) may know, and worlds sampled to fit a view.

A ``View`` holds no other hand, no Foot's cards, no stock order and no seed: only the viewer's own
cards, counts for everyone else, the table, the pile's top and size (all of it where the rules show
it), and cards a seat was publicly seen to take. ``sample_world`` deals the unseen cards at random
into a full ``HandState`` whose view, for the same seat, is the same view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from handfoot import cards as C
from handfoot.engine.moves import Group
from handfoot.engine.shuffle import shuffle
from handfoot.engine.state import EndReason, HandState, Meld, Phase
from handfoot.rules.options import PileVisible, RuleSet

SPECTATOR: Final = -1
KIND_OF: Final = C.KIND_OF
PILE_ALL: Final = PileVisible.ALL  # read for every SeatInfo: looked up once


@dataclass(frozen=True)
class SeatView:
    """What anyone may know of one seat."""

    hand_count: int
    in_foot: bool
    foot_count: int
    known: tuple[int, ...]  # cards by kind this seat is publicly known to hold

    def __reduce__(self) -> tuple[type[SeatView], tuple[object, ...]]:
        """Pickled and copied through the constructor (compiled with mypyc, the only way one is made)."""
        return (SeatView, (self.hand_count, self.in_foot, self.foot_count, self.known))


@dataclass(frozen=True)
class MeldView:
    """A meld on the table."""

    owner: int
    rank: int
    cards: tuple[int, ...]
    wilds: int

    def __reduce__(self) -> tuple[type[MeldView], tuple[object, ...]]:
        """Pickled and copied through the constructor (compiled with mypyc, the only way one is made)."""
        return (MeldView, (self.owner, self.rank, self.cards, self.wilds))


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a hand in play (``seat == SPECTATOR`` for the public view)."""

    rules: RuleSet
    players: int
    seat: int
    hand_index: int
    dealer: int
    turn_seat: int
    to_move: int
    phase: Phase
    permission: int
    hand: tuple[int, ...]  # the viewer's own cards, sorted (empty for a spectator)
    foot: tuple[
        int, ...
    ]  # the viewer's unplayed Foot, sorted, where the rules let it be seen (pick_foot_seen)
    seats: tuple[SeatView, ...]
    melds: tuple[MeldView, ...]
    red_threes: tuple[tuple[int, ...], ...]  # laid down, per side
    down: tuple[bool, ...]  # per meld owner
    minimums: tuple[int, ...]  # per meld owner
    books: tuple[tuple[int, int, int], ...]  # clean, dirty, wild per meld owner
    pile_top: int  # card id, or -1 when the pile is empty
    pile_size: int
    pile: tuple[int, ...]  # the whole pile, bottom first, only where the rules show it
    stock_size: int
    last_round_left: int
    out_seat: int
    end_reason: EndReason
    move_count: int
    turn_wilds: tuple[tuple[int, int], ...] = ()  # (meld index, wilds added to it this turn)
    # the viewer's own groups set aside this turn (``stage``; still in ``hand``), empty for anyone else
    staged: tuple[Group, ...] = ()
    cancelled: bool = False  # a staging was cancelled in this phase: the next cannot be (public)

    def __reduce__(self) -> tuple[type[View], tuple[object, ...]]:
        """Pickled and copied through the constructor (compiled with mypyc, the only way one is made),
        its fields in their order."""
        return (
            View,
            (
                self.rules,
                self.players,
                self.seat,
                self.hand_index,
                self.dealer,
                self.turn_seat,
                self.to_move,
                self.phase,
                self.permission,
                self.hand,
                self.foot,
                self.seats,
                self.melds,
                self.red_threes,
                self.down,
                self.minimums,
                self.books,
                self.pile_top,
                self.pile_size,
                self.pile,
                self.stock_size,
                self.last_round_left,
                self.out_seat,
                self.end_reason,
                self.move_count,
                self.turn_wilds,
                self.staged,
                self.cancelled,
            ),
        )


class SeatInfo:
    """What one seat may know of a hand, read cheaply for a bot's decision (``seat_info``).

    It holds the same knowledge as the seat's ``View`` (``freeze()`` returns that View), in the shapes a
    bot computes with: the seat's own cards as counts (``kinds`` by kind, ``held`` by card id), hand and
    Foot sizes per seat, and the table's melds as the engine keeps them. Nothing in it is hidden from the
    seat: it is built from the seat's own cards and the public table, never from another hand, a Foot's
    cards, the stock's order or the hidden part of the pile.

    It is meant for the decision it was made for: ``table`` holds the table's own meld objects (read
    them, never change them), which later moves extend; ``freeze()`` gives a lasting, frozen value.
    ``caps``, where the runner knows them (``Game.seat_info``), are public upper bounds on the cards of
    each kind each seat holds, inferred from what everyone saw it do (see ``engine.facts``).
    """

    __slots__ = (
        "books",
        "cancelled",
        "caps",
        "dealer",
        "down",
        "end_reason",
        "foot",
        "foot_counts",
        "hand_counts",
        "hand_index",
        "held",
        "in_foot",
        "kinds",
        "known",
        "last_round_left",
        "minimums",
        "move_count",
        "out_seat",
        "permission",
        "phase",
        "pile",
        "pile_size",
        "pile_top",
        "players",
        "red_threes",
        "rules",
        "seat",
        "staged",
        "stock_size",
        "table",
        "to_move",
        "turn_seat",
        "turn_wilds",
    )

    def __init__(self, s: HandState, seat: int, caps: tuple[tuple[int, ...], ...] | None = None) -> None:
        rules = s.rules
        self.rules: RuleSet = rules
        self.players: int = s.players
        self.seat: int = seat
        self.hand_index: int = s.hand_index
        self.dealer: int = s.dealer
        self.turn_seat: int = s.turn_seat
        self.to_move: int = s.to_move
        self.phase: Phase = s.phase
        self.permission: int = s.permission
        own = seat >= 0
        self.kinds: tuple[int, ...] = tuple(s.hands[seat]) if own else _NO_KINDS
        self.held: tuple[int, ...] = tuple(s.hand_cards[seat]) if own else _NO_CARDS
        self.foot: tuple[int, ...] = (
            tuple(sorted(s.feet[seat], key=C.sort_key)) if own and rules.pick_foot_seen else ()
        )
        self.hand_counts: tuple[int, ...] = tuple(s.hand_sizes)
        self.foot_counts: tuple[int, ...] = tuple([len(foot) for foot in s.feet])
        self.in_foot: tuple[bool, ...] = tuple(s.in_foot)
        self.known: tuple[tuple[int, ...], ...] = tuple(s.known)
        self.table: tuple[Meld, ...] = tuple(s.melds)
        self.red_threes: tuple[tuple[int, ...], ...] = tuple(s.red_threes)
        self.down: tuple[bool, ...] = tuple(s.down)
        self.minimums: tuple[int, ...] = tuple(s.minimums)
        self.books: tuple[tuple[int, ...], ...] = tuple(s.books)
        pile = s.pile
        self.pile_top: int = pile[-1] if pile else -1
        self.pile_size: int = len(pile)
        self.pile: tuple[int, ...] = tuple(pile) if rules.pile_visible is PILE_ALL else ()
        self.stock_size: int = len(s.stock)
        self.last_round_left: int = s.last_round_left
        self.out_seat: int = s.out_seat
        self.end_reason: EndReason = s.end_reason
        self.move_count: int = s.move_count
        self.turn_wilds: tuple[tuple[int, int], ...] = (
            tuple(sorted(s.turn_wilds.items())) if s.turn_wilds else ()
        )
        self.caps: tuple[tuple[int, ...], ...] | None = caps
        # staging is the player to move's own business: only their own reading shows it
        self.staged: tuple[Group, ...] = tuple(s.staged) if own and seat == s.to_move and s.staged else ()
        self.cancelled: bool = s.cancelled

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's own cards, sorted for display (a View's ``hand``)."""
        held = self.held
        return tuple(card for card in C.DISPLAY_ORDER for _ in range(held[card]))

    @property
    def seats(self) -> tuple[SeatView, ...]:
        """What anyone may know of each seat (a View's ``seats``)."""
        return tuple(
            SeatView(self.hand_counts[p], self.in_foot[p], self.foot_counts[p], self.known[p])
            for p in range(self.players)
        )

    @property
    def melds(self) -> tuple[MeldView, ...]:
        """The table's melds as frozen values (a View's ``melds``)."""
        return tuple(MeldView(m.owner, m.rank, tuple(m.cards), m.wilds) for m in self.table)

    def freeze(self) -> View:
        """The seat's ``View``: the same knowledge as a frozen value."""
        return View(
            rules=self.rules,
            players=self.players,
            seat=self.seat,
            hand_index=self.hand_index,
            dealer=self.dealer,
            turn_seat=self.turn_seat,
            to_move=self.to_move,
            phase=self.phase,
            permission=self.permission,
            hand=self.hand,
            foot=self.foot,
            seats=self.seats,
            melds=self.melds,
            red_threes=self.red_threes,
            down=self.down,
            minimums=self.minimums,
            books=tuple((b[0], b[1], b[2]) for b in self.books),
            pile_top=self.pile_top,
            pile_size=self.pile_size,
            pile=self.pile,
            stock_size=self.stock_size,
            last_round_left=self.last_round_left,
            out_seat=self.out_seat,
            end_reason=self.end_reason,
            move_count=self.move_count,
            turn_wilds=self.turn_wilds,
            staged=self.staged,
            cancelled=self.cancelled,
        )


_NO_KINDS: Final = (0,) * C.NUM_KINDS
_NO_CARDS: Final = (0,) * C.NUM_CARD_IDS


def seat_info(s: HandState, seat: int) -> SeatInfo:
    """What ``seat`` may know of the hand, for a decision (``SPECTATOR``: the public part)."""
    return SeatInfo(s, seat)


def view(s: HandState, seat: int) -> View:
    """What ``seat`` may know of the hand (``SPECTATOR`` for the public view), as a frozen value."""
    return SeatInfo(s, seat).freeze()


def spectator_view(s: HandState) -> View:
    """The public view: what someone watching the table may know."""
    return view(s, SPECTATOR)


def unseen_cards(v: View) -> list[int]:
    """The cards (ids, with repeats) whose place the viewer does not know: shoe minus everything seen."""
    rules = v.rules
    pool = C.shoe_counts(rules.decks_for(v.players), rules.jokers_per_deck)
    seen: list[int] = list(v.hand) + list(v.foot)
    for meld in v.melds:
        seen.extend(meld.cards)
    for laid in v.red_threes:
        seen.extend(laid)
    if v.pile:
        seen.extend(v.pile)
    elif v.pile_top >= 0:
        seen.append(v.pile_top)
    for card in seen:
        pool[card] -= 1
    return [card for card in range(C.NUM_CARD_IDS) for _ in range(pool[card])]


def _deal_capped(hand: list[int], missing: int, pool: list[int], caps: Sequence[int]) -> list[int]:
    """Add ``missing`` cards of ``pool`` (shuffled) to ``hand``, no kind past its cap while the pool
    allows; returns the cards left, in order."""
    counts = [0] * C.NUM_KINDS
    for card in hand:
        counts[KIND_OF[card]] += 1
    left: list[int] = []
    for card in pool:
        kind = KIND_OF[card]
        if missing and counts[kind] < caps[kind]:
            hand.append(card)
            counts[kind] += 1
            missing -= 1
        else:
            left.append(card)
    if missing:  # the caps cannot all be met by the unseen cards: relax them
        hand.extend(left[:missing])
        del left[:missing]
    return left


def sample_world(v: View, rng: random.Random, caps: Sequence[Sequence[int]] | None = None) -> HandState:
    """A full HandState consistent with ``v``: unseen cards dealt at random to other hands (cards a seat
    was seen to take stay with it), unplayed Feet, the hidden part of the pile and the stock.

    ``caps`` (``SeatInfo.caps``): upper bounds per seat and kind on the cards each hand holds, inferred from
    what the seats were seen to do; another hand is dealt no more of a kind than its bound while the
    unseen cards allow it (a bound the cards cannot meet is relaxed rather than failing)."""
    rules = v.rules
    s = HandState(rules, v.players, v.hand_index, v.dealer, list(v.minimums))
    pool = unseen_cards(v)
    shuffle(rng, pool)
    by_kind: dict[int, list[int]] = {}
    for card in pool:
        by_kind.setdefault(C.KIND_OF[card], []).append(card)
    taken: list[int] = []
    hands: list[list[int]] = [[] for _ in range(v.players)]
    for seat, seat_view in enumerate(v.seats):
        if seat == v.seat:
            hands[seat] = list(v.hand)
            continue
        for kind, count in enumerate(seat_view.known):
            for _ in range(count):
                card = by_kind[kind].pop()
                hands[seat].append(card)
                taken.append(card)
    for card in taken:
        pool.remove(card)
    shuffle(rng, pool)
    for seat, seat_view in enumerate(v.seats):
        if seat != v.seat:
            missing = seat_view.hand_count - len(hands[seat])
            if caps is None:
                hands[seat].extend(pool[:missing])
                del pool[:missing]
            else:
                pool = _deal_capped(hands[seat], missing, pool, caps[seat])
        if seat == v.seat and v.foot:
            s.feet[seat] = list(v.foot)
        else:
            s.feet[seat] = pool[: seat_view.foot_count]
            del pool[: seat_view.foot_count]
        s.in_foot[seat] = seat_view.in_foot
        s.known[seat] = seat_view.known
        for card in hands[seat]:
            s.hands[seat][C.KIND_OF[card]] += 1
            s.hand_cards[seat][card] += 1
        s.hand_sizes[seat] = len(hands[seat])
    if v.pile:
        s.pile = list(v.pile)
    else:
        hidden = max(v.pile_size - 1, 0)
        s.pile = pool[:hidden] + ([v.pile_top] if v.pile_top >= 0 else [])
        del pool[:hidden]
    s.stock = pool
    for meld in v.melds:
        s.meld_of[meld.owner][meld.rank] = len(s.melds)
        s.melds.append(Meld(meld.owner, meld.rank, list(meld.cards), meld.wilds))
    # <generated by tools/state_fields.py: sample_world>
    s.books = list(v.books)
    s.down = list(v.down)
    s.red_threes = list(v.red_threes)
    s.turn_seat = v.turn_seat
    s.to_move = v.to_move
    s.phase = v.phase
    s.permission = v.permission
    s.last_round_left = v.last_round_left
    s.out_seat = v.out_seat
    s.end_reason = v.end_reason
    s.move_count = v.move_count
    s.turn_wilds = dict(v.turn_wilds)
    s.staged = list(v.staged)
    s.cancelled = v.cancelled
    # </generated>
    return s
