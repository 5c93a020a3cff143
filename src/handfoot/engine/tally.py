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
    for meld in s.melds:
        side = seating.side_of_owner(meld.owner, rules)
        melded[side] = True
        melded_points[side] += sum(values[C.KIND_OF[c]] for c in meld.cards)
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
                kinds[C.KIND_OF[card]] += 1
        held_red[side] += kinds[C.RED_THREE]
        held_points[side] += sum(values[k] * kinds[k] for k in range(C.RED_THREE))
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
