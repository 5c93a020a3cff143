"""A mistake in plain words: what the player's decision changed at the table, and what to do instead.

``describe`` writes one or two sentences from the two lines' ``turns.Outcome`` (the player's and the
better one), the seat's view and the move that followed: what the move changed in the player's terms
(a clean book made dirty, a wild thrown away, a pile of 22 cards handed to the next side, a turn that
could have ended the hand), then "Better: ..." with the other line in words. Never the notation.

Everything a sentence says is public once the hand is over, or was the seat's own: the seat's view at
the decision, its own line, the better line (built from that view) and the next seat's move as the
record holds it (a pickup of the pile is public; a draw names no card).
"""

from __future__ import annotations

from collections.abc import Sequence

from handfoot import cards as C
from handfoot.bots.hint import explain
from handfoot.engine.moves import Action, Move
from handfoot.engine.state import seating_for
from handfoot.engine.views import View
from handfoot.review.turns import DecisionKind, MeldChange, Outcome
from handfoot.wording import number_word, plural, sentence_list

Line = tuple[Sequence[Move], Outcome]


def a_card(kind: int) -> str:
    """``a king``, ``an ace``, ``an eight``, ``a joker``, ``a 2``, ``a black 3``."""
    word = C.KIND_WORDS[kind]
    return ("an " if word[0] in "aeiou" else "a ") + word


def count_of(n: int, kind: int) -> str:
    """``two kings``, ``a king`` (one card: ``a_card``)."""
    return a_card(kind) if n == 1 else f"{number_word(n)} {C.KIND_PLURALS[kind]}"


def _rank_name(rank: int) -> str:
    return "wilds" if rank == C.WILD_RANK else C.KIND_PLURALS[rank]


def _wilds(change: MeldChange) -> list[str]:
    out = []
    if change.jokers:
        out.append(count_of(change.jokers, C.JOKER))
    if change.deuces:
        out.append(count_of(change.deuces, C.DEUCE))
    return out


def meld_words(change: MeldChange, past: bool) -> str:
    """One meld change: ``put down three nines and a 2`` / ``add a joker to your kings`` (``past``:
    ``put down``, ``added``), with ``making a clean book`` or ``making your clean book dirty``."""
    cards = (
        [count_of(change.naturals, change.rank)] if change.naturals and change.rank != C.WILD_RANK else []
    ) + _wilds(change)
    what = sentence_list(cards) or "nothing"
    if change.new:
        text = f"put down {what}"
        if change.rank == C.WILD_RANK:
            text += " as a meld of wilds"
    else:
        text = f"{'added' if past else 'add'} {what} to your {_rank_name(change.rank)}"
    if change.dirtied:
        text += ", making a clean book dirty"
    elif change.booked:
        text += f", making a {'clean book' if change.clean and change.rank != C.WILD_RANK else 'book'}"
    return text


def _put_down(changes: Sequence[MeldChange]) -> str:
    """The new melds of a line in one phrase: ``three kings and three jacks with a 2``."""
    out = []
    for change in changes:
        natural = change.naturals and change.rank != C.WILD_RANK
        naturals = [count_of(change.naturals, change.rank)] if natural else []
        wilds = _wilds(change)
        text = " with ".join(x for x in (sentence_list(naturals), sentence_list(wilds)) if x)
        if change.rank == C.WILD_RANK:
            text += " as a meld of wilds"
        if change.booked:
            text += " (a clean book)" if change.clean and change.rank != C.WILD_RANK else " (a book)"
        out.append(text)
    return sentence_list(out)


def line_words(line: Line, view: View, past: bool, melds: bool = True) -> str:
    """What a line does, in words: ``take the pile``, ``put down three nines, then discard a five``,
    ``add a joker to your kings, then discard a 2 to go out`` (``past``: what the player did;
    ``melds=False``: its melds left out, where both lines laid the same)."""
    moves, done = line
    items: list[str] = []
    if done.took:
        items.append(f"{'took' if past else 'take'} the pile of {plural(done.took, 'card')}")
    elif done.drew:
        items.append(f"{'drew' if past else 'draw'} from the stock")
    for move in moves:
        if move.action is Action.YES:
            items.append("let your partner go out")
        elif move.action is Action.NO:
            items.append(f"{'told' if past else 'tell'} your partner not to go out")
        elif move.action is Action.KEEP:
            items.append(f"{'kept' if past else 'keep'} the dealt piles")
        elif move.action is Action.SWAP:
            items.append(f"{'swapped' if past else 'swap'} the dealt piles")
        elif move.action is Action.END:
            items.append(f"{'ended' if past else 'end'} the turn holding your last card")
    if melds:
        new = [c for c in done.melds if c.new]
        if new:
            items.append(f"put down {_put_down(new)}")
        items.extend(meld_words(change, past) for change in done.melds if not change.new)
        if done.red_threes:
            items.append(f"{'laid' if past else 'lay'} {count_of(done.red_threes, C.RED_THREE)} down")
    if done.discard >= 0:
        end = " to go out" if done.out else ""
        items.append(f"{'discarded' if past else 'discard'} {a_card(done.discard)}{end}")
    elif done.out:
        items.append("went out" if past else "go out")
    if done.asked:
        items.append(f"{'asked' if past else 'ask'} your partner whether you may go out")
    if not items:
        return "kept your cards" if past else "keep your cards"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + ", then " + items[-1]


def _same_melds(first: Outcome, second: Outcome) -> bool:
    same = sorted(first.melds, key=repr) == sorted(second.melds, key=repr)
    return same and first.red_threes == second.red_threes


