"""The review held to a corpus of planted mistakes (``corpus.py``): hands played by the heuristic in which
seat 0 made one mistake of a known kind, and the same hands with the good move kept in its place.

Every planted mistake is among the review's three first decisions, marked a mistake, with a cost whose
95% interval lies above zero and a sentence in words that says what the move changed; the good move in
its place is never called costly. Five kinds, each at least three times, under two presets or more.
The reviews are seeded and use few worlds (``SETTINGS``), so the outcome is the same on every run.
"""

from __future__ import annotations

import functools
import re

import pytest

from handfoot.engine.moves import parse_move
from handfoot.review import DecisionPoint, HandReview, ReviewSettings, decision_points, review_hand
from handfoot.review.hand import DecisionReview, hand_steps, review_decision
from handfoot.review.turns import same_end
from review.corpus import KINDS, Planted, plant

SETTINGS = ReviewSettings(worlds=16, search_worlds=8, seed=0)

CORPUS = (
    ("stock", "kitchen-table", 3),
    ("stock", "kitchen-table", 8),
    ("stock", "family", 1),
    ("wild", "kitchen-table", 4),
    ("wild", "kitchen-table", 10),
    ("wild", "family", 2),
    ("feed", "kitchen-table", 2),
    ("feed", "kitchen-table", 13),
    ("feed", "family", 6),
    ("out", "kitchen-table", 1),
    ("out", "kitchen-table", 11),
    ("out", "head-and-foot", 7),
    ("dirty", "kitchen-table", 4),
    ("dirty", "kitchen-table", 14),
    ("dirty", "family", 4),
)
IDS = [f"{kind}-{preset}-{seed}" for kind, preset, seed in CORPUS]

# What the sentence of each kind must say, in the player's terms.
SAYS = {
    "stock": "You drew from the stock where you could take the pile of",
    "wild": "You threw away",
    "feed": "on the table, so",
    "out": "This turn could have ended the hand",
    "dirty": "and made it dirty",
}

# The notation: a card code (``KS``, ``2C``, ``JK``), a move's verb followed by cards (``stage``,
# ``meld K: 2C``) or a meld target (``K:``); and words a sentence must never have.
NOTATION = re.compile(
    r"\b(?:[2-9TJQKA][SHDC]|JK)\b|\b(?:stage|commit)\b|\b(?:meld|pickup) \w+:?\s*\w*[SHDCK]\b|\b[2-9TJQKAW]:"
)
BAD_GRAMMAR = re.compile(r"\bone (?:\w+s)\b|\b1 points\b|\bof the \d+ cards of a\b")


@functools.cache
def planted(kind: str, preset: str, seed: int, good: bool = False) -> Planted:
    found = plant(kind, preset, seed, good)
    assert found is not None, f"no place for a {kind} mistake in {preset} seed {seed}"
    return found


@functools.cache
def reviewed(kind: str, preset: str, seed: int) -> HandReview:
    """Seat 0's review of the planted hand (each is reviewed once per test run)."""
    return review_hand(planted(kind, preset, seed).record, 0, 0, SETTINGS)


def decision_of(hand: Planted) -> DecisionPoint:
    """Seat 0's decision the planted (or good) step is part of: the last to begin at or before it."""
    points = decision_points(hand.record, 0, 0)
    return max((p for p in points if p.position <= hand.position), key=lambda p: p.position)


def test_the_corpus_has_each_kind_three_times_under_two_presets() -> None:
    for kind in KINDS:
        mine = [c for c in CORPUS if c[0] == kind]
        assert len(mine) >= 3, kind
    assert len({preset for _, preset, _ in CORPUS}) >= 2
    for kind in KINDS:
        assert len({preset for k, preset, _ in CORPUS if k == kind}) >= 2, kind


