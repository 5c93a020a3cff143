"""Hand review (``handfoot.review``, ``handfoot review``): the costliest decisions of a seat's hand.

Fixed records made by ``tests/fixtures/review/make_records.py``: kitchen-table hands played by the
heuristic in which one early discard of seat 0 was replaced by a bad one (a wild thrown away, a card the
next player's side has on the table, so the pile went to the left), and a hand in which seat 0 played
every decision as the review's bot would. The planted-mistake corpus is ``test_planted_corpus.py``.
docs/bots.md, *Hand review*, gives the method and the figures.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from handfoot.cli import run
from handfoot.engine.apply import apply_checked
from handfoot.engine.moves import parse_move
from handfoot.engine.state import Phase
from handfoot.record import Record, parse_record, replay
from handfoot.review import Estimate, HandReview, ReviewError, ReviewSettings, decision_points, review_hand
from handfoot.review.estimate import play_to_horizon
from handfoot.review.hand import MORE_WORLDS

FIXTURES = Path(__file__).parent.parent / "fixtures" / "review"
PLANTED = sorted(FIXTURES.glob("planted-*.json"))


def load(path: Path) -> tuple[Record, int | None]:
    data = json.loads(path.read_text())
    if "record" in data:
        return parse_record(data["record"]), data["planted"]
    return parse_record(data), None


@functools.cache
def default_review(name: str) -> HandReview:
    """Seat 0's review, default settings, of a fixture (each is reviewed once per test run)."""
    record, _ = load(FIXTURES / name)
    return review_hand(record, 0)


def invoke(args: list[str]) -> tuple[int, str, str]:
    with CliRunner().isolation() as streams:
        status = run(args)
        out, err = (stream.getvalue().decode() for stream in streams[:2])
    return status, out, err


@pytest.mark.parametrize("path", PLANTED, ids=[p.stem for p in PLANTED])
def test_a_planted_bad_discard_is_among_the_three_costliest(path: Path) -> None:
    record, planted = load(path)
    review = default_review(path.name)
    order = [d.played.endswith(record.moves[planted]) and d.index <= planted for d in review.decisions]
    assert any(order), "the planted discard ends one of seat 0's decisions (its lay-down and discard)"
    rank = order.index(True)
    decision = review.decisions[rank]
    assert rank < 3, f"planted {record.moves[planted]!r} ranked {rank}: {decision}"
    assert decision.mistake and decision.cost.low > 0 and decision.cost.worlds >= 2
    assert decision.bot != decision.played
    assert decision.sentence.startswith("You ") and "Better: " in decision.sentence
    costs = [d.cost.mean for d in review.mistakes]
    assert costs == sorted(costs, reverse=True), "the costliest first"


def test_a_discard_and_a_meld_are_played_on_for_the_same_turns() -> None:
    """The play-outs' horizon is counted in the deciding seat's turns: after a meld (the turn goes on)
    and after a discard (the turn ends) every seat begins the same turns, and both stop as the seat's
    own turn comes round again the second time (counted from the move, the discard's side had one turn
    more: the review then favoured discarding over any meld)."""
    record, _ = load(FIXTURES / "planted-wild-12.json")
    game, error = replay(record, 43)  # seat 0, after its draw: it melded 2C on its queens
    assert error is None and game.state.to_move == 0 and game.state.phase is Phase.PLAY
    began = {}
    for text in ("meld Q: 2C", "discard 9D"):
        world = game.state.copy()
        apply_checked(world, parse_move(text))
        began[text] = play_to_horizon(world, 0, 2, 0)
        assert world.turn_seat == 0 and world.phase is Phase.DRAW, text
    assert began["meld Q: 2C"] == began["discard 9D"] == [1, 2, 3, 0, 1, 2, 3, 0]


def test_the_sentence_says_the_pile_went_to_the_next_side() -> None:
    record, planted = load(FIXTURES / "planted-feed-35.json")
    review = default_review("planted-feed-35.json")
    decision = next(d for d in review.decisions if d.played.endswith(record.moves[planted]))
    assert decision.mistake, decision
    assert "on the table, so" in decision.sentence and "and it did" in decision.sentence


def test_a_hand_played_as_the_bot_would_has_no_costly_decision() -> None:
    review = default_review("bot-perfect.json")
    assert len(review.decisions) >= 10, "the hand has decisions to judge"
    assert review.costly == ()
    assert all(d.played == d.bot and d.cost == Estimate.zero() and d.sentence == "" for d in review.decisions)


def test_a_review_is_reproducible_and_judged_on_the_worlds_asked_for() -> None:
    record, _ = load(FIXTURES / "planted-wild-4.json")
    settings = ReviewSettings(worlds=8, search_worlds=6, seed=3)
    first = review_hand(record, 0, settings=settings).to_json()
    assert first == review_hand(record, 0, settings=settings).to_json()
    judged = [d for d in first["decisions"] if d["played"] != d["bot"]]
    assert judged and all(d["low"] <= d["cost"] <= d["high"] for d in judged)
    # 8 worlds, and 8 more at a time (up to MORE_WORLDS times 8) while a positive cost is in doubt
    assert all(0 < d["worlds"] <= 8 * MORE_WORLDS for d in judged)


