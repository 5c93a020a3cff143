"""Focused tests of house-rule options whose positions a game record reaches only after many moves."""

from __future__ import annotations

import random

from handfoot import cards as C
from handfoot.bots import HeuristicBot, legal_for
from handfoot.bots.hint import explain
from handfoot.engine import Action, EventType, Game
from handfoot.engine.apply import give_card
from handfoot.engine.serialize import state_from_json, state_to_json
from handfoot.engine.views import sample_world, view
from handfoot.rules import load_rules

RESHUFFLE = {"extends": "family", "empty_stock": "reshuffle_pile"}


def _empty_stock_game(pile_size: int) -> Game:
    """A family game (two players, nobody down) whose undealt cards lie in the pile, ``pile_size`` of them,
    the others in seat 1's hand (every card still in play); the stock is empty, seat 0 is to draw."""
    game = Game(load_rules(RESHUFFLE), 2, seed=3, dealer=1)
    s = game.state
    undealt = s.pile + s.stock
    s.pile, s.stock = undealt[-pile_size:], []
    for card in undealt[:-pile_size]:
        give_card(s, 1, card)
    return game


def test_an_empty_stock_is_refilled_from_the_pile_but_its_top_card() -> None:
    """empty_stock = "reshuffle_pile" (a house rule of other programs): a draw from an empty stock first
    shuffles the pile but its top card into a new stock, with the hand's own seeded random source (so the
    same position shuffles the same way), which no view shows."""
    game = _empty_stock_game(40)
    s = game.state
    top = s.pile[-1]
    twin = _empty_stock_game(40)
    events = game.apply_text("draw")
    assert events[0].type is EventType.RESHUFFLED and events[0].amount == 39
    assert s.pile == [top] and len(s.stock) == 39 - game.rules.draw_count
    assert s.reshuffles == 1
    twin.apply_text("draw")
    assert twin.state == s
    assert state_from_json(state_to_json(s)) == s
    assert view(sample_world(view(s, 0), random.Random(0)), 0) == view(s, 0)


def test_a_pile_too_small_for_a_whole_draw_ends_the_hand() -> None:
    """A pile holding no more than a draw's worth besides its top card does not refill the stock: the draw
    ends the hand, as the sheets' empty stock does."""
    game = _empty_stock_game(2)
    assert game.legal_ids() == [0]  # draw (nobody is down: the pile cannot be taken)
    game.apply_text("draw")
    assert game.results[-1].reason == "stock_empty"
    assert _empty_stock_game(3).apply_text("draw")[0].type is EventType.RESHUFFLED  # 2 besides the top


def test_bots_lay_a_red_three_by_choice_and_the_hint_says_why() -> None:
    """red_threes = "lay_by_choice": the heuristic lays a red 3 it holds, and the hint explains the move."""
    rules = load_rules({"extends": "kitchen-table", "red_threes": "lay_by_choice"})
    seed = next(s for s in range(500) if Game(rules, 2, s, 1).state.hands[0][C.RED_THREE])
    game = Game(rules, 2, seed, 1)
    game.apply_text("draw")
    legal = legal_for(game.state, game.legal_ids())
    chosen = HeuristicBot().choose(view(game.state, 0), legal, random.Random(0))
    assert chosen.action is Action.LAY
    assert explain(view(game.state, 0), legal, chosen).startswith(f"Lay {C.code(chosen.card)} down")
