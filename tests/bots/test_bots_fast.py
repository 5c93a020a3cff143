"""The fast paths of the bots: ``LegalMoves`` (ids, moves built on read) against the engine's own moves,
the heuristic's id scoring and world readings against its move scoring and views, playing a chosen move
by id, and the search's pieces (heuristic rollouts, rewards, the paired choice)."""

from __future__ import annotations

import random

import pytest

from handfoot import cards as C
from handfoot.bots import Budget, HeuristicBot, IsmctsBot, RandomBot, legal_for
from handfoot.bots.base import DECODED, Bot, LegalMoves, atomic_id_in, held_counts, move_of_id_for
from handfoot.bots.heuristic import Reading, best_id_index, best_index, score_ids, score_moves, score_reading
from handfoot.bots.ismcts import hand_scores, heuristic_step, reward
from handfoot.bots.plan import whole_openings
from handfoot.engine import Game, HandState, IllegalMove, Phase, sample_world, view
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.meld_legal import meld_ids
from handfoot.engine.moves import Action, Group, Move, pick_cards
from handfoot.rules import PRESET_NAMES, preset
from handfoot.sim.tournament import play_chosen

CASES = [
    (name, players)
    for name in sorted(PRESET_NAMES)
    for players in (2, 3, 4)
    if players in preset(name).players_allowed
]


def engine_legal(state: HandState) -> list[Move]:
    """The legal moves built the slow way: ``move_of_id`` for every id."""
    return [move_of_id(state, mid) for mid in legal_ids(state)]


def walk(rules_name: str, players: int, seed: int) -> list[HandState]:
    """Copies of every position of a hand played by heuristic and random bots."""
    game = Game(preset(rules_name), players, seed)
    bots: list[Bot] = [RandomBot() if (s + seed) % 3 == 0 else HeuristicBot() for s in range(players)]
    rng = random.Random(seed)
    out: list[HandState] = []
    while not game.results and len(out) < 2500:
        state = game.state
        out.append(state.copy())
        legal = legal_for(state)
        game.apply(bots[state.to_move].choose(view(state, state.to_move), legal, rng))
    return out


@pytest.mark.parametrize(("rules_name", "players"), CASES)
def test_legal_moves_are_the_engines_moves_and_the_heuristic_scores_ids_alike(
    rules_name: str, players: int
) -> None:
    for state in walk(rules_name, players, 1):
        seat = state.to_move
        legal = legal_for(state)
        slow = engine_legal(state)
        assert list(legal) == slow and len(legal) == len(slow)
        assert legal == slow and all(move in legal for move in slow)
        seat_view = view(state, seat)
        held = held_counts(seat_view.hand)
        for group in seat_view.staged:  # staged cards stay in the hand but are not played again
            for card in group.cards:
                held[card] -= 1
        for index, mid in enumerate(legal.ids):
            assert move_of_id_for(held, seat_view.pile_top, mid) == move_of_id(state, mid)
            # found by value (an equal move built elsewhere), and at once as the move read last
            assert atomic_id_in(legal, slow[index]) == mid == atomic_id_in(legal, legal[index])
        by_moves = score_moves(seat_view, slow)
        assert score_moves(seat_view, legal) == by_moves
        reading = Reading.of_world(state, seat)
        assert score_reading(reading, legal) == by_moves
        if len(legal.ids) > 1:
            assert best_id_index(reading, legal.ids) == best_index(score_ids(reading, legal.ids))


def reference_move(held: list[int], top: int, mid: int) -> Move:
    """The move an id stands for, built the plain way: a fresh ``Move`` naming cards picked lowest suit
    first with ``pick_cards`` (one tally across the group), the kind's first card standing in."""
    decoded = DECODED[mid]
    assert decoded is not None
    action = decoded.action
    taken: dict[int, int] = {}
    if action is Action.PICKUP:
        if top < 0:
            return Move(Action.PICKUP, (Group(-1, ()),))
        kind = C.KIND_OF[top]
        cards = pick_cards(held, kind, decoded.naturals, taken)
        cards += pick_cards(held, C.JOKER, decoded.jokers, taken)
        cards += pick_cards(held, C.DEUCE, decoded.deuces, taken)
        # a pickup of no card from the hand is written "pickup", which parses to a group of no rank
        return Move(Action.PICKUP, (Group(kind if cards else -1, tuple(cards)),))
    if action is Action.MELD or action is Action.STAGE:
        kind = decoded.kind
        cards = pick_cards(held, kind, decoded.naturals, taken) if kind != C.WILD_RANK else []
        cards += pick_cards(held, C.JOKER, decoded.jokers, taken)
        cards += pick_cards(held, C.DEUCE, decoded.deuces, taken)
        return Move(action, (Group(kind, tuple(cards)),))
    if action is Action.DISCARD or action is Action.LAY:
        return Move(action, card=pick_cards(held, decoded.kind, 1, taken)[0])
    if action is Action.DRAW and decoded.naturals:  # the split draw: the pile's top card (an ace stands in)
        return Move(action, card=top if top >= 0 else C.IDS_OF_KIND[C.ACE][0])
    return Move(action)


