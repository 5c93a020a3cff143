"""Focused tests of house-rule options whose positions a game record reaches only after many moves."""

from __future__ import annotations

import random

import pytest

from handfoot import cards as C
from handfoot.bots import HeuristicBot, legal_for
from handfoot.bots.hint import explain
from handfoot.engine import Action, EventType, Game, IllegalMove, Phase
from handfoot.engine.apply import give_card
from handfoot.engine.moves import CANCEL_ID, COMMIT_ID, SPLIT_DRAW_ID, STAGE_NEW_BASE
from handfoot.engine.serialize import state_from_json, state_to_json
from handfoot.engine.views import sample_world, view
from handfoot.record import parse_record, replay
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


SPLIT = {"extends": "kitchen-table", "split_draw": True}


def _split_game(top: str, rules: dict[str, object] | None = None) -> Game:
    """A kitchen-table game (two players), seat 1 to draw, with a ``top`` card of the stock moved onto the
    pile (every card still in play)."""
    game = Game(load_rules(rules or SPLIT), 2, seed=4, dealer=0)
    card = C.parse_card(top)
    game.state.stock.remove(card)
    game.state.pile.append(card)
    return game


def test_split_draw_takes_the_top_card_in_sight_and_one_stock_card() -> None:
    """split_draw (a house rule of other programs): ``draw 9H`` takes the pile's top card, seen by all
    (every view counts it among the cards the seat was seen to take), and one card fewer from the stock."""
    game = _split_game("9H")
    s = game.state
    held, stock, pile = s.hand_size(1), len(s.stock), len(s.pile)
    assert SPLIT_DRAW_ID in game.legal_ids() and str(game.move_of_id(SPLIT_DRAW_ID)) == "draw 9H"
    events = game.apply_text("draw 9H")
    assert [(e.type, e.amount) for e in events] == [(EventType.TOOK_TOP, 1), (EventType.DREW, 1)]
    assert C.codes(events[0].cards) == ["9H"]
    assert (s.hand_size(1), len(s.stock), len(s.pile)) == (held + 2, stock - 1, pile - 1)
    assert view(s, 0).seats[1].known[C.KIND_OF[C.parse_card("9H")]] == 1
    assert view(sample_world(view(s, 0), random.Random(1)), 0) == view(s, 0)


def test_a_split_draw_opens_staging_again_as_a_draw_does() -> None:
    """A staging cancelled in the draw phase counts for that phase only (engine.staging): after the split
    draw, as after a plain draw, the player may stage an opening in the play phase and cancel it."""
    after: dict[str, bool] = {}
    for draw in ("draw", "draw AH"):
        game = _split_game("AH")  # seat 1 may take the pile with an opening (staged) or split-draw
        ids = game.legal_ids()
        stage = next(mid for mid in ids if STAGE_NEW_BASE <= mid < COMMIT_ID)
        assert SPLIT_DRAW_ID in ids
        game.apply_id(stage)
        game.apply_id(CANCEL_ID)
        assert game.state.cancelled
        game.apply_text(draw)
        assert game.state.phase is Phase.PLAY
        after[draw] = game.state.cancelled
    assert after == {"draw": False, "draw AH": False}


def test_split_draw_refusals_name_the_rule() -> None:
    """The split draw needs the option, the top card named, a natural on top and a card in the stock."""
    assert "draw 9H" not in [str(m) for m in _split_game("9H", {"extends": "kitchen-table"}).legal_moves()]
    cases = [
        (_split_game("9H", {"extends": "kitchen-table"}), "draw 9H", "not drawn on its own"),
        (_split_game("9H"), "draw 9S", "top card is 9H"),
        (_split_game("JK"), "draw JK", "Only a natural card"),
        (_split_game("3S"), "draw 3S", "Only a natural card"),
    ]
    empty = _split_game("9H")
    empty.state.stock.clear()
    cases.append((empty, "draw 9H", "The stock is empty"))
    for game, text, words in cases:
        before = game.state.copy()
        try:
            game.apply_text(text)
        except IllegalMove as exc:
            assert exc.rule == "split_draw" and words in exc.message, (text, exc.message)
        else:
            raise AssertionError(f"{text} was played")
        assert game.state == before
        if words != "top card is 9H":  # the id stands for the top card, whichever card a text names
            assert SPLIT_DRAW_ID not in game.legal_ids()


@pytest.mark.parametrize(
    ("top", "rules", "holds_a_pair"),
    [
        ("9H", SPLIT, False),
        # seat 1 holds two aces; with the pile open to it the heuristic would take the pile instead
        ("AH", {**SPLIT, "pickup_allowed": False}, True),
    ],
)
def test_the_heuristic_takes_the_top_card_that_makes_a_set(
    top: str, rules: dict[str, object], holds_a_pair: bool
) -> None:
    """The heuristic takes the pile's top card with the split draw when it holds a pair of its rank, and
    draws plainly when it does not."""
    game = _split_game(top, rules)
    s = game.state
    assert (s.hands[1][C.KIND_OF[C.parse_card(top)]] >= 2) == holds_a_pair
    legal = legal_for(s, game.legal_ids())
    assert [str(m) for m in legal] == ["draw", f"draw {top}"]
    chosen = HeuristicBot().choose(view(s, 1), legal, random.Random(0))
    assert (chosen.action is Action.DRAW and chosen.card >= 0) == holds_a_pair


