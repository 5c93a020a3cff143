"""The server's numeric settings: an argument, else the environment, else the default; negatives refused."""

from __future__ import annotations

import pytest

from handfoot.server.config import SettingsError, load_settings

SECONDS = ["bot_delay", "away_seconds", "rate_limit", "idle_seconds"]
ENV = {
    "bot_delay": "HANDFOOT_BOT_DELAY",
    "away_seconds": "HANDFOOT_AWAY_SECONDS",
    "rate_limit": "HANDFOOT_RATE_LIMIT",
    "idle_seconds": "HANDFOOT_IDLE_SECONDS",
}


@pytest.mark.parametrize("name", SECONDS)
def test_a_negative_argument_is_refused_naming_the_setting(name: str) -> None:
    with pytest.raises(SettingsError, match=rf"^{name} is -2(\.0)?; allowed: zero"):
        load_settings({}, **{name: -2})


@pytest.mark.parametrize("name", SECONDS)
def test_the_argument_wins_over_the_environment(name: str) -> None:
    settings = load_settings({ENV[name]: "7"}, **{name: 3})
    assert getattr(settings, name) == 3.0
    assert getattr(load_settings({ENV[name]: "7"}), name) == 7.0


@pytest.mark.parametrize("name", SECONDS)
def test_a_negative_environment_value_is_refused(name: str) -> None:
    with pytest.raises(SettingsError, match=rf"^{ENV[name]} is '-1'; allowed: zero or more"):
        load_settings({ENV[name]: "-1"})
