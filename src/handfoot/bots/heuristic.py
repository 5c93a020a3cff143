"""The heuristic bot: plays like a good family player under whatever rules are in force.

Every decision scores each legal move from what the view shows and plays the best one:

* **Opening**: as soon as a legal opening exists, lay the one that spends the fewest wilds.
* **Drawing**: take the pile when it brings cards (or completes a meld) unless a seat about to go out
  would only be weighed down by a big pile.
* **Melding**: naturals always go down; wilds go where they build toward the books the rules require to
  go out (clean, dirty, wild, any), never onto the melds kept clean while a clean book is still needed;
  pairs become melds with a spare wild to empty the Hand and reach the Foot.
* **Going out**: when the books are made, the side's feet are up and it pays; not while the partner is
  stuck with a full hand early in the stock. Asks "May I go out?" only when the rules require it and
  the seat could go out; answers yes unless its own hand would cost more than going out brings.
* **Discarding**: the card the next player is least likely to use: red 3s held under rules that
  penalise them, black 3s (which freeze the pile where the rules say so), singletons of ranks the
  next player's side has no meld of and of which few are unseen; never a wild while anything else
  can go, never one of a pair while a singleton can.

It reads only the ``View`` and the legal moves; its evaluations are its own, legality is the engine's.
``Reading`` gathers what a decision needs from the view once.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final, Protocol

from mypy_extensions import mypyc_attr

from handfoot import cards as C
from handfoot.bots.base import DECODED, NO, YES, Bot, LegalMoves
from handfoot.bots.plan import (
    STEP_IDS,
    PlanMemo,
    continue_plan,
    offers_staging,
    opening_plans,
    plan_steps,
    seat_state,
)
from handfoot.bots.registry import register_bot
from handfoot.engine.moves import YES_ID, Action, Move, group_counts, move_id
from handfoot.engine.pile import IN_HAND_RULES
from handfoot.engine.state import HandState, Phase, seating_for
from handfoot.engine.views import SeatInfo, View
from handfoot.rules.cache import RulesCache
from handfoot.rules.options import (
    AllFeet,
    BookAdditions,
    Permission,
    PickupBeforeDown,
    PickupRestFrom,
    PileVisible,
    RedThrees,
    RuleSet,
)

KIND_OF: Final = C.KIND_OF
# The members read for every decision, looked up once (reading an enum's member costs a lookup each time).
DRAW: Final = Action.DRAW
DISCARD: Final = Action.DISCARD
MELD: Final = Action.MELD
ASK: Final = Action.ASK
LAY: Final = Action.LAY
YES_ACTION: Final = Action.YES
DRAW_PHASE: Final = Phase.DRAW
PLAY_PHASE: Final = Phase.PLAY
ANSWER_PHASE: Final = Phase.ANSWER
# The score of a staging step (stage, commit, cancel): played only through a plan (``plan_choice``).
STEP_SCORE: Final = -1e6
STEP_ACTIONS: Final = (Action.STAGE, Action.COMMIT, Action.CANCEL)
HOLD_RED_THREES: Final = RedThrees.HOLD
NEVER_BEFORE_DOWN: Final = PickupBeforeDown.NEVER
REST_FROM_STOCK: Final = PickupRestFrom.STOCK
ANY_ADDITIONS: Final = BookAdditions.ANY
NATURAL_ADDITIONS: Final = BookAdditions.NATURALS
JOKER: Final = C.JOKER
DEUCE: Final = C.DEUCE
BLACK_THREE: Final = C.BLACK_THREE
RED_THREE: Final = C.RED_THREE
WILD_RANK: Final = C.WILD_RANK


class MeldLike(Protocol):
    """A meld on the table as the heuristic reads it (a view's ``MeldView`` or a world's ``Meld``)."""

    @property
    def owner(self) -> int: ...

    @property
    def rank(self) -> int: ...

    @property
    def cards(self) -> Sequence[int]: ...

    @property
    def wilds(self) -> int: ...


_SHOES: RulesCache[dict[int, tuple[int, ...]]] = RulesCache()  # per rule set: players -> copies per kind


def shoe_kinds(rules: RuleSet, players: int) -> tuple[int, ...]:
    """Copies of each kind in the shoe for ``rules`` and ``players`` (cached)."""
    by_players = _SHOES.get(rules)
    if by_players is None:
        by_players = _SHOES.put(rules, {})
    totals = by_players.get(players)
    if totals is None:
        decks = rules.decks_for(players)
        totals = by_players[players] = tuple(
            decks * rules.jokers_per_deck if kind == JOKER else decks * len(C.IDS_OF_KIND[kind])
            for kind in range(C.NUM_KINDS)
        )
    return totals


class Reading:
    """What one seat knows, gathered once per decision: hand by kind, own melds, books needed, and the
    few public facts the scores use (the table, the pile, the stock, hand counts).

    Built from a ``View`` (``Reading(view)``, what a bot does) or, inside a search, from a world the
    searching bot sampled itself (``Reading.of_world(state, seat)``): both give the same reading for a
    state and its view, field by field.
    """

    __slots__ = (
        "_seen",
        "books",
        "counts",
        "down",
        "down_by_owner",
        "dumping",
        "feet_ready",
        "hand_counts",
        "in_foot",
        "melds",
        "need_any",
        "need_clean",
        "need_dirty",
        "need_wild",
        "owner",
        "partners",
        "phase",
        "pile",
        "pile_size",
        "pile_top",
        "players",
        "protected",
        "rules",
        "seat",
        "seating",
        "side",
        "size",
        "stock_size",
        "table",
        "turn_seat",
        "view",
    )

    def __init__(self, view: View | None) -> None:
        self.view: View | None = view
        if view is None:
            return  # filled by of_world
        seats = view.seats
        counts = [0] * C.NUM_KINDS
        for card in view.hand:
            counts[KIND_OF[card]] += 1
        self._fill(
            view.rules,
            view.players,
            view.seat,
            counts,
            [sv.in_foot for sv in seats],
            [sv.hand_count for sv in seats],
            view.melds,
            view.books,
            view.down,
            view.pile,
            view.pile_top,
            view.pile_size,
            view.stock_size,
            view.phase,
            view.turn_seat,
        )

    @classmethod
    def of_seat(cls, info: SeatInfo) -> Reading:
        """The reading ``Reading(info.freeze())`` would give, read from the seat's ``SeatInfo`` without
        building the frozen view (what a runner's ``choose_seat`` hands the bot)."""
        r = cls(None)
        r._fill(
            info.rules,
            info.players,
            info.seat,
            info.kinds,
            info.in_foot,
            info.hand_counts,
            info.table,
            info.books,
            info.down,
            info.pile,
            info.pile_top,
            info.pile_size,
            info.stock_size,
            info.phase,
            info.turn_seat,
        )
        return r

    @classmethod
    def of_world(cls, state: HandState, seat: int) -> Reading:
        """The reading ``Reading(view(state, seat))`` would give, read straight from ``state``: for a
        search bot's own sampled worlds (never for a real game's state)."""
        r = cls(None)
        rules = state.rules
        pile = state.pile
        r._fill(
            rules,
            state.players,
            seat,
            state.hands[seat],
            state.in_foot,
            [sum(h) for h in state.hands],
            state.melds,
            state.books,
            state.down,
            pile if rules.pile_visible is PileVisible.ALL else (),
            pile[-1] if pile else -1,
            len(pile),
            len(state.stock),
            state.phase,
            state.turn_seat,
        )
        return r

    def _fill(
        self,
        rules: RuleSet,
        players: int,
        seat: int,
        counts: Sequence[int],
        in_foot: Sequence[bool],
        hand_counts: Sequence[int],
        table: Sequence[MeldLike],
        books: Sequence[Sequence[int]],
        down: Sequence[bool],
        pile: Sequence[int],
        pile_top: int,
        pile_size: int,
        stock_size: int,
        phase: Phase,
        turn_seat: int,
    ) -> None:
        self.rules = rules
        self.players = players
        self.seat = seat
        seating = seating_for(rules, players)
        self.seating = seating
        owner = seating.owner_of[seat]
        self.owner = owner
        self.side = seating.side_of[seat]
        partners = seating.partners[seat]
        self.partners = partners
        self.counts = counts
        self.size = sum(counts)
        self.hand_counts = hand_counts
        in_own_foot = in_foot[seat]
        self.in_foot = in_own_foot
        self.down_by_owner = down
        self.down = down[owner]
        self.table = table
        self.pile = pile
        self.pile_top = pile_top
        self.pile_size = pile_size
        self.stock_size = stock_size
        self.phase = phase
        self.turn_seat = turn_seat
        self._seen: list[int] | None = None
        # the side's melds by rank: the latest meld of a rank is the open one
        melds: dict[int, MeldLike] = {meld.rank: meld for meld in table if meld.owner == owner}
        self.melds = melds
        held = books[owner]
        clean, dirty, wild = held[0], held[1], held[2]
        total = clean + dirty + wild
        self.books = total
        need_clean = rules.go_out_clean - clean
        if rules.wild_book_counts_clean and wild > rules.go_out_wild:
            need_clean -= wild - rules.go_out_wild  # spare wild books stand in for clean ones
        need_dirty = rules.go_out_dirty - dirty
        need_wild = rules.go_out_wild - wild
        need_any = rules.go_out_books - total
        self.need_clean = need_clean = need_clean if need_clean > 0 else 0
        self.need_dirty = need_dirty = need_dirty if need_dirty > 0 else 0
        self.need_wild = need_wild = need_wild if need_wild > 0 else 0
        self.need_any = need_any = need_any if need_any > 0 else 0
        feet_ready = True
        feet_rule = rules.all_feet_to_go_out
        if feet_rule is not AllFeet.NONE:
            entered = feet_rule is AllFeet.ENTERED
            for partner in partners:
                if not in_foot[partner] and not (entered and not hand_counts[partner]):
                    feet_ready = False
                    break
        self.feet_ready = feet_ready
        # every card left costs: lay all (the books are made, and the side's feet are up)
        self.dumping = in_own_foot and feet_ready and not (need_clean or need_dirty or need_wild or need_any)
        # Melds kept clean: the largest natural melds still short of a book, as many as clean books needed.
        protected: set[int] = set()
        if need_clean:
            book = rules.book_size
            natural = sorted(
                (m for m in melds.values() if m.wilds == 0 and len(m.cards) < book and m.rank != WILD_RANK),
                key=lambda m: (-len(m.cards), m.rank),
            )
            protected = {m.rank for m in natural[:need_clean]}
        self.protected = protected

    @property
    def books_done(self) -> bool:
        """True when the side holds every book the rules require to go out."""
        return not (self.need_clean or self.need_dirty or self.need_wild or self.need_any)

    def open_meld(self, rank: int, adding_wilds: bool) -> MeldLike | None:
        """The side's meld a group of ``rank`` would join (None: it would start a new meld)."""
        meld = self.melds.get(rank)
        if meld is None:
            return None
        if len(meld.cards) < self.rules.book_size:
            return meld
        additions = self.rules.book_additions
        if additions is ANY_ADDITIONS or (additions is NATURAL_ADDITIONS and not adding_wilds):
            return meld
        return None

    def hand_points(self) -> int:
        """What the seat's cards would cost if the hand ended now (red 3s at the held penalty)."""
        values = self.rules.card_values
        counts = self.counts
        total = sum(values[k] * counts[k] for k in range(RED_THREE))
        return total - self.rules.red_three_held * counts[RED_THREE]

    def stuck_cards(self) -> int:
        """Cards of the hand that could not go down soon: kinds without an open meld, fewer than three
        (two with a wild to spare), and 3s that cannot be melded."""
        counts = self.counts
        wilds = counts[JOKER] + counts[DEUCE]
        spare = wilds if self.melds else max(wilds - 1, 0)
        stuck = 0
        for kind in range(C.ACE, C.FOUR + 1):
            have = counts[kind]
            if not have or self.open_meld(kind, False) is not None or have >= 3:
                continue
            if have == 2 and spare:
                spare -= 1
                continue
            stuck += have
        stuck += counts[RED_THREE]
        if not self.rules.black_three_melds or counts[BLACK_THREE] < 3:
            stuck += counts[BLACK_THREE]
        return stuck

    def unseen(self, kind: int) -> int:
        """Copies of ``kind`` this seat has not seen (shoe minus own hand, table and visible pile)."""
        return max(shoe_kinds(self.rules, self.players)[kind] - self.seen_counts()[kind], 0)

    def seen_counts(self) -> list[int]:
        """Cards of each kind this seat has seen: its own hand, the table's naturals, the visible pile
        (worked out once; do not change it)."""
        seen = self._seen
        if seen is None:
            seen = list(self.counts)
            for meld in self.table:
                seen[meld.rank] += len(meld.cards) - meld.wilds
            if self.pile:
                for card in self.pile:
                    seen[KIND_OF[card]] += 1
            elif self.pile_top >= 0:
                seen[KIND_OF[self.pile_top]] += 1
            self._seen = seen
        return seen

    def pile_gain(self) -> int:
        """``pile_gain`` of the position read."""
        return _pile_gain(self.rules, self.pile_size, self.stock_size)


def _wilds_of(move: Move) -> tuple[int, int]:
    """(naturals, wilds) laid by a meld or pickup move (the top card not counted)."""
    naturals = wilds = 0
    for group in move.groups:
        n, j, d = group_counts(group)
        naturals += n
        wilds += j + d
    return naturals, wilds


def _pile_gain(rules: RuleSet, pile_size: int, stock_size: int) -> int:
    if rules.pickup_rest_from is REST_FROM_STOCK:
        return min(max(rules.pickup_count - 1, 0), stock_size)
    if rules.pickup_count == 0:
        return max(pile_size - 1, 0)
    return min(rules.pickup_count - 1, max(pile_size - 1, 0))


def pile_gain(view: View) -> int:
    """Cards that taking the pile puts into the hand beside the top card (which is melded at once)."""
    return _pile_gain(view.rules, view.pile_size, view.stock_size)


def best_index(scores: Sequence[float]) -> int:
    """The index of the highest score (ties: the first)."""
    best = 0
    top = scores[0]
    for index in range(1, len(scores)):
        if scores[index] > top:
            best, top = index, scores[index]
    return best


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot(Bot):
    """Scores every legal move from the view and plays the best (ties: the first listed)."""

    name = "heuristic"

    def __init__(self) -> None:
        self.plans = PlanMemo()  # the steps left of the opening it is staging (a memo: see PlanMemo)

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The best-scoring move of ``legal`` (see ``score_moves``); with a ``LegalMoves`` only the
        chosen move is ever built."""
        if view.phase is ANSWER_PHASE:
            return self.answer_move(view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        r = Reading(view)
        ids = _ids_of(legal)
        step = plan_choice(r, view, ids, self.plans)
        if step >= 0:
            return legal[ids.index(step)]
        return legal[best_index(score_reading(r, legal))]

    def choose_seat(self, info: SeatInfo, legal: Sequence[Move], rng: random.Random) -> Move:
        """``choose`` read from the seat's ``SeatInfo``: the same move, without a frozen view."""
        if len(legal) == 1 and info.phase is not ANSWER_PHASE:
            return legal[0]
        r = Reading.of_seat(info)
        if info.phase is ANSWER_PHASE:
            wanted = YES if answer_permission(r) else NO
            return wanted if wanted in legal else legal[0]
        ids = _ids_of(legal)
        step = plan_choice(r, info, ids, self.plans)
        if step >= 0:
            return legal[ids.index(step)]
        if isinstance(legal, LegalMoves):
            return legal[best_id_index(r, legal.ids)]
        return legal[best_index(score_reading(r, legal))]

    def answer(self, view: View, rng: random.Random) -> bool:
        """Yes unless this seat's own cards would cost clearly more than the partner going out brings."""
        return answer_permission(Reading(view))


def _ids_of(legal: Sequence[Move]) -> list[int]:
    """The ids of the legal moves (a ``LegalMoves`` holds them)."""
    if isinstance(legal, LegalMoves):
        return list(legal.ids)
    return [move_id(m) for m in legal]


def plan_choice(r: Reading, info: SeatInfo | View, ids: Sequence[int], memo: PlanMemo | None = None) -> int:
    """The staging step to play, or -1 to play the best atomic move: mid-staging, the next step of the
    plan being staged (``bots.plan``; from ``memo`` where it holds it); else, where staging is offered
    and a planned opening of several groups scores above every atomic move, its first step."""
    if info.staged:
        if memo is not None:
            mid = memo.recall(info, ids)
            if mid >= 0:
                return mid
        s = seat_state(info)
        plans = opening_plans(s)
        scores = _score_move_list(r, plans)
        order = sorted(range(len(plans)), key=lambda i: -scores[i])
        return continue_plan(s, [plans[i] for i in order], info.staged, ids)
    if not offers_staging(ids):
        return -1
    s = seat_state(info)
    plans = opening_plans(s)
    if not plans:
        return -1
    plan_scores = _score_move_list(r, plans)
    best = best_index(plan_scores)
    atomic = [mid for mid in ids if mid not in STEP_IDS]
    if atomic and max(score_ids(r, atomic)) >= plan_scores[best]:
        return -1
    steps = plan_steps(s, plans[best])
    first = move_id(steps[0]) if steps else -1
    if first not in ids:
        return -1
    if memo is not None:
        memo.remember(info, steps)
    return first


def answer_permission(r: Reading) -> bool:
    """The heuristic's answer to "May I go out?" for the reading of the partner being asked."""
    if r.hand_counts[r.turn_seat] <= 1:
        return True  # a "no" would leave the asker unable to discard their last card (engine deadlock)
    if r.stock_size <= 4 * r.players:
        return True  # the hand is ending anyway: take the bonus
    return r.hand_points() <= r.rules.going_out_bonus + 150 or r.size <= 3


def wants_out(r: Reading) -> bool:
    """Whether going out pays now: not while a partner is stuck with a full hand and stock remains."""
    if r.stock_size <= 4 * r.players:
        return True
    if r.stock_size <= 30:
        return True
    return all(r.hand_counts[partner] < 9 for partner in r.partners)


# A red 3 laid by choice (red_threes = "lay_by_choice") earns its bonus and can never be discarded:
# laying it at once is as good as the best meld.
LAY_RED_THREE_SCORE: Final = 400.0


def score_moves(view: View, legal: Sequence[Move]) -> list[float]:
    """The heuristic's score of each legal move (higher is better) for the seat to move. A
    ``LegalMoves`` is scored from its ids without building a move."""
    return score_reading(Reading(view), legal)


def score_reading(r: Reading, legal: Sequence[Move]) -> list[float]:
    """``score_moves`` for a reading already made."""
    if isinstance(legal, LegalMoves):
        return score_ids(r, legal.ids)
    return _score_move_list(r, legal)


def _score_move_list(r: Reading, legal: Sequence[Move]) -> list[float]:
    if r.phase is DRAW_PHASE:
        out = []
        for move in legal:
            if move.action in STEP_ACTIONS:
                out.append(STEP_SCORE)
                continue
            naturals, wilds = _wilds_of(move)
            out.append(_score_draw(r, move.action is DRAW, naturals, wilds))
        return out
    if r.phase is ANSWER_PHASE:
        yes = answer_permission(r)
        return [1.0 if (move.action is YES_ACTION) == yes else 0.0 for move in legal]
    out_ok = wants_out(r)
    discard_scores: list[float] | None = None
    scores: list[float] = []
    for move in legal:
        action = move.action
        if action is DISCARD:
            if discard_scores is None:
                discard_scores = _discard_scores(r)
            scores.append(discard_scores[KIND_OF[move.card]])
        elif action is ASK:
            scores.append(_score_ask(r))
        elif action is MELD:
            groups = []
            for group in move.groups:
                n, j, d = group_counts(group)
                groups.append((group.rank, n, j + d))
            scores.append(_score_meld(r, groups, out_ok))
        elif action is LAY:
            scores.append(LAY_RED_THREE_SCORE)
        elif action in STEP_ACTIONS:
            scores.append(STEP_SCORE)
        else:
            scores.append(-1000.0)
    return scores


# Per atomic id: (action, rank or kind, naturals, wilds); None for numbers that are no id.
_ID_FACTS: tuple[tuple[Action, int, int, int] | None, ...] = tuple(
    None if d is None else (d.action, d.kind, d.naturals, d.jokers + d.deuces) for d in DECODED
)


def score_ids(r: Reading, ids: Sequence[int]) -> list[float]:
    """The heuristic's score of each atomic move id (the same as scoring the moves they stand for)."""
    facts = _ID_FACTS
    phase = r.phase
    if phase is DRAW_PHASE:
        out = []
        for mid in ids:
            fact = facts[mid]
            assert fact is not None
            if mid in STEP_IDS:
                out.append(STEP_SCORE)
                continue
            out.append(_score_draw(r, fact[0] is DRAW, fact[2], fact[3]))
        return out
    if phase is ANSWER_PHASE:
        yes = answer_permission(r)
        return [1.0 if (mid == YES_ID) == yes else 0.0 for mid in ids]
    out_ok: bool | None = None
    discard_scores: list[float] | None = None
    scores: list[float] = []
    for mid in ids:
        fact = facts[mid]
        assert fact is not None
        action = fact[0]
        if action is DISCARD:
            if discard_scores is None:
                discard_scores = _discard_scores(r)
            scores.append(discard_scores[fact[1]])
        elif action is MELD:
            if out_ok is None:
                out_ok = wants_out(r)
            scores.append(_score_one_group(r, fact[1], fact[2], fact[3], out_ok))
        elif action is ASK:
            scores.append(_score_ask(r))
        elif action is LAY:
            scores.append(LAY_RED_THREE_SCORE)
        elif mid in STEP_IDS:
            scores.append(STEP_SCORE)
        else:
            scores.append(-1000.0)
    return scores


def best_id_index(r: Reading, ids: Sequence[int]) -> int:
    """``best_index(score_ids(r, ids))``, faster in the play phase: every move but the discards is scored
    once, and the discards only when their upper bound (``_discard_bound``) reaches the best of those."""
    if r.phase is not PLAY_PHASE:
        return best_index(score_ids(r, ids))
    facts = _ID_FACTS
    top = -math.inf
    top_index = -1  # the first other move with the top score
    out_ok = -1  # wants_out(r), worked out when first needed: -1 not yet, else 0 or 1
    has_discard = False
    down, in_foot, size = r.down, r.in_foot, r.size
    for index, mid in enumerate(ids):
        fact = facts[mid]
        assert fact is not None
        action = fact[0]
        if action is DISCARD:
            has_discard = True
            continue
        if action is MELD:  # _score_one_group, inlined
            naturals, wilds = fact[2], fact[3]
            left = size - naturals - wilds
            if not down:
                score = 1000.0 - 60 * wilds + 3 * naturals
            elif in_foot and left <= 1:
                if out_ok < 0:
                    out_ok = 1 if wants_out(r) else 0
                score = -100.0 if not out_ok else _score_group(r, fact[1], naturals, wilds, left)
            else:
                score = _score_group(r, fact[1], naturals, wilds, left)
        elif action is ASK:
            score = _score_ask(r)
        elif action is LAY:
            score = LAY_RED_THREE_SCORE
        elif mid in STEP_IDS:
            score = STEP_SCORE
        else:
            score = -1000.0
        if score > top:
            top, top_index = score, index
    if not has_discard:
        return top_index
    if top_index >= 0 and (top > _discard_bounds(r.rules)[1] or _discard_bound(r) < top):
        return top_index  # no discard can reach ``top``
    discard_scores = _discard_scores(r)
    for index, mid in enumerate(ids):  # the first of the best: a discard beats ``top`` or ties it earlier
        fact = facts[mid]
        assert fact is not None
        if fact[0] is DISCARD:
            score = discard_scores[fact[1]]
            if score > top or (score == top and index < top_index):
                top, top_index = score, index
    return top_index


_DISCARD_BOUNDS: RulesCache[tuple[tuple[float, ...], float]] = RulesCache()


def _discard_bounds(rules: RuleSet) -> tuple[tuple[float, ...], float]:
    """Per kind, an upper bound of its ``_discard_scores`` under ``rules`` (danger and melds only lower
    it), and the highest of them: no discard ever scores more (cached)."""
    hit = _DISCARD_BOUNDS.get(rules)
    if hit is not None:
        return hit
    values = rules.card_values
    bounds: list[float] = []
    for kind in range(C.NUM_KINDS):
        if kind == RED_THREE:
            bounds.append(500.0 if rules.red_threes is RedThrees.HOLD else 100.0)
        elif kind == BLACK_THREE:
            bounds.append(300.0 if rules.black_three_freezes else 200.0)
        elif kind <= DEUCE:
            bounds.append(-300.0 - values[kind])
        else:
            bounds.append(40.0 + values[kind] / 5.0)
    return _DISCARD_BOUNDS.put(rules, (tuple(bounds), max(bounds)))


def _discard_bound(r: Reading) -> float:
    """An upper bound of ``_discard_scores`` over the kinds held (``_discard_bounds``)."""
    counts = r.counts
    bounds = _discard_bounds(r.rules)[0]
    bound = -math.inf
    for kind in range(C.NUM_KINDS):
        if counts[kind] and bounds[kind] > bound:
            bound = bounds[kind]
    return bound


def _score_draw(r: Reading, is_draw: bool, naturals: int, wilds: int) -> float:
    if is_draw:  # naturals 1: the split draw (split_draw), the pile's top card and one stock card fewer
        return _score_split_draw(r) if naturals else 0.0
    gain = r.pile_gain()
    if not r.down:  # taking the pile to open: always worth it, with as few wilds as possible
        return 500.0 + gain * 5 + naturals - 40 * wilds
    if r.dumping and r.size <= 3 and gain > 6:
        return -1.0  # about to go out: a big pile only adds cards to get rid of
    if r.rules.pickup_before_down in IN_HAND_RULES and wilds:
        return 100.0 + gain * 3 - 40 * wilds
    return 20.0 + gain * 5 + naturals


def _score_split_draw(r: Reading) -> float:
    """The pile's top card instead of a stock card: worth it when it joins a meld of the side's or makes
    three of a rank with the pair held; else a stock card is the better gamble."""
    top = KIND_OF[r.pile_top] if r.pile_top >= 0 else -1
    if top >= 0 and (r.counts[top] >= 2 or top in r.melds):
        return 2.0
    return -1.0


def _score_ask(r: Reading) -> float:
    """Ask only when the rules require it and this seat could go out now (books made, little left)."""
    never = -1e6
    if r.rules.permission is not Permission.REQUIRED or not r.in_foot:
        return never
    if not r.dumping:  # the books made and the side's feet up (this seat is in its Foot)
        return never
    if r.stuck_cards() <= 1 and wants_out(r):
        return 50.0  # above any discard, below any worthwhile meld
    return never


def _score_meld(r: Reading, groups: Sequence[tuple[int, int, int]], out_ok: bool) -> float:
    """A meld of ``groups`` given as (rank, naturals, wilds)."""
    naturals = wilds = 0
    for _, n, w in groups:
        naturals += n
        wilds += w
    left = r.size - naturals - wilds
    if not r.down:
        # An opening: lay it now, spending as few wilds as possible.
        return 1000.0 - 60 * wilds + 3 * naturals
    if r.in_foot and left <= 1 and not out_ok:
        return -100.0  # would leave nothing but the going-out discard while the partner is stuck
    score = 0.0
    for rank, n, w in groups:
        score += _score_group(r, rank, n, w, left)
    return score


def _score_one_group(r: Reading, rank: int, naturals: int, wilds: int, out_ok: bool) -> float:
    """``_score_meld`` of a meld of one group."""
    left = r.size - naturals - wilds
    if not r.down:
        return 1000.0 - 60 * wilds + 3 * naturals
    if r.in_foot and left <= 1 and not out_ok:
        return -100.0
    return _score_group(r, rank, naturals, wilds, left)


def _score_group(r: Reading, rank: int, naturals: int, wilds: int, left: int) -> float:
    if rank == BLACK_THREE:
        return 900.0  # black 3s go down only when going out
    dumping = r.dumping  # every card left costs: lay all
    if rank == WILD_RANK:
        if r.need_wild:
            return 400.0
        return 200.0 if dumping else -20.0
    if wilds == 0:
        return 600.0 + naturals
    rules = r.rules
    book = rules.book_size
    target = r.open_meld(rank, True)
    if target is not None:
        size = len(target.cards)
        if rank in r.protected:
            return -500.0  # keep the clean-book candidate clean
        if target.wilds == 0 and size >= book and r.need_clean == 0 and not dumping:
            return -300.0  # a clean book turned dirty loses its bonus difference
        if target.wilds == 0 and size >= book:
            return 150.0 if dumping and rules.clean_book_bonus <= rules.dirty_book_bonus else -300.0
        after = size + wilds
        if size < book <= after:
            needed = r.need_dirty or r.need_any or r.need_wild == 0
            return 450.0 if needed else 300.0
        if dumping:
            return 200.0 + after
        if after >= book - 2 or r.counts[JOKER] + r.counts[DEUCE] >= 4:
            return 80.0 + 10 * after  # building toward a dirty book
        return -20.0
    # A new meld with wilds (a pair and a wild, say).
    if r.need_clean and not r.need_dirty and not r.need_any and len(r.protected) < r.need_clean:
        return -10.0  # only clean books count for going out: wilds are better kept for more melds
    if not r.in_foot:
        return 250.0 - 5 * wilds  # empty the Hand to reach the Foot
    if dumping or left <= 3:
        return 220.0
    return 120.0


def _discard_scores(r: Reading) -> list[float]:
    """A score per card kind for discarding one of it (higher is better)."""
    rules = r.rules
    counts = r.counts
    values = rules.card_values
    scores = [-1e9] * C.NUM_KINDS
    if counts[RED_THREE]:
        scores[RED_THREE] = 500.0 if rules.red_threes is HOLD_RED_THREES else 100.0
    if counts[BLACK_THREE]:
        keep = rules.black_three_melds and counts[BLACK_THREE] >= 3 and r.in_foot
        scores[BLACK_THREE] = (300.0 if rules.black_three_freezes else 200.0) - (400.0 if keep else 0.0)
    for kind in (JOKER, DEUCE):
        if counts[kind]:
            scores[kind] = -300.0 - values[kind]  # never a wild while anything else can go
    nxt = (r.seat + 1) % r.players
    seating = r.seating
    next_owner = seating.owner_of[nxt]
    next_melds = {m.rank for m in r.table if m.owner == next_owner}
    can_take = rules.pickup_allowed and (
        r.down_by_owner[next_owner] or rules.pickup_before_down is not NEVER_BEFORE_DOWN
    )
    dangerous = seating.side_of[nxt] != r.side and can_take  # the next player, an opponent, may take it
    pile_weight = 1.0 + min(r.pile_gain(), 20) / 4.0
    shoe = shoe_kinds(rules, r.players)
    seen = r.seen_counts()
    melds = r.melds
    book = rules.book_size
    additions = rules.book_additions
    joins_books = additions is ANY_ADDITIONS or additions is NATURAL_ADDITIONS  # a natural joins a book
    for kind in range(C.ACE, BLACK_THREE):  # the naturals
        have = counts[kind]
        if not have:
            continue
        if have == 1:
            score = 40.0
        elif have == 2:
            score = -20.0  # a pair: half a meld, and a ticket to the pile
        else:
            score = -60.0
        meld = melds.get(kind)
        if meld is not None and (len(meld.cards) < book or joins_books):  # r.open_meld(kind, False)
            score -= 30.0  # it plays on our own meld (held back only by the rules)
        danger = 0.0
        if dangerous:
            on_meld = kind in next_melds
            need = rules.pickup_naturals_on_meld if on_meld else rules.pickup_naturals
            unseen = max(shoe[kind] - seen[kind], 0)
            danger = 8.0 * unseen / (need + 1)
            if on_meld:
                danger += 40.0
            danger *= pile_weight
        score -= danger
        score += values[kind] / 5.0  # if it stays stuck in hand, a high card costs more
        scores[kind] = score
    return scores


def register() -> None:
    """Add ``heuristic`` to the registry."""

    def factory(options: str) -> Bot:
        if options:
            raise ValueError("the heuristic bot takes no options")
        return HeuristicBot()

    register_bot("heuristic", factory)


register()
