"""The action space: the engine's stable move ids, nothing added.

Actions ``0 .. NUM_MOVE_IDS - 1`` are the engine's move ids (``handfoot.engine.moves``; numbers that are
no move id are never legal), and the mask is the engine's ``legal_ids``. An opening of several groups is
the engine's own sequence of steps (``engine.staging``): ``stage`` ids set groups aside, ``commit`` lays
them (in the draw phase a pickup id takes the pile with them), and ``CANCEL`` (the engine's
``cancel`` id) takes them back. The staged groups are part of the seat's own reading (``SeatInfo.staged``),
so they appear in that seat's observation only.
"""

from __future__ import annotations

from handfoot import cards as C
from handfoot.engine import Action
from handfoot.engine.moves import CANCEL_ID, DECODED, NUM_MOVE_IDS, SPLIT_DRAW_ID

CANCEL = CANCEL_ID
NUM_ACTIONS = NUM_MOVE_IDS


def action_text(action: int) -> str:
    """A short name for an action: the move it stands for by kinds (``meld K: K K JK``), ``commit``,
    ``cancel``, ``draw the pile's top card`` (the split draw)."""
    if action == SPLIT_DRAW_ID:
        return "draw the pile's top card"
    decoded = DECODED[action] if 0 <= action < NUM_MOVE_IDS else None
    if decoded is None:
        return f"<no action {action}>"
    name = decoded.action.name.lower()
    if decoded.action is Action.DISCARD:
        return f"discard {C.KIND_NAMES[decoded.kind]}"
    if decoded.action is Action.PICKUP:
        return f"pickup with {decoded.naturals}"
    if decoded.action in (Action.MELD, Action.STAGE):
        parts = [C.KIND_NAMES[decoded.kind]] * decoded.naturals + ["JK"] * decoded.jokers
        parts += ["2"] * decoded.deuces
        target = "W" if decoded.kind == C.WILD_RANK else C.KIND_NAMES[decoded.kind]
        return f"{name} {target}: {' '.join(parts)}"
    return name
