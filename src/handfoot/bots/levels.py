"""Named levels for players who do not want to pick an algorithm.

* ``easy``: the random bot (fills a seat; loses to anyone who tries).
* ``medium``: the heuristic bot (a good family player, instant).
* ``hard``: ISMCTS with the heuristic as rollout policy, up to 1 second per searched decision.
"""

from __future__ import annotations

from handfoot.bots.base import Bot
from handfoot.bots.heuristic import HeuristicBot
from handfoot.bots.ismcts import Budget, IsmctsBot
from handfoot.bots.random_bot import RandomBot
from handfoot.bots.registry import register_bot
from handfoot.wording import show

HARD_BUDGET = Budget(iterations=None, seconds=1.0)
LEVELS: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "ismcts (1 s per decision)"}


def level_bot(level: str) -> Bot:
    """The bot for a level name; raises ValueError naming the levels otherwise."""
    if level == "easy":
        return RandomBot()
    if level == "medium":
        return HeuristicBot()
    if level == "hard":
        return IsmctsBot(HARD_BUDGET)
    raise ValueError(f"unknown level {show(level)}: use one of {', '.join(LEVELS)}")


def register() -> None:
    """Add ``easy``, ``medium`` and ``hard`` to the registry."""
    for level in LEVELS:

        def factory(options: str, level: str = level) -> Bot:
            if options:
                raise ValueError(f"the level {show(level)} takes no options")
            return level_bot(level)

        register_bot(level, factory)


register()
