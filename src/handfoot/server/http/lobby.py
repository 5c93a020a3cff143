"""The lobby's request bodies (pydantic models that refuse anything unexpected) and the rules catalogue
the table-creation form is built from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from handfoot.rules import (
    OPTION_CHOICES,
    OPTION_HELP,
    OPTION_SECTION,
    PRESET_NAMES,
    SECTION_TITLES,
    preset,
    rules_to_mapping,
)
from handfoot.rules.options import PER_HAND_OPTIONS
from handfoot.rules.plain import PLAIN_GROUPS, RULE_OPTIONS, option_group
from handfoot.server.tables.seat_bots import bot_names, default_bot
from handfoot.server.wire.answers import OptionJson, PresetDetailAnswer, PresetOptionJson, PresetSummaryJson
from handfoot.server.wire.protocol import clean_name


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(_Body):
    """One seat of a new table: an invitation (a secret link) or a bot (by name; the default bot if none)."""

    kind: Literal["invite", "bot"]
    bot: str | None = Field(default=None, max_length=64)

    @model_validator(mode="after")
    def _bot(self) -> SeatSpec:
        if self.kind == "invite" and self.bot is not None:
            raise ValueError("only a bot seat names a bot")
        if self.kind == "bot":
            names = bot_names()
            if self.bot is None:
                self.bot = default_bot()
            elif self.bot not in names:
                raise ValueError(f"no bot called {self.bot!r}; allowed: {', '.join(names)}")
        return self


class CreateTable(_Body):
    """A new table: a preset, option overrides, the player count (the rules' default if absent), the
    seats (all invitations if absent), and whether the lobby lists it for anyone to watch (``public``;
    by default a table is private: only its links open it), and whether its first hand waits for the
    invited people (``wait_for_players``; the lobby page asks for it)."""

    preset: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    players: int | None = Field(default=None, ge=1, le=16)
    seats: list[SeatSpec] | None = Field(default=None, max_length=16)
    public: bool = False
    wait_for_players: bool = False


class JoinTable(_Body):
    """Take a seat by its secret token, under a display name (1-32 characters)."""

    token: str = Field(min_length=8, max_length=128)
    name: str

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


def option_choices() -> dict[str, list[str]]:
    """The allowed values of every option that takes one of a few words (an enumeration)."""
    return {name: list(words) for name, words in OPTION_CHOICES.items()}


def option_catalogue() -> list[OptionJson]:
    """Every rule option (not the preset's name, title and summary): name, section, section title, the
    plain-words ``group`` and ``group_title`` the lobby shows it under, its one-line help, and
    ``choices`` (the allowed words of an option that takes one of a few, else null), ``per_hand``
    (whether a list gives one value per hand), grouped in the order of ``PLAIN_GROUPS``."""
    choices = option_choices()
    order = list(PLAIN_GROUPS)
    names = sorted(RULE_OPTIONS, key=lambda n: order.index(option_group(n)))
    return [
        {
            "name": name,
            "section": OPTION_SECTION[name],
            "section_title": SECTION_TITLES[OPTION_SECTION[name]],
            "group": option_group(name),
            "group_title": PLAIN_GROUPS[option_group(name)],
            "help": OPTION_HELP[name],
            "choices": choices.get(name),
            "per_hand": name in PER_HAND_OPTIONS,
        }
        for name in names
    ]


def preset_summaries() -> list[PresetSummaryJson]:
    """The presets with their titles, summaries and player counts."""
    out: list[PresetSummaryJson] = []
    for name in PRESET_NAMES:
        rules = preset(name)
        out.append(
            {
                "name": name,
                "title": rules.title,
                "summary": rules.summary,
                "players_allowed": list(rules.players_allowed),
                "default_players": rules.default_players,
            }
        )
    return out


def preset_detail(name: str) -> PresetDetailAnswer:
    """One preset: its summary and every option with its value and help (raises KeyError if unknown)."""
    if name not in PRESET_NAMES:
        raise KeyError(name)
    values = rules_to_mapping(preset(name))
    summary = next(p for p in preset_summaries() if p["name"] == name)
    options: list[PresetOptionJson] = [
        {**option, "value": values[option["name"]]} for option in option_catalogue()
    ]
    return {**summary, "options": options}


def validation_text(errors: Sequence[Any]) -> str:
    """A readable sentence from pydantic/FastAPI error dicts: ``where: what is wrong; ...``."""
    parts = []
    for error in errors:
        where = ""
        for part in error.get("loc", ()):
            if part in ("body", "query", "path"):
                continue
            where += f"[{part}]" if isinstance(part, int) else f"{'.' if where else ''}{part}"
        message = str(error.get("msg", "invalid"))
        if error.get("type") == "extra_forbidden":
            message = "unknown field"
        message = message.removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "the request is not valid"
