"""Hand review: how a seat played one finished hand, decision by decision, against the strong bot.

A decision is a part of a turn as a player sees it (the draw; the lay-down and discard, going out
included; an answer), not an engine step. For each, the line the strong bot (ISMCTS) would have played
from the seat's own knowledge, or a line that goes out, and what the difference cost in points,
estimated on worlds sampled from that seat's view with both lines played on by the same bots in the
same worlds; the mistakes (surely worse, beyond the noise) first, the costliest first, each with a
sentence in plain words and the position's index for the replay. ``hand`` has the review, ``turns``
the decisions and lines, ``estimate`` the paired estimate, ``sentences`` the words. This is an outer
ring: it depends on the engine, the records and the bots, and nothing below depends on it.
"""

from handfoot.review.estimate import Estimate, paired_cost
from handfoot.review.hand import (
    COSTLY_POINTS,
    DEFAULT_SEARCH_WORLDS,
    DEFAULT_WORLDS,
    MAX_WORLDS,
    NOISE_POINTS,
    DecisionPoint,
    DecisionReview,
    HandReview,
    ReviewError,
    ReviewSettings,
    bot_move,
    decision_points,
    judge,
    mistake,
    review_hand,
)
from handfoot.review.turns import DecisionKind

__all__ = [
    "COSTLY_POINTS",
    "DEFAULT_SEARCH_WORLDS",
    "DEFAULT_WORLDS",
    "MAX_WORLDS",
    "NOISE_POINTS",
    "DecisionKind",
    "DecisionPoint",
    "DecisionReview",
    "Estimate",
    "HandReview",
    "ReviewError",
    "ReviewSettings",
    "bot_move",
    "decision_points",
    "judge",
    "mistake",
    "paired_cost",
    "review_hand",
]
