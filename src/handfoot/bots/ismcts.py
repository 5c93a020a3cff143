"""ISMCTS: information-set Monte Carlo tree search over worlds sampled from the view.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): every iteration deals a world consistent
with the bot's view (``sample_world``), walks one shared tree whose edges are moves (children a world
does not allow are skipped; a child's "availability" counts the iterations it could have been chosen,
which is what its UCB term uses), expands one node, plays the heuristic from there for a bounded
number of moves, and scores the position for every side by the engine's own hand scoring
(``hand_tallies`` + ``score_tally``): the reward of a move is how far its mover's side leads the best
other side, squashed into (-1, 1).

The tree considers, at every node, the heuristic's best few moves (``width``) rather than all of them.
The bot searches only where a hand is won or lost, when the heuristic's choice is between drawing and
taking the pile, between discards, answering a partner, or asking; melds follow the heuristic (which
lays naturals down and places wilds by the books the rules require).

Budget: ``iterations`` per decision, ``seconds`` per decision, or both (whichever ends first).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from handfoot.bots.base import Bot, legal_for, register_bot
from handfoot.bots.heuristic import HeuristicBot, score_moves
from handfoot.engine import hand as H
from handfoot.engine.moves import Action, Move, move_id, move_text
from handfoot.engine.scoring import score_tally
from handfoot.engine.state import HandState, Phase
from handfoot.engine.tally import hand_tallies
from handfoot.engine.views import View, sample_world, view

SEARCHED = (Action.DRAW, Action.PICKUP, Action.DISCARD, Action.ASK, Action.YES, Action.NO)


@dataclass(frozen=True)
class Budget:
    """A search budget per decision: iterations, seconds, or both (the first reached ends the search)."""

    iterations: int | None = 200
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations, seconds, or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a budget needs at least 1 iteration")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a budget in seconds must be positive")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"300"`` (iterations), ``"0.5s"`` (seconds) or ``"300,1s"`` (both)."""
        iterations: int | None = None
        seconds: float | None = None
        for part in text.split(","):
            part = part.strip().lower()
            try:
                if part.endswith("s"):
                    seconds = float(part[:-1])
                elif part:
                    iterations = int(part)
            except ValueError:
                raise ValueError(
                    f"bad budget {text!r}: write 300 (iterations), 0.5s (seconds) or 300,0.5s"
                ) from None
        return cls(iterations, seconds)


def move_key(move: Move) -> int | str:
    """A key for a move that is the same in every sampled world: its id, or its text if compound."""
    mid = move_id(move)
    return mid if mid >= 0 else move_text(move)


