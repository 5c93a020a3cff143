"""Tournaments: complete games (or single hands) between bots, in parallel, reproducible for a seed.

Game ``i`` of a tournament with seed ``S`` is dealt from a seed derived from ``(S, i)``, starts with
dealer ``i mod players`` (so every seat leads equally often), and each seat's bot draws from its own
generator derived from ``(S, i, seat)``. A game therefore plays the same whichever worker plays it,
and the summary (decision times aside) is the same for any worker count.

Each game stops after ``max_moves`` moves if it has not ended (random bots racing to 10,000 may never
get there): it is then decided by the totals of its finished hands and counted in ``capped``. A game in
which the engine offers the seat to move no legal move is stopped and counted the same way.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from handfoot.bots.base import Bot, atomic_id_in, legal_for
from handfoot.bots.registry import make_bot
from handfoot.engine.events import Event
from handfoot.engine.game import Game
from handfoot.engine.moves import Move
from handfoot.engine.state import Seating
from handfoot.rules.options import RuleSet
from handfoot.sim.progress import HandDone, ProgressTracker, Snapshot
from handfoot.sim.stats import game_points, mean, wilson
from handfoot.sim.workers import Done, process_map

DEFAULT_MAX_MOVES = 8000


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (stable across runs, platforms and Python versions)."""
    return random.Random("/".join(str(p) for p in parts)).getrandbits(63)


@dataclass
class GameOutcome:
    """One played game (or single hand): per side totals and hand scores, who went out, the pace."""

    index: int
    totals: list[int]
    hand_scores: list[list[int]]  # [hand][side]
    went_out: list[int | None]  # side that went out, per hand
    moves_per_hand: list[int]
    decision_sum: list[float]  # seconds, per side
    decision_count: list[int]
    decision_max: list[float]
    capped: bool = False


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the rules, the table, the bot of each seat, how many games, the seed."""

    rules: RuleSet
    players: int
    seats: tuple[str, ...]
    games: int
    seed: int = 0
    single_hands: bool = False
    max_moves: int = DEFAULT_MAX_MOVES


@dataclass
class Summary:
    """A tournament's results, per side and overall (``to_json`` gives the documented JSON)."""

    config: TournamentConfig
    outcomes: list[GameOutcome] = field(default_factory=list)

    def side_seats(self) -> list[tuple[int, ...]]:
        """The seats of each side, sides in order of their lowest seat."""
        return list(Seating(self.config.rules, self.config.players).side_seats)

    def to_json(self) -> dict[str, Any]:
        """``{"games", "sides": [...], "hands_per_game", "moves_per_hand", "decision_ms", "capped"}``."""
        outcomes = self.outcomes
        sides = self.side_seats()
        wins = [0.0] * len(sides)
        for outcome in outcomes:
            for side, share in enumerate(game_points(outcome.totals)):
                wins[side] += share
        games = len(outcomes)
        hands = sum(len(o.hand_scores) for o in outcomes)
        side_rows = []
        for side, seats in enumerate(sides):
            low, high = wilson(wins[side], games)
            scores = [h[side] for o in outcomes for h in o.hand_scores]
            went = sum(1 for o in outcomes for w in o.went_out if w == side)
            count = sum(o.decision_count[side] for o in outcomes)
            total = sum(o.decision_sum[side] for o in outcomes)
            worst = max((o.decision_max[side] for o in outcomes), default=0.0)
            side_rows.append(
                {
                    "seats": list(seats),
                    "bots": [self.config.seats[s] for s in seats],
                    "wins": wins[side] if wins[side] != int(wins[side]) else int(wins[side]),
                    "win_rate": wins[side] / games if games else 0.0,
                    "ci95": [low, high],
                    "mean_hand_score": mean(scores),
                    "went_out_rate": went / hands if hands else 0.0,
                    "mean_game_score": mean([o.totals[side] for o in outcomes]),
                    "decision_ms": {"mean": 1000 * total / count if count else 0.0, "max": 1000 * worst},
                }
            )
        count = sum(sum(o.decision_count) for o in outcomes)
        total = sum(sum(o.decision_sum) for o in outcomes)
        worst = max((max(o.decision_max) for o in outcomes), default=0.0)
        return {
            "games": games,
            "sides": side_rows,
            "hands_per_game": hands / games if games else 0.0,
            "moves_per_hand": sum(sum(o.moves_per_hand) for o in outcomes) / hands if hands else 0.0,
            "decision_ms": {"mean": 1000 * total / count if count else 0.0, "max": 1000 * worst},
            "capped": sum(1 for o in outcomes if o.capped),
            "max_moves": self.config.max_moves,
            "single_hands": self.config.single_hands,
        }


