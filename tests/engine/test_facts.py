"""Public facts about hidden hands (``engine.facts``) and worlds sampled to fit them.

- a seat that draws while it could have taken the pile with two naturals of the top's rank is bounded
  to at most one of that rank, plus the cards it draws; playing cards lowers the bound, the Foot clears it;
- played by seats that always take the pile when they can, no bound ever excludes the real hand;
- ``Game.seat_info`` carries the bounds, and freezes into the seat's view;
- the snapshot kept between moves is the bounds as worked out afresh from every move (a plain reference);
- ``sample_world`` with bounds deals no other hand more of a kind than its bound (when the unseen cards
  allow), and still gives the same view back.
"""

from __future__ import annotations

import random

import pytest

from handfoot import cards as C
from handfoot.bots import HeuristicBot, RandomBot, legal_for
from handfoot.engine import Game, sample_world, view
from handfoot.engine.events import Event, EventType
from handfoot.engine.facts import UNKNOWN, HandFacts
from handfoot.engine.moves import DRAW_ID, Action, Move, decode_id
from handfoot.engine.pile import pickup_needed, top_refusal
from handfoot.engine.state import HandState, Phase
from handfoot.rules import PRESET_NAMES, preset
from handfoot.sim.tournament import play_chosen
from helpers.play import play_to


def greedy_game(name: str, seed: int) -> Game:
    """A game at the preset's table size (played by ``play_greedy``)."""
    return Game(preset(name), None, seed)


def play_greedy(game: Game, moves: int, check: bool = True) -> int:
    """Play ``moves`` moves of the current hand with pile-taking heuristic seats; returns how many bounds
    were set (checking each time, when ``check``, that no bound excludes a real hand)."""
    bot, rng = HeuristicBot(), random.Random(0)
    bounded = 0
    hand = game.state.hand_index
    for _ in range(moves):
        state = game.state
        if game.finished or state.hand_index != hand:
            break
        ids = game.legal_ids()
        pickups = [mid for mid in ids if decode_id(mid).action is Action.PICKUP]
        if pickups:
            game.apply_id(pickups[0])
        else:
            legal = legal_for(state, ids)
            play_chosen(game, legal, bot.choose_seat(game.seat_info(state.to_move), legal, rng))
        if game.state.hand_index != hand:
            break
        caps = game.facts.caps
        for seat in range(game.players):
            held = game.state.hands[seat]
            for kind in range(C.NUM_KINDS):
                if caps[seat][kind] < UNKNOWN:
                    bounded += 1
                    if check:
                        assert held[kind] <= caps[seat][kind], (seat, C.KIND_NAMES[kind], caps[seat][kind])
    return bounded


@pytest.mark.parametrize("name", sorted(PRESET_NAMES))
def test_bounds_never_exclude_the_real_hands_of_seats_that_take_the_pile_when_they_can(name: str) -> None:
    bounded = 0
    for seed in range(3):
        bounded += play_greedy(greedy_game(name, seed), 400)
    if preset(name).pickup_allowed:
        assert bounded > 0, "no seat was ever bounded: the inference never fired"
    else:
        assert bounded == 0, "a seat was bounded for drawing where nobody may take the pile"


def test_drawing_instead_of_a_takeable_pile_bounds_that_rank() -> None:
    """Find a draw with a takeable top and check the bound it sets: one natural at most, plus the draw."""
    for seed in range(40):
        game = Game(preset("kitchen-table"), 4, seed)
        for _ in range(600):
            state = game.state
            if game.results:
                break
            seat = state.to_move
            ids = game.legal_ids()
            if (
                ids[:1] == [DRAW_ID]
                and len(ids) == 1
                and state.pile
                and state.down[0 if seat % 2 == 0 else 1]
            ):
                before = [list(c) for c in game.facts.caps]
                top = C.KIND_OF[state.pile[-1]]
                probe = HandFacts(game.players)
                probe.before(state, game.move_of_id(DRAW_ID))
                if probe.caps[seat][top] < UNKNOWN:
                    drawn = state.rules.draw_count
                    game.apply_id(DRAW_ID)
                    caps = game.facts.caps[seat]
                    assert caps[top] == min(before[seat][top], 1) + drawn
                    assert state.hands[seat][top] <= caps[top]
                    return
            bot = HeuristicBot()
            legal = legal_for(state, ids)
            play_chosen(game, legal, bot.choose_seat(game.seat_info(seat), legal, random.Random(0)))
    pytest.fail("no draw beside a takeable pile was met")


def test_the_foot_clears_a_seats_bounds_and_plays_lower_them() -> None:
    facts = HandFacts(2)
    nine = C.KIND_OF[C.parse_card("9S")]
    facts.bound(1, nine, 1)
    facts.seen([Event(EventType.DREW, 1, amount=2)])
    assert facts.caps[1][nine] == 3
    facts.seen([Event(EventType.DISCARDED, 1, (C.parse_card("9H"),))])
    assert facts.caps[1][nine] == 2
    nines = (C.parse_card("9D"), C.parse_card("9C"), C.parse_card("9S"))
    facts.seen([Event(EventType.TOOK_PILE, 1, nines[:1], amount=5), Event(EventType.MELDED, 1, nines)])
    assert facts.caps[1][nine] == 2 + 4 - 2  # four cards came with the pile; two held nines were melded
    facts.seen([Event(EventType.FOOT, 1, amount=11)])
    assert facts.caps[1] == [UNKNOWN] * C.NUM_KINDS


