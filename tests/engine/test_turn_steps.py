"""The turn made of atomic steps: every policy over the legal ids finishes hands (the turn cannot
cycle), staging is undone by cancel (once a phase), and a lay-down written at once plays as its steps,
all or nothing."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from handfoot import cards as C
from handfoot.engine import DealSpec, Game, IllegalMove
from handfoot.engine.moves import CANCEL_ID, COMMIT_ID, DISCARD_BASE, STAGE_NEW_BASE, Action, Move
from handfoot.engine.serialize import state_to_json
from handfoot.rules import PRESET_NAMES, preset
from helpers.dead_ends import dead_ends

Policy = Callable[[list[int], random.Random], int]
POLICIES: dict[str, Policy] = {
    "argmax": lambda ids, rng: ids[-1],
    "argmin": lambda ids, rng: ids[0],
    "random": lambda ids, rng: rng.choice(ids),
}
MOVES_PER_HAND = 20_000  # far beyond any hand: the stock runs out within a few hundred moves


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_policy_over_the_legal_ids_finishes_hands(name: str, policy: str) -> None:
    """A policy that always plays the highest, the lowest (as the bot protocol's example bot does) or a
    random legal id never finds the legal list empty nor an offered step that leads nowhere, and ends
    every hand: a staging is cancelled at most once a phase (the next one cannot be), so no
    policy loops between staging and cancelling."""
    choose = POLICIES[policy]
    rules = preset(name)
    for players in sorted({min(rules.players_allowed), rules.default_players}):
        for seed in range(2):
            game = Game(rules, players, seed=seed)
            rng = random.Random(seed)
            moves = 0
            while not game.results:
                ids = game.legal_ids()
                assert ids, f"no legal id in phase {game.state.phase.name}"
                if game.state.staged or ids[-1] >= STAGE_NEW_BASE:
                    assert not dead_ends(game.state), f"{name} {players}p seed {seed}: a step leads nowhere"
                game.apply_id(choose(ids, rng))
                moves += 1
                assert moves < MOVES_PER_HAND, f"{name} {players}p seed {seed}: the hand never ended"


def staged_position(name: str = "kitchen-table") -> Game:
    """A game where the player to move may stage a group (play phase, side not down)."""
    for seed in range(50):
        game = Game(preset(name), 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            ids = game.legal_ids()
            if game.state.phase.name == "PLAY" and any(mid >= STAGE_NEW_BASE for mid in ids):
                return game
            plain = [mid for mid in ids if mid < STAGE_NEW_BASE] or ids
            game.apply_id(rng.choice(plain))
            if game.results:
                break
    raise AssertionError("no position to stage in")


def test_cancel_returns_to_the_position_before_staging() -> None:
    """000 kitchen-table, an opening of several melds: staged groups are only set aside (the hand keeps
    them), cancel takes them back and leaves the player every choice it had before staging (staging
    too); the next staging of that phase cannot be cancelled, so no turn loops (docs/engine.md)."""
    game = staged_position()
    s = game.state
    seat = s.to_move
    hand = list(s.hands[seat])
    before = game.legal_ids()
    stage = next(mid for mid in before if mid >= STAGE_NEW_BASE and mid not in (COMMIT_ID, CANCEL_ID))
    game.apply_id(stage)
    assert game.state.staged and game.state.hands[seat] == hand
    assert CANCEL_ID in game.legal_ids()
    assert all(mid >= STAGE_NEW_BASE or mid <= 6 for mid in game.legal_ids())
    game.apply_id(CANCEL_ID)
    assert not game.state.staged and game.state.cancelled and game.state.hands[seat] == hand
    assert game.legal_ids() == before
    game.apply_id(stage)
    assert CANCEL_ID not in game.legal_ids() and game.legal_ids()
    with pytest.raises(IllegalMove, match="taken back a staging once"):
        game.apply_id(CANCEL_ID)


def dealt_game() -> Game:
    """Two players of kitchen-table; seat 0 (first to play) holds three kings, three aces and three 8s."""
    hands = (
        C.parse_cards(["KS", "KH", "KD", "AS", "AH", "AD", "8S", "8H", "8D", "JK", "2C"]),
        C.parse_cards(["9C", "8D", "QS", "QH", "JS", "JH", "TC", "TD", "6D", "7D", "8C"]),
    )
    deal = DealSpec(tuple(map(tuple, hands)), None, tuple(C.parse_cards(["5H", "6S"])), (C.parse_card("5C"),))
    return Game(preset("kitchen-table"), 2, seed=1, dealer=1, deals=[deal])


def test_a_lay_down_written_at_once_plays_as_its_steps() -> None:
    """000 kitchen-table, 'first meld ... 50 points': 'meld KS KH KD | AS AH AD' (60) is judged whole and
    played as stage, stage, commit; the game's moves (and so its record) hold the steps."""
    game = dealt_game()
    game.apply_text("draw")
    game.apply_text("meld KS KH KD | AS AH AD")
    assert game.history[-1][-3:] == ["stage KS KH KD", "stage AS AH AD", "commit"]
    assert game.state.down[0] and len(game.state.melds) == 2


def test_a_refused_lay_down_written_at_once_changes_nothing() -> None:
    """000 kitchen-table (a new meld holds three cards at least): 'meld KS KH KD | AS AH' is refused
    whole (its second group is two cards), and nothing of it is played or staged."""
    game = dealt_game()
    game.apply_text("draw")
    before = state_to_json(game.state)
    moves = [list(hand) for hand in game.moves]
    with pytest.raises(IllegalMove, match="three cards"):
        game.apply_text("meld KS KH KD | AS AH")
    assert state_to_json(game.state) == before and game.moves == moves


def test_a_listed_id_plays_only_the_cards_it_stands_for() -> None:
    """000 kitchen-table, 'discard one card': the discard of a king is listed legal for seat 0 (it holds
    KS KH KD), and ``apply`` plays a listed id's own move unjudged; a discard of the king it does not
    hold (KC, the same id) is still judged, refused, and changes nothing."""
    game = dealt_game()
    game.apply_text("draw")
    listed = game.legal_ids()
    king = DISCARD_BASE + C.KING
    assert king in listed
    before = state_to_json(game.state)
    with pytest.raises(IllegalMove):
        game.apply(Move(Action.DISCARD, card=C.parse_card("KC")))
    assert state_to_json(game.state) == before and game.legal_ids() == listed
    game.apply(game.move_of_id(king))
    assert game.history[-1][-1] == "discard KS" and game.state.hands[0][C.KING] == 2
