"""Refusals tell a player nothing hidden: a pickup is judged on what the player holds before anything
the pile (or, with ``pickup_rest_from = "stock"``, the stock) would bring, and every refusal is worded
from the seat's own view. (Rules: docs/rules.md, "taking the pile": ``pickup_count``,
``pickup_rest_from``, ``pile_visible``; the sheets' pickup sections.)

Property, over random positions of every preset: for a random pickup naming cards from the hand, the
cards that would come with the pile and anywhere else, the refusal in the real deal and in other deals
the seat cannot tell apart from it (``sample_world`` of its view) is the same sentence whenever both
are refusals, and it names no card the seat neither holds, sees nor named."""

from __future__ import annotations

import random
import re

import pytest

from handfoot import cards as C
from handfoot.engine import Game, HandState, Phase, sample_world, view
from handfoot.engine.judge import check
from handfoot.engine.moves import Action, Group, Move
from handfoot.engine.pile import pile_taken, top_refusal
from handfoot.rules import PRESET_NAMES, apply_overrides, preset
from helpers.play import RandomPlayer, play_move

CODE = re.compile(r"\b(?:[AKQJT98765432][SHDC]|JK)\b")
VARIANTS = [
    {},
    {"pickup_rest_from": "stock", "pickup_count": 4},
    {"pickup_count": 5},
    {"pile_visible": "all"},
]


def _random_pickup(s: HandState, rng: random.Random) -> Move:
    """A pickup: the top card's naturals from the hand, then one to three groups of cards drawn from
    the hand, the cards that would come with the pile, and random cards."""
    seat = s.to_move
    top = s.pile[-1]
    kind = C.KIND_OF[top]
    mine = [c for c in range(C.NUM_CARD_IDS) for _ in range(s.hand_cards[seat][c])]
    naturals = [c for c in mine if C.KIND_OF[c] == kind][: rng.randint(1, 3)]
    pool = mine + pile_taken(s) * 2 + [rng.randrange(C.NUM_CARD_IDS) for _ in range(6)]
    groups = [Group(kind, (top, *naturals))]
    for _ in range(rng.randint(1, 3)):
        cards = tuple(rng.choice(pool) for _ in range(rng.randint(3, 4)))
        groups.append(Group(-1, cards))
    first = Group(-1, tuple(naturals))
    return Move(Action.PICKUP, groups=(first, *groups[1:]))


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_pickup_refusals_depend_only_on_what_the_seat_sees(name: str, variant: int) -> None:
    try:
        rules = apply_overrides(preset(name), VARIANTS[variant])
    except ValueError:
        pytest.skip(f"{name} does not take {VARIANTS[variant]}")
    if not rules.pickup_allowed:
        pytest.skip(f"{name}: the pile is never taken")
    checked = 0
    for seed in range(6):
        rng = random.Random(seed * 31 + variant)
        game = Game(rules, rules.default_players, seed)
        player = RandomPlayer(random.Random(seed))
        for _ in range(400):
            if game.finished:
                break
            s = game.state
            if s.phase is Phase.DRAW and s.pile and top_refusal(s, s.to_move) is None:
                checked += _check_position(s, rng)
            play_move(game, player.choose(s, game.legal_ids()))
    assert checked > 0, "no refused pickup was tried"


def _check_position(s: HandState, rng: random.Random) -> int:
    """Try random pickups at ``s``; returns how many refusals were compared."""
    seat = s.to_move
    own = view(s, seat)
    worlds = [sample_world(own, random.Random(rng.random())) for _ in range(3)]
    seen = {C.CODE_OF[c] for c in (*own.hand, *own.foot, *own.pile)} | {C.CODE_OF[s.pile[-1]]}
    for meld in own.melds:
        seen |= {C.CODE_OF[c] for c in meld.cards}
    compared = 0
    for _ in range(6):
        move = _random_pickup(s, rng)
        real = check(s, move)
        if real is None:
            continue
        named = {C.CODE_OF[c] for g in move.groups for c in g.cards}
        unseen = set(CODE.findall(real.message)) - seen - named
        assert not unseen, (real.message, unseen)
        for world in worlds:
            other = check(world, move)
            if other is not None:
                assert (other.rule, other.message) == (real.rule, real.message), (str(move), real, other)
                compared += 1
    return compared


def test_naming_a_hidden_card_is_refused_in_the_same_words_whatever_the_pile_holds() -> None:
    # kitchen-table: the whole pile, only its top shown; the opening is made with the pile (with_opening)
    rules = preset("kitchen-table")
    game = Game(rules, 2, 3)
    player = RandomPlayer(random.Random(3))
    for _ in range(2000):
        s = game.state
        if s.phase is Phase.DRAW and len(s.pile) > 3 and top_refusal(s, s.to_move) is None:
            kind = C.KIND_OF[s.pile[-1]]
            mine = [c for c in range(C.NUM_CARD_IDS) if s.hand_cards[s.to_move][c] and C.KIND_OF[c] == kind]
            hidden = [c for c in s.pile[:-1] if s.hand_cards[s.to_move][c] == 0]
            absent = [
                c for c in range(4, C.NUM_CARD_IDS) if s.hand_cards[s.to_move][c] == 0 and c not in s.pile
            ]
            if len(mine) >= 2 and hidden and absent:
                first = Group(
                    -1, (mine[0], mine[0]) if s.hand_cards[s.to_move][mine[0]] > 1 else tuple(mine[:2])
                )
                in_pile = Move(Action.PICKUP, groups=(first, Group(-1, (hidden[0],) * 3)))
                nowhere = Move(Action.PICKUP, groups=(first, Group(-1, (absent[0],) * 3)))
                a, b = check(s, in_pile), check(s, nowhere)
                if a is not None and b is not None:
                    assert "not known before it is taken" in a.message and "not known" in b.message
                    assert a.message.replace(C.CODE_OF[hidden[0]], "X") == b.message.replace(
                        C.CODE_OF[absent[0]], "X"
                    )
                    return
        play_move(game, player.choose(s, game.legal_ids()))
        if game.finished:
            break
    pytest.fail("no position with a hidden pile card to name was reached")
