"""``SeatInfo``: the cheap reading of what a seat may know, handed to bots by runners (``choose_seat``).

- it shows what the seat's ``View`` shows, field by field (``freeze()`` is that View);
- nothing hidden is reachable from it: no state, no other hand, no Foot, no stock, no hidden pile;
- it depends on nothing hidden: every world fitting the seat's view gives the same SeatInfo.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from handfoot import cards as C
from handfoot.engine import SPECTATOR, HandState, MeldView, sample_world, view
from handfoot.engine.views import SeatInfo, seat_info
from handfoot.rules import PRESET_NAMES, preset
from handfoot.rules.options import PileVisible
from helpers.bots import reachable
from helpers.play import play_to

POSITIONS = [(name, seed, moves) for name in PRESET_NAMES for seed, moves in ((1, 5), (2, 60), (3, 250))]
POSITION_IDS = [f"{n}-seed{s}-{m}moves" for n, s, m in POSITIONS]


def fields_of(info: SeatInfo) -> dict[str, object]:
    """Every field of ``info``, the table as frozen melds (to compare SeatInfos of different states)."""
    names = [n for n in dir(info) if not n.startswith("_") and not callable(getattr(info, n))]
    assert {"kinds", "held", "table", "hand", "melds", "caps"} <= set(names)
    out = {name: getattr(info, name) for name in names}
    out["table"] = info.melds
    return out


@pytest.mark.parametrize(("name", "seed", "moves"), POSITIONS, ids=POSITION_IDS)
def test_seat_info_shows_what_the_view_shows(name: str, seed: int, moves: int) -> None:
    s = play_to(name, preset(name).default_players, seed, moves).state
    for seat in (*range(s.players), SPECTATOR):
        info, v = seat_info(s, seat), view(s, seat)
        assert info.freeze() == v
        held = Counter(v.hand)
        assert list(info.held) == [held[card] for card in range(C.NUM_CARD_IDS)]
        kinds = Counter(C.KIND_OF[card] for card in v.hand)
        assert list(info.kinds) == [kinds[kind] for kind in range(C.NUM_KINDS)]
        assert info.hand == v.hand and info.foot == v.foot
        assert info.hand_counts == tuple(sv.hand_count for sv in v.seats)
        assert info.foot_counts == tuple(sv.foot_count for sv in v.seats)
        assert info.in_foot == tuple(sv.in_foot for sv in v.seats)
        assert info.known == tuple(sv.known for sv in v.seats)
        assert tuple(MeldView(m.owner, m.rank, tuple(m.cards), m.wilds) for m in info.table) == v.melds
        assert info.books == v.books and info.down == v.down and info.minimums == v.minimums
        assert info.red_threes == v.red_threes
        assert (info.pile_top, info.pile_size, info.pile, info.stock_size) == (
            v.pile_top,
            v.pile_size,
            v.pile,
            v.stock_size,
        )
        for name_ in ("rules", "players", "seat", "hand_index", "dealer", "turn_seat", "to_move", "phase"):
            assert getattr(info, name_) == getattr(v, name_)
        for name_ in ("permission", "last_round_left", "out_seat", "end_reason", "move_count"):
            assert getattr(info, name_) == getattr(v, name_)


def hidden_containers(s: HandState, seat: int) -> list[object]:
    """The state's containers of cards ``seat`` may not see."""
    out: list[object] = [s.stock, *s.feet]
    out += [s.hands[p] for p in range(s.players) if p != seat]
    out += [s.hand_cards[p] for p in range(s.players) if p != seat]
    if s.rules.pile_visible is not PileVisible.ALL:
        out.append(s.pile)
    return out


@pytest.mark.parametrize(("name", "seed", "moves"), POSITIONS, ids=POSITION_IDS)
def test_nothing_hidden_is_reachable_from_a_seat_info(name: str, seed: int, moves: int) -> None:
    s = play_to(name, preset(name).default_players, seed, moves).state
    for seat in (*range(s.players), SPECTATOR):
        found = {id(obj) for obj in reachable(seat_info(s, seat))}
        assert id(s) not in found
        for container in (*hidden_containers(s, seat), s.hands[seat], s.hand_cards[seat], s.pile):
            assert id(container) not in found, "a SeatInfo shares a container of the state"


@pytest.mark.parametrize(("name", "seed", "moves"), POSITIONS, ids=POSITION_IDS)
def test_every_world_fitting_the_view_gives_the_same_seat_info(name: str, seed: int, moves: int) -> None:
    s = play_to(name, preset(name).default_players, seed, moves).state
    rng = random.Random(seed)
    for seat in (*range(s.players), SPECTATOR):
        expected = fields_of(seat_info(s, seat))
        for _ in range(3):
            world = sample_world(view(s, seat), rng)
            assert fields_of(seat_info(world, seat)) == expected
