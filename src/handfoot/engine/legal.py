"""Legal moves: the ids of every atomic move ``check`` accepts, and the Move an id stands for."""

from __future__ import annotations

from handfoot import cards as C
from handfoot.engine.judge import ask_refusal, discard_refusal, lay_refusal, must_play_refusal
from handfoot.engine.meld_legal import meld_ids
from handfoot.engine.moves import (
    ASK_ID,
    DISCARD_BASE,
    DRAW_ID,
    KEEP_ID,
    LAY_RED_THREE_ID,
    NO_ID,
    SWAP_ID,
    YES_ID,
    Move,
    first_card,
    move_for,
)
from handfoot.engine.openings import pickup_openings
from handfoot.engine.pile import pickup_ids
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import RedThrees

# Enum members read on every call, bound once (cheaper than ``Phase.DRAW`` on Python 3.11).
DRAW_PHASE, ANSWER_PHASE, PICK_FOOT_PHASE, OVER_PHASE = Phase.DRAW, Phase.ANSWER, Phase.PICK_FOOT, Phase.OVER
LAY_BY_CHOICE = RedThrees.LAY_BY_CHOICE


def legal_ids(s: HandState) -> list[int]:
    """Ids of every legal atomic move for whoever is to move, sorted.

    Empty only where the hand is over, or where every legal move is a compound opening (the pile taken
    from an empty stock with several melds, or an opening that ``must_play_all`` obliges): those are
    ``openings.opening_moves``. A legal move always exists until the hand is over."""
    phase = s.phase
    if phase is OVER_PHASE:
        return []
    if phase is ANSWER_PHASE:
        return [YES_ID, NO_ID]
    if phase is PICK_FOOT_PHASE:
        return [KEEP_ID, SWAP_ID]
    seat = s.to_move
    if phase is DRAW_PHASE:
        pickups = pickup_ids(s, seat)
        if s.stock or s.can_reshuffle():
            return [DRAW_ID, *pickups]
        # an empty stock: who can take the pile must (maybe only with an opening: a compound move)
        return pickups if pickups or pickup_openings(s, seat) else [DRAW_ID]
    legal_melds = meld_ids(s, seat)
    out = []
    hand = s.hands[seat]
    rules = s.rules
    unrestricted = (
        rules.discard_wilds
        and rules.discard_playable
        and not rules.must_play_all
        and rules.red_threes is not LAY_BY_CHOICE
    )
    if unrestricted and not (s.in_foot[seat] and sum(hand) == 1):
        out = [DISCARD_BASE + kind for kind in range(C.NUM_KINDS) if hand[kind]]
    elif must_play_refusal(s, seat, legal_melds) is None:
        for kind in range(C.NUM_KINDS):
            if (
                hand[kind]
                and discard_refusal(s, seat, first_card(s.hand_cards[seat], kind), legal_melds, True) is None
            ):
                out.append(DISCARD_BASE + kind)
    if ask_refusal(s, seat) is None:
        out.append(ASK_ID)
    by_choice = hand[C.RED_THREE] and rules.red_threes is LAY_BY_CHOICE
    if by_choice and lay_refusal(s, seat, first_card(s.hand_cards[seat], C.RED_THREE)) is None:
        out.append(LAY_RED_THREE_ID)
    out.extend(legal_melds)
    out.sort()
    return out


def move_of_id(s: HandState, mid: int) -> Move:
    """The Move an atomic id stands for in this position, naming cards the player to move holds."""
    return move_for(s.hand_cards[s.to_move], s.pile[-1] if s.pile else -1, mid)