def test_moves_built_from_ids_are_the_plain_ones_for_any_hand() -> None:
    """``move_for`` (which ``move_of_id_for`` is) hands out shared discards and card-less moves and picks
    a meld's cards without a tally: the same moves as built the plain way for every id and hand,
    including the stand-in cards of a hand too short for the move."""
    rng = random.Random(7)
    for _ in range(300):
        held = [rng.choice((0, 0, 0, 1, 2)) for _ in range(53)]
        top = rng.randrange(-1, 53)
        for mid, decoded in enumerate(DECODED):
            if decoded is not None:
                assert move_of_id_for(held, top, mid) == reference_move(held, top, mid), mid
    with pytest.raises(ValueError):
        move_of_id_for([0] * 53, -1, len(DECODED))


def test_legal_moves_behave_as_a_sequence() -> None:
    state = walk("kitchen-table", 4, 2)[40]
    legal = legal_for(state)
    moves = list(legal)
    assert legal[-1] == moves[-1] and legal[1:3] == moves[1:3]
    with pytest.raises(IndexError):
        legal[len(legal)]
    assert Move(Action.YES) not in legal or state.phase is Phase.ANSWER
    assert "draw" not in legal
    assert legal_for(state) == legal
    over = LegalMoves((), [0] * 53, -1)
    assert not over and list(over) == []


def test_a_chosen_atomic_move_is_played_by_id_and_anything_else_is_verified() -> None:
    game = Game(preset("kitchen-table"), 4, 5)
    bot, rng = HeuristicBot(), random.Random(0)
    by_id = 0
    while not game.results:
        state = game.state
        legal = legal_for(state, game.legal_ids())
        move = bot.choose(view(state, state.to_move), legal, rng)
        by_id += atomic_id_in(legal, move) >= 0
        play_chosen(game, legal, move)
    assert by_id > 50
    game = Game(preset("kitchen-table"), 4, 5)
    legal = legal_for(game.state, game.legal_ids())
    with pytest.raises(IllegalMove):
        play_chosen(game, legal, Move(Action.DISCARD, card=0))  # not the draw phase's move


def test_heuristic_rollouts_play_a_sampled_world_to_the_end() -> None:
    rng = random.Random(3)
    for state in walk("kitchen-table", 4, 3)[::30]:
        world = sample_world(view(state, state.to_move), rng)
        steps = 0
        while heuristic_step(world):
            steps += 1
            assert steps < 2000
        assert world.phase is Phase.OVER
        assert len(hand_scores(world)) == 2


def test_reward_is_the_sign_and_size_of_the_lead() -> None:
    assert reward([500, 100], 0, 600) > 0.5 > 0 > reward([500, 100], 1, 600) > -1
    assert reward([300, 300], 0, 600) == 0.0
    assert reward([100, 900, 400], 2, 600) < 0 < reward([100, 900, 400], 1, 600)


def test_search_plays_the_heuristic_unless_a_candidate_is_clearly_better() -> None:
    heuristic = HeuristicBot()
    deviated = searched = 0
    for state in walk("kitchen-table", 4, 4)[::9]:
        seat_view = view(state, state.to_move)
        legal = legal_for(state)
        plain = heuristic.choose(seat_view, legal, random.Random(0))
        one = IsmctsBot(Budget(iterations=1)).choose(seat_view, legal, random.Random(0))
        assert one == plain  # one world cannot show a candidate clearly better
        bot = IsmctsBot(Budget(iterations=4), rollout_moves=60)
        move = bot.choose(seat_view, legal, random.Random(1))
        assert move in legal
        again = IsmctsBot(Budget(iterations=4), rollout_moves=60).choose(seat_view, legal, random.Random(1))
        assert again == move  # reproducible for a seeded generator
        searched += bot.last_iterations > 0
        deviated += move != plain
    assert searched > 3


def test_a_seconds_budget_ends_the_search_with_at_least_one_whole_world() -> None:
    state = walk("kitchen-table", 4, 4)[45]
    legal = legal_for(state)
    bot = IsmctsBot(Budget(iterations=None, seconds=0.01))
    move = bot.choose(view(state, state.to_move), legal, random.Random(2))
    assert move in legal
    assert bot.last_iterations >= 1 or len(legal) == 1 or move.action is Action.MELD


@pytest.mark.parametrize("players", [2, 4])
def test_marmot_bots_lay_down_all_they_can_before_discarding(players: int) -> None:
    """003 marmot: 'The player's turns lasts until he can no longer continue to put down cards. The player
    then discards one card.' Heuristic, random and searching bots, given the legal moves, never discard
    while a card can still go down (an opening held included), and find a move when only an opening is
    legal."""
    game = Game(preset("marmot"), players, 5)
    bots: list[Bot] = [HeuristicBot(), RandomBot(), IsmctsBot(Budget(iterations=4)), RandomBot()]
    rng = random.Random(5)
    discards = 0
    while not game.results:
        state = game.state
        legal = legal_for(state)
        assert len(legal), f"no legal move in phase {state.phase.name}"
        move = bots[state.to_move % len(bots)].choose(view(state, state.to_move), legal, rng)
        if move.action is Action.DISCARD:
            owner = state.seating.owner_of[state.to_move]
            assert not meld_ids(state, state.to_move), f"discarded {move} with a meld left"
            assert state.down[owner] or not whole_openings(state), f"discarded {move} holding an opening"
            discards += 1
        game.apply(move)
    assert discards > 10, discards
