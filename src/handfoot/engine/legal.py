"""Legal moves: the ids of every atomic move ``check`` accepts, and the Move an id stands for."""

from __future__ import annotations

from itertools import compress
from typing import Final

from handfoot import cards as C
from handfoot.engine.judge import ask_refusal, discard_refusal, end_refusal, lay_refusal, must_play_refusal
from handfoot.engine.meld_legal import meld_ids
from handfoot.engine.melding import meld_refusal
from handfoot.engine.moves import (
    ASK_ID,
    CANCEL_ID,
    COMMIT_ID,
    DISCARD_BASE,
    DRAW_ID,
    END_ID,
    KEEP_ID,
    LAY_RED_THREE_ID,
    NO_ID,
    SPLIT_DRAW_ID,
    SWAP_ID,
    YES_ID,
    Move,
    first_card,
    move_for,
)
from handfoot.engine.openings import pile_pickup
from handfoot.engine.pile import pickup_ids, pickup_move_staged, split_draw_refusal
from handfoot.engine.staging import NONE, stage_ids, staged_meld, staging_mode
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import RedThrees

# Enum members read on every call, bound once (cheaper than ``Phase.DRAW`` on Python 3.11).
DRAW_PHASE: Final = Phase.DRAW
ANSWER_PHASE: Final = Phase.ANSWER
PICK_FOOT_PHASE: Final = Phase.PICK_FOOT
OVER_PHASE: Final = Phase.OVER
LAY_BY_CHOICE: Final = RedThrees.LAY_BY_CHOICE
# The discard id of each kind, by kind.
DISCARD_IDS: Final[tuple[int, ...]] = tuple(DISCARD_BASE + kind for kind in range(C.NUM_KINDS))


def legal_ids(s: HandState) -> list[int]:
    """Ids of every legal atomic move for whoever is to move, sorted: never empty until the hand is over.

    A lay-down of several groups is made of steps (``staging``): while groups are staged only staging
    more, committing them (a pickup in the draw phase) and cancelling are legal."""
    phase = s.phase
    if phase is OVER_PHASE:
        return []
    if phase is ANSWER_PHASE:
        return [YES_ID, NO_ID]
    if phase is PICK_FOOT_PHASE:
        return [KEEP_ID, SWAP_ID]
    seat = s.to_move
    if s.staged:
        return staged_ids(s, seat)
    mode = staging_mode(s, seat)
    if phase is DRAW_PHASE:
        pickups = pickup_ids(s, seat)
        stages = stage_ids(s, seat, mode) if mode != NONE else []
        if s.stock or s.can_reshuffle():
            if s.rules.split_draw and s.pile and split_draw_refusal(s, s.pile[-1]) is None:
                return [DRAW_ID, *pickups, *stages, SPLIT_DRAW_ID]
            return [DRAW_ID, *pickups, *stages]
        # an empty stock: who can take the pile must (maybe only with an opening of several groups, staged)
        if pickups or pile_pickup(s) is not None:
            return [*pickups, *stages]
        return [DRAW_ID]
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
    if unrestricted and not (s.in_foot[seat] and s.hand_sizes[seat] == 1):
        out = list(compress(DISCARD_IDS, hand))  # the kinds held
    elif must_play_refusal(s, seat, legal_melds) is None:
        for kind in range(C.NUM_KINDS):
            if (
                hand[kind]
                and discard_refusal(s, seat, first_card(s.hand_cards[seat], kind), legal_melds, True) is None
            ):
                out.append(DISCARD_BASE + kind)
    if ask_refusal(s, seat) is None:
        out.append(ASK_ID)
    if s.permission < 0 and rules.ask_with_last_card and end_refusal(s, seat) is None:
        out.append(END_ID)
    by_choice = hand[C.RED_THREE] and rules.red_threes is LAY_BY_CHOICE
    if by_choice and lay_refusal(s, seat, first_card(s.hand_cards[seat], C.RED_THREE)) is None:
        out.append(LAY_RED_THREE_ID)
    out.extend(legal_melds)
    if mode != NONE:
        out.extend(stage_ids(s, seat, mode))
    out.sort()
    return out


def staged_ids(s: HandState, seat: int) -> list[int]:
    """The legal ids while groups are staged: more staging, ``commit`` (play phase) or the pickups that
    take the pile with them (draw phase) where the engine accepts the whole, and ``cancel`` unless a
    staging was cancelled in this phase already."""
    out = stage_ids(s, seat, staging_mode(s, seat))
    if s.phase is DRAW_PHASE:
        out.extend(pickup_move_staged(s, seat))
    elif meld_refusal(s, seat, staged_meld(s).groups) is None:
        out.append(COMMIT_ID)
    if not s.cancelled:
        out.append(CANCEL_ID)
    out.sort()
    return out


def move_of_id(s: HandState, mid: int) -> Move:
    """The Move an atomic id stands for in this position, naming cards the player to move holds (and has
    not staged)."""
    seat = s.to_move
    held = s.unstaged_cards(seat) if s.staged else s.hand_cards[seat]
    return move_for(held, s.pile[-1] if s.pile else -1, mid)