def play_game(
    config: TournamentConfig, index: int, on_hand: Callable[[HandDone], None] | None = None
) -> GameOutcome:
    """Play game ``index`` of the tournament ``config`` to its end (or the move cap); ``on_hand`` is
    called after every finished hand with the hands played and the leading side's total."""
    rules, players, seed = config.rules, config.players, config.seed
    bots: list[Bot] = [make_bot(spec) for spec in config.seats]
    rngs = [random.Random(derive_seed(seed, index, seat)) for seat in range(players)]
    game = Game(rules, players, derive_seed(seed, index), dealer=index % players)
    seating = game.state.seating
    sides = seating.num_sides
    decision_sum = [0.0] * sides
    decision_count = [0] * sides
    decision_max = [0.0] * sides
    moves_per_hand: list[int] = []
    hand_moves = 0
    moves = 0
    capped = False
    clock = time.perf_counter
    while not game.finished:
        if config.single_hands and game.results:
            break
        if moves >= config.max_moves:
            capped = True
            break
        state = game.state
        seat = state.to_move
        legal = legal_for(state, game.legal_ids())
        if not legal:  # the engine left the seat without a legal move: stop rather than crash
            capped = True
            break
        info = game.seat_info(seat)
        start = clock()
        move = bots[seat].choose_seat(info, legal, rngs[seat])
        spent = clock() - start
        side = seating.side_of[seat]
        decision_sum[side] += spent
        decision_count[side] += 1
        if spent > decision_max[side]:
            decision_max[side] = spent
        hands_before = len(game.results)
        play_chosen(game, legal, move)
        moves += 1
        hand_moves += 1
        if len(game.results) > hands_before:
            moves_per_hand.append(hand_moves)
            hand_moves = 0
            if on_hand is not None:
                on_hand(HandDone(len(game.results), max(game.totals)))
    results = game.results
    totals = list(results[0].scores) if config.single_hands and results else list(game.totals)
    return GameOutcome(
        index=index,
        totals=totals,
        hand_scores=[list(r.scores) for r in results],
        went_out=[seating.side_of[r.went_out] if r.went_out is not None else None for r in results],
        moves_per_hand=moves_per_hand,
        decision_sum=decision_sum,
        decision_count=decision_count,
        decision_max=decision_max,
        capped=capped,
    )


def play_chosen(game: Game, legal: Sequence[Move], move: Move) -> list[Event]:
    """Play the move a bot chose from ``legal``: an atomic move found in ``legal`` by id (the engine's
    ``legal_ids`` as of ``game.legal_ids()``, called for this position) is played with ``apply_id``,
    which skips a second verification; anything else goes through ``apply`` (verified, raising
    IllegalMove if the bot broke its contract)."""
    mid = atomic_id_in(legal, move)
    if mid >= 0:
        return game.apply_id(mid)
    return game.apply(move)


