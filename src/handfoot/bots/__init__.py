"""Bots: random, heuristic and ISMCTS players that see only a seat's view (see ``base``)."""

from handfoot.bots.base import Bot, bot_names, legal_for, make_bot
from handfoot.bots.heuristic import HeuristicBot
from handfoot.bots.ismcts import Budget, IsmctsBot
from handfoot.bots.random_bot import RandomBot

__all__ = ["Bot", "Budget", "HeuristicBot", "IsmctsBot", "RandomBot", "bot_names", "legal_for", "make_bot"]