@pytest.mark.parametrize(("kind", "preset", "seed"), CORPUS, ids=IDS)
def test_a_planted_mistake_is_among_the_three_first_and_surely_costs(
    kind: str, preset: str, seed: int
) -> None:
    review = reviewed(kind, preset, seed)
    point = decision_of(planted(kind, preset, seed))
    order = [(d.index, d.part, d.kind) for d in review.decisions]
    rank = order.index((point.index, point.part, point.kind))
    decision = review.decisions[rank]
    assert rank < 3, f"the planted {kind} mistake ranked {rank}: {decision}"
    assert decision.mistake and decision.cost.low > 0 and decision.cost.worlds >= 2, decision
    assert SAYS[kind] in decision.sentence, decision.sentence
    assert "Better: " in decision.sentence, decision.sentence


@pytest.mark.parametrize(("kind", "preset", "seed"), CORPUS, ids=IDS)
def test_the_good_move_in_its_place_is_not_costly(kind: str, preset: str, seed: int) -> None:
    good = planted(kind, preset, seed, good=True)
    decision = review_decision(good.record, decision_of(good), 0, SETTINGS)
    assert not decision.costly, decision


@pytest.mark.parametrize(("kind", "preset", "seed"), CORPUS, ids=IDS)
def test_no_sentence_blames_a_move_within_noise_nor_uses_notation(kind: str, preset: str, seed: int) -> None:
    review = reviewed(kind, preset, seed)
    costs = [d.cost.mean for d in review.mistakes]
    assert costs == sorted(costs, reverse=True), "the costliest mistake first"
    assert list(review.decisions[: len(review.mistakes)]) == list(review.mistakes), "mistakes come first"
    for decision in review.decisions:
        if decision.sentence:
            assert decision.mistake and decision.cost.low > 0 and decision.cost.mean > 0, decision
            assert not NOTATION.search(decision.sentence), decision.sentence
            assert not BAD_GRAMMAR.search(decision.sentence), decision.sentence
        else:
            assert not decision.mistake and not decision.costly, decision
        if decision.bot == decision.played:
            assert decision.cost.worlds == 0 and not decision.mistake


def _reordered(decision: DecisionReview) -> tuple[list[str], list[str]] | None:
    """The decision's steps and the same with its two first single-group melds swapped, if it has two."""
    steps = decision.played.split("; ")
    melds = [at for at, text in enumerate(steps) if text.startswith("meld ") and "|" not in text]
    if len(melds) < 2:
        return None
    first, second = melds[:2]
    other = list(steps)
    other[first], other[second] = steps[second], steps[first]
    return steps, other


def test_melds_laid_in_another_order_are_the_same_decision() -> None:
    """A reordering of the same melds is no other decision: it reaches the same end, and a line that
    only reorders the played one is not judged at all (it costs 0 on no worlds)."""
    checked = 0
    for kind, preset, seed in CORPUS:
        hand = planted(kind, preset, seed)
        for decision in reviewed(kind, preset, seed).decisions:
            pair = _reordered(decision)
            if pair is None:
                continue
            game, steps = hand_steps(hand.record, 0)
            for step in steps:
                if (step.index, step.part) == (decision.index, decision.part):
                    break
                game.apply(step.move)
            played, other = ([parse_move(text) for text in line] for line in pair)
            assert same_end(game, played, other), pair
            assert not same_end(game, played, played[:-1]), "a line cut short ends elsewhere"
            checked += 1
            break
    assert checked >= 3, "the corpus has decisions with melds to reorder"


def test_a_hint_says_the_risk_of_a_discard_as_a_risk() -> None:
    """The reason given for a discard of a rank the next player's side has down is not that it has
    them down (that is the risk of the discard): the hint names the risk as one."""
    from handfoot.bots.base import legal_for
    from handfoot.bots.hint import explain

    hand = planted("feed", "kitchen-table", 2)
    game, steps = hand_steps(hand.record, 0)
    for step in steps:
        if step.position == hand.position:
            break
        game.apply(step.move)
    view = game.seat_info(0).freeze()
    reason = explain(view, legal_for(game.state, game.legal_ids()), step.move)
    assert "though the next player's side has" in reason and "could take the pile" in reason, reason
    assert not reason.endswith("has them down"), reason
