"""Hand review: how a seat played one finished hand, decision by decision, against the strong bot.

For each of the seat's decisions, the move the strong bot (ISMCTS) would have made from the seat's own
knowledge, and what the difference cost in points, estimated on worlds sampled from that seat's view
with both moves played on by the same bots in the same worlds; the costliest first, each with a
sentence in plain words and the position's index for the replay. ``hand`` has the review,
``estimate`` the paired estimate, ``sentences`` the words. This is an outer ring: it depends on the
engine, the records and the bots, and nothing below depends on it.
"""

from handfoot.review.estimate import Estimate, paired_cost
from handfoot.review.hand import (
    COSTLY_POINTS,
    DEFAULT_SEARCH_WORLDS,
    DEFAULT_WORLDS,
    MAX_WORLDS,
    DecisionPoint,
    DecisionReview,
    HandReview,
    ReviewError,
    ReviewSettings,
    bot_move,
    decision_points,
    judge,
    review_hand,
)

__all__ = [
    "COSTLY_POINTS",
    "DEFAULT_SEARCH_WORLDS",
    "DEFAULT_WORLDS",
    "MAX_WORLDS",
    "DecisionPoint",
    "DecisionReview",
    "Estimate",
    "HandReview",
    "ReviewError",
    "ReviewSettings",
    "bot_move",
    "decision_points",
    "judge",
    "paired_cost",
    "review_hand",
]
