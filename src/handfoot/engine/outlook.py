"""What one seat's screen says about its own position, in sentences: what going out still needs, whether
the discard pile can be taken now and why not, whether this is the seat's last turn, the stock running
out, and the card values of the hand being played. Read-only: nothing here changes a state or judges a
move (``judge.check`` does), and every fact comes from what the seat itself may know (its own hand size,
the public table), so a client can show it without knowing a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from handfoot import cards as C
from handfoot.engine.melding import go_out_needs as melding_go_out_needs
from handfoot.engine.pile import frozen_refusal, top_refusal
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import EmptyStock
from handfoot.wording import sentence_list

# The rules whose refusal of the pile is a freeze (a black 3 on top), as players call it.
FREEZING_RULES = frozenset({"black_three_freezes"})


@dataclass(frozen=True)
class Outlook:
    """One seat's position in words (``outlook``); a spectator's has no going-out facts.

    ``going_out``: the sentence ("To go out you still need one book, and your partner must be in their
    Foot."); ``may_go_out``: True when nothing more is needed; ``needs``: the missing items, one phrase each.
    ``pile_refusal``: why the pile may not be taken now by this seat whatever it holds (None: it may, with
    the cards it needs); ``pile_frozen``: that refusal is a freeze. ``last_turn``: a last round is being
    played and the seat has its last turn in it still to come or under way. ``stock``: a sentence when the
    stock is empty, else None. ``card_values``: points by card kind name (``JK``, ``2``, ``A`` ... ``3R``)
    for this hand.
    """

    going_out: str | None
    may_go_out: bool
    needs: tuple[str, ...]
    pile_refusal: str | None
    pile_frozen: bool
    last_turn: bool
    stock: str | None
    card_values: dict[str, int]


def go_out_needs(s: HandState, seat: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What ``seat`` still lacks to go out under the hand's rules: the things it needs (books, being in its
    Foot, a partner's yes) and the conditions on others (a partner in their Foot, a partner's no), one
    phrase each. Both empty: the seat may go out. The books and partners' items are
    ``melding.go_out_needs``, the list whose first item ``go_out_refusal`` gives, so the two agree."""
    needs = melding_go_out_needs(s, seat, s.books[s.seating.owner_of[seat]])
    wanted = [n.phrase for n in needs if not n.on_others and n.rule != "permission"]
    if not s.in_foot[seat]:
        wanted.append("to be in your Foot")
    wanted.extend(n.phrase for n in needs if not n.on_others and n.rule == "permission")
    others = [n.phrase for n in needs if n.on_others]
    return tuple(wanted), tuple(others)


def going_out_sentence(wanted: tuple[str, ...], others: tuple[str, ...]) -> str:
    """The sentence a player reads for ``go_out_needs``."""
    if not wanted and not others:
        return "You may go out: nothing more is needed."
    parts = []
    if wanted:
        parts.append(f"you still need {sentence_list(wanted)}")
    parts.extend(others)
    return "To go out " + ", and ".join(parts) + "."


def stock_sentence(s: HandState) -> str | None:
    """What an empty stock means now, or None while it holds cards."""
    if s.stock:
        return None
    if s.rules.empty_stock is EmptyStock.RESHUFFLE_PILE and s.can_reshuffle():
        return "The stock is empty: the next draw shuffles the discard pile into a new stock."
    return "The stock is empty: the hand ends when the next player must draw."


def has_last_turn(s: HandState, seat: int) -> bool:
    """True during a last round (someone went out, or emptied their cards, and the others play one more
    turn) while ``seat``'s last turn is under way or still to come."""
    left = s.last_round_left
    if left <= 0 or s.phase is Phase.OVER:
        return False
    ahead = (seat - s.turn_seat) % s.players  # 0: the seat is playing its turn now
    return ahead < left


def outlook(s: HandState, seat: int | None) -> Outlook:
    """``seat``'s outlook in ``s`` (None: a spectator's, with the public facts only)."""
    rules = s.rules
    values = {name: rules.card_values[kind] for kind, name in enumerate(C.KIND_NAMES)}
    stock = stock_sentence(s)
    if seat is None:
        why = frozen_refusal(s)
        frozen = why is not None and why.rule in FREEZING_RULES
        return Outlook(None, False, (), why.message if why else None, frozen, False, stock, values)
    why = top_refusal(s, seat)
    wanted, others = go_out_needs(s, seat)
    return Outlook(
        going_out=going_out_sentence(wanted, others),
        may_go_out=not wanted and not others,
        needs=wanted + others,
        pile_refusal=why.message if why else None,
        pile_frozen=why is not None and why.rule in FREEZING_RULES,
        last_turn=has_last_turn(s, seat),
        stock=stock,
        card_values=values,
    )