def test_decisions_are_the_seats_moves_with_a_choice() -> None:
    record, _ = load(FIXTURES / "planted-wild-4.json")
    points = decision_points(record, 0, 0)
    game = record.new_game()
    seats = []
    for index, text in enumerate(record.moves):
        if any(p.index == index for p in points):
            seats.append(game.state.to_move)
        game.apply_text(text)
    assert seats and set(seats) == {0} and len(points) < len(record.moves)


def unfinished(record: Record) -> dict[str, Any]:
    data = record.to_json()
    data["moves"] = data["moves"][:-5]
    return data


def test_bad_input_is_refused_with_the_contracts_status(tmp_path: Path) -> None:
    record, _ = load(FIXTURES / "bot-perfect.json")
    good = tmp_path / "hand.json"
    good.write_text(record.dumps())
    short = tmp_path / "short.json"
    short.write_text(json.dumps(unfinished(record)))
    status, out, err = invoke(["review", str(short), "--seat", "0"])
    assert status == 1 and out == "" and err.startswith("error: no hand of this record is finished")
    status, out, _ = invoke(["review", str(short), "--seat", "0", "--json"])
    assert status == 1 and json.loads(out)["error"]["code"] == "refused"
    status, _, err = invoke(["review", str(good), "--seat", "4"])
    assert status == 2 and "seat 4 is not a seat of this record; allowed: 0 to 3" in err
    status, _, err = invoke(["review", str(good), "--seat", "0", "--hand", "1"])
    assert status == 1 and "hand 1 of this record is not finished" in err
    status, _, err = invoke(["review", str(good), "--seat", "0", "--hand", "7"])
    assert status == 2 and "hand 7 is not in this record" in err
    status, _, err = invoke(["review", str(good), "--seat", "0", "--worlds", "0"])
    assert status == 2 and "worlds is 0; allowed: 1 to" in err
    status, _, err = invoke(["review", str(tmp_path / "missing.json"), "--seat", "0"])
    assert status == 2 and err.startswith("error: ")
    status, _, _ = invoke(["review", str(good)])
    assert status == 2  # --seat is required
    with pytest.raises(ReviewError) as refused:
        review_hand(parse_record(unfinished(record)), 0)
    assert refused.value.refused


def test_the_command_prints_the_review(tmp_path: Path) -> None:
    record, planted = load(FIXTURES / "planted-wild-4.json")
    path = tmp_path / "hand.json"
    path.write_text(record.dumps())
    status, out, err = invoke(
        ["review", str(path), "--seat", "0", "--json", "--worlds", "8", "--search-worlds", "6"]
    )
    assert status == 0, err
    data = json.loads(out)
    assert data["seat"] == 0 and data["hand"] == 0 and data["worlds"] == 8
    assert any(
        d["step"] <= planted and d["played"].endswith(record.moves[planted]) for d in data["decisions"]
    )
    assert "progress: " in err  # not a terminal: progress lines on stderr
    status, out, _ = invoke(["review", str(path), "--seat", "0", "--worlds", "8", "--search-worlds", "6"])
    assert status == 0 and out.startswith("Seat 0, hand 0: ")
    mistakes = [d for d in data["decisions"] if d["mistake"]]
    assert f"{len(mistakes)} mistake" in out.splitlines()[0]
    assert ("what happened" in out) == bool(mistakes)


def test_a_review_names_no_card_the_seat_did_not_hold() -> None:
    """The bot's move of every decision is built from the seat's own view: the cards it names are in
    the seat's hand at that position (a pickup's top card aside, which everyone saw)."""
    from collections import Counter

    from handfoot import cards as C
    from handfoot.engine.moves import Action, parse_move

    record, _ = load(FIXTURES / "planted-feed-35.json")
    review = default_review("planted-feed-35.json")
    game = record.new_game()
    positions = {}
    for index, text in enumerate(record.moves):
        positions[index] = Counter(
            card for card, count in enumerate(game.state.hand_cards[0]) for _ in range(count)
        )
        game.apply_text(text)
    for decision in review.decisions:
        if decision.part:
            continue  # a step inside a record move written at once: the hand before it is not kept here
        line = [parse_move(text) for text in decision.bot.split("; ")]
        named: Counter[int] = Counter()
        for move in line:
            step = Counter(card for group in move.groups for card in group.cards)
            if move.card >= 0:
                step[move.card] += 1
            named |= step
        held = positions[decision.index]
        missing = named - held
        if any(move.action is Action.PICKUP for move in line):
            assert sum(missing.values()) <= 1  # the pile's top card, face up
        else:
            assert not missing, (decision.bot, [C.CODE_OF[c] for c in missing])
