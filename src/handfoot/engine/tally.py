"""Turning the table at the end of a hand into one Tally per side."""

from __future__ import annotations

from handfoot import cards as C
from handfoot.engine.melding import book_status
from handfoot.engine.scoring import Tally
from handfoot.engine.state import HandState
from handfoot.rules.options import BOOK_ANY


def hand_tallies(s: HandState) -> list[Tally]:
    """Each side's Tally for a finished (or stopped) hand."""
    rules = s.rules
    seating = s.seating
    values = rules.card_values
    sides = seating.num_sides
    clean = [0] * sides
    dirty = [0] * sides
    wild = [0] * sides
    melded_points = [0] * sides
    melded = [False] * sides
    books = (clean, dirty, wild)
    priced: list[list[tuple[int, int]]] = [[] for _ in range(sides)]
    open_wild = [0] * sides
    table = {(rank, status) for rank, status, _ in rules.book_bonuses}
    side_of_owner = [seating.side_of_owner(owner, rules) for owner in range(seating.num_owners)]
    kind_of = C.KIND_OF
    for meld in s.melds:
        side = side_of_owner[meld.owner]
        melded[side] = True
        points = 0
        for card in meld.cards:
            points += values[kind_of[card]]
        melded_points[side] += points
        status = book_status(rules, meld.rank, len(meld.cards), meld.wilds)
        if status >= 0:
            books[status][side] += 1
            if (meld.rank, status) in table or (meld.rank, BOOK_ANY) in table:
                priced[side].append((meld.rank, status))
        elif meld.rank == C.WILD_RANK:
            open_wild[side] += 1
    held_points = [0] * sides
    held_red = [0] * sides
    for seat in range(s.players):
        side = seating.side_of[seat]
        kinds = list(s.hands[seat])
        if rules.unplayed_foot_counts:
            for card in s.feet[seat]:
                kinds[kind_of[card]] += 1
        held_red[side] += kinds[C.RED_THREE]
        points = 0
        for kind in range(C.RED_THREE):  # every kind but red 3s, scored by their own options
            points += values[kind] * kinds[kind]
        held_points[side] += points
    went_out_side = seating.side_of[s.out_seat] if s.out_seat >= 0 else -1
    return [
        Tally(
            clean_books=clean[side],
            dirty_books=dirty[side],
            wild_books=wild[side],
            melded_points=melded_points[side],
            red_threes=len(s.red_threes[side]),
            held_red_threes=held_red[side],
            held_points=held_points[side],
            went_out=side == went_out_side,
            melded=melded[side],
            priced_books=tuple(sorted(priced[side])),
            open_wild_melds=open_wild[side],
        )
        for side in range(sides)
    ]
