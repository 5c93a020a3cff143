"""The pure game engine: no I/O, no globals, nothing beyond the standard library.

Start with ``Game`` (a whole game) or ``HandState`` via ``deal``; moves are ``Move`` objects written in the
notation of ``moves.py``; ``view``/``sample_world`` cross the hidden-information boundary.
"""

from handfoot.engine.deal import DealError, DealSpec, deal, hand_rng
from handfoot.engine.errors import IllegalMove, Refusal
from handfoot.engine.events import Event, EventType
from handfoot.engine.game import Game, HandResult
from handfoot.engine.moves import (
    Action,
    Group,
    Move,
    MoveSyntaxError,
    decode_id,
    move_id,
    move_text,
    parse_move,
)
from handfoot.engine.scoring import ScoreLine, Tally, pad_tally, score_lines, score_tally
from handfoot.engine.state import EndReason, HandState, Meld, Phase, Seating
from handfoot.engine.steps import steps_of
from handfoot.engine.views import SPECTATOR, MeldView, SeatView, View, sample_world, spectator_view, view

__all__ = [
    "SPECTATOR",
    "Action",
    "DealError",
    "DealSpec",
    "EndReason",
    "Event",
    "EventType",
    "Game",
    "Group",
    "HandResult",
    "HandState",
    "IllegalMove",
    "Meld",
    "MeldView",
    "Move",
    "MoveSyntaxError",
    "Phase",
    "Refusal",
    "ScoreLine",
    "SeatView",
    "Seating",
    "Tally",
    "View",
    "deal",
    "decode_id",
    "hand_rng",
    "move_id",
    "move_text",
    "pad_tally",
    "parse_move",
    "sample_world",
    "score_lines",
    "score_tally",
    "spectator_view",
    "steps_of",
    "view",
]
