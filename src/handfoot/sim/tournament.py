"""Tournaments: complete games (or single hands) between bots, in parallel, reproducible for a seed.

Game ``i`` of a tournament with seed ``S`` is dealt from a seed derived from ``(S, i)``, starts with
dealer ``i mod players`` (so every seat leads equally often), and each seat's bot draws from its own
generator derived from ``(S, i, seat)``. A game therefore plays the same whichever worker plays it,
and the summary (decision times aside) is the same for any worker count.

With ``duplicate`` every deal is played once per rotation of the seats: deal ``i`` is dealt from the
seed derived from ``(S, i)`` and starts with dealer ``i mod players`` in every rotation; in rotation
``r`` the bot given for seat ``s`` sits at seat ``s + r`` (mod players), for ``r`` from 0 to one less
than the number of sides, so each side's bots (its *lineup*) play every side's cards of every deal.
Rotation 0 of deal ``i`` is game ``i`` of the same tournament without ``duplicate``; the bots of
rotation ``r > 0`` draw from generators derived from ``(S, i, seat, r)``. Results are then paired by
deal: each lineup's result on a deal is its mean over the deal's rotations.

Each game stops after ``max_moves`` moves if it has not ended (random bots racing to 10,000 may never
get there): it is then decided by the totals of its finished hands and counted in ``capped``. (The
engine offers the seat to move a legal move in every position until the game is over.)

A seat may be a program speaking the bot protocol (``cmd:``, see ``sim.seats``): one process per seat
and game, given ``move_time`` seconds per decision. When such a bot fails (it cannot start, crashes,
hangs, writes garbage or a move it may not play, floods its output), one line on standard error names
the seat, the bot, the game, hand and decision and what it did; nothing of its answer is played; the
outcome records the failure, and by ``on_bot_error`` either its side forfeits the game (``forfeit``:
the other sides share the win) or the ``fallback`` bot plays the seat to the end (``fallback``).
"""

from __future__ import annotations

import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from handfoot import package_version
from handfoot.bots.base import atomic_id_in, legal_for
from handfoot.bots.registry import make_bot
from handfoot.engine.events import Event
from handfoot.engine.game import Game
from handfoot.engine.moves import Move, move_text
from handfoot.engine.state import Seating
from handfoot.protocol.external import ExternalSeat
from handfoot.protocol.process import BotFailure, check_move_time
from handfoot.record import record_of, rules_source_of
from handfoot.rules import rules_to_mapping
from handfoot.rules.options import RuleSet
from handfoot.sim.progress import HandDone, ProgressTracker, Snapshot
from handfoot.sim.seats import DEFAULT_MOVE_TIME, SeatPlayer, check_seat, make_seat
from handfoot.sim.seats import parse_seats as parse_seats
from handfoot.sim.stats import (
    game_points,
    hand_margins,
    interval_json,
    is_constant,
    mean,
    mean_interval,
    wilson,
)
from handfoot.sim.workers import Done, process_map

if TYPE_CHECKING:
    from handfoot.sim.trajectories import Trajectory