@pytest.mark.parametrize("name", sorted(PRESET_NAMES))
def test_game_seat_info_carries_the_bounds_and_freezes_into_the_view(name: str) -> None:
    game = play_to(name, preset(name).default_players, 2, 80)
    for seat in range(game.players):
        info = game.seat_info(seat)
        assert info.caps == game.facts.snapshot()
        assert info.freeze() == view(game.state, seat)


@pytest.mark.parametrize("name", sorted(PRESET_NAMES))
def test_sampled_worlds_respect_the_bounds_and_the_view(name: str) -> None:
    game = greedy_game(name, 5)
    play_greedy(game, 120, check=False)
    state = game.state
    seat = state.to_move
    info = game.seat_info(seat)
    v = info.freeze()
    assert info.caps is not None
    rng = random.Random(1)
    for _ in range(10):
        world = sample_world(v, rng, info.caps)
        assert view(world, seat) == v
        for other in range(state.players):
            if other == seat:
                continue
            for kind in range(C.NUM_KINDS):
                assert world.hands[other][kind] <= max(info.caps[other][kind], state.known[other][kind])


def test_sampling_relaxes_a_bound_the_unseen_cards_cannot_meet() -> None:
    game = play_to("kitchen-table", 4, 3, 10)
    v = view(game.state, 0)
    caps = [[0] * C.NUM_KINDS for _ in range(4)]  # nobody holds anything: impossible
    world = sample_world(v, random.Random(0), caps)
    assert view(world, 0) == v
    assert [sum(world.hands[p]) for p in range(4)] == [sv.hand_count for sv in v.seats]


class ReferenceFacts:
    """The bounds worked out the plain way (every event, every seat, no cache), to check ``HandFacts``."""

    def __init__(self, players: int) -> None:
        self.caps = [[UNKNOWN] * C.NUM_KINDS for _ in range(players)]

    def before(self, s: HandState, move: Move) -> None:
        if move.action is not Action.DRAW or s.phase is not Phase.DRAW or not s.pile:
            return
        seat = s.to_move
        if not s.down[s.seating.owner_of[seat]] or top_refusal(s, seat) is not None:
            return
        needed = pickup_needed(s, seat)
        if needed >= 1 and s.hand_size(seat) >= needed + 2:
            kind = C.KIND_OF[s.pile[-1]]
            self.caps[seat][kind] = min(self.caps[seat][kind], needed - 1)

    def seen(self, events: list[Event]) -> None:
        took_pile = False
        for event in events:
            caps = self.caps[event.seat] if event.seat >= 0 else []
            received = 0
            played: tuple[int, ...] = ()
            if event.type is EventType.NEW_HAND:
                return
            if event.type is EventType.DREW:
                received = event.amount
            elif event.type is EventType.TOOK_PILE:
                received, took_pile = max(event.amount - 1, 0), True
            elif event.type is EventType.MELDED:
                played, took_pile = (event.cards[1:] if took_pile else event.cards), False
            elif event.type is EventType.DISCARDED:
                played = event.cards
            elif event.type is EventType.FOOT:
                caps[:] = [UNKNOWN] * C.NUM_KINDS
            for kind, cap in enumerate(caps):
                if cap < UNKNOWN:
                    caps[kind] = cap + received
            for card in played:
                if 0 < caps[C.KIND_OF[card]] < UNKNOWN:
                    caps[C.KIND_OF[card]] -= 1


@pytest.mark.parametrize("name", sorted(PRESET_NAMES))
def test_the_snapshot_kept_between_moves_is_the_bounds_worked_out_afresh(name: str) -> None:
    bounded = 0
    for seed in range(2):
        game = greedy_game(name, seed)
        bots, rng = (HeuristicBot(), RandomBot()), random.Random(seed)
        reference, hand = ReferenceFacts(game.players), 0
        for _ in range(600):
            state = game.state
            if game.finished or len(game.results) >= 2:
                break
            if state.hand_index != hand:
                reference, hand = ReferenceFacts(game.players), state.hand_index
            snapshot = game.facts.snapshot()
            assert snapshot == tuple(map(tuple, reference.caps))
            assert game.facts.snapshot() is snapshot  # kept while no move is played
            bounded += any(cap < UNKNOWN for row in snapshot for cap in row)
            legal = legal_for(state, game.legal_ids())
            move = bots[state.to_move % 2].choose_seat(game.seat_info(state.to_move), legal, rng)
            reference.before(state, move)
            reference.seen(play_chosen(game, legal, move))
    if preset(name).pickup_allowed:
        assert bounded > 0, "no seat was ever bounded: the check saw no bound"
