"""Views: what a seat (or a spectator) is shown, and worlds sampled from a view.

- a seat's view holds its own hand exactly, and only counts for everyone else's hand and Foot;
- the pile shows its top card and size only, all of it under ``pile_visible = "all"``;
- cards a seat was seen to take from a visible pile are in ``known`` (and stay with it in sampled worlds);
- the spectator's view has no hand;
- the View types have no field beyond the reviewed ones (a new field must be checked for leaks here);
- ``sample_world`` is consistent with the view (same view back, the shoe's cards, seen cards kept) and
  random (different seeds deal the hidden cards differently; one seed, one world).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields

import pytest

from handfoot import cards as C
from handfoot.engine import (
    SPECTATOR,
    EventType,
    Game,
    HandState,
    MeldView,
    SeatView,
    View,
    sample_world,
    spectator_view,
    view,
)
from handfoot.rules import PRESET_NAMES, apply_overrides, preset
from helpers.play import RandomPlayer, card_counts, play_move, play_to, shoe_counts

# Positions: every preset, at several points of a game (early, mid-hand, late or a later hand).
POSITIONS = [(name, seed, moves) for name in PRESET_NAMES for seed, moves in ((1, 5), (2, 60), (3, 250))]
POSITION_IDS = [f"{n}-seed{s}-{m}moves" for n, s, m in POSITIONS]


def held(s: HandState, seat: int) -> Counter[int]:
    """The cards a seat holds, as a multiset."""
    return Counter({card: n for card, n in enumerate(s.hand_cards[seat]) if n})


@pytest.mark.parametrize(("name", "seed", "moves"), POSITIONS, ids=POSITION_IDS)
def test_seat_view_shows_own_hand_and_counts_for_others(name: str, seed: int, moves: int) -> None:
    """Each seat sees exactly its own hand (sorted for display) and, for every seat, only the hand size,
    the Foot's size and whether it was picked up; its own Foot's cards are not shown."""
    s = play_to(name, preset(name).default_players, seed, moves).state
    for seat in range(s.players):
        v = view(s, seat)
        assert v.seat == seat
        assert Counter(v.hand) == held(s, seat)
        assert list(v.hand) == sorted(v.hand, key=C.sort_key)
        assert v.foot == ()  # no preset lets a player look at their Foot before picking it up
        for other, seat_view in enumerate(v.seats):
            assert seat_view.hand_count == s.hand_size(other)
            assert seat_view.foot_count == len(s.feet[other])
            assert seat_view.in_foot == s.in_foot[other]
        assert v.stock_size == len(s.stock)
        assert [m.cards for m in v.melds] == [tuple(m.cards) for m in s.melds]


@pytest.mark.parametrize(("name", "seed", "moves"), POSITIONS, ids=POSITION_IDS)
def test_spectator_view_has_no_hand(name: str, seed: int, moves: int) -> None:
    """The public view names no held card: no hand, no Foot, the same table and counts as a seat's view."""
    s = play_to(name, preset(name).default_players, seed, moves).state
    public = spectator_view(s)
    assert public.seat == SPECTATOR and public.hand == () and public.foot == ()
    seat_view = view(s, 0)
    assert public.seats == seat_view.seats and public.melds == seat_view.melds
    assert public.pile_top == seat_view.pile_top and public.pile_size == seat_view.pile_size


def test_pile_shows_top_and_size_only_unless_all_visible() -> None:
    """Under every preset only the pile's top card and size are shown; with pile_visible = "all" every
    card of it, bottom first."""
    for name in PRESET_NAMES:
        game = play_to(name, preset(name).default_players, 11, 40)
        s = game.state
        assert len(s.pile) >= 2, f"{name}: the position needs a pile of two cards or more"
        for seat in (*range(s.players), SPECTATOR):
            v = view(s, seat)
            assert v.pile == () and v.pile_top == s.pile[-1] and v.pile_size == len(s.pile)
    rules = apply_overrides(preset("kitchen-table"), {"pile_visible": "all"})
    game = Game(rules, 4, seed=11)
    player = RandomPlayer(random.Random(11))
    while len(game.state.pile) < 3:
        play_move(game, player.choose(game.state, game.legal_ids()))
    s = game.state
    for seat in (*range(s.players), SPECTATOR):
        v = view(s, seat)
        assert v.pile == tuple(s.pile) and v.pile_top == s.pile[-1] and v.pile_size == len(s.pile)


def _first_pickup(rules_overrides: dict[str, object], seed: int) -> tuple[Game, int, list[int]]:
    """A kitchen-table game (with overrides) played at random to just after the first atomic pickup of a
    pile of three cards or more: the game, the seat that took it, and the cards under the top card."""
    rules = apply_overrides(preset("kitchen-table"), rules_overrides)
    game = Game(rules, 4, seed=seed)
    player = RandomPlayer(random.Random(seed), pickup_rate=1.0, open_rate=0.0)
    for _ in range(2000):
        s = game.state
        pile_below_top = list(s.pile[:-1])
        seat = s.to_move
        choice = player.choose(s, game.legal_ids())
        before = game.state
        events = game.apply(choice) if not isinstance(choice, int) else game.apply_id(choice)
        took = any(e.type is EventType.TOOK_PILE for e in events)
        if took and game.state is before and len(pile_below_top) >= 2:
            return game, seat, pile_below_top
    raise AssertionError("no pile pickup in 2000 moves")


