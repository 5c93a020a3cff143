"""A player's decisions as the review judges them: whole parts of a turn, not engine steps.

A turn is played as engine steps (a draw; staging steps and melds; a discard). The player decides
three things in it, and the review judges each as a whole (``DecisionKind``): how to draw (the stock,
or the pile and with what), what to do with the cards once drawn (what to lay down, going out
included, and what to discard: one choice, since the discard is what is left after the lay-down), and,
for a partner, the answer to "May I go out?". ``decision_spans`` cuts a hand's steps into these.

For each decision the review needs lines, not moves: ``bot_line`` plays the strong bot's moves from the
decision's position until its part of the turn ends; ``going_out_line`` looks for a way to go out this
turn (a line the bot's step-by-step search can miss when it takes several melds first); ``Outcome``
says what a line did at the table, read off the position it leads to (``outcome``), and ``same_end``
tells two lines apart only by that end: melds laid in another order are the same decision.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from handfoot import cards as C
from handfoot.engine.apply import apply_checked
from handfoot.engine.game import Game
from handfoot.engine.judge import check
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import Action, Move, move_id
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import Permission

MAX_LINE = 40  # steps a bot line may take (a turn is a few dozen steps at most)
OUT_SEARCH_CARDS = 6  # going out is looked for when the seat holds at most this many cards
OUT_SEARCH_NODES = 4000  # positions the look for going out visits at most

ChooseMove = Callable[[Game, int], Move]  # a line's chooser: the position, and the steps already chosen


class DecisionKind(Enum):
    """Which part of a turn a decision is."""

    DRAW = "draw"  # draw from the stock or take the pile (and with which cards)
    PLAY = "play"  # what to lay down (going out included) and what to discard
    ANSWER = "answer"  # the partner's answer to "May I go out?"
    FOOT = "foot"  # keep or swap the seen piles (pick_foot_seen)

    @classmethod
    def of_phase(cls, phase: Phase) -> DecisionKind:
        """The kind of decision a step in ``phase`` belongs to."""
        if phase is Phase.DRAW:
            return cls.DRAW
        if phase is Phase.ANSWER:
            return cls.ANSWER
        if phase is Phase.PICK_FOOT:
            return cls.FOOT
        return cls.PLAY


def decision_spans(seats: Sequence[int], phases: Sequence[Phase], actions: Sequence[Action]) -> list[range]:
    """The hand's steps (the seat, phase before it and action of each) cut into decisions: runs of one
    seat's steps in one kind of phase, a discard or an ask closing a run (the turn, or the part before
    the partner answers, is over)."""
    spans: list[range] = []
    start = 0
    for at in range(1, len(seats) + 1):
        if at < len(seats):
            same = seats[at] == seats[at - 1] and (
                DecisionKind.of_phase(phases[at]) is DecisionKind.of_phase(phases[at - 1])
            )
            if same and actions[at - 1] not in (Action.DISCARD, Action.ASK):
                continue
        spans.append(range(start, at))
        start = at
    return spans


def _line_goes_on(state: HandState, seat: int, kind: DecisionKind) -> bool:
    return (
        state.to_move == seat and DecisionKind.of_phase(state.phase) is kind and state.phase is not Phase.OVER
    )


def played_to_end(game: Game, line: Sequence[Move]) -> HandState:
    """A copy of ``game``'s hand with ``line`` played (a move that does not play ends it early; so does
    the end of the hand: the position the hand ended in is kept, not the next deal)."""
    state = game.state.copy()
    for move in line:
        if state.phase is Phase.OVER:
            break
        mid = move_id(move)
        in_state = move_of_id(state, mid) if mid >= 0 else move
        if check(state, in_state) is not None:
            break
        apply_checked(state, in_state)
    return state


def bot_line(game: Game, choose: ChooseMove, kind: DecisionKind) -> list[Move]:
    """The moves ``choose(game, steps_so_far)`` picks for the seat to move from ``game``'s position until
    its ``kind`` of decision is over (a draw made, a discard or an ask, the turn passed); ``game`` is
    not changed."""
    work = game.copy()
    seat = work.state.to_move
    hands = len(work.results)
    line: list[Move] = []
    while len(line) < MAX_LINE and len(work.results) == hands and _line_goes_on(work.state, seat, kind):
        move = choose(work, len(line))
        line.append(move)
        work.apply(move)
        if move.action in (Action.DISCARD, Action.ASK):
            break
    return line


def went_out(state: HandState, seat: int) -> bool:
    """Whether ``seat`` ended the hand by going out."""
    return state.phase is Phase.OVER and state.out_seat == seat


def going_out_line(state: HandState) -> list[Move] | None:
    """A way for the seat to move in ``state`` (in its turn, drawn) to go out this turn, melds and red
    3s laid and the last card discarded (or, where the rules want the partner's permission, a line that
    asks for it once the cards left can all go down); None when
    there is none (or the seat holds more than ``OUT_SEARCH_CARDS`` cards, or the look is too long).
    The cheapest such line is not sought: any line that ends the hand."""
    seat = state.to_move
    if state.phase is not Phase.PLAY or state.feet[seat] or state.hand_sizes[seat] > OUT_SEARCH_CARDS:
        return None
    visited = [0]
    asking: list[list[Move]] = []  # the first line that ends in an ask, kept for want of a direct one

    def look(s: HandState, line: list[Move]) -> list[Move] | None:
        if visited[0] >= OUT_SEARCH_NODES:
            return None
        visited[0] += 1
        for mid in legal_ids(s):
            move = move_of_id(s, mid)
            if move.action is Action.DISCARD and s.hand_sizes[seat] != 1:
                continue
            if move.action not in (Action.MELD, Action.LAY, Action.DISCARD, Action.ASK):
                continue
            if move.action is Action.ASK:
                if not asking and s.rules.permission is Permission.REQUIRED:
                    asking.append([*line, move])
                continue
            after = s.copy()
            apply_checked(after, move)
            if went_out(after, seat):
                return [*line, move]
            if after.to_move != seat or after.phase is not Phase.PLAY:
                continue
            found = look(after, [*line, move])
            if found is not None:
                return found
        return None

    found = look(state.copy(), [])
    return found if found is not None else asking[0] if asking else None


@dataclass(frozen=True)
class MeldChange:
    """What a line did to one of the side's melds: ``naturals`` and wilds (``jokers``, ``deuces``) added
    to the meld of ``rank`` (``new``: started by the line), whether it became a book, whether a clean
    book was made dirty, and whether the meld is clean (no wild) after."""

    rank: int
    naturals: int
    jokers: int
    deuces: int
    new: bool
    booked: bool
    dirtied: bool
    clean: bool


@dataclass(frozen=True)
class Outcome:
    """What a decision's line did, in the player's terms: the pickup (``took``, the pile's size) or
    the draw, the melds laid (``melds``), red 3s laid, the discard's kind (-1: none), whether the seat
    went out or asked to, and the cards it still holds after (hand and unplayed Foot)."""

    drew: bool
    took: int
    melds: tuple[MeldChange, ...]
    red_threes: int
    discard: int
    out: bool
    asked: bool
    held: int


def _side_melds(state: HandState, seat: int) -> dict[int, list[tuple[int, int, int]]]:
    owner = state.seating.owner_of[seat]
    out: dict[int, list[tuple[int, int, int]]] = {}
    for meld in state.melds:
        if meld.owner == owner:
            kinds = [C.KIND_OF[c] for c in meld.cards]
            out.setdefault(meld.rank, []).append((len(kinds), kinds.count(C.JOKER), kinds.count(C.DEUCE)))
    return out


def outcome(before: HandState, after: HandState, line: Sequence[Move]) -> Outcome:
    """The ``Outcome`` of ``line``, played by the seat to move in ``before`` to reach ``after``."""
    seat = before.to_move
    book = before.rules.book_size
    old, new = _side_melds(before, seat), _side_melds(after, seat)
    changes = []
    for rank, melds in sorted(new.items()):
        was = old.get(rank, [])
        for at, (size, jokers, deuces) in enumerate(melds):
            prior = was[at] if at < len(was) else (0, 0, 0)
            if (size, jokers, deuces) == prior:
                continue
            added_j, added_d = jokers - prior[1], deuces - prior[2]
            naturals = size - prior[0] - added_j - added_d
            clean_before = prior[0] >= book and prior[1] + prior[2] == 0
            changes.append(
                MeldChange(
                    rank,
                    naturals,
                    added_j,
                    added_d,
                    prior[0] == 0,
                    prior[0] < book <= size,
                    clean_before and jokers + deuces > 0,
                    jokers + deuces == 0,
                )
            )
    side = before.seating.side_of[seat]
    took = 0
    discard = -1
    for move in line:
        if move.action is Action.PICKUP:
            took = len(before.pile)
        if move.action is Action.DISCARD:
            discard = C.KIND_OF[move.card]
    return Outcome(
        drew=any(m.action is Action.DRAW for m in line),
        took=took,
        melds=tuple(changes),
        red_threes=len(after.red_threes[side]) - len(before.red_threes[side]),
        discard=discard,
        out=went_out(after, seat),
        asked=any(m.action is Action.ASK for m in line),
        held=after.hand_sizes[seat] + len(after.feet[seat]),
    )


def end_key(state: HandState, seat: int) -> tuple[object, ...]:
    """What a decision's end position is for the review: the seat's cards by kind, its side's melds by
    their cards' kinds, the pile and stock, whose move and the phase (two lines that reach the same key
    made the same decision, in whatever order their melds were laid)."""
    owner = state.seating.owner_of[seat]
    side = state.seating.side_of[seat]
    melds = sorted(
        (m.rank, tuple(sorted(C.KIND_OF[c] for c in m.cards))) for m in state.melds if m.owner == owner
    )
    return (
        state.phase,
        state.to_move,
        state.turn_seat,
        tuple(state.hands[seat]),
        len(state.feet[seat]),
        state.in_foot[seat],
        tuple(melds),
        tuple(C.KIND_OF[c] for c in state.pile),
        len(state.stock),
        state.out_seat,
        len(state.red_threes[side]),
        state.permission,
    )


def same_end(game: Game, first: Sequence[Move], second: Sequence[Move]) -> bool:
    """Whether ``first`` and ``second``, played from ``game``, reach the same ``end_key``."""
    seat = game.state.to_move
    return end_key(played_to_end(game, first), seat) == end_key(played_to_end(game, second), seat)


__all__ = [
    "MAX_LINE",
    "ChooseMove",
    "DecisionKind",
    "MeldChange",
    "Outcome",
    "bot_line",
    "decision_spans",
    "end_key",
    "going_out_line",
    "outcome",
    "played_to_end",
    "same_end",
    "went_out",
]