class Node:
    """A tree node: the move into it, the side that made it, and its statistics."""

    __slots__ = ("avail", "children", "move", "reward", "side", "visits")

    def __init__(self, move: Move | None, side: int) -> None:
        self.move = move
        self.side = side
        self.children: dict[int | str, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


HELD_WEIGHT = 0.3  # mid-hand, cards in hand are only partly a cost: most of them will be melded


def side_values(state: HandState) -> list[float]:
    """Each side's hand score as it stands (the engine's tally and scoring); before the hand ends, cards
    held count at ``HELD_WEIGHT`` and open melds earn part of the book they are growing toward."""
    rules = state.rules
    tallies = hand_tallies(state)
    over = state.phase is Phase.OVER
    values: list[float] = []
    for tally in tallies:
        score = float(score_tally(rules, tally))
        if not over:
            score += (1 - HELD_WEIGHT) * tally.held_points
        values.append(score)
    if not over:
        book = rules.book_size
        bonus = min(rules.dirty_book_bonus, rules.clean_book_bonus)
        seating = state.seating
        for meld in state.melds:
            size = len(meld.cards)
            if 3 < size < book:
                values[seating.side_of_owner(meld.owner, rules)] += 0.5 * bonus * (size - 3) / (book - 3)
    return values


def evaluate(state: HandState, scale: float = 600.0) -> list[float]:
    """Per side: how far it leads the best other side by ``side_values``, squashed into (-1, 1)."""
    scores = side_values(state)
    out = []
    for side, score in enumerate(scores):
        others = max((s for i, s in enumerate(scores) if i != side), default=0.0)
        out.append(math.tanh((score - others) / scale))
    return out


def candidates(state: HandState, width: int) -> list[Move]:
    """The heuristic's best ``width`` moves for whoever is to move in ``state`` (a sampled world)."""
    legal = legal_for(state)
    if len(legal) <= 1:
        return list(legal)
    scores = score_moves(view(state, state.to_move), legal)
    order = sorted(range(len(legal)), key=lambda i: -scores[i])
    return [legal[i] for i in order[:width]]


class IsmctsBot(Bot):
    """Searches the heuristic's best few moves over sampled worlds (see the module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        budget: Budget | None = None,
        width: int = 4,
        tree_depth: int = 6,
        rollout_moves: int = 40,
        exploration: float = 0.7,
    ) -> None:
        self.budget = budget or Budget()
        self.width = width
        self.tree_depth = tree_depth
        self.rollout_moves = rollout_moves
        self.exploration = exploration
        self.heuristic = HeuristicBot()
        self.last_iterations = 0

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The most visited root move after the budget's search; the heuristic's move where it does not
        search (a single legal move, or a meld)."""
        if len(legal) == 1:
            return legal[0]
        scores = score_moves(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -scores[i])
        best = legal[order[0]]
        if best.action not in SEARCHED:
            return best
        root_moves = [legal[i] for i in order[: self.width]]
        return self.search(view, root_moves, rng)

    def answer(self, view: View, rng: random.Random) -> bool:
        """Searched like any decision: yes if "yes" comes out of the search."""
        legal = [Move(Action.YES), Move(Action.NO)]
        return self.search(view, legal, rng).action is Action.YES

    def search(self, root_view: View, root_moves: Sequence[Move], rng: random.Random) -> Move:
        """Run the search from ``root_view`` over ``root_moves``; returns the most visited of them."""
        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        limit = budget.iterations
        root = Node(None, -1)
        seating = None
        iterations = 0
        while True:
            if limit is not None and iterations >= limit:
                break
            if deadline is not None and iterations and time.perf_counter() >= deadline:
                break
            iterations += 1
            world = sample_world(root_view, rng)
            if seating is None:
                seating = world.seating
            self._iterate(root, world, root_moves, rng)
        self.last_iterations = iterations
        best = max(root.children.values(), key=lambda n: (n.visits, n.reward))
        assert best.move is not None
        return best.move

    def _iterate(self, root: Node, world: HandState, root_moves: Sequence[Move], rng: random.Random) -> None:
        node = root
        path: list[Node] = []
        depth = 0
        while world.phase is not Phase.OVER and depth < self.tree_depth:
            moves = list(root_moves) if depth == 0 else candidates(world, self.width)
            side = world.seating.side_of[world.to_move]
            untried: list[Move] = []
            available: list[Node] = []
            for move in moves:
                child = node.children.get(move_key(move))
                if child is None:
                    untried.append(move)
                else:
                    child.avail += 1
                    available.append(child)
            if untried:
                move = untried[0]
                child = Node(move, side)
                node.children[move_key(move)] = child
                H.apply_move(world, self._in_world(world, move))
                path.append(child)
                break
            log_c = self.exploration
            child = max(
                available,
                key=lambda n: n.reward / n.visits + log_c * math.sqrt(math.log(n.avail) / n.visits),
            )
            assert child.move is not None
            H.apply_move(world, self._in_world(world, child.move))
            path.append(child)
            node = child
            depth += 1
        self._rollout(world, rng)
        values = evaluate(world)
        for visited in path:
            visited.visits += 1
            visited.reward += values[visited.side]

    @staticmethod
    def _in_world(world: HandState, move: Move) -> Move:
        """The move with the cards this world's player holds (ids travel between worlds, suits do not)."""
        mid = move_id(move)
        if mid >= 0:
            return H.move_of_id(world, mid)
        return move

    def _rollout(self, world: HandState, rng: random.Random) -> None:
        bot = self.heuristic
        for _ in range(self.rollout_moves):
            if world.phase is Phase.OVER:
                return
            legal = legal_for(world)
            move = bot.choose(view(world, world.to_move), legal, rng)
            H.apply_move(world, move)


def register() -> None:
    """Add ``ismcts`` (options: a budget such as ``300``, ``0.5s`` or ``300,0.5s``) to the registry."""

    def factory(options: str) -> Bot:
        return IsmctsBot(Budget.parse(options)) if options else IsmctsBot()

    register_bot("ismcts", factory)