def test_cards_seen_taken_from_a_visible_pile_are_known() -> None:
    """Under pile_visible = "all" the cards taken with the pile (bar red 3s laid down) are known to be in
    the taker's hand, in every seat's view, and every sampled world puts them in that hand."""
    game, taker, taken = _first_pickup({"pile_visible": "all"}, seed=5)
    s = game.state
    expected = Counter(C.KIND_OF[c] for c in taken if C.KIND_OF[c] != C.RED_THREE)
    assert sum(expected.values()) >= 1, "the pickup took no card beside the top one"
    known = [expected[k] for k in range(C.NUM_KINDS)]
    for seat in (*range(s.players), SPECTATOR):
        v = view(s, seat)
        assert list(v.seats[taker].known) == known
        assert all(sum(v.seats[p].known) == 0 for p in range(s.players) if p != taker)
        for seed in range(3):
            world = sample_world(v, random.Random(seed))
            assert all(world.hands[taker][k] >= known[k] for k in range(C.NUM_KINDS))


def test_cards_taken_from_a_hidden_pile_are_not_known() -> None:
    """Under pile_visible = "top" (every preset) nobody learns what else came with the pile."""
    game, _, _ = _first_pickup({}, seed=5)
    v = spectator_view(game.state)
    assert all(sum(seat_view.known) == 0 for seat_view in v.seats)


def test_view_types_have_only_reviewed_fields() -> None:
    """The fields a view carries, each reviewed for leaks: cards appear only in ``hand``/``foot`` (the
    viewer's own), the table (melds, red 3s) and the pile (top, or all where shown); the rest are counts,
    flags and public facts. A new field must be added here after checking what it shows."""
    assert {f.name for f in fields(View)} == {
        "rules", "players", "seat", "hand_index", "dealer", "turn_seat", "to_move", "phase", "permission",
        "hand", "foot", "seats", "melds", "red_threes", "down", "minimums", "books", "pile_top", "pile_size",
        "pile", "stock_size", "last_round_left", "out_seat", "end_reason", "move_count",
        "turn_wilds",  # (meld index, wilds laid on it this turn): public, every seat saw them laid
        "staged",  # the viewer's own groups set aside this turn: cards of its ``hand``, to the mover only
        "cancelled",  # a cancel was played in this part of the turn: public, every seat saw it
    }  # fmt: skip
    assert {f.name for f in fields(SeatView)} == {"hand_count", "in_foot", "foot_count", "known"}
    assert {f.name for f in fields(MeldView)} == {"owner", "rank", "cards", "wilds"}


@pytest.mark.parametrize(("name", "seed", "moves"), POSITIONS, ids=POSITION_IDS)
def test_sample_world_is_consistent_with_the_view(name: str, seed: int, moves: int) -> None:
    """For every seat and the spectator: the sampled world holds the shoe's cards, gives back the same
    view, keeps the viewer's hand and the table, and deals the same counts everywhere."""
    s = play_to(name, preset(name).default_players, seed, moves).state
    for seat in (*range(s.players), SPECTATOR):
        v = view(s, seat)
        world = sample_world(v, random.Random(seed))
        assert card_counts(world) == shoe_counts(s)
        assert view(world, seat) == v
        if seat >= 0:
            assert held(world, seat) == held(s, seat)
        assert world.melds == s.melds and world.red_threes == s.red_threes
        assert world.pile[-1:] == s.pile[-1:] and len(world.pile) == len(s.pile)
        assert [len(f) for f in world.feet] == [len(f) for f in s.feet]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_sample_world_is_random_and_seeded(name: str) -> None:
    """Different seeds deal the hidden cards differently (other hands, Feet, stock order); the same seed
    deals the same world."""
    s = play_to(name, preset(name).default_players, 4, 30).state
    v = view(s, 0)
    worlds = [sample_world(v, random.Random(seed)) for seed in range(5)]
    others = [tuple(tuple(w.hand_cards[p]) for p in range(1, s.players)) for w in worlds]
    assert len(set(others)) == 5, "five seeds dealt the same hidden hands"
    assert len({tuple(w.stock) for w in worlds}) == 5
    assert len({tuple(map(tuple, w.feet)) for w in worlds}) == 5
    again = sample_world(v, random.Random(0))
    assert again == worlds[0]
    truth = tuple(tuple(s.hand_cards[p]) for p in range(1, s.players))
    assert truth not in others, "a sampled world dealt exactly the real hidden hands"
