"""The random bot: a uniformly random legal move, with a turn structure that lets hands end.

Drawing, answering and asking are uniform over the legal moves. In the play phase the bot first
tosses a fair coin between "meld something" (a meld group, or a staging step toward an opening) and
"discard" (when both are possible), then picks uniformly within that kind; so a turn ends after a few
melds on average instead of emptying every possible meld, and it never asks "May I go out?" just to
ask. An opening of several groups it makes as the engine's steps, following one of the openings it
plans (``bots.plan``, picked at random): staging counts as "meld something" in the play phase, and in
the draw phase it stages toward a pickup as often as it takes the pile. It never stages at random, so
it never cancels a staging it began.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from handfoot.bots.base import Bot
from handfoot.bots.plan import continue_plan, next_step, opening_plans, seat_state
from handfoot.bots.registry import register_bot
from handfoot.engine.moves import Action, Move, move_id
from handfoot.engine.state import Phase
from handfoot.engine.views import View


class RandomBot(Bot):
    """Uniformly random legal moves (see the module docstring for the turn structure)."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """A random element of ``legal``: in the play phase a coin picks melding or discarding first."""
        ids = [move_id(m) for m in legal]
        if view.staged:  # go on with the opening begun (the plan comes back the same from the same cards)
            planning = seat_state(view)
            return legal[ids.index(continue_plan(planning, opening_plans(planning), view.staged, ids))]
        plain = [m for m in legal if m.action is not Action.STAGE]
        opening = self._opening_step(view, ids, rng) if len(plain) < len(legal) else -1
        if view.phase is Phase.DRAW:
            if opening >= 0 and (not plain or rng.random() < 0.5):
                return legal[ids.index(opening)]
            return rng.choice(plain or list(legal))
        if view.phase is not Phase.PLAY:
            return legal[rng.randrange(len(legal))]
        if opening >= 0 and (not plain or rng.random() < 0.5):
            return legal[ids.index(opening)]
        legal = plain or list(legal)
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

    @staticmethod
    def _opening_step(view: View, ids: list[int], rng: random.Random) -> int:
        """The first step of an opening of several groups picked at random among those planned, or -1."""
        planning = seat_state(view)
        plans = opening_plans(planning)
        if not plans:
            return -1
        return next_step(planning, plans[rng.randrange(len(plans))], (), ids)

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
