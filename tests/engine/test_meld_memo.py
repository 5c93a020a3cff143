"""The memo of ``meld_legal.meld_ids`` (engine/meld_legal.py): what it gives equals judging afresh, and it
stays within its bound. (Random play compares the two at every step of every case: test_random_play.py.)"""

from __future__ import annotations

import random

import pytest

from handfoot.engine import Game, Phase, meld_legal
from handfoot.rules import PRESET_NAMES, apply_overrides, preset
from handfoot.rules.cache import RulesCache
from helpers.play import RandomPlayer, play_move


def memo_entries() -> int:
    """Ranks' ids remembered now, over every rule set and context."""
    memos = [
        *(memo for rules in meld_legal._MEMOS.values() for row in rules.plain.values() for memo in row),
        *(memo for rules in meld_legal._MEMOS.values() for memo in rules.careful.values()),
    ]
    return sum(
        len(memo.melded) + sum(found is not None for found in memo.unmelded)
        for memo in memos
        if memo is not None
    )


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_memo_starts_afresh_past_its_bound_and_still_agrees(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meld_legal, "_MEMOS", RulesCache())
    monkeypatch.setattr(meld_legal, "_entries", 0)
    monkeypatch.setattr(meld_legal, "_ENTRIES_KEPT", 40)
    most = 0
    plays = 0
    for seed in range(3):
        game = Game(preset(name), None, seed=seed)
        player = RandomPlayer(random.Random(seed))
        state = game.state
        while game.state is state and not game.finished:
            if state.phase is Phase.PLAY:
                seat = state.to_move
                assert meld_legal.meld_ids(state, seat) == meld_legal.judged_meld_ids(state, seat)
                plays += 1
            most = max(most, memo_entries())
            play_move(game, player.choose(state, game.legal_ids()))
    assert plays > 50, "too few play-phase positions to fill the memo"
    assert 0 < most <= 40, f"the memo held {most} entries, its bound is 40"


def test_rule_sets_that_differ_never_share_what_the_memo_found() -> None:
    """The same positions judged under a table's rules and under the same rules with ``max_wilds = 1``
    (kitchen-table): the memo answers each as judging afresh does, and the two differ somewhere."""
    loose = preset("kitchen-table")
    strict = apply_overrides(loose, {"max_wilds": 1})
    differ = 0
    for seed in range(4):
        game = Game(loose, None, seed=seed)
        player = RandomPlayer(random.Random(seed))
        state = game.state
        while game.state is state and not game.finished:
            if state.phase is Phase.PLAY:
                seat = state.to_move
                found = {}
                for rules in (loose, strict, loose):
                    state.rules = rules
                    found[rules.max_wilds] = meld_legal.meld_ids(state, seat)
                    assert found[rules.max_wilds] == meld_legal.judged_meld_ids(state, seat)
                state.rules = loose
                differ += found[1] != found[loose.max_wilds]
            play_move(game, player.choose(state, game.legal_ids()))
    assert differ, "max_wilds = 1 never changed the meld ids: the test shows nothing"
