"""Views: what one seat (or a spectator) may know, and worlds sampled to fit a view.

A ``View`` holds no other hand, no Foot's cards, no stock order and no seed: only the viewer's own
cards, counts for everyone else, the table, the pile's top and size (all of it where the rules show
it), and cards a seat was publicly seen to take. ``sample_world`` deals the unseen cards at random
into a full ``HandState`` whose view, for the same seat, is the same view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from handfoot import cards as C
from handfoot.engine.state import EndReason, HandState, Meld, Phase
from handfoot.rules.options import PileVisible, RuleSet

SPECTATOR = -1


@dataclass(frozen=True)
class SeatView:
    """What anyone may know of one seat."""

    hand_count: int
    in_foot: bool
    foot_count: int
    known: tuple[int, ...]  # cards by kind this seat is publicly known to hold


@dataclass(frozen=True)
class MeldView:
    """A meld on the table."""

    owner: int
    rank: int
    cards: tuple[int, ...]
    wilds: int


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


def _sorted_hand(s: HandState, seat: int) -> tuple[int, ...]:
    counts = s.hand_cards[seat]
    return tuple(card for card in C.DISPLAY_ORDER for _ in range(counts[card]))


def view(s: HandState, seat: int) -> View:
    """What ``seat`` may know of the hand (``SPECTATOR`` for the public view)."""
    show_pile = s.rules.pile_visible is PileVisible.ALL
    return View(
        rules=s.rules,
        players=s.players,
        seat=seat,
        hand_index=s.hand_index,
        dealer=s.dealer,
        turn_seat=s.turn_seat,
        to_move=s.to_move,
        phase=s.phase,
        permission=s.permission,
        hand=_sorted_hand(s, seat) if seat >= 0 else (),
        foot=tuple(sorted(s.feet[seat], key=C.sort_key)) if seat >= 0 and s.rules.pick_foot_seen else (),
        seats=tuple(
            SeatView(s.hand_size(p), s.in_foot[p], len(s.feet[p]), tuple(s.known[p]))
            for p in range(s.players)
        ),
        melds=tuple(MeldView(m.owner, m.rank, tuple(m.cards), m.wilds) for m in s.melds),
        red_threes=tuple(tuple(r) for r in s.red_threes),
        down=tuple(s.down),
        minimums=tuple(s.minimums),
        books=tuple((b[0], b[1], b[2]) for b in s.books),
        pile_top=s.pile[-1] if s.pile else -1,
        pile_size=len(s.pile),
        pile=tuple(s.pile) if show_pile else (),
        stock_size=len(s.stock),
        last_round_left=s.last_round_left,
        out_seat=s.out_seat,
        end_reason=s.end_reason,
        move_count=s.move_count,
    )


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


def sample_world(v: View, rng: random.Random) -> HandState:
    """A full HandState consistent with ``v``: unseen cards dealt at random to other hands (cards a seat
    was seen to take stay with it), unplayed Feet, the hidden part of the pile and the stock."""
    rules = v.rules
    s = HandState(rules, v.players, v.hand_index, v.dealer, list(v.minimums))
    pool = unseen_cards(v)
    rng.shuffle(pool)
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
    rng.shuffle(pool)
    for seat, seat_view in enumerate(v.seats):
        if seat != v.seat:
            missing = seat_view.hand_count - len(hands[seat])
            hands[seat].extend(pool[:missing])
            del pool[:missing]
        if seat == v.seat and v.foot:
            s.feet[seat] = list(v.foot)
        else:
            s.feet[seat] = pool[: seat_view.foot_count]
            del pool[: seat_view.foot_count]
        s.in_foot[seat] = seat_view.in_foot
        s.known[seat] = list(seat_view.known)
        for card in hands[seat]:
            s.hands[seat][C.KIND_OF[card]] += 1
            s.hand_cards[seat][card] += 1
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
    s.books = [list(b) for b in v.books]
    s.down = list(v.down)
    s.red_threes = [list(r) for r in v.red_threes]
    s.turn_seat = v.turn_seat
    s.to_move = v.to_move
    s.phase = v.phase
    s.permission = v.permission
    s.last_round_left = v.last_round_left
    s.out_seat = v.out_seat
    s.end_reason = v.end_reason
    s.move_count = v.move_count
    return s
