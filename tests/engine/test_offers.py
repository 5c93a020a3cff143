"""The seat's offers (engine/offers.py): every card's places are legal steps naming that very card, every
legal step that names cards is among them, the opening counts as the judge counts it, the pile's state
follows the legal list, and every sentence a person reads is words (no notation, no option names)."""

from __future__ import annotations

import random
import re

import pytest

from handfoot import cards as C
from handfoot.engine import DealSpec, Game
from handfoot.engine.judge import check
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import Action, Move, decode_id, move_id, parse_move
from handfoot.engine.offers import SeatOffers, seat_offers
from handfoot.rules import PRESET_NAMES, preset
from helpers.play import RandomPlayer, play_move

# A card code, the notation's group separator, or a rule option's name (snake_case).
NOTATION = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b|\||\b[a-z]+_[a-z_]+\b")
NAMING_CARDS = (Action.MELD, Action.STAGE, Action.PICKUP, Action.DISCARD, Action.LAY)


def cards(text: str) -> tuple[int, ...]:
    return tuple(C.parse_card(code) for code in text.split())


def sentences(offers: SeatOffers) -> list[str]:
    why = offers.why_not
    texts = [offers.pile.refusal, why.draw, why.pile, why.meld, why.discard, why.go_out]
    return [t for t in texts if t is not None]


compared: list[int] = []  # commits whose refusal named the points, compared with the offers' count


def check_offers(game: Game) -> int:
    """Check the offers of the position in play against the legal list and the judge; the steps checked."""
    s = game.state
    offers = seat_offers(s)
    if offers is None:
        return 0
    ids = legal_ids(s)
    seat = s.to_move
    held = s.unstaged_cards(seat)
    assert [c.card for c in offers.cards] == [C.CODE_OF[c] for c in C.DISPLAY_ORDER if held[c]]
    assert all(c.held == held[C.parse_card(c.card)] for c in offers.cards)
    covered: set[int] = set()
    steps = 0
    for offer in offers.cards:
        for place in offer.places:
            assert place.steps, place
            for step in place.steps:
                move = parse_move(step.move)
                assert move_id(move) == step.id and step.id in ids, step
                named = [move.card] if move.card >= 0 else [c for g in move.groups for c in g.cards]
                assert C.parse_card(offer.card) in named, (offer.card, step)
                assert sorted(step.cards) == sorted(C.CODE_OF[c] for c in named), step
                assert check(s, move) is None, (step, check(s, move))
                covered.add(step.id)
                steps += 1
    for step in offers.pile.takes:
        assert step.id in ids and check(s, parse_move(step.move)) is None
        covered.add(step.id)
    named_ids = {
        mid
        for mid in ids
        if decode_id(mid).action in NAMING_CARDS
        and (move_of_id(s, mid).card >= 0 or any(g.cards for g in move_of_id(s, mid).groups))
    }
    assert named_ids <= covered, sorted(named_ids - covered)
    pickups = [mid for mid in ids if decode_id(mid).action is Action.PICKUP]
    assert [t.id for t in offers.pile.takes] == pickups
    if pickups:
        assert offers.pile.may and offers.pile.refusal is None
    assert offers.pile.may == (offers.pile.refusal is None)
    assert (offers.commit is not None) == (371 in ids) and (offers.cancel is not None) == (372 in ids)
    assert (offers.why_not.draw is None) == (0 in ids)
    for text in sentences(offers):
        assert not NOTATION.search(text), text
    owner = s.seating.owner_of[seat]
    if offers.opening is not None:
        assert not s.down[owner]
        assert offers.opening.minimum == s.minimums[owner]
        assert offers.opening.needed == max(0, offers.opening.minimum - offers.opening.points)
        if s.staged and s.phase.name == "PLAY":  # the judge counts the commit as the offers do
            why = check(s, Move(Action.COMMIT))
            if why is not None and why.rule == "opening_minimums":
                assert f"these count {offers.opening.points}" in why.message, (why, offers.opening)
                compared.append(1)
    return steps


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_offered_place_is_a_legal_step_naming_its_card(name: str) -> None:
    """At every position of random play (the first player counts of each preset), each card's places are
    legal steps that name that card, every legal step naming cards is offered for the cards it names, the
    pile's pickups are the legal ones, and every sentence is words."""
    rules = preset(name)
    checked = 0
    for players in sorted(rules.players_allowed)[:2]:
        for seed in range(3):
            game = Game(rules, players, seed)
            player = RandomPlayer(random.Random(seed))
            for _ in range(600):
                if game.finished:
                    break
                checked += check_offers(game)
                play_move(game, player.choose(game.state, game.legal_ids()))
    assert checked > 200, checked


