"""``POST /api/score``: the score pad of a paper game, scored by the engine.

A family playing with real cards writes down, per hand and per side, its books, melded points, red 3s,
cards left, who went out, and the paper-only items (exact deals, short openings). This endpoint turns
the whole sheet into each hand's score with its breakdown, the running totals and the opening minimum
each side needs next hand. The scoring is ``engine.scoring`` (``pad_tally``, ``score_lines``,
``score_tally``) and ``RuleSet.opening_minimum``; the input checks are ``handfoot.pad``'s, as for
the ``handfoot score`` command.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from handfoot.engine import Seating
from handfoot.pad import COUNT_KEYS, FLAG_KEYS, PadError, parse_sides
from handfoot.rules import PRESET_NAMES, GameEnd, RuleError, RuleSet, load_rules
from handfoot.server.http.errors import REFUSALS, error_answer
from handfoot.server.wire.answers import PadFieldJson, ScoreAnswer, ScoredHandJson
from handfoot.server.wire.jsonout import SafeJSONResponse
from handfoot.wording import plural, show

MAX_HANDS = 100


class ScoreSheet(BaseModel):
    """The score pad so far: the rules (a preset and option overrides), the player count (the rules'
    default if absent) and, per hand played, one entry per side (keys as ``handfoot score`` takes)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    preset: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    players: int | None = Field(default=None, ge=1, le=16)
    hands: list[list[dict[str, Any]]] = Field(default_factory=list, max_length=MAX_HANDS)


class SheetError(ValueError):
    """A score sheet that cannot be scored; the message says what is wrong and what is allowed."""


def _rules(sheet: ScoreSheet) -> RuleSet:
    if sheet.preset not in PRESET_NAMES:
        raise SheetError(f"preset {show(sheet.preset)} does not exist; allowed: {', '.join(PRESET_NAMES)}")
    if "extends" in sheet.options:
        raise SheetError('options cannot hold "extends": the preset field names the rules to start from')
    try:
        return load_rules({"extends": sheet.preset, **sheet.options} if sheet.options else sheet.preset)
    except RuleError as exc:
        raise SheetError(str(exc)) from None


def pad_fields(rules: RuleSet) -> list[PadFieldJson]:
    """The items of the pad that ``rules`` score: wild books only with wild melds (unfinished wild
    melds only when they also cost points), exact deals and short openings only when the rules give
    them points (red 3s always: laid down they score a bonus, held a penalty). Each is
    ``{"name", "help", "kind"}`` (``count`` or ``flag``)."""
    unused = set()
    if not rules.wild_melds:
        unused.add("wild_books")
    if not rules.exact_deal_bonus:
        unused.add("exact_deals")
    if not rules.short_opening_penalty:
        unused.add("short_melds")
    if not (rules.wild_melds and rules.wild_meld_penalty):
        unused.add("open_wild_melds")
    counts: list[PadFieldJson] = [
        {"name": k, "help": v, "kind": "count"} for k, v in COUNT_KEYS.items() if k not in unused
    ]
    flags: list[PadFieldJson] = [
        {"name": k, "help": v, "kind": "flag"} for k, v in FLAG_KEYS.items() if k not in unused
    ]
    return counts + flags


def score_sheet(sheet: ScoreSheet) -> ScoreAnswer:
    """Score every hand of ``sheet``: per hand each side's score and breakdown, the totals after it;
    the totals, each side's opening minimum for the next hand, and whether the game is over (and who
    won) under the rules' ``game_end``. Raises SheetError for rules, players or entries that do not fit.
    """
    rules = _rules(sheet)
    players = rules.default_players if sheet.players is None else sheet.players
    if players not in rules.players_allowed:
        allowed = ", ".join(map(str, rules.players_allowed))
        raise SheetError(f"players is {players}; {rules.name} allows {allowed}")
    seating = Seating(rules, players)
    count = seating.num_sides
    totals = [0] * count
    hands: list[ScoredHandJson] = []
    for number, entry in enumerate(sheet.hands):
        if len(entry) != count:
            raise SheetError(
                f"hands[{number}] lists {plural(len(entry), 'side')}; {players} players make {count} sides"
            )
        try:
            sides = parse_sides(entry, rules, f"hands[{number}]")
        except PadError as exc:
            raise SheetError(str(exc)) from None
        hand_rules = rules.for_hand(number)  # options given one value per hand
        scores = [side.score(hand_rules) for side in sides]
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        hands.append(
            {
                "scores": scores,
                "lines": [
                    [
                        {"label": ln.label, "count": ln.count, "points": ln.points}
                        for ln in side.lines(hand_rules)
                    ]
                    for side in sides
                ],
                "totals": list(totals),
            }
        )
    played = len(hands)
    if rules.game_end is GameEnd.HANDS:
        finished = played >= rules.hands_per_game
    else:
        finished = played > 0 and max(totals) >= rules.target_score
    leaders = [side for side, total in enumerate(totals) if total == max(totals)]
    return {
        "rules": rules.name,
        "players": players,
        "sides": [list(seats) for seats in seating.side_seats],
        "fields": pad_fields(rules),
        "hands": hands,
        "totals": totals,
        "next_minimums": [rules.opening_minimum(played, total) for total in totals],
        "game_end": rules.game_end.value,
        "finished": finished,
        "winner": leaders[0] if finished and len(leaders) == 1 else None,
    }


router = APIRouter(responses=REFUSALS)


@router.post("/api/score", response_model=ScoreAnswer)
async def score(sheet: ScoreSheet) -> SafeJSONResponse:
    """Score a paper game's sheet with the engine's scoring (a bad sheet is answered 422 with the
    reason)."""
    try:
        return SafeJSONResponse(score_sheet(sheet))
    except SheetError as exc:
        return error_answer(422, "bad_sheet", str(exc))
