"""The encoder keeps each seat's vector and writes again only what changed in the seat's view, the table's
melds by rank (rl/fill.py): every vector equals the one an encoder that kept nothing writes, at every
position of random play, for every seat, under every preset and player count, with one encoder shared by
several tables at once, each table named (as ``BatchEnv`` names them) or all under one name (each view
then follows one from another table)."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from handfoot import cards as C
from handfoot.engine import Game, Meld
from handfoot.engine.views import seat_info
from handfoot.rl.encode import Encoder
from handfoot.rl.layout import KINDS, MAX_SEATS, OFFSETS, START
from handfoot.rules import PRESET_NAMES, apply_overrides, preset
from handfoot.rules.options import RuleSet
from helpers.play import RandomPlayer, play_move

CASES = [
    (name, players)
    for name in PRESET_NAMES
    for players in preset(name).players_allowed
    if players <= MAX_SEATS
]


TABLE = slice(START["meld_open"], OFFSETS["meld_earlier"].stop)


def afresh(rules: RuleSet, players: int) -> Encoder:
    """An encoder that has kept nothing yet."""
    return Encoder(rules, players)


def table_entries(encoder: Encoder, me: int, table: tuple[Meld, ...]) -> np.ndarray:
    """The table's entries for observer ``me`` worked out whole, meld by meld in table order, as the
    layout describes them (independently of the encoder's own code): per (owner slot, rank) the latest
    meld's naturals, jokers and deuces; the melds before it and their cards."""
    out = np.zeros(TABLE.stop - TABLE.start, dtype=np.float32)
    open_at, earlier_at = 0, START["meld_earlier"] - TABLE.start
    latest: dict[int, Meld] = {}
    for meld in table:
        key = KINDS * encoder.owner_slot[me][meld.owner] + meld.rank
        if key in latest:
            out[earlier_at + 2 * key] += 1
            out[earlier_at + 2 * key + 1] += len(latest[key].cards)
        latest[key] = meld
    for key, meld in latest.items():
        jokers = sum(1 for card in meld.cards if C.KIND_OF[card] == C.JOKER)
        deuces = sum(1 for card in meld.cards if C.KIND_OF[card] == C.DEUCE)
        out[open_at + 3 * key : open_at + 3 * key + 3] = (len(meld.cards) - jokers - deuces, jokers, deuces)
    return out


def compare_along_random_play(
    name: str, players: int, moves: int = 260, named: bool = True, options: Mapping[str, Any] | None = None
) -> Counter[str]:
    """Play three tables at random for ``moves`` moves each with one encoder, comparing every seat's
    vector at every position with one encoded afresh and its table entries with ``table_entries``; returns
    how many vectors held a closed book (``meld_earlier`` entries), any of the whole pile (``pile_seen``)
    and any of the seat's own Foot (``foot``). ``named``: each table's views are
    encoded under its own name (its index), else all under one. ``options``: house options over the
    preset."""
    rules = apply_overrides(preset(name), options or {})
    kept = Encoder(rules, players)
    tables = [Game(rules, players, seed=seed) for seed in range(3)]  # one encoder for three tables
    movers = [RandomPlayer(random.Random(seed)) for seed in range(3)]
    compared = most_melds = 0
    held: Counter[str] = Counter()
    for _ in range(moves):
        for index, (game, mover) in enumerate(zip(tables, movers, strict=True)):
            if game.finished:
                continue
            state = game.state
            most_melds = max(most_melds, len(state.melds))
            for seat in range(players):
                info = seat_info(state, seat)
                mine = kept.encode(info, game.totals, index if named else 0)
                fresh = afresh(rules, players).encode(info, game.totals)
                where = (name, players, game.state.move_count, seat)
                assert np.array_equal(mine, fresh), where
                assert np.array_equal(mine[TABLE], table_entries(kept, seat, info.table)), where
                held["closed_book"] += int(mine[START["meld_earlier"] : TABLE.stop].any())
                held["pile_seen"] += int(mine[OFFSETS["pile_seen"]].any())
                held["foot"] += int(mine[OFFSETS["foot"]].any())
                compared += 1
            play_move(game, mover.choose(state, game.legal_ids()))
    assert compared > 1000 and most_melds >= 6  # the tables were played into, with melds on them
    return held


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_every_vector_equals_one_encoded_afresh(name: str, players: int) -> None:
    compare_along_random_play(name, players)


@pytest.mark.parametrize("name", sorted(PRESET_NAMES))
def test_views_of_several_tables_under_one_name_encode_as_afresh(name: str) -> None:
    compare_along_random_play(name, 4 if 4 in preset(name).players_allowed else 3, moves=120, named=False)


@pytest.mark.parametrize("name", ["kitchen-table", "in-laws"])
def test_the_whole_pile_and_the_own_foot_shown_encode_as_afresh(name: str) -> None:
    """No preset shows the whole pile (``pile_visible = "all"``) or a seat its own Foot
    (``pick_foot_seen``): with both as house options, the ``pile_seen`` and ``foot`` entries change
    along the play and are compared too."""
    held = compare_along_random_play(name, 4, options={"pile_visible": "all", "pick_foot_seen": True})
    assert held["pile_seen"] and held["foot"]


def test_closed_books_are_among_the_vectors_compared() -> None:
    """Under marmot a book closes and a new meld of its rank begins: its ``meld_earlier`` entries are
    compared too."""
    assert compare_along_random_play("marmot", 4)["closed_book"] > 0


def test_an_encoder_copied_or_pickled_with_its_game_encodes_as_one_afresh() -> None:
    """An encoder deep-copied or pickled together with its game (as an environment's ``clone`` copies both)
    goes on writing the vectors an encoder that kept nothing writes, as the copied game plays on."""
    game = Game(preset("kitchen-table"), 4, seed=5)
    mover = RandomPlayer(random.Random(5))
    kept = Encoder(game.rules, 4)
    while len(game.state.melds) < 3:
        play_move(game, mover.choose(game.state, game.legal_ids()))
        kept.encode(seat_info(game.state, game.state.to_move), game.totals)
    copies = (copy.deepcopy((game, kept)), pickle.loads(pickle.dumps((game, kept))))
    for copied_game, copied_encoder in copies:
        copied_mover = RandomPlayer(random.Random(6))
        for _ in range(60):
            if copied_game.finished:
                break
            info = seat_info(copied_game.state, copied_game.state.to_move)
            mine = copied_encoder.encode(info, copied_game.totals)
            assert np.array_equal(mine, afresh(game.rules, 4).encode(info, copied_game.totals))
            play_move(copied_game, copied_mover.choose(copied_game.state, copied_game.legal_ids()))


def test_each_vector_encoded_is_the_callers_own() -> None:
    """``encode`` returns a new, writable array each time: what a caller keeps (a replay buffer) stays as
    it was while the encoder goes on writing the seat's kept vector, and writing into it changes nothing
    the encoder writes next."""
    game = Game(preset("kitchen-table"), 4, seed=8)
    mover = RandomPlayer(random.Random(8))
    encoder = Encoder(game.rules, 4)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(120):
        info = seat_info(game.state, game.state.to_move)
        vector = encoder.encode(info, game.totals)
        assert vector.flags.writeable
        kept.append((vector, vector.copy()))
        vector[:] = -1.0  # the caller's to change
        assert np.array_equal(
            encoder.encode(info, game.totals), afresh(game.rules, 4).encode(info, game.totals)
        )
        vector[:] = kept[-1][1]
        play_move(game, mover.choose(game.state, game.legal_ids()))
    assert all(np.array_equal(vector, snapshot) for vector, snapshot in kept)
