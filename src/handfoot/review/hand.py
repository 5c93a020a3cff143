"""The review of one seat's play in one finished hand of a game record.

``decision_points(record, hand, seat)`` lists the seat's decisions in that hand: not engine steps but
the choices a player makes (``turns.DecisionKind``): how it drew, what it laid down and discarded (going
out included), how it answered "May I go out?", each where it had more than one legal move.
``judge(game, point, settings)`` reviews one of them from the position just before it (``game``,
replayed to it): the line the strong bot would have played for that part of the turn (ISMCTS,
``settings.search_worlds`` worlds per searched step, from the seat's ``SeatInfo`` as any runner hands
it), and for a lay-down a line that goes out this turn where there is one (``turns.going_out_line``);
when the seat's line ends elsewhere (melds laid in another order end in the same place: no
difference), what the difference cost (``estimate.paired_cost``, on ``settings.worlds`` other worlds,
so the bot's choice is not judged on the worlds it was chosen on), against the better of those lines.
A decision is a mistake when the whole 95% interval of its cost is above zero and the cost at least
``NOISE_POINTS``; only a mistake gets a sentence (``sentences.describe``), and mistakes come first.
Everything is judged from what the seat knew then: its view, and the public bounds on the other hands.

The worlds of each decision are drawn from a generator seeded by the record's seed, the move's index,
the seat and ``settings.seed``: a review is reproducible, and ``bot_move`` (what the review takes for
the bot's move) gives the same move whenever the same position is asked about.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from handfoot.bots.base import LegalMoves, legal_for
from handfoot.bots.ismcts import Budget, IsmctsBot
from handfoot.engine.game import Game
from handfoot.engine.moves import Action, Move, move_id, move_text, parse_move
from handfoot.engine.state import Phase, seating_for
from handfoot.record import Record, replay
from handfoot.review.estimate import Estimate, paired_cost
from handfoot.review.sentences import describe
from handfoot.review.turns import (
    DecisionKind,
    bot_line,
    decision_spans,
    going_out_line,
    outcome,
    played_to_end,
    same_end,
    went_out,
)
from handfoot.wording import plural

DEFAULT_WORLDS = 32
DEFAULT_SEARCH_WORLDS = 24
DEFAULT_ROUNDS = 2
MAX_ROUNDS = 50
MAX_WORLDS = 2000
COSTLY_POINTS = 50  # a decision is costly when it cost at least this many points, surely (see ``costly``)
NOISE_POINTS = 10  # a decision that cost less than this is within the noise of the best (see ``mistake``)
MORE_WORLDS = 4  # a cost still in doubt is sampled on up to this many times the worlds (``paired_cost``)


class ReviewError(ValueError):
    """A review that cannot be made. ``refused`` is True when the record was read but the game says no
    (a move that does not play, a hand not finished); False when the request itself is bad (a seat or
    hand the record does not have, a budget out of range)."""

    def __init__(self, message: str, refused: bool) -> None:
        super().__init__(message)
        self.message = message
        self.refused = refused


@dataclass(frozen=True)
class ReviewSettings:
    """How hard a review looks: ``worlds`` paired worlds per judged decision, ``search_worlds`` worlds
    for the bot's own search, the ``seed`` mixed into every decision's generator, and ``rounds``, the
    play-outs' horizon: how many more times the seat's own turn comes round (0: to the end of the hand;
    ``estimate.play_to_horizon``)."""

    worlds: int = DEFAULT_WORLDS
    search_worlds: int = DEFAULT_SEARCH_WORLDS
    seed: int = 0
    rounds: int = DEFAULT_ROUNDS

    def __post_init__(self) -> None:
        for name in ("worlds", "search_worlds"):
            value = getattr(self, name)
            if not 1 <= value <= MAX_WORLDS:
                raise ReviewError(f"{name} is {value}; allowed: 1 to {MAX_WORLDS}", refused=False)
        if not 0 <= self.rounds <= MAX_ROUNDS:
            raise ReviewError(
                f"rounds is {self.rounds}; allowed: 0 (to the end of the hand) to {MAX_ROUNDS}", refused=False
            )


@dataclass(frozen=True)
class DecisionPoint:
    """One decision of the reviewed seat (a ``turns.DecisionKind``: ``kind`` its value): the engine
    moves it was played as (``steps``, their texts; ``played`` the same joined with "; "), with
    ``index``, the index in the record's ``moves`` of the move its first step belongs to (the replay
    page's step showing the position before it), ``hand_move`` that index within the hand, ``part`` the
    first step's place among that record move's steps (0 for an atomic move), ``position`` the count of
    engine moves the game played before it (it seeds the decision's worlds) and ``move`` the record
    move's text."""

    index: int
    hand_move: int
    played: str
    part: int = 0
    position: int = -1
    move: str = ""
    steps: tuple[str, ...] = ()
    kind: str = DecisionKind.PLAY.value

    @property
    def line(self) -> list[Move]:
        """The engine moves the seat played for this decision."""
        return [parse_move(text) for text in (self.steps or (self.played,))]


@dataclass(frozen=True)
class PlayedStep:
    """One engine move of a hand as the record plays it: the record move's ``index`` it is step
    ``part`` of, the engine moves before it in the game (``position``), the seat that made it, the
    move, and how many legal moves that seat had."""

    index: int
    part: int
    position: int
    seat: int
    move: Move
    choices: int
    phase: Phase = Phase.PLAY


@dataclass(frozen=True)
class DecisionReview:
    """A judged decision: the line played and the better one (``bot``: the bot's, or a line going out;
    the notation, steps joined with "; "), what it cost (``cost``: points of the side's lead lost,
    positive when the played line was worse), whether that is a mistake (``mistake``: surely worse, by
    more than the noise) and costly, and for a mistake a sentence in plain words (empty otherwise:
    nothing to blame). ``kind`` is the decision's ``turns.DecisionKind`` value."""

    index: int
    hand_move: int
    played: str
    bot: str
    cost: Estimate
    costly: bool
    sentence: str
    move: str = ""
    part: int = 0
    kind: str = DecisionKind.PLAY.value
    mistake: bool = False

    def to_json(self) -> dict[str, Any]:
        """The decision as ``handfoot review --json`` prints it."""
        return {
            "index": self.index,
            "kind": self.kind,
            "step": self.index,
            "hand_move": self.hand_move,
            "move": self.move,
            "part": self.part,
            "played": self.played,
            "bot": self.bot,
            "cost": round(self.cost.mean, 1),
            "low": round(self.cost.low, 1),
            "high": round(self.cost.high, 1),
            "worlds": self.cost.worlds,
            "costly": self.costly,
            "mistake": self.mistake,
            "sentence": self.sentence,
        }

    def cost_words(self) -> str:
        """The cost as the review's pages print it: ``about 298 points (95%: 121 to 474, 32 deals)``."""
        c = self.cost
        mean, low, high = (round(x) for x in (c.mean, c.low, c.high))
        mark = ", costly" if self.costly else ""
        return f"about {plural(mean, 'point')} (95%: {low} to {high}, {plural(c.worlds, 'deal')}{mark})"


@dataclass(frozen=True)
class HandReview:
    """A seat's review of one hand: its decisions, the costliest first."""

    hand: int
    seat: int
    side: int
    settings: ReviewSettings
    decisions: tuple[DecisionReview, ...] = field(default=())

    @property
    def costly(self) -> tuple[DecisionReview, ...]:
        """The decisions that count as costly, the costliest first."""
        return tuple(d for d in self.decisions if d.costly)

    @property
    def mistakes(self) -> tuple[DecisionReview, ...]:
        """The decisions that are mistakes (listed, with a sentence), the costliest first."""
        return tuple(d for d in self.decisions if d.mistake)

    def summary(self) -> str:
        """The review's first line, as the command line and the browser's review page print it: ``Seat
        0, hand 0: 12 decisions judged, 2 mistakes, 1 costly (about 298 points).`` (seats and hands
        counted from 0, as in the record and ``--seat``)."""
        costly = self.costly
        lost = round(sum(max(d.cost.mean, 0.0) for d in costly))
        tail = f" (about {plural(lost, 'point')})" if costly else ""
        return (
            f"Seat {self.seat}, hand {self.hand}: {plural(len(self.decisions), 'decision')} judged, "
            f"{plural(len(self.mistakes), 'mistake')}, {len(costly)} costly{tail}."
        )

    def to_json(self) -> dict[str, Any]:
        """The review as ``handfoot review --json`` prints it."""
        return {
            "hand": self.hand,
            "seat": self.seat,
            "side": self.side,
            "worlds": self.settings.worlds,
            "search_worlds": self.settings.search_worlds,
            "seed": self.settings.seed,
            "decisions": [d.to_json() for d in self.decisions],
            "costly": len(self.costly),
            "mistakes": len(self.mistakes),
            "lost": round(sum(max(d.cost.mean, 0.0) for d in self.costly), 1),
        }


def costly(cost: Estimate) -> bool:
    """A decision is costly when its estimated cost is at least ``COSTLY_POINTS`` and the whole 95%
    interval lies above zero (the worlds agree the played move was worse)."""
    return cost.worlds >= 2 and cost.mean >= COSTLY_POINTS and cost.low > 0


def mistake(cost: Estimate) -> bool:
    """A decision is a mistake when the whole 95% interval of its cost lies above zero and the cost is
    at least ``NOISE_POINTS``: a move within noise of the best is not one."""
    return cost.worlds >= 2 and cost.mean >= NOISE_POINTS and cost.low > 0


def _replayed(record: Record, stop: int | None = None) -> Game:
    game, error = replay(record, stop)
    if error is not None:
        raise ReviewError(
            f"moves[{error.index}] ({error.move!r}) cannot be played: {error.message}", refused=True
        )
    return game


def _hand_of_moves(record: Record) -> tuple[Game, list[int]]:
    """The record replayed to its end, and the hand each of its moves was played in."""
    _replayed(record)  # refuses a record that does not play, with the move that fails
    game = record.new_game()
    hands = []
    for text in record.moves:
        hands.append(game.hand_index)
        game.apply(parse_move(text))
    return game, hands


def hand_bounds(record: Record, hand: int) -> tuple[int, int]:
    """The indices in ``record.moves`` of hand ``hand``'s first move and one past its last (a record
    move may be several engine moves: ``meld A | B`` is played as its steps). Raises ReviewError when
    the record does not play that hand to its end."""
    game, hands = _hand_of_moves(record)
    if not 0 <= hand < len(game.moves):
        raise ReviewError(
            f"hand {hand} is not in this record; allowed: 0 to {len(game.moves) - 1}", refused=False
        )
    if hand >= len(game.results):
        raise ReviewError(
            f"hand {hand} of this record is not finished: a hand is reviewed once it is over", refused=True
        )
    start = hands.index(hand)
    return start, start + hands.count(hand)


def played_as(game: Game, move: Move) -> list[Move]:
    """The engine moves ``game.apply(move)`` plays for ``move`` (legal now): its steps for a lay-down
    written at once where the steps express it, else the move itself."""
    if move_id(move) >= 0:
        return [move]
    return game.steps(move) or [move]


def hand_steps(record: Record, hand: int) -> tuple[Game, list[PlayedStep]]:
    """The engine moves of hand ``hand`` (finished) in order, each with the record move it is a step of,
    and the game replayed to just before the hand."""
    start, end = hand_bounds(record, hand)
    game = _replayed(record, start)
    before = game.copy()
    out = []
    for index in range(start, end):
        for part, step in enumerate(played_as(game, parse_move(record.moves[index]))):
            state = game.state
            position = sum(len(moves) for moves in game.moves)
            choices = len(legal_for(state, game.legal_ids()))
            out.append(PlayedStep(index, part, position, state.to_move, step, choices, state.phase))
            game.apply(step)
    return before, out


def spans(steps: list[PlayedStep]) -> list[range]:
    """The hand's steps (``hand_steps``) cut into decisions (``turns.decision_spans``)."""
    return decision_spans([s.seat for s in steps], [s.phase for s in steps], [s.move.action for s in steps])


def _is_decision(steps: list[PlayedStep], span: range, seat: int) -> bool:
    return steps[span.start].seat == seat and any(steps[at].choices > 1 for at in span)


def _point(steps: list[PlayedStep], span: range, start: int, record: Record) -> DecisionPoint:
    first = steps[span.start]
    texts = tuple(move_text(steps[at].move) for at in span)
    return DecisionPoint(
        first.index,
        first.index - start,
        "; ".join(texts),
        first.part,
        first.position,
        record.moves[first.index],
        texts,
        DecisionKind.of_phase(first.phase).value,
    )


def last_finished_hand(record: Record) -> int:
    """The last hand the record plays to its end (ReviewError when none is)."""
    game = _replayed(record)
    if not game.results:
        raise ReviewError(
            "no hand of this record is finished: a hand is reviewed once it is over", refused=True
        )
    return len(game.results) - 1


def check_seat(record: Record, seat: int) -> None:
    """Raise ReviewError unless ``seat`` is a seat of the record's table."""
    if not 0 <= seat < record.players:
        raise ReviewError(
            f"seat {seat} is not a seat of this record; allowed: 0 to {record.players - 1}", refused=False
        )


def decision_points(record: Record, hand: int, seat: int) -> list[DecisionPoint]:
    """``seat``'s decisions in hand ``hand`` (finished), in order: each part of its turns (``spans``)
    in which it had a choice, tied to the record move its first step is (a step of)."""
    check_seat(record, seat)
    start, _ = hand_bounds(record, hand)
    _, steps = hand_steps(record, hand)
    return [_point(steps, span, start, record) for span in spans(steps) if _is_decision(steps, span, seat)]


def _rng(record: Record, index: int, seat: int, settings: ReviewSettings, purpose: str) -> random.Random:
    return random.Random(f"review:{purpose}:{record.seed}:{index}:{seat}:{settings.seed}")


def bot_move(game: Game, record: Record, position: int, settings: ReviewSettings) -> tuple[Move, LegalMoves]:
    """The move the review takes for the strong bot's at ``game``'s position (``position`` engine moves
    into the game: its seeds), and the legal moves it was chosen from: the engine's bot entry point,
    ``choose_seat`` with ``Game.seat_info``, so a step move as any runner gets it."""
    state = game.state
    seat = state.to_move
    legal = legal_for(state, game.legal_ids())
    bot = IsmctsBot(Budget(iterations=settings.search_worlds))
    move = bot.choose_seat(game.seat_info(seat), legal, _rng(record, position, seat, settings, "search"))
    return move, legal


def judge(
    game: Game,
    record: Record,
    point: DecisionPoint,
    settings: ReviewSettings,
    following: tuple[int, Move] | None = None,
) -> DecisionReview:
    """Review the decision ``point`` from ``game``, the position just before it (see the module
    docstring); ``following`` is the seat and move that came next in the same hand (for the sentence),
    None at its end. ``game`` is not changed."""
    seat = game.state.to_move
    info = game.seat_info(seat)
    view = info.freeze()
    kind = DecisionKind(point.kind)
    played = point.line
    position = point.position if point.position >= 0 else sum(len(moves) for moves in game.moves)
    legal = legal_for(game.state, game.legal_ids())
    better = bot_line(game, lambda g, steps: bot_move(g, record, position + steps, settings)[0], kind)
    lines = [better]
    if kind is DecisionKind.PLAY and not went_out(played_to_end(game, played), seat):
        out = going_out_line(game.state)
        if out is not None and not same_end(game, out, better):
            lines.append(out)
    lines = [line for line in lines if not same_end(game, played, line)]
    if not lines:
        return DecisionReview(
            point.index,
            point.hand_move,
            point.played,
            point.played,
            Estimate.zero(),
            False,
            "",
            point.move,
            point.part,
            point.kind,
        )
    side = seating_for(view.rules, view.players).side_of[seat]
    judged = []
    for line in lines:  # every line on the same worlds
        rng = _rng(record, position, seat, settings, "judge")
        judged.append(
            (
                paired_cost(
                    view,
                    info.caps,
                    played,
                    line,
                    side,
                    settings.worlds,
                    rng,
                    settings.rounds,
                    MORE_WORLDS * settings.worlds,
                ),
                line,
            )
        )
    cost, line = max(judged, key=lambda pair: pair[0].mean)
    blamed = mistake(cost)
    sentence = ""
    if blamed:
        before = game.state
        ours = outcome(before, played_to_end(game, played), played)
        theirs = outcome(before, played_to_end(game, line), line)
        sentence = describe(view, legal, kind, (played, ours), (line, theirs), following)
    return DecisionReview(
        point.index,
        point.hand_move,
        point.played,
        "; ".join(move_text(move) for move in line),
        cost,
        blamed and costly(cost),
        sentence,
        point.move,
        point.part,
        point.kind,
        blamed,
    )


def following_move(steps: list[PlayedStep], at: int) -> tuple[int, Move] | None:
    """The seat and move that follow ``steps[at]`` in its hand (``hand_steps``), staging steps passed
    over (a pickup staged before it is the pickup), for the sentence; None at the end of the hand."""
    for step in steps[at + 1 :]:
        if step.move.action not in (Action.STAGE, Action.CANCEL):
            return step.seat, step.move
    return None


def review_decision(
    record: Record, point: DecisionPoint, hand: int, settings: ReviewSettings
) -> DecisionReview:
    """Judge one decision of ``decision_points(record, hand, seat)`` on its own (the record replayed to
    just before it), as ``review_hand`` judges it."""
    game, steps = hand_steps(record, hand)
    for span in spans(steps):
        if steps[span.start].position == point.position:
            return judge(game, record, point, settings, following_move(steps, span[-1]))
        for at in span:
            game.apply(steps[at].move)
    raise ReviewError(f"no move of hand {hand} is at position {point.position}", refused=False)


Progress = Callable[[int, int], None]


def review_hand(
    record: Record,
    seat: int,
    hand: int | None = None,
    settings: ReviewSettings | None = None,
    progress: Progress | None = None,
) -> HandReview:
    """Review ``seat``'s decisions in hand ``hand`` of ``record`` (None: the last finished hand); the
    mistakes first, each group the costliest first (ties in the order played). ``progress(done,
    total)`` is called after each decision. Raises ReviewError (see its ``refused``)."""
    settings = settings or ReviewSettings()
    check_seat(record, seat)
    chosen = last_finished_hand(record) if hand is None else hand
    start, _ = hand_bounds(record, chosen)
    game, steps = hand_steps(record, chosen)
    cut = spans(steps)
    total = sum(1 for span in cut if _is_decision(steps, span, seat))
    reviews = []
    for span in cut:
        if _is_decision(steps, span, seat):
            point = _point(steps, span, start, record)
            reviews.append(judge(game, record, point, settings, following_move(steps, span[-1])))
            if progress is not None:
                progress(len(reviews), total)
        for at in span:
            game.apply(steps[at].move)
    return hand_review(record, chosen, seat, settings, reviews)


def hand_review(
    record: Record, hand: int, seat: int, settings: ReviewSettings, reviews: Iterable[DecisionReview]
) -> HandReview:
    """The review of ``seat``'s decisions ``reviews`` in hand ``hand`` of ``record``: the mistakes
    first, then the rest, each the costliest first, ties in the order played (``review_hand``'s, and
    the server's, whose decisions are judged in worker processes)."""
    ordered = sorted(reviews, key=lambda d: (not d.mistake, -d.cost.mean, d.index, d.part))
    side = seating_for(record.rules, record.players).side_of[seat]
    return HandReview(hand, seat, side, settings, tuple(ordered))


__all__ = [
    "COSTLY_POINTS",
    "DEFAULT_SEARCH_WORLDS",
    "DEFAULT_WORLDS",
    "MAX_WORLDS",
    "NOISE_POINTS",
    "DecisionPoint",
    "DecisionReview",
    "HandReview",
    "PlayedStep",
    "ReviewError",
    "ReviewSettings",
    "bot_move",
    "check_seat",
    "costly",
    "decision_points",
    "following_move",
    "hand_bounds",
    "hand_review",
    "hand_steps",
    "judge",
    "last_finished_hand",
    "mistake",
    "played_as",
    "review_decision",
    "review_hand",
    "spans",
]