def check_config(config: TournamentConfig) -> None:
    """Raise ValueError (saying what is allowed) for a table the rules do not allow or unknown bots."""
    rules = config.rules
    if config.players not in rules.players_allowed:
        allowed = list(rules.players_allowed)
        raise ValueError(f"{rules.name} is played by {allowed} players, not {config.players}")
    if len(config.seats) != config.players:
        named = len(config.seats)
        raise ValueError(f"--seats names {named} bots for {config.players} players: name one per seat")
    if config.games < 1:
        raise ValueError("--games must be at least 1")
    if config.max_moves < 1:
        raise ValueError("the move cap must be at least 1")
    for spec in config.seats:
        make_bot(spec)


def iter_outcomes(
    config: TournamentConfig,
    workers: int = 1,
    on_hand: Callable[[int, HandDone], None] | None = None,
    scheduler: str | None = None,
) -> Generator[GameOutcome, None, None]:
    """The outcomes of every game, in game order, played by ``workers`` processes (1: in this one), or
    by the Dask cluster whose scheduler is at ``scheduler`` (``workers`` is then ignored);
    ``on_hand(game, report)`` is called in this process after every finished hand of any game.

    With several processes, closing the iterator (or any exception while it runs, KeyboardInterrupt and
    SystemExit included) stops every worker before it returns (``handfoot.sim.workers``); on a cluster it
    calls the run's tasks off (``handfoot.sim.cluster``)."""
    check_config(config)
    indices = range(config.games)
    job = partial(_play_in_worker, config)
    if scheduler is not None:
        from handfoot.sim.cluster import cluster_map

        source = cluster_map(job, indices, scheduler)
    elif workers <= 1 or config.games == 1:
        for index in indices:
            report = None if on_hand is None else partial(on_hand, index)
            yield play_game(config, index, report)
        return
    else:
        source = process_map(job, indices, workers)
    waiting: dict[int, GameOutcome] = {}
    following = 0
    with closing(source) as messages:
        for message in messages:
            if isinstance(message, Done):
                waiting[message.index] = message.value
                while following in waiting:
                    yield waiting.pop(following)
                    following += 1
            elif on_hand is not None:
                on_hand(message.index, message.payload)


def _play_in_worker(config: TournamentConfig, index: int, report: Callable[[HandDone], None]) -> GameOutcome:
    """``play_game`` in a worker process, each finished hand reported to the parent."""
    return play_game(config, index, report)


def tracker_for(config: TournamentConfig) -> ProgressTracker:
    """A progress tracker for the tournament ``config`` (its games, and how its rules end a game)."""
    rules = config.rules
    return ProgressTracker(
        games=config.games,
        game_end=rules.game_end,
        hands_per_game=rules.hands_per_game,
        target_score=rules.target_score,
        single_hands=config.single_hands,
    )


def run_tournament(
    config: TournamentConfig,
    workers: int = 1,
    progress: Callable[[Snapshot], None] | None = None,
    scheduler: str | None = None,
) -> Summary:
    """Play the tournament and summarise it, in ``workers`` processes or on the Dask cluster at
    ``scheduler``; ``progress(snapshot)`` is called after every finished hand and every finished game,
    with the hands played and an estimate of the hands and time left."""
    summary = Summary(config)
    tracker = tracker_for(config)

    def hand_done(game: int, report: HandDone) -> None:
        tracker.hand_done(game, report)
        if progress is not None:
            progress(tracker.snapshot())

    with closing(iter_outcomes(config, workers, hand_done, scheduler)) as outcomes:
        for outcome in outcomes:
            summary.outcomes.append(outcome)
            tracker.game_done(outcome.index, len(outcome.hand_scores))
            if progress is not None:
                progress(tracker.snapshot())
    return summary


def parse_seats(text: str, players: int) -> tuple[str, ...]:
    """Bots per seat from ``a,b,c,d`` (one name repeats for every seat; two alternate around the table)."""
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    if not names:
        raise ValueError("--seats needs at least one bot name")
    if len(names) in (1, 2) and players % len(names) == 0:
        return tuple(names[seat % len(names)] for seat in range(players))
    return names


def seats_summary(seats: Sequence[str]) -> str:
    """``heuristic,ismcts,...`` for display."""
    return ",".join(seats)
