"""A reviewed decision in plain words: what the seat did, what followed at the table, what the bot
would have done and why.

Everything a sentence says is public once the hand is over, or was the seat's own: the seat's view at
the decision, its own move, the bot's move (built from that view) and the next seat's move as the
record holds it (a pickup of the pile is public; a draw names no card).
"""

from __future__ import annotations

from collections.abc import Sequence

from handfoot import cards as C
from handfoot.bots.hint import explain
from handfoot.engine.moves import Action, Move, group_counts
from handfoot.engine.state import seating_for
from handfoot.engine.views import View
from handfoot.wording import number_word, plural, spelled


def a_card(kind: int) -> str:
    """``a king``, ``an ace``, ``an eight``, ``a joker``, ``a 2``, ``a black 3``."""
    word = C.KIND_WORDS[kind]
    return ("an " if word[0] in "aeiou" else "a ") + word


def count_of(n: int, kind: int) -> str:
    """``two kings``, ``one ace``."""
    return f"{number_word(n)} {C.KIND_WORDS[kind] if n == 1 else C.KIND_PLURALS[kind]}"


def move_phrase(move: Move) -> str:
    """The move as a verb phrase after "you" or "the bot would have": ``drawn from the stock``, ``taken
    the pile``, ``discarded a king``, ``melded three nines``, ``asked to go out``."""
    action = move.action
    if action is Action.DRAW:
        return "drawn from the stock"
    if action is Action.PICKUP:
        return "taken the pile"
    if action is Action.DISCARD:
        return f"discarded {a_card(C.KIND_OF[move.card])}"
    if action is Action.LAY:
        return "laid a red 3"
    if action is Action.ASK:
        return "asked to go out"
    if action is Action.YES:
        return "let your partner go out"
    if action is Action.NO:
        return "told your partner not to go out"
    if action is Action.END:
        return "ended the turn holding your last card"
    if action is Action.MELD:
        parts = []
        for group in move.groups:
            naturals, jokers, deuces = group_counts(group)
            wilds = jokers + deuces
            rank = C.KIND_PLURALS[group.rank] if group.rank != C.WILD_RANK else "wilds"
            if not naturals:
                parts.append(f"{spelled(wilds, 'wild')} onto the {rank}")
                continue
            text = f"{number_word(naturals)} {rank}"
            if wilds:
                text += f" with {spelled(wilds, 'wild')}"
            parts.append(text)
        return "melded " + " and ".join(parts)
    return str(move)


def _past(phrase: str) -> str:
    """``drawn from the stock`` said of "you" in the past: ``drew from the stock``."""
    for perfect, simple in (("drawn", "drew"), ("taken", "took"), ("told", "told"), ("let", "let")):
        if phrase.startswith(perfect + " "):
            return simple + phrase[len(perfect) :]
    return phrase


def _why(view: View, legal: Sequence[Move], move: Move) -> str:
    """The bot's reason for ``move`` (``hints.explain``), without its leading move name."""
    reason = explain(view, legal, move)
    _head, sep, tail = reason.partition(": ")
    return tail if sep else reason


def describe(
    view: View, legal: Sequence[Move], played: Move, bot: Move, next_move: tuple[int, Move] | None
) -> str:
    """One sentence for a decision that differed from the bot's: ``You discarded a king while the next
    player's side had three kings on the table: the pile went to the left. The bot would have discarded a
    five (a single five, 4 unseen, ...).`` ``next_move`` is the seat and move that followed in the
    record (None at the end of the hand)."""
    seat = view.seat
    seating = seating_for(view.rules, view.players)
    action = played.action
    said = f"You {_past(move_phrase(played))}"
    if action is Action.DISCARD:
        kind = C.KIND_OF[played.card]
        if C.is_wild(kind):
            said = (
                f"You threw away {a_card(kind)}, a wild worth {view.rules.card_values[kind]} points in a meld"
            )
        nxt = (seat + 1) % view.players
        owner = seating.owner_of[nxt]
        on_table = sum(len(m.cards) for m in view.melds if m.owner == owner and m.rank == kind)
        if on_table and owner != seating.owner_of[seat] and not C.is_wild(kind):
            said += f" while the next player's side had {count_of(on_table, kind)} on the table"
        if next_move is not None and next_move[0] == nxt and next_move[1].action is Action.PICKUP:
            said += f": the pile ({plural(view.pile_size + 1, 'card')}) went to the left"
    elif action is Action.DRAW and bot.action is Action.PICKUP:
        top = C.KIND_OF[view.pile_top]
        pile = plural(view.pile_size, "card")
        said = (
            f"You drew from the stock where you could take the pile ({pile}) with your {C.KIND_PLURALS[top]}"
        )
    elif action is Action.PICKUP and bot.action is Action.DRAW:
        said = f"You took the pile ({plural(view.pile_size, 'card')}) where drawing was worth more"
    return f"{said}. The bot would have {move_phrase(bot)} ({_why(view, legal, bot)})."


__all__ = ["a_card", "count_of", "describe", "move_phrase"]