def test_the_opening_count_is_the_judges() -> None:
    """Where the judge refuses a commit for the opening minimum ("these count N"), N is the offers' count
    of the staged groups: checked over random play of every preset (the test above collects them)."""
    for name in PRESET_NAMES:
        rules = preset(name)
        for seed in range(3):
            game = Game(rules, min(rules.players_allowed), seed)
            player = RandomPlayer(random.Random(seed), open_rate=0.3)
            for _ in range(400):
                if game.finished:
                    break
                s = game.state
                if s.phase.name == "PLAY" and not s.staged:
                    stages = [m for m in legal_ids(s) if decode_id(m).action is Action.STAGE]
                    if stages:  # stage one group and compare the count before the player goes on
                        trial = game.copy()
                        trial.apply_id(stages[0])
                        check_offers(trial)
                check_offers(game)
                play_move(game, player.choose(game.state, game.legal_ids()))
    assert len(compared) > 5, len(compared)


def test_every_card_of_a_kind_may_join_its_meld() -> None:
    """kitchen-table: with aces on the table, the ace of diamonds and the ace of clubs are each offered
    onto the aces, each by a step naming it, though the legal list names one card per kind."""
    deal = DealSpec(
        hands=(
            cards("AS AH AD AD AC 9S 9H 7C 6D 5S 4H"),
            cards("KS KH QD QC JS JH TD TC 8S 8H 6S"),
        ),
        stock_top=cards("5D 5C"),
        discard=cards("4C"),
    )
    game = Game(preset("kitchen-table"), 2, seed=1, dealer=1, deals=[deal])
    game.apply_text("draw")
    game.apply_text("meld AS AH AD")
    offers = seat_offers(game.state)
    assert offers is not None
    by_card = {c.card: c for c in offers.cards}
    for code in ("AD", "AC"):
        meld = [p for p in by_card[code].places if p.to == "meld" and p.rank == "A"]
        assert [st.move for p in meld for st in p.steps] == [f"meld {code}"]
    assert offers.opening is None  # the side is down


@pytest.mark.parametrize(("name", "counted"), [("head-and-foot", False), ("kitchen-table", True)])
def test_head_and_foot_opening_leaves_the_top_card_out(name: str, counted: bool) -> None:
    """head-and-foot, "have the required meld before you take the pile" (``opening_in_hand``): the
    opening count in the draw phase leaves the pile's top card out; kitchen-table's (``with_opening``)
    counts it. Staging three aces adds their 60 points either way."""
    size = preset(name).hand_size
    hands = (cards("5S 5H AS AH AD KS KH 9C 8D 7S 6H 4D 4C"), cards("KD KC QD QC JS JH TD TC 8S 8H 6S 6D 9S"))
    deal = DealSpec(hands=tuple(h[:size] for h in hands), stock_top=cards("7D 7H"), discard=cards("5D"))
    game = Game(preset(name), 2, seed=1, dealer=1, deals=[deal])
    offers = seat_offers(game.state)
    assert offers is not None and offers.opening is not None and offers.pile.may
    top = 5 if counted else 0
    assert offers.opening.with_top is counted and offers.opening.points == top
    game.apply_text("stage AS AH AD")
    offers = seat_offers(game.state)
    assert offers is not None and offers.opening is not None
    assert offers.opening.points == top + 60
    assert offers.opening.needed == max(0, offers.opening.minimum - top - 60)
    assert [(g.cards, g.with_pile) for g in offers.staged] == [(("AS", "AH", "AD"), False)]
    game.apply_text("stage 5S")  # a natural of the top card's rank, staged: it goes with the pile
    offers = seat_offers(game.state)
    assert offers is not None and offers.opening is not None
    assert [(g.rank, g.with_pile) for g in offers.staged] == [("A", False), ("5", True)]
    assert offers.opening.points == top + 60 + (5 if counted else 0)


def test_a_frozen_pile_says_so_in_words() -> None:
    """kitchen-table: "a black 3 freezes the pile for the next player": the pile's offer is closed, with
    the freeze in words, and the draw is still offered."""
    deal = DealSpec(
        hands=(cards("AS AH AD AC 9S 9H 7C 6D 5S 4H 4D"), cards("KS KH QD QC JS JH TD TC 8S 8H 3S")),
        stock_top=cards("5D 5C 7D 7H"),
        discard=cards("4C"),
    )
    game = Game(preset("kitchen-table"), 2, seed=1, dealer=0, deals=[deal])
    game.apply_text("draw")
    game.apply_text("discard 3S")
    offers = seat_offers(game.state)
    assert offers is not None
    assert not offers.pile.may and offers.pile.frozen
    assert offers.pile.refusal is not None and "freezes" in offers.pile.refusal
    assert offers.why_not.draw is None and offers.why_not.meld is not None


def test_melding_before_drawing_says_draw_first() -> None:
    """Before the draw no meld or discard is offered, and each says to draw first."""
    game = Game(preset("kitchen-table"), 4, 2)
    offers = seat_offers(game.state)
    assert offers is not None
    assert offers.why_not.meld is not None and offers.why_not.meld.startswith("Draw")
    assert offers.why_not.discard is not None and offers.why_not.discard.startswith("Draw")
    assert all(p.to not in ("meld", "new", "discard") for c in offers.cards for p in c.places)