def _why(view: View, legal: Sequence[Move], move: Move) -> str:
    """The bot's reason for ``move`` (``hints.explain``), without its leading move name."""
    reason = explain(view, legal, move)
    _head, sep, tail = reason.partition(": ")
    return tail if sep else reason


def _pile_could_go(view: View, kind: int) -> str:
    """``the next player's side has kings on the table: one king from the next player takes the pile
    of 12 cards``, or "" when the next side has no meld of ``kind``."""
    seating = seating_for(view.rules, view.players)
    nxt = (view.seat + 1) % view.players
    owner = seating.owner_of[nxt]
    if owner == seating.owner_of[view.seat] or C.is_wild(kind) or kind in (C.BLACK_THREE, C.RED_THREE):
        return ""
    if not any(m.owner == owner and m.rank == kind for m in view.melds):
        return ""
    rules = view.rules
    if not rules.pickup_allowed:
        return ""
    pile = view.pile_size + 1
    taken = pile if rules.pickup_count == 0 else min(rules.pickup_count, pile)
    need = rules.pickup_naturals_on_meld
    return (
        f"the next player's side has {C.KIND_PLURALS[kind]} on the table, so {count_of(need, kind)} in "
        f"the next player's hand {'takes' if need == 1 else 'take'} {plural(taken, 'card')} of the pile"
    )


def _play_changes(view: View, ours: Line, theirs: Line, next_move: tuple[int, Move] | None) -> list[str]:
    """What the player's lay-down and discard changed, worst first."""
    rules = view.rules
    mine, better = ours[1], theirs[1]
    said: list[str] = []
    if (better.out or better.asked) and not (mine.out or mine.asked):
        cards = plural(mine.held, "card")
        said.append(
            f"This turn could have ended the hand; you {line_words(ours, view, True)} and kept {cards}"
        )
    dirtied = [c for c in mine.melds if c.dirtied]
    if dirtied and not any(c.dirtied for c in better.melds):
        change = dirtied[0]
        clean, dirty = rules.book_bonus(change.rank, 0), rules.book_bonus(change.rank, 1)
        if clean > dirty:
            worth = f": a clean book scores {clean}, a dirty one {dirty}"
        elif isinstance(rules.go_out_clean, int) and rules.go_out_clean > 0:
            worth = f": your side needs {plural(rules.go_out_clean, 'clean book')} to go out"
        else:
            worth = ""
        said.append(
            f"You put {sentence_list(_wilds(change))} on your clean book of {_rank_name(change.rank)} and "
            f"made it dirty{worth}"
        )
    kind = mine.discard
    if kind >= 0 and kind != better.discard and not said:
        if C.is_wild(kind) and not (better.discard >= 0 and C.is_wild(better.discard)):
            said.append(
                f"You threw away {a_card(kind)}, a wild worth {rules.card_values[kind]} points in a meld"
            )
        risk = _pile_could_go(view, kind)
        if risk:
            text = f"You discarded {a_card(kind)} while {risk}"
            nxt = (view.seat + 1) % view.players
            if next_move is not None and next_move[0] == nxt and next_move[1].action is Action.PICKUP:
                text += (
                    f", and it did: the pile of {plural(view.pile_size + 1, 'card')} went to the next side"
                )
            said.append(text)
    if not said:
        said.append(f"You {line_words(ours, view, True)}")
    return said


def describe(
    view: View,
    legal: Sequence[Move],
    kind: DecisionKind,
    ours: Line,
    theirs: Line,
    next_move: tuple[int, Move] | None,
) -> str:
    """The words for a mistake: what the player's line (``ours``: its moves and ``Outcome``) changed,
    then ``Better: ...`` with the better line (``theirs``) and, for a discard or a pickup, the reason.
    ``next_move`` is the seat and move that followed in the record (None at the end of the hand); for
    instance ``You discarded a king while the next player's side has kings on the table, so a king in
    the next player's hand takes 22 cards of the pile, and it did: the pile of 22 cards went to the next
    side. Better: discard a five (a single five, four unseen).``"""
    moves, better = theirs
    mine = ours[1]
    if kind is DecisionKind.DRAW:
        top = C.KIND_OF[view.pile_top] if view.pile_top >= 0 else -1
        if mine.drew and better.took:
            said = (
                f"You drew from the stock where you could take the pile of {plural(view.pile_size, 'card')} "
                f"with your {C.KIND_PLURALS[top]}"
            )
        elif mine.took and better.drew:
            pile = plural(mine.took, "card")
            said = f"You took the pile of {pile} where drawing from the stock was worth more"
        else:
            said = f"You {line_words(ours, view, True)}"
        why = next((m for m in moves if m.action in (Action.PICKUP, Action.DRAW)), None)
        reason = f" ({_why(view, legal, why)})" if why is not None else ""
        return f"{said}. Better: {line_words(theirs, view, False)}{reason}."
    if kind is DecisionKind.PLAY:
        said = ". ".join(_play_changes(view, ours, theirs, next_move))
        discard = next((m for m in moves if m.action is Action.DISCARD), None)
        reason = ""
        if discard is not None and not better.out and any(m.action is Action.DISCARD for m in legal):
            reason = f" ({_why(view, legal, discard)})"
        same = _same_melds(mine, better)
        instead = line_words(theirs, view, False, melds=not same)
        if same and mine.melds and better.discard >= 0:
            instead = f"the same melds, then {instead}"
        return f"{said}. Better: {instead}{reason}."
    return f"You {line_words(ours, view, True)}. Better: {line_words(theirs, view, False)}."


__all__ = ["a_card", "count_of", "describe", "line_words", "meld_words"]