DEFAULT_MAX_MOVES = 8000
ON_BOT_ERROR = ("forfeit", "fallback")


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (stable across runs, platforms and Python versions)."""
    return random.Random("/".join(str(p) for p in parts)).getrandbits(63)


def bot_seed(seed: int, deal: int, seat: int, rotation: int = 0) -> int:
    """The seed of the generator of the bot at ``seat`` in ``rotation`` of ``deal``:
    ``derive_seed(seed, deal, seat)`` in rotation 0 (a tournament without duplicate deals), else
    ``derive_seed(seed, deal, seat, rotation)``."""
    return derive_seed(seed, deal, seat) if rotation == 0 else derive_seed(seed, deal, seat, rotation)


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
    forfeited: int | None = None  # the side that forfeited the game (its bot failed, on_bot_error forfeit)
    failures: list[dict[str, Any]] = field(default_factory=list)  # bot failures (``failure_record``)
    seed: int = 0  # the seed the game was dealt from (``derive_seed(tournament seed, index)``)
    dealer: int = 0  # the first hand's dealer
    deal: int = -1  # the deal played (``index``, or ``index // rotations`` with duplicate deals)
    rotation: int = 0  # how many seats the bots were moved round (0 without duplicate deals)
    seats: list[str] = field(default_factory=list)  # the seat specs of this game, in seat order
    record: dict[str, Any] | None = None  # the game record (docs/records.md), when the config asks
    trajectory: Trajectory | None = None  # the chosen seats' decisions, when the config asks

    def __post_init__(self) -> None:
        if self.deal < 0:
            self.deal = self.index

    def side_of_lineup(self, lineup: int) -> int:
        """The side at which ``lineup`` (the bots the tournament gives side ``lineup``'s seats) sat in
        this game: ``lineup + rotation`` (mod sides)."""
        return (lineup + self.rotation) % len(self.totals)

    def margins(self, side: int) -> list[float]:
        """``side``'s score margin in each hand: its score less the mean of the other sides' scores."""
        return [margin[side] for margin in hand_margins(self.hand_scores)]

    def standing(self) -> list[float]:
        """What ranks the sides of this game, higher first: their totals; or, when a side forfeited, every
        other side ahead of it and level with each other."""
        if self.forfeited is None:
            return [float(total) for total in self.totals]
        return [0.0 if side == self.forfeited else 1.0 for side in range(len(self.totals))]

    def shares(self) -> list[float]:
        """Each side's share of the win (``game_points`` of its ``standing``): a forfeit is a loss."""
        return game_points(self.standing())

    def winner(self) -> int | None:
        """The side that won the game alone (by its total, or as the one side left by a forfeit), or None
        when the win is shared."""
        sole = [side for side, share in enumerate(self.shares()) if share == 1.0]
        return sole[0] if sole else None


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
    move_time: float = DEFAULT_MOVE_TIME  # seconds per decision for a program's seat (``cmd:``)
    on_bot_error: str = "forfeit"  # or "fallback"
    fallback: str = "heuristic"  # the bot that finishes a failed seat's game with "fallback"
    records: bool = False  # keep each game's record in its outcome
    trajectory_seats: tuple[int, ...] = ()  # record these seats' decisions (needs numpy)
    duplicate: bool = False  # play every deal once per rotation of the seats (module docstring)

    def rotations(self) -> int:
        """How many times each deal is played: the number of sides with ``duplicate``, else 1."""
        return Seating(self.rules, self.players).num_sides if self.duplicate else 1

    def total_games(self) -> int:
        """Games played in all: ``games`` deals times ``rotations()``."""
        return self.games * self.rotations()

    def seats_of(self, rotation: int) -> tuple[str, ...]:
        """The seat specs of a game played in ``rotation``: the spec of seat ``s`` moved to ``s +
        rotation`` (mod players)."""
        players = self.players
        return tuple(self.seats[(seat - rotation) % players] for seat in range(players))


@dataclass
class Timing:
    """When and how a tournament was played: the start (UTC, ISO 8601), the wall time, the workers."""

    started: str = ""
    seconds: float = 0.0
    workers: int = 1
    scheduler: str | None = None


@dataclass
class Summary:
    """A tournament's results, per side and overall (``to_json`` gives the documented JSON)."""

    config: TournamentConfig
    outcomes: list[GameOutcome] = field(default_factory=list)
    timing: Timing = field(default_factory=Timing)

    def side_seats(self) -> list[tuple[int, ...]]:
        """The seats of each side, sides in order of their lowest seat."""
        return list(Seating(self.config.rules, self.config.players).side_seats)

    def unit(self) -> str:
        """What one played unit is: ``"hands"`` with ``single_hands``, else ``"games"``."""
        return "hands" if self.config.single_hands else "games"

    def to_json(self) -> dict[str, Any]:
        """The documented JSON (docs/research.md): ``{"unit", <unit>: count, "sides": [...],
        "hands_per_game", "moves_per_hand", "decision_ms", "capped", "max_moves", "single_hands",
        "forfeits", "bot_errors", "duplicate", "provenance"}``; every mean comes with a 95% interval
        (``*_ci95``) and whether its values were all equal (``*_constant``: the interval then has no
        width); ``bot_errors``: one ``failure_record`` per failure of a program seat."""
        outcomes = self.outcomes
        sides = self.side_seats()
        wins = [0.0] * len(sides)
        for outcome in outcomes:
            for side, share in enumerate(outcome.shares()):
                wins[side] += share
        games = len(outcomes)
        hands = sum(len(o.hand_scores) for o in outcomes)
        side_rows = []
        for side, seats in enumerate(sides):
            low, high = wilson(wins[side], games)
            scores = [h[side] for o in outcomes for h in o.hand_scores]
            game_scores = [o.totals[side] for o in outcomes]
            margin, margin_ci, margin_constant = interval_json([m for o in outcomes for m in o.margins(side)])
            went = sum(1 for o in outcomes for w in o.went_out if w == side)
            count = sum(o.decision_count[side] for o in outcomes)
            total = sum(o.decision_sum[side] for o in outcomes)
            worst = max((o.decision_max[side] for o in outcomes), default=0.0)
            side_rows.append(
                {
                    "seats": list(seats),
                    "bots": self._bots_at(seats),
                    "wins": wins[side] if wins[side] != int(wins[side]) else int(wins[side]),
                    "win_rate": wins[side] / games if games else 0.0,
                    "ci95": [low, high],
                    "mean_hand_score": mean(scores),
                    "mean_hand_score_ci95": list(mean_interval(scores)),
                    "mean_hand_score_constant": is_constant(scores),
                    "mean_hand_margin": margin,
                    "mean_hand_margin_ci95": margin_ci,
                    "mean_hand_margin_constant": margin_constant,
                    "went_out_rate": went / hands if hands else 0.0,
                    "went_out_ci95": list(wilson(went, hands)),
                    "mean_game_score": mean(game_scores),
                    "mean_game_score_ci95": list(mean_interval(game_scores)),
                    "mean_game_score_constant": is_constant(game_scores),
                    "decision_ms": {"mean": 1000 * total / count if count else 0.0, "max": 1000 * worst},
                }
            )
        count = sum(sum(o.decision_count) for o in outcomes)
        total = sum(sum(o.decision_sum) for o in outcomes)
        worst = max((max(o.decision_max) for o in outcomes), default=0.0)
        per_game = [float(len(o.hand_scores)) for o in outcomes]
        per_hand = [float(m) for o in outcomes for m in o.moves_per_hand]
        unit = self.unit()
        return {
            "unit": unit,
            unit: games,
            "sides": side_rows,
            "hands_per_game": hands / games if games else 0.0,
            "hands_per_game_ci95": list(mean_interval(per_game)),
            "hands_per_game_constant": is_constant(per_game),
            "moves_per_hand": sum(sum(o.moves_per_hand) for o in outcomes) / hands if hands else 0.0,
            "moves_per_hand_ci95": list(mean_interval(per_hand)),
            "moves_per_hand_constant": is_constant(per_hand),
            "decision_ms": {"mean": 1000 * total / count if count else 0.0, "max": 1000 * worst},
            "capped": sum(1 for o in outcomes if o.capped),
            "max_moves": self.config.max_moves,
            "single_hands": self.config.single_hands,
            "duplicate": self.duplicate_json() if self.config.duplicate else None,
            "forfeits": sum(1 for o in outcomes if o.forfeited is not None),
            "bot_errors": [failure for o in outcomes for failure in o.failures],
            "provenance": self.provenance(),
        }

    def _bots_at(self, seats: Sequence[int]) -> list[str]:
        """The specs that sat at ``seats`` (in seat order); with duplicate deals, every spec that sat at
        any of them in some rotation (in order of first appearance)."""
        config = self.config
        if not config.duplicate:
            return [config.seats[s] for s in seats]
        seen: list[str] = []
        for rotation in range(config.rotations()):
            specs = config.seats_of(rotation)
            for seat in seats:
                if specs[seat] not in seen:
                    seen.append(specs[seat])
        return seen

    def by_deal(self) -> list[list[GameOutcome]]:
        """The outcomes grouped by deal, in deal order (one game a deal without duplicate deals)."""
        groups: dict[int, list[GameOutcome]] = {}
        for outcome in self.outcomes:
            groups.setdefault(outcome.deal, []).append(outcome)
        return [groups[deal] for deal in sorted(groups)]

    def lineup_rows(self, positions: bool = False) -> list[dict[str, Any]]:
        """Per lineup (the bots of one side's seats as given, wherever the rotation put them), its
        results paired by deal: ``{"lineup", "seats", "bots", "win_share", "win_share_ci95",
        "win_share_constant", "mean_hand_margin", "mean_hand_margin_ci95", "mean_hand_margin_constant",
        "deals"}``; each interval is Student's t over the deals of the lineup's mean result on a deal
        (its share of the win averaged over the deal's rotations; its margin over the deal's hands).
        With ``positions``, the same per seat position (side) whoever sat there, keyed ``"side"``
        instead of ``"lineup"``: how much a side's place at the table is worth, each deal counted once
        (identical bots that do not draw on their generators replay the same game in every rotation)."""
        deals = self.by_deal()
        rows = []
        for lineup, seats in enumerate(self.side_seats()):
            shares = []
            margins = []
            for games in deals:
                sides = [lineup if positions else o.side_of_lineup(lineup) for o in games]
                shares.append(mean([o.shares()[side] for o, side in zip(games, sides, strict=True)]))
                margins.append(
                    mean([m for o, side in zip(games, sides, strict=True) for m in o.margins(side)])
                )
            share, share_ci, share_constant = interval_json(shares)
            margin, margin_ci, margin_constant = interval_json(margins)
            rows.append(
                {
                    "side" if positions else "lineup": lineup,
                    "seats": list(seats),
                    "bots": self._bots_at(seats) if positions else [self.config.seats[s] for s in seats],
                    "win_share": share,
                    "win_share_ci95": share_ci,
                    "win_share_constant": share_constant,
                    "mean_hand_margin": margin,
                    "mean_hand_margin_ci95": margin_ci,
                    "mean_hand_margin_constant": margin_constant,
                    "deals": len(deals),
                }
            )
        return rows

    def duplicate_json(self) -> dict[str, Any]:
        """``{"rotations", "deals", "lineups", "positions"}``: the duplicate deals' results by lineup and
        by seat position (``lineup_rows``), paired by deal."""
        return {
            "rotations": self.config.rotations(),
            "deals": len(self.by_deal()),
            "lineups": self.lineup_rows(),
            "positions": self.lineup_rows(positions=True),
        }

    def provenance(self) -> dict[str, Any]:
        """What reproduces the study: handfoot's version, the rules in full (every option) and in their
        shortest form, the table, the seat specs, the seeds and how each game's are derived, the move cap,
        and when, how long and on how many workers it ran (Python and platform too)."""
        config = self.config
        timing = self.timing
        return {
            "handfoot": package_version(),
            "commit": source_commit(),
            "packages": package_versions(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "rules": rules_to_mapping(config.rules),
            "rules_source": rules_source_of(config.rules),
            "players": config.players,
            "seats": list(config.seats),
            "seed": config.seed,
            "seeds": DUPLICATE_SEEDS if config.duplicate else PLAIN_SEEDS,
            self.unit(): config.total_games(),
            "duplicate": config.duplicate,
            "deals": config.games,
            "rotations": config.rotations(),
            "max_moves": config.max_moves,
            "started": timing.started,
            "seconds": timing.seconds,
            "workers": timing.workers,
            "scheduler": timing.scheduler,
        }


PLAIN_SEEDS = (
    "game i is dealt from derive_seed(seed, i) with dealer i mod players; seat s of game i draws from "
    "derive_seed(seed, i, s)"
)
DUPLICATE_SEEDS = (
    "deal d is dealt from derive_seed(seed, d) with dealer d mod players and played once per rotation r "
    "(0 to sides - 1), game d * rotations + r, with the bot given for seat s at seat s + r; the bot at seat "
    "s draws from derive_seed(seed, d, s) in rotation 0, derive_seed(seed, d, s, r) in rotation r"
)
# The packages whose versions can shape a study's results (the bots, learning and the statistics).
SHAPING_PACKAGES = (
    "numpy",
    "torch",
    "gymnasium",
    "pettingzoo",
    "stable-baselines3",
    "sb3-contrib",
    "openskill",
    "matplotlib",
)


@cache
def source_commit() -> dict[str, Any] | None:
    """The git commit handfoot runs from, ``{"commit", "dirty"}`` (dirty: the checkout has changes not
    committed), when its source lies in a git checkout and git is installed; None otherwise (an
    installed package)."""
    folder = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
        )
        if head.returncode != 0:
            return None
        status = subprocess.run(
            ["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head.stdout.strip(), "dirty": bool(status.stdout.strip())}


@cache
def package_versions() -> dict[str, str]:
    """The installed versions of the packages in ``SHAPING_PACKAGES`` (those not installed left out)."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in SHAPING_PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def play_game(
    config: TournamentConfig, index: int, on_hand: Callable[[HandDone], None] | None = None
) -> GameOutcome:
    """Play game ``index`` of the tournament ``config`` to its end (or the move cap); ``on_hand`` is
    called after every finished hand with the hands played and the leading side's total."""
    rules, players, seed = config.rules, config.players, config.seed
    deal, rotation = divmod(index, config.rotations())
    specs = config.seats_of(rotation)
    bots: list[SeatPlayer] = [make_seat(spec, config.move_time) for spec in specs]
    rngs = [random.Random(bot_seed(seed, deal, seat, rotation)) for seat in range(players)]
    game_seed = derive_seed(seed, deal)
    game = Game(rules, players, game_seed, dealer=deal % players)
    recorder = None
    if config.trajectory_seats:
        from handfoot.sim.trajectories import TrajectoryRecorder

        recorder = TrajectoryRecorder(rules, players, config.trajectory_seats)
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
    failures: list[dict[str, Any]] = []
    forfeited: int | None = None

    def failed(seat: int, err: BotFailure) -> bool:
        """Report the failure of ``seat``'s program; True when its side forfeits (else a fallback bot
        takes the seat over)."""
        nonlocal forfeited
        player = bots[seat]
        assert isinstance(player, ExternalSeat)
        player.kill()
        record = failure_record(
            config, index, seat, player, len(game.results), err, seating.side_of[seat], specs
        )
        failures.append(record)
        print(failure_line(record), file=sys.stderr, flush=True)
        if config.on_bot_error == "fallback":
            bots[seat] = make_bot(config.fallback)
            return False
        forfeited = seating.side_of[seat]
        return True

    try:
        for seat, player in enumerate(bots):
            if isinstance(player, ExternalSeat):
                try:
                    player.start(game, seat, bot_seed(seed, deal, seat, rotation))
                except BotFailure as err:
                    if failed(seat, err):
                        break
        while forfeited is None and not game.finished:
            if config.single_hands and game.results:
                break
            if moves >= config.max_moves:
                capped = True
                break
            state = game.state
            seat = state.to_move
            ids = game.legal_ids()
            legal = legal_for(state, ids)
            player = bots[seat]
            info = None if isinstance(player, ExternalSeat) else game.seat_info(seat)
            recording = recorder is not None and seat in recorder.seats and info is not None
            if recording:
                assert recorder is not None and info is not None
                recorder.decision(game, seat, info, ids)
            start = clock()
            if isinstance(player, ExternalSeat):
                try:
                    chosen = player.decide(game)
                except BotFailure as err:
                    if failed(seat, err):
                        break
                    continue
            else:
                assert info is not None
                chosen = player.choose_seat(info, legal, rngs[seat])
            spent = clock() - start
            side = seating.side_of[seat]
            decision_sum[side] += spent
            decision_count[side] += 1
            if spent > decision_max[side]:
                decision_max[side] = spent
            hands_before = len(game.results)
            play_chosen(game, legal, chosen)
            if recording:
                assert recorder is not None
                recorder.played(atomic_id_in(legal, chosen), move_text(game.moves[hands_before][-1]))
            moves += 1
            hand_moves += 1
            if len(game.results) > hands_before:
                moves_per_hand.append(hand_moves)
                hand_moves = 0
                for other in bots:
                    if isinstance(other, ExternalSeat):
                        other.hand_over(game)
                if on_hand is not None:
                    on_hand(HandDone(len(game.results), max(game.totals)))
    finally:
        if forfeited is not None:
            reason = "forfeit"
        elif game.finished or (config.single_hands and game.results):
            reason = "finished"
        else:
            reason = "move_cap" if capped else "stopped"
        if reason == "stopped":  # every bot's tree is ended at once, not one after another
            for player in bots:
                if isinstance(player, ExternalSeat):
                    player.end_soon()
        for player in bots:
            if isinstance(player, ExternalSeat):
                player.game_over(game, reason, config.single_hands)
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
        seed=game_seed,
        dealer=deal % players,
        deal=deal,
        rotation=rotation,
        seats=list(specs),
        record=record_of(game).to_json() if config.records else None,
        trajectory=recorder.finish(game) if recorder is not None else None,
        forfeited=forfeited,
        failures=failures,
    )


def failure_record(
    config: TournamentConfig,
    game: int,
    seat: int,
    player: ExternalSeat,
    hand: int,
    err: BotFailure,
    side: int,
    specs: Sequence[str] | None = None,
) -> dict[str, Any]:
    """What a tournament keeps of a bot's failure (``to_json``'s ``bot_errors``); ``specs``: the game's
    seat specs (``config.seats`` unless the seats were rotated)."""
    return {
        "game": game,
        "hand": hand,
        "seat": seat,
        "bot": (config.seats if specs is None else specs)[seat],
        "name": player.name,
        "decision": player.decisions,
        "what": err.what,
        "then": f"side {side} forfeits the game"
        if config.on_bot_error == "forfeit"
        else f"{config.fallback} plays the seat to the end",
    }


def failure_line(record: dict[str, Any]) -> str:
    """The line on standard error for a bot's failure: which bot, which decision, what it did, and
    what happens to the game."""
    named = f" ({record['name']})" if record["name"] != record["bot"] else ""
    when = f"decision {record['decision']}" if record["decision"] else "the handshake"
    return (
        f"bot error: seat {record['seat']}, {record['bot']}{named}, game {record['game']}, "
        f"hand {record['hand']}, {when}: {record['what']}; {record['then']}"
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
    check_move_time(config.move_time)
    if config.on_bot_error not in ON_BOT_ERROR:
        raise ValueError(f"--on-bot-error {config.on_bot_error}: allowed: forfeit, fallback")
    make_bot(config.fallback)
    for spec in config.seats:
        check_seat(spec)


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
    indices = range(config.total_games())
    job = partial(_play_in_worker, config)
    if scheduler is not None:
        from handfoot.sim.cluster import cluster_map

        source = cluster_map(job, indices, scheduler)
    elif workers <= 1 or config.total_games() == 1:
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
        games=config.total_games(),
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
    on_game: Callable[[GameOutcome], None] | None = None,
) -> Summary:
    """Play the tournament and summarise it, in ``workers`` processes or on the Dask cluster at
    ``scheduler``; ``progress(snapshot)`` is called after every finished hand and every finished game,
    with the hands played and an estimate of the hands and time left; ``on_game(outcome)`` after every
    game in game order, its record and trajectory (when the config asks for them) still attached: the
    summary keeps neither."""
    started = datetime.now(UTC)
    clock = time.perf_counter()
    summary = Summary(config, timing=Timing(started.isoformat(timespec="seconds"), 0.0, workers, scheduler))
    tracker = tracker_for(config)

    def hand_done(game: int, report: HandDone) -> None:
        tracker.hand_done(game, report)
        if progress is not None:
            progress(tracker.snapshot())

    with closing(iter_outcomes(config, workers, hand_done, scheduler)) as outcomes:
        for outcome in outcomes:
            if on_game is not None:
                on_game(outcome)
            outcome.record = outcome.trajectory = None  # written by on_game; not kept for the summary
            summary.outcomes.append(outcome)
            tracker.game_done(outcome.index, len(outcome.hand_scores))
            if progress is not None:
                progress(tracker.snapshot())
    summary.timing.seconds = time.perf_counter() - clock
    return summary


def seats_summary(seats: Sequence[str]) -> str:
    """``heuristic,ismcts,...`` for display."""
    return ",".join(seats)
