"""``GET /api/health``, ``/api/presets``, ``/api/presets/{name}``, ``/api/options`` and ``/api/bots``: what
the server speaks and what a table can be made of."""

from __future__ import annotations

from fastapi import APIRouter

from handfoot import package_version
from handfoot.server.http.access import ApiError
from handfoot.server.http.errors import REFUSALS
from handfoot.server.http.lobby import option_catalogue, preset_detail, preset_summaries
from handfoot.server.tables.seat_bots import bot_names
from handfoot.server.wire.answers import (
    BotsAnswer,
    HealthAnswer,
    OptionJson,
    PresetDetailAnswer,
    PresetSummaryJson,
)
from handfoot.server.wire.jsonout import SafeJSONResponse
from handfoot.server.wire.protocol import PROTOCOL_VERSION

router = APIRouter(responses=REFUSALS)


@router.get("/api/health", response_model=HealthAnswer)
async def health() -> SafeJSONResponse:
    """The server is up; which protocol version it speaks and which handfoot it runs."""
    answer: HealthAnswer = {"ok": True, "protocol": PROTOCOL_VERSION, "version": package_version()}
    return SafeJSONResponse(answer)


@router.get("/api/presets", response_model=list[PresetSummaryJson])
async def presets() -> SafeJSONResponse:
    """The rule presets: name, title, summary, player counts."""
    return SafeJSONResponse(preset_summaries())


@router.get("/api/presets/{name}", response_model=PresetDetailAnswer)
async def preset_options(name: str) -> SafeJSONResponse:
    """One preset with every option's value and help."""
    try:
        return SafeJSONResponse(preset_detail(name))
    except KeyError:
        raise ApiError(404, "no_preset", f"there is no preset {name!r}") from None


@router.get("/api/options", response_model=list[OptionJson])
async def options() -> SafeJSONResponse:
    """Every rule option with its section and help."""
    return SafeJSONResponse(option_catalogue())


@router.get("/api/bots", response_model=BotsAnswer)
async def bots() -> SafeJSONResponse:
    """The bots a seat can be given."""
    answer: BotsAnswer = {"bots": bot_names()}
    return SafeJSONResponse(answer)
