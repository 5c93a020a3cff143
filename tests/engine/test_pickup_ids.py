"""The legal pickups listed (``pile.pickup_ids``) are exactly those ``pickup_refusal`` accepts, judged whole,
at every draw-phase position of random play under every preset with the book options varied: a closed
book taking nothing more, naturals only or anything (RULES.md section 3, "Melds and books"), a new meld
begun beside a book or not. ``pickup_ids`` judges a pickup of naturals alone with less work than the whole
check (its last checks only), and both place a lone group of naturals that leaves cards to spare by the
shape rules alone (``pile._placed_by_shape``): the whole check it is compared with places every group
by ``plan_groups``, so the two are compared where a book's rules refuse a pickup too."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from handfoot.engine import Game, HandState, Phase, pile
from handfoot.engine.moves import MAX_PICKUP_NATURALS, PICKUP_BASE, PICKUP_DEUCE_ID, PICKUP_JOKER_ID, move_for
from handfoot.engine.pile import pickup_ids, pickup_refusal
from handfoot.rules import PRESET_NAMES, apply_overrides, preset
from helpers.play import RandomPlayer, play_move

PICKUP_IDS = (*range(PICKUP_BASE, PICKUP_BASE + MAX_PICKUP_NATURALS + 1), PICKUP_JOKER_ID, PICKUP_DEUCE_ID)


def judged_pickup_ids(
    s: HandState, seat: int, refusals: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> list[int]:
    """Every pickup id whose move ``pickup_refusal`` accepts, judged whole with every group placed by
    ``plan_groups`` (the rules of the refused ones counted in ``refusals``)."""
    out = []
    with monkeypatch.context() as patch:
        patch.setattr(pile, "_placed_by_shape", lambda *_: False)
        for mid in PICKUP_IDS:
            why = pickup_refusal(s, move_for(s.hand_cards[seat], s.pile[-1], mid))
            if why is None:
                out.append(mid)
            else:
                refusals[why.rule] += 1
    return out


@pytest.mark.parametrize("additions", ["any", "naturals", "none"])
def test_the_pickups_listed_are_those_the_whole_check_accepts(
    additions: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    refusals: Counter[str] = Counter()
    positions = 0
    for name in PRESET_NAMES:
        for new_meld_after_book in (False, True):
            overrides = {"book_additions": additions, "new_meld_after_book": new_meld_after_book}
            rules = apply_overrides(preset(name), overrides)
            for seed in range(3):
                game = Game(rules, None, seed=seed)
                player = RandomPlayer(random.Random(seed))
                state = game.state
                while game.state is state and not game.finished:
                    if state.phase is Phase.DRAW and not state.staged and state.pile:
                        seat = state.to_move
                        listed = pickup_ids(state, seat)
                        judged = judged_pickup_ids(state, seat, refusals, monkeypatch)
                        assert listed == judged, (name, overrides, seed)
                        positions += 1
                    play_move(game, player.choose(state, game.legal_ids()))
    assert positions > 1000, f"only {positions} draw-phase positions with a pile"
    if additions == "none":  # a closed book refuses some pickups of naturals only where it takes nothing
        assert refusals["book_additions"], (
            f"no pickup refused by a book's rules: the test shows little {refusals}"
        )
