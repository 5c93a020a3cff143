"""Bots: random, heuristic, ISMCTS and turn-planner players that see only a seat's view (see ``base``);
importing this package registers every built-in bot by name (see ``registry``)."""

from handfoot.bots import levels as _levels  # noqa: F401  (registers easy, medium, hard)
from handfoot.bots import planner as _planner  # noqa: F401  (registers planner)
from handfoot.bots.base import Bot, legal_for
from handfoot.bots.heuristic import HeuristicBot
from handfoot.bots.ismcts import Budget, IsmctsBot
from handfoot.bots.random_bot import RandomBot
from handfoot.bots.registry import bot_names, make_bot, register_bot

__all__ = [
    "Bot",
    "Budget",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "bot_names",
    "legal_for",
    "make_bot",
    "register_bot",
]
