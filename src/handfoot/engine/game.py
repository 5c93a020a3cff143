"""A whole game: hands dealt in turn, scored, totals kept, until the rules end it.

``Game`` is the engine's front door: ``legal_moves``/``legal_ids``, ``verify``/``is_legal``/``apply``
(and ``apply_id``, ``apply_text``), with the current hand's ``state`` and the running ``totals``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from handfoot.engine.apply import apply_checked
from handfoot.engine.deal import DealSpec, deal, hand_rng
from handfoot.engine.errors import IllegalMove
from handfoot.engine.events import Event, EventType
from handfoot.engine.facts import HandFacts
from handfoot.engine.judge import check
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import Action, Move, move_id, move_text, parse_move
from handfoot.engine.scoring import Tally, score_tally
from handfoot.engine.state import HandState, Phase, seating_for
from handfoot.engine.steps import steps_of, turn_opening_steps
from handfoot.engine.tally import hand_tallies
from handfoot.engine.views import SeatInfo
from handfoot.rules.errors import RuleError
from handfoot.rules.options import GameEnd, RuleSet

# read on every move: bound once (cheaper on Python 3.11; compiled, kept as C statics)
DRAW: Final = Action.DRAW
OVER_PHASE: Final = Phase.OVER


def _over(state: HandState) -> bool:
    """True once the hand of ``state`` is over (a call, not an expression the type checker narrows: a move
    played on ``state`` may end the hand)."""
    return state.phase is OVER_PHASE


@dataclass(frozen=True)
class HandResult:
    """A finished hand: each side's score and tally, who went out (or None), and why it ended."""

    scores: tuple[int, ...]
    tallies: tuple[Tally, ...]
    went_out: int | None
    reason: str

    def __reduce__(self) -> tuple[type[HandResult], tuple[object, ...]]:
        """Pickled through the constructor (compiled with mypyc, the only way one is made)."""
        return (HandResult, (self.scores, self.tallies, self.went_out, self.reason))


