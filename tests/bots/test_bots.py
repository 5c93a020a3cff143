"""Bots: only legal moves under every preset and player count, no hidden card within reach, the same
choice in every world that fits the view, the registry, and hints."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from handfoot import cards as C
from handfoot.bots import Budget, HeuristicBot, IsmctsBot, RandomBot, bot_names, legal_for, make_bot
from handfoot.bots.base import Bot
from handfoot.bots.hint import hint
from handfoot.engine import Game, HandState, Phase, sample_world, view
from handfoot.engine.moves import Action
from handfoot.rules import PRESET_NAMES, preset
from helpers.bots import reachable


def play_hand(rules_name: str, players: int, bots: list[Bot], seed: int, max_moves: int = 3000) -> Game:
    """Play one hand with ``bots``, checking at every move that the bot picked one of the legal moves."""
    rules = preset(rules_name)
    game = Game(rules, players, seed)
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    moves = 0
    while not game.results and moves < max_moves:
        state = game.state
        seat = state.to_move
        legal = legal_for(state)
        assert legal, f"no legal move in {rules_name} at move {moves}"
        move = bots[seat].choose(view(state, seat), legal, rngs[seat])
        assert move in legal, f"{type(bots[seat]).__name__} chose {move} not among {legal}"
        game.apply(move)
        moves += 1
    assert game.results, f"{rules_name} hand did not end in {max_moves} moves"
    return game


CASES = [
    (name, players)
    for name in sorted(PRESET_NAMES)
    for players in (2, 3, 4)
    if players in preset(name).players_allowed
]


@pytest.mark.parametrize(("rules_name", "players"), CASES)
def test_random_and_heuristic_play_only_legal_moves(rules_name: str, players: int) -> None:
    for seed in range(2):
        bots: list[Bot] = [HeuristicBot() if (s + seed) % 2 else RandomBot() for s in range(players)]
        play_hand(rules_name, players, bots, seed)
    play_hand(rules_name, players, [HeuristicBot() for _ in range(players)], 7)


@pytest.mark.parametrize("rules_name", ["kitchen-table", "head-and-foot"])
def test_ismcts_plays_only_legal_moves(rules_name: str) -> None:
    bots: list[Bot] = [IsmctsBot(Budget(iterations=2), rollout_moves=8), HeuristicBot()] * 2
    play_hand(rules_name, 4, bots, 3)


def positions(rules_name: str, seed: int, every: int = 7) -> list[HandState]:
    """Copies of positions met while heuristic bots play a hand."""
    game = Game(preset(rules_name), 4, seed)
    bot, rng = HeuristicBot(), random.Random(seed)
    out = []
    while not game.results:
        state = game.state
        if state.move_count % every == 0:
            out.append(state.copy())
        game.apply(bot.choose(view(state, state.to_move), legal_for(state), rng))
    return out


@pytest.mark.parametrize("rules_name", sorted(PRESET_NAMES))
def test_nothing_hidden_is_reachable_from_a_bots_arguments(rules_name: str) -> None:
    for state in positions(rules_name, 1, every=25):
        seat = state.to_move
        seat_view = view(state, seat)
        legal = legal_for(state)
        for obj in reachable(seat_view, legal):
            assert not isinstance(obj, (HandState, Game)), (
                f"a {type(obj).__name__} is reachable from the view"
            )
        # The cards a move names are the seat's own: nothing of another hand, a Foot, the stock or the pile.
        held = Counter(seat_view.hand)
        for move in legal:
            named = Counter(c for g in move.groups for c in g.cards)  # a pickup never names the top card
            assert not named - held, f"{move} names cards {named - held} the seat does not hold"


@pytest.mark.parametrize("rules_name", sorted(PRESET_NAMES))
def test_heuristic_chooses_the_same_in_every_world_fitting_its_view(rules_name: str) -> None:
    rng = random.Random(5)
    bot = HeuristicBot()
    for state in positions(rules_name, 2):
        seat = state.to_move
        seat_view = view(state, seat)
        choice = bot.choose(seat_view, legal_for(state), random.Random(0))
        for _ in range(2):
            world = sample_world(seat_view, rng)
            assert view(world, seat) == seat_view
            assert bot.choose(view(world, seat), legal_for(world), random.Random(0)) == choice


def test_registry_names_levels_and_budgets() -> None:
    assert {"random", "heuristic", "ismcts", "easy", "medium", "hard"} <= set(bot_names())
    assert isinstance(make_bot("easy"), RandomBot)
    assert isinstance(make_bot("medium"), HeuristicBot)
    hard = make_bot("hard")
    assert isinstance(hard, IsmctsBot) and hard.budget.seconds == 1.0
    bot = make_bot("ismcts:50,0.2s")
    assert isinstance(bot, IsmctsBot) and bot.budget == Budget(50, 0.2)
    bot = make_bot("ismcts:50+0.2s")  # the form that fits in a --seats list
    assert isinstance(bot, IsmctsBot) and bot.budget == Budget(50, 0.2)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="bad budget"):
        make_bot("ismcts:lots")
    with pytest.raises(ValueError):
        Budget(iterations=None, seconds=None)


def test_ismcts_respects_an_iteration_budget_and_answers_from_legal() -> None:
    state = positions("kitchen-table", 4, every=3)[5]
    bot = IsmctsBot(Budget(iterations=6), rollout_moves=6)
    legal = legal_for(state)
    move = bot.choose(view(state, state.to_move), legal, random.Random(1))
    assert move in legal
    assert bot.last_iterations in (0, 6)  # 0: a meld, played by the heuristic without search


def test_heuristic_answers_a_partner_and_asks_only_when_required() -> None:
    game = Game(preset("head-and-foot"), 4, 11)
    bot, rng = HeuristicBot(), random.Random(0)
    asked = answered = 0
    while not game.results:
        state = game.state
        legal = legal_for(state)
        move = bot.choose(view(state, state.to_move), legal, rng)
        if move.action is Action.ASK:
            asked += 1
            assert state.in_foot[state.to_move]
        if state.phase is Phase.ANSWER:
            answered += 1
            assert move.action in (Action.YES, Action.NO)
        game.apply(move)
    assert asked == answered
    assert game.results[0].went_out is None or asked >= 1  # head-and-foot: nobody goes out unasked


def test_hint_names_a_legal_move_and_a_reason() -> None:
    for state in positions("kitchen-table", 6, every=11)[:6]:
        seat_view = view(state, state.to_move)
        legal = legal_for(state)
        quick = hint(seat_view, legal, None)
        searched = hint(seat_view, legal, Budget(iterations=3))
        for suggestion in (quick, searched):
            assert suggestion.move in legal
            assert suggestion.reason and suggestion.reason[0].isupper()
        if quick.move.action is Action.PICKUP:
            top = C.KIND_OF[state.pile[-1]]
            assert C.KIND_WORDS[top] in quick.reason or C.RANK_LETTER[top] in quick.reason
            assert f"{len(state.pile)} cards" in quick.reason or "cards in it" in quick.reason


def test_the_registry_and_the_bot_interface_import_no_bot() -> None:
    """No import circle: ``base`` (the interface) and ``registry`` (the names) sit below the bots and
    import none of them; each bot registers itself, and the package imports every bot."""
    import ast
    from pathlib import Path

    import handfoot.bots as package

    folder = Path(package.__file__).parent
    bot_modules = {"handfoot.bots." + p.stem for p in folder.glob("*.py")} - {
        "handfoot.bots.__init__",
        "handfoot.bots.base",
        "handfoot.bots.registry",
    }
    for name in ("base", "registry"):
        tree = ast.parse((folder / f"{name}.py").read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not imported & bot_modules, f"{name}.py imports {sorted(imported & bot_modules)}"


def test_a_budget_in_cpu_seconds() -> None:
    budget = Budget.parse("1.5cpu")
    assert (budget.iterations, budget.seconds, budget.cpu) == (None, 1.5, True)
    assert Budget.parse("200+0.5s").cpu is False
    with pytest.raises(ValueError, match=r"0\.5cpu"):
        Budget.parse("fast")
