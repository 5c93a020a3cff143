"""What docs/research.md ("Is there a seat effect?") rests on: in the games a tournament plays, each
side's opening minimum is read from its own total going into the hand, as kitchen-table's sheet says
("Your team's score going into the hand | First meld must be at least": 0-2995 50, 3000-4995 90,
5000-7995 120, 8000+ 150), and the first player alternates with the dealer, hand by hand and game by
game, so neither seat is favoured by the order of play."""

from __future__ import annotations

import random

from handfoot.bots.base import legal_for
from handfoot.bots.registry import make_bot
from handfoot.engine.game import Game
from handfoot.rules import preset
from handfoot.sim.tournament import TournamentConfig, derive_seed, play_chosen, run_tournament


def sheet_minimum(total: int) -> int:
    """kitchen-table's table of first melds by the team's score going into the hand."""
    if total >= 8000:
        return 150
    if total >= 5000:
        return 120
    if total >= 3000:
        return 90
    return 50


def test_each_sides_minimum_follows_its_own_score_going_into_the_hand() -> None:
    rules = preset("kitchen-table")
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    uneven = 0  # hands dealt with the two sides in different bands
    bands = set()
    for index in range(8):
        game = Game(rules, 2, derive_seed(1, index), dealer=index % 2)
        rngs = [random.Random(derive_seed(1, index, seat)) for seat in range(2)]
        dealt = -1
        while not game.finished:
            state = game.state
            if len(game.results) != dealt:  # a new hand: its minimums were fixed when it was dealt
                dealt = len(game.results)
                expected = [sheet_minimum(total) for total in game.totals]
                assert state.minimums == expected, (index, dealt, game.totals)
                assert state.dealer == (index + dealt) % 2  # the deal moves clockwise
                assert state.to_move == (state.dealer + 1) % 2  # the player after the dealer starts
                uneven += expected[0] != expected[1]
                bands.update(expected)
            seat = state.to_move
            legal = legal_for(state, game.legal_ids())
            play_chosen(game, legal, bots[seat].choose_seat(game.seat_info(seat), legal, rngs[seat]))
    assert uneven > 0 and {50, 90, 120, 150} <= bands  # the asymmetric case and every band were met


def test_the_first_dealer_alternates_between_games() -> None:
    config = TournamentConfig(
        preset("kitchen-table"), 2, ("heuristic", "heuristic"), 4, seed=1, single_hands=True
    )
    assert [game.dealer for game in run_tournament(config).outcomes] == [0, 1, 0, 1]
