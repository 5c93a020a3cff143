"""The random bot: a uniformly random legal move, with a turn structure that lets hands end.

Drawing, answering and asking are uniform over the legal moves. In the play phase the bot first
tosses a fair coin between "meld something" and "discard" (when both are possible), then picks
uniformly within that kind; so a turn ends after a few melds on average instead of emptying every
possible meld, and it never asks "May I go out?" just to ask.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from handfoot.bots.base import Bot
from handfoot.bots.registry import register_bot
from handfoot.engine.moves import Action, Move
from handfoot.engine.state import Phase
from handfoot.engine.views import View


class RandomBot(Bot):
    """Uniformly random legal moves (see the module docstring for the turn structure)."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """A random element of ``legal``: in the play phase a coin picks melding or discarding first."""
        if view.phase is not Phase.PLAY:
            return legal[rng.randrange(len(legal))]
        if len(view.hand) <= 1 and len(legal) > 1:
            # Asking with one card left risks a "no" that leaves no legal move (an engine bug): discard.
            legal = [m for m in legal if m.action is not Action.ASK]
        melds = [m for m in legal if m.action is Action.MELD]
        discards = [m for m in legal if m.action is Action.DISCARD]
        if melds and (not discards or rng.random() < 0.5):
            return melds[rng.randrange(len(melds))]
        if discards:
            return discards[rng.randrange(len(discards))]
        return legal[rng.randrange(len(legal))]

    def answer(self, view: View, rng: random.Random) -> bool:
        """Yes or no with even odds."""
        return rng.random() < 0.5


def register() -> None:
    """Add ``random`` to the registry."""

    def factory(options: str) -> Bot:
        if options:
            raise ValueError("the random bot takes no options")
        return RandomBot()

    register_bot("random", factory)


register()