class Game:
    """A game of Hand and Foot under one rule set, from the first deal to the winner."""

    def __init__(
        self,
        rules: RuleSet,
        players: int | None = None,
        seed: int = 0,
        dealer: int = 0,
        deals: Sequence[DealSpec | None] = (),
        *,
        blank: bool = False,
    ) -> None:
        count = rules.default_players if players is None else players
        if count not in rules.players_allowed:
            raise RuleError(
                "players_allowed", count, f"one of {list(rules.players_allowed)} under {rules.name}"
            )
        if not 0 <= dealer < count:
            raise ValueError(f"dealer {dealer} is not a seat: seats are 0 to {count - 1}")
        self.rules = rules
        self.players = count
        self.seed = seed
        self.first_dealer = dealer
        self.deals = list(deals)
        self.results: list[HandResult] = []
        self.moves: list[list[Move]] = []  # the moves of each hand
        self._legal_cache: tuple[int, int, tuple[int, ...]] = (-1, -1, ())
        self.finished = False
        self.winner: int | None = None
        if blank:
            self.totals: list[int] = []
            return  # ``copy`` sets the totals, the hand's state, facts and deal events
        self.totals = [0] * seating_for(rules, count).num_sides
        self.state: HandState = self._deal(0)

    # --- dealing and scoring
    def _deal(self, index: int) -> HandState:
        rules = self.rules
        dealer = (self.first_dealer + index) % self.players
        totals = self.totals
        seating = seating_for(rules, self.players)
        minimums = [
            rules.opening_minimum(index, totals[seating.side_of_owner(owner, rules)])
            for owner in range(seating.num_owners)
        ]
        spec = self.deals[index] if index < len(self.deals) else None
        state, self.deal_events = deal(
            rules.for_hand(index), self.players, index, dealer, minimums, hand_rng(self.seed, index), spec
        )
        self.facts = HandFacts(self.players)
        self.moves.append([])
        return state

    def _finish_hand(self, events: list[Event]) -> None:
        state = self.state
        tallies = tuple(hand_tallies(state))
        scores = tuple(score_tally(state.rules, t) for t in tallies)
        went_out = state.out_seat if state.out_seat >= 0 else None
        self.results.append(HandResult(scores, tallies, went_out, state.end_reason.name.lower()))
        for side, points in enumerate(scores):
            self.totals[side] += points
        rules = self.rules
        played = len(self.results)
        if rules.game_end is GameEnd.HANDS:
            over = played >= rules.hands_per_game
        else:
            over = max(self.totals) >= rules.target_score
        if over:
            self.finished = True
            best = max(self.totals)
            leaders = [side for side, total in enumerate(self.totals) if total == best]
            self.winner = leaders[0] if len(leaders) == 1 else None
            events.append(Event(EventType.GAME_OVER, -1, detail=str(self.winner)))
            return
        self.state = self._deal(played)
        events.append(Event(EventType.NEW_HAND, self.state.dealer, amount=played))
        events.extend(self.deal_events)

    def copy(self) -> Game:
        """An independent copy of the game as it is now: moves played on it leave this one unchanged (the
        server plays a move on a copy, stores it, and only then keeps the copy). The rules are shared
        (they are frozen); the hand's state, facts, results, totals and moves are copied."""
        parts = GameParts(
            list(self.results),  # HandResult is frozen
            [*self.moves[:-1], list(self.moves[-1])] if self.moves else [],  # only the last hand's grows
            self._legal_cache,
            self.finished,
            self.winner,
            list(self.totals),
            list(self.deal_events),
            self.facts.copy(),
            self.state.copy(),
        )
        return restored_game(self.rules, self.players, self.seed, self.first_dealer, self.deals, parts)

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """``copy``: what a deep copy needs, sharing only what is frozen (the rules, the hands' results,
        the moves of the hands before this one)."""
        other = self.copy()
        memo[id(self)] = other
        return other

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[object, ...]]:
        """Pickled as what it was made with and its parts, rebuilt by ``restored_game`` (compiled with mypyc
        a Game is made only through its constructor, so a pickle cannot set its fields one by one)."""
        parts = GameParts(
            self.results,
            self.moves,
            self._legal_cache,
            self.finished,
            self.winner,
            self.totals,
            self.deal_events,
            self.facts,
            self.state,
        )
        return (restored_game, (self.rules, self.players, self.seed, self.first_dealer, self.deals, parts))

    # --- the move interface
    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if self.finished else self.state.to_move

    @property
    def hand_index(self) -> int:
        """0-based number of the hand in play (or the last hand, once finished)."""
        return self.state.hand_index

    def seat_info(self, seat: int) -> SeatInfo:
        """What ``seat`` may know of the hand in play, for a bot's decision (``Bot.choose_seat``): its
        ``SeatInfo``, with the public bounds on every seat's cards inferred from the hand's moves
        (``facts.HandFacts``)."""
        return SeatInfo(self.state, seat, self.facts.snapshot())

    def legal_ids(self) -> list[int]:
        """Sorted ids of every legal atomic move for ``to_move``: never empty until the game is over."""
        if self.finished:
            return []
        ids = legal_ids(self.state)
        self._legal_cache = (self.state.hand_index, self.state.move_count, tuple(ids))
        return ids

    def legal_moves(self) -> list[Move]:
        """Every legal atomic move for ``to_move``, in id order, naming cards the player holds."""
        return [move_of_id(self.state, mid) for mid in self.legal_ids()]

    def move_of_id(self, mid: int) -> Move:
        """The Move an atomic id stands for now."""
        return move_of_id(self.state, mid)

    def verify(self, move: Move) -> None:
        """Raise IllegalMove (rule and reason) if ``move`` is not legal now; changes nothing. This is the
        judge's word on the move as it stands (an atomic move is legal exactly when its id is listed);
        ``apply`` also plays, as steps, a plain meld or discard of an opening laid over the turn."""
        if self.finished:
            raise IllegalMove("game_end", "The game is over.", move_text(move))
        why = check(self.state, move)
        if why is not None:
            raise IllegalMove.of(why, move_text(move))

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` is legal now (``verify`` passes)."""
        return not self.finished and check(self.state, move) is None

    def _turn_opening(self, move: Move) -> list[Move] | None:
        """The steps that play ``move`` as part of an opening laid over the turn (``opening_scope =
        "turn"``), where the judge refuses it as it stands: the first candidate of
        ``steps.turn_opening_steps`` whose every step is legal in turn (tried on a copy), or None."""
        for steps in turn_opening_steps(self.state, move):
            if self._steps_play(steps):
                return steps
        return None

    def _steps_play(self, steps: list[Move]) -> bool:
        """True if every one of ``steps`` is legal in turn from the position now (tried on a copy)."""
        trial = self.state.copy()
        for step in steps:
            if _over(trial) or check(trial, step) is not None:
                return False
            apply_checked(trial, step)
        return True

    def apply(self, move: Move) -> list[Event]:
        """Verify and play ``move``; returns what it caused.

        A lay-down of several groups written at once (``meld A | B``) is judged whole, as always, and
        played as its steps (``steps``) where they come to the same; else (a lay-down the steps cannot
        express, such as a new meld of four cards under ``max_wilds_added_per_turn``) it is played whole.
        Raises IllegalMove and changes nothing if the move is illegal. An
        atomic move that is the very Move (``move_of_id``) of an id the last ``legal_ids`` listed for
        this position is played without judging it again.
        """
        mid = move_id(move)
        if mid >= 0 and self._listed(mid) and move == move_of_id(self.state, mid):
            return self._play(move)
        self.verify(move)
        if mid < 0:
            steps = self.steps(move)
            if steps is not None:
                events: list[Event] = []
                for step in steps:
                    events.extend(self._play(step))
                return events
        return self._play(move)

    def steps(self, move: Move) -> list[Move] | None:
        """The atomic steps (``steps.steps_of``) that play ``move``, a legal lay-down of several groups,
        to the same hand as playing it whole: each step legal in turn (on a copy). None where some step
        is refused, the steps end elsewhere, or none express it."""
        steps = steps_of(self.state, move)
        if steps is None:
            return None
        trial = self.state.copy()
        for index, step in enumerate(steps):
            if _over(trial) or check(trial, step) is not None:
                return None
            apply_checked(trial, step)
            if _over(trial) and index < len(steps) - 1:
                return None
        whole = self.state.copy()
        apply_checked(whole, move)
        whole.move_count = trial.move_count
        return steps if whole == trial else None

    def _play(self, move: Move) -> list[Event]:
        if move.action is DRAW:
            self.facts.before(self.state, move)
        events = apply_checked(self.state, move)
        self.facts.seen(events)
        self.moves[-1].append(move)
        if self.state.phase is OVER_PHASE:
            self._finish_hand(events)
        return events

    def _listed(self, mid: int) -> bool:
        """True if the last ``legal_ids`` was listed for this very position and holds ``mid``."""
        state = self.state
        cached_hand, cached_count, cached_ids = self._legal_cache
        return (
            cached_hand == state.hand_index
            and cached_count == state.move_count
            and not self.finished
            and mid in cached_ids
        )

    def apply_id(self, mid: int) -> list[Event]:
        """Play an atomic move by id (raises IllegalMove if it is not legal now)."""
        state = self.state
        move = move_of_id(state, mid)
        cached_hand, cached_count, cached_ids = self._legal_cache  # ``_listed``, written out: every move
        if (
            cached_hand != state.hand_index
            or cached_count != state.move_count
            or self.finished
            or mid not in cached_ids
        ):
            self.verify(move)  # raises with the reason
        return self._play(move)

    @property
    def history(self) -> list[list[str]]:
        """The moves of each hand so far, in the notation."""
        return [[move_text(m) for m in hand] for hand in self.moves]

    def apply_written(self, move: Move) -> list[Event]:
        """Play a move as a person writes it (a record, a client, the terminal): ``apply``, and also,
        under ``opening_scope = "turn"`` (the minimum laid "in one turn"), a plain meld or discard of a
        side not down that the judge refuses as it stands, played as the steps of an opening laid over
        the turn (``_turn_opening``: a meld short of the minimum is staged and counts with the melds
        after it; a discard with groups staged takes them back first). The game's moves hold the steps.
        Raises IllegalMove (the judge's refusal of the move as written) and changes nothing otherwise."""
        if not self.finished and check(self.state, move) is not None:
            steps = self._turn_opening(move)
            if steps is not None:
                events: list[Event] = []
                for step in steps:
                    events.extend(self._play(step))
                return events
        return self.apply(move)

    def apply_text(self, text: str) -> list[Event]:
        """Play a move written in the notation (``apply_written``; raises MoveSyntaxError or
        IllegalMove)."""
        return self.apply_written(parse_move(text))


class GameParts(NamedTuple):
    """What a Game holds beyond what it was made with: what ``Game.copy`` copies and a pickle carries."""

    results: list[HandResult]
    moves: list[list[Move]]
    legal_cache: tuple[int, int, tuple[int, ...]]
    finished: bool
    winner: int | None
    totals: list[int]
    deal_events: list[Event]
    facts: HandFacts
    state: HandState


def restored_game(
    rules: RuleSet, players: int, seed: int, dealer: int, deals: Sequence[DealSpec | None], parts: GameParts
) -> Game:
    """The Game made with ``rules``, ``players``, ``seed``, ``dealer`` and ``deals``, holding ``parts`` as
    they are (not copied: ``Game.copy`` copies them first). Made blank through the constructor: compiled
    with mypyc, a Game is only made through ``__init__``."""
    game = Game(rules, players, seed, dealer, deals, blank=True)
    game.results = parts.results
    game.moves = parts.moves
    game._legal_cache = parts.legal_cache
    game.finished = parts.finished
    game.winner = parts.winner
    game.totals = parts.totals
    game.deal_events = parts.deal_events
    game.facts = parts.facts
    game.state = parts.state
    return game