def test_the_hint_explains_the_split_draw() -> None:
    """The hint says what the split draw does and what the player holds of the top card's rank."""
    game = _split_game("9H")
    s = game.state
    legal = legal_for(s, game.legal_ids())
    text = explain(view(s, 1), legal, game.move_of_id(SPLIT_DRAW_ID))
    assert text.startswith("Draw the pile's top card, 9H, and one card fewer from the stock: you hold ")


# ask_with_last_card (zacharyyung/hand-and-foot: the last Foot card asked with; told no, "AI ends its turn
# without discarding to go out" and "still holds the last foot card"). The in-laws deal of the scenarios
# in-laws/option-ask-with-last-card-*.json: seat 0 makes three clean books and keeps the 9S.
ASK_LAST = {"extends": "in-laws", "permission": "required", "ask_with_last_card": True}
_ASK_LAST_DEAL = {
    "hands": [
        ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC"],
        ["4C"] * 6 + ["6C"] * 5,
        ["8C"] * 6 + ["8H"] * 5,
        ["TC"] * 6 + ["TH"] * 4 + ["3H"],
    ],
    "feet": [
        ["QD", "JS", "JH", "JD", "JC", "JS", "JH", "JD", "KS", "KH", "9S"],
        ["7C"] * 6 + ["7H"] * 5,
        ["9C"] * 6 + ["9H"] * 5,
        ["6D"] * 6 + ["7D"] * 5,
    ],
    "stock": ["QS", "QH"],
}
_TO_ONE_CARD = [
    "draw",
    "meld KS KH KD KC KS KH KD | QS QH QD QC QS QH",
    "meld QD | JS JH JD JC JS JH JD | KS KH",
]


def _ask_last_game(rules: dict[str, object]) -> Game:
    """The in-laws deal above under ``rules``, seat 0 to draw, played to the meld before the 9S."""
    record = parse_record(
        {"players": 4, "dealer": 3, "deals": [_ASK_LAST_DEAL], "moves": _TO_ONE_CARD[:2], "rules": rules}
    )
    game, error = replay(record)
    assert error is None
    return game


def test_without_ask_with_last_card_the_meld_down_to_one_card_waits_for_the_yes() -> None:
    """The sheet's rule (permission required): melding down to the card to discard before asking is
    refused for permission; ask_with_last_card allows it, and the ask that follows."""
    plain = _ask_last_game({"extends": "in-laws", "permission": "required"})
    with pytest.raises(IllegalMove) as refused:
        plain.apply_text(_TO_ONE_CARD[2])
    assert refused.value.rule == "permission"
    game = _ask_last_game(ASK_LAST)
    game.apply_text(_TO_ONE_CARD[2])
    assert game.state.hand_size(0) == 1 and "ask" in [str(m) for m in game.legal_moves()]


def test_the_heuristic_asks_holding_its_last_card_and_ends_the_turn_when_told_no() -> None:
    """The heuristic, holding only the 9S with its books made, asks; told no, it ends the turn (its one
    legal move) and still holds the card; told yes, it goes out with the discard."""
    bot = HeuristicBot()
    game = _ask_last_game(ASK_LAST)
    game.apply_text(_TO_ONE_CARD[2])
    legal = legal_for(game.state, game.legal_ids())
    assert bot.choose(view(game.state, 0), legal, random.Random(0)).action is Action.ASK
    game.apply_text("ask")
    yes_game = _ask_last_game(ASK_LAST)
    for text in (_TO_ONE_CARD[2], "ask", "yes"):
        yes_game.apply_text(text)
    game.apply_text("no")
    legal = legal_for(game.state, game.legal_ids())
    chosen = bot.choose(view(game.state, 0), legal, random.Random(0))
    assert chosen.action is Action.END
    game.apply(chosen)
    assert game.state.hand_size(0) == 1 and game.state.to_move == 1 and game.state.phase is Phase.DRAW
    legal = legal_for(yes_game.state, yes_game.legal_ids())
    chosen = bot.choose(view(yes_game.state, 0), legal, random.Random(0))
    assert str(chosen) == "discard 9S"
    yes_game.apply(chosen)
    assert yes_game.results[-1].reason == "went_out"


def test_the_hint_explains_ending_the_turn_holding_the_last_card() -> None:
    """Told no holding the 9S (ask_with_last_card), the hint says why the turn ends without a discard."""
    game = _ask_last_game(ASK_LAST)
    for text in (_TO_ONE_CARD[2], "ask", "no"):
        game.apply_text(text)
    legal = legal_for(game.state, game.legal_ids())
    assert [str(m) for m in legal] == ["end"]
    assert explain(view(game.state, 0), legal, legal[0]).startswith("End your turn holding your last card")
