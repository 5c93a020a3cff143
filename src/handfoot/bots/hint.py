"""Hints: the move the strongest bot would make within a budget, and one sentence saying why.

``hint(view, legal, budget)`` searches with ``IsmctsBot`` (the heuristic alone with ``budget=None``)
and explains the move from what the view shows, for instance "Take the pile: two 9s in hand and 14
cards in it". ``legal`` is what a runner passes any bot (``legal_for``). Where the bot begins an
opening of several groups (its first ``stage`` step), the hint names the whole opening in the notation
(``meld KS KH KD | 8S 8H 8D``), which a client may send as it is (it is played as its steps).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from handfoot import cards as C
from handfoot.bots.base import Bot
from handfoot.bots.heuristic import HeuristicBot, Reading, _ids_of, pile_gain
from handfoot.bots.ismcts import Budget, IsmctsBot
from handfoot.bots.plan import next_step, opening_plans, seat_state
from handfoot.engine.moves import Action, Move, group_counts, move_id, move_text
from handfoot.engine.views import SeatInfo, View
from handfoot.rules.options import RedThrees
from handfoot.wording import number_word, plural, spelled

DEFAULT_BUDGET = Budget(iterations=200, seconds=1.0)


@dataclass(frozen=True)
class Hint:
    """A suggested move, its notation, and one sentence why."""

    move: Move
    text: str
    reason: str

    def __str__(self) -> str:
        return f"{self.text}: {self.reason}"


def _count(n: int, kind: int) -> str:
    """``two 9s``, ``one king``, ``three jokers``."""
    word = number_word(n)
    if n == 1:
        return f"{word} {C.KIND_WORDS[kind]}"
    plural = C.KIND_PLURALS[kind] if kind not in range(C.TEN, C.FOUR + 1) else C.RANK_LETTER[kind] + "s"
    return f"{word} {plural}"


def hint(
    info: SeatInfo | View, legal: Sequence[Move], budget: Budget | None = DEFAULT_BUDGET, seed: int = 0
) -> Hint:
    """The move the strongest bot makes here within ``budget`` (None: the heuristic, instantly) and
    why. ``legal`` must be non-empty; the search is reproducible for ``seed``."""
    if not legal:
        raise ValueError("no legal move: the hand is over")
    rng = random.Random(seed)
    bot: Bot = HeuristicBot() if budget is None else IsmctsBot(budget)
    if isinstance(info, View):
        view = info
        move = bot.choose(view, legal, rng)
    else:  # the seat's reading with the public bounds (``Game.seat_info``): what every runner hands a bot
        view = info.freeze()
        move = bot.choose_seat(info, legal, rng)
    if move.action is Action.STAGE and not view.staged:
        move = planned_opening(view, legal, move)
    return Hint(move, move_text(move), explain(view, legal, move))


def planned_opening(view: View, legal: Sequence[Move], step: Move) -> Move:
    """The whole opening whose first step is ``step`` (as the bots plan it), or ``step`` itself."""
    planning = seat_state(view)
    ids = _ids_of(legal)
    wanted = move_id(step)
    for plan in opening_plans(planning):
        if next_step(planning, plan, (), ids) == wanted:
            return plan
    return step


def explain(view: View, legal: Sequence[Move], move: Move) -> str:
    """One sentence on why ``move`` is played, from what ``view`` shows."""
    r = Reading(view)
    rules = view.rules
    action = move.action
    top = C.KIND_OF[view.pile_top] if view.pile_top >= 0 else -1
    if action is Action.PICKUP:
        held = r.counts[top]
        gain = pile_gain(view) + 1
        opening = "" if r.down else " and open"
        return f"Take the pile{opening}: {_count(held, top)} in hand and {plural(gain, 'card')} in it"
    if action is Action.DRAW and move.card >= 0:  # the split draw (split_draw)
        held = r.counts[top] if top >= 0 else 0
        return (
            f"Draw the pile's top card, {C.code(move.card)}, and one card fewer from the stock: "
            f"you hold {_count(held, top)}"
        )
    if action is Action.DRAW:
        if not any(m.action is Action.PICKUP for m in legal):
            if top < 0:
                return "Draw: the discard pile is empty"
            if not rules.pickup_allowed:
                return "Draw: the pile is never taken at this table"
            if top == C.BLACK_THREE and rules.black_three_freezes:
                return "Draw: the black 3 on top freezes the pile for you"
            if C.is_wild(top) or top in (C.BLACK_THREE, C.RED_THREE):
                return f"Draw: a {C.KIND_WORDS[top]} on top cannot be taken"
            if not r.down:
                return f"Draw: you cannot open with the {C.KIND_WORDS[top]} on top yet"
            return f"Draw: you hold {_count(r.counts[top], top)}, not enough to take the pile"
        return f"Draw: the pile ({plural(view.pile_size, 'card')}) is not worth taking now"
    if action is Action.MELD:
        return _explain_meld(r, move)
    if action is Action.DISCARD:
        kind = C.KIND_OF[move.card]
        code = C.CODE_OF[move.card]
        if r.in_foot and r.size == 1:
            return f"Discard {code} and go out: your side has the books it needs"
        if kind == C.RED_THREE and rules.red_threes is RedThrees.HOLD:
            return f"Discard {code}: a red 3 still held at the end costs {-rules.red_three_held}"
        if kind == C.BLACK_THREE:
            if rules.black_three_freezes:
                return f"Discard {code}: a black 3 freezes the pile for the next player"
            return f"Discard {code}: a 3 is of no use to anyone and cannot be taken"
        if C.is_wild(kind):
            if all(C.is_wild(C.KIND_OF[m.card]) for m in legal if m.action is Action.DISCARD):
                return f"Discard {code}: nothing else may be discarded"
            return f"Discard {code}: a wild on top keeps the next player from taking the pile"
        nxt = (view.seat + 1) % view.players
        next_owner = r.seating.owner_of[nxt]
        theirs = any(m.owner == next_owner and m.rank == kind for m in view.melds)
        held = r.counts[kind]
        alone = f"a single {C.KIND_WORDS[kind]}" if held == 1 else f"one of your {_count(held, kind)}"
        unseen = r.unseen(kind)
        if theirs:  # a risk taken, not a reason: said as such
            return (
                f"Discard {code}: {alone}, the card you need least, though the next player's side has "
                f"{C.KIND_PLURALS[kind]} down and could take the pile with it"
            )
        return (
            f"Discard {code}: {alone}, {unseen} more unseen, the card you need least, and the next "
            f"player's side has no meld to add it to"
        )
    if action is Action.ASK:
        return "Ask 'May I go out?': your side has its books and you can go out this turn"
    if action is Action.LAY:
        held = -rules.red_three_held
        return (
            f"Lay {C.CODE_OF[move.card]} down: a red 3 is never discarded, and one still held at the end "
            f"costs {held}"
        )
    if action is Action.END:
        return "End your turn holding your last card: your partner said no, so you may not go out with it"
    points = r.hand_points()
    if action is Action.YES:
        return f"Say yes: your own cards would cost only {points} points"
    stock = plural(view.stock_size, "card")
    return f"Say no: you still hold {points} points in cards and the stock has {stock} left"


def _explain_meld(r: Reading, move: Move) -> str:
    rules = r.rules
    if not r.down:
        minimum = r.view.minimums[r.owner] if r.view is not None else 0
        values = rules.card_values
        points = sum(values[C.KIND_OF[c]] for g in move.groups for c in g.cards)
        wilds = sum(group_counts(g)[1] + group_counts(g)[2] for g in move.groups)
        spent = f", spending {spelled(wilds, 'wild')}" if wilds else " without a wild"
        return f"Open: {points} points meet your minimum of {minimum}{spent}"
    group = move.groups[0]
    naturals, jokers, deuces = group_counts(group)
    wilds = jokers + deuces
    rank = group.rank
    if rank == C.BLACK_THREE:
        return "Meld your black 3s: they go down only when going out"
    target = r.open_meld(rank, wilds > 0)
    size = len(target.cards) if target is not None else 0
    after = size + naturals + wilds
    name = C.KIND_PLURALS[rank] if rank != C.WILD_RANK else "wilds"
    if after >= rules.book_size > size:
        kind = "clean" if (target is None or target.wilds == 0) and wilds == 0 else "dirty"
        return f"Meld onto your {name}: it makes a {kind} book"
    if wilds == 0:
        if target is None:
            return f"Meld {_count(naturals, rank)}: cards on the table score, and your hand gets smaller"
        return f"Add {_count(naturals, rank)} to your {name}: naturals keep the meld clean"
    if target is None:
        return f"Meld a pair of {name} with a wild: it empties your hand toward the Foot"
    if size >= rules.book_size:
        return f"Add a wild to your book of {name}: it is dirty already, and the wild counts for the side"
    return f"Add a wild to your {name}: {after} of the {rules.book_size} cards of a dirty book"
