"""Server settings: where the data lives, where to listen, how bots pace themselves.

Each setting can come from an argument, else an environment variable, else its default:

====================  ==========================  ==========================================
setting               environment variable        default
====================  ==========================  ==========================================
data_dir              HANDFOOT_DATA               ``./handfoot-data``
host                  HANDFOOT_HOST               ``127.0.0.1``
port                  HANDFOOT_PORT               ``8000``
database_url          HANDFOOT_DATABASE_URL       ``sqlite:///<data_dir>/handfoot.db``
redis_url             HANDFOOT_REDIS_URL          none (one process: moves reach only its clients)
bot_delay             HANDFOOT_BOT_DELAY          ``0.8`` (seconds before a bot moves)
snapshot_every        HANDFOOT_SNAPSHOT_EVERY     ``50`` (moves between snapshots)
away_seconds          HANDFOOT_AWAY_SECONDS       ``60`` (a player gone this long is shown away)
====================  ==========================  ==========================================

Several processes can serve the same tables when they share a PostgreSQL ``database_url`` and a
``redis_url``: Redis carries "table X is at version N" between them (server.fanout).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA = "handfoot-data"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_BOT_DELAY = 0.8
DEFAULT_SNAPSHOT_EVERY = 50
DEFAULT_AWAY_SECONDS = 60.0


class SettingsError(ValueError):
    """A setting with a value that cannot be used (the message names the setting and what is allowed)."""


@dataclass(frozen=True)
class Settings:
    """Everything the server needs to start. ``database_url`` is any SQLAlchemy URL (SQLite by default,
    ``postgresql://...`` works the same way, through psycopg 3). ``redis_url`` (``redis://host:port/db``),
    if set, connects this process to the others serving the same database."""

    data_dir: Path
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    database_url: str = ""
    redis_url: str = ""
    bot_delay: float = DEFAULT_BOT_DELAY
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY
    away_seconds: float = DEFAULT_AWAY_SECONDS

    @property
    def db_url(self) -> str:
        """The database URL: ``database_url`` if set, else a SQLite file in ``data_dir``."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'handfoot.db').as_posix()}"

    def prepare(self) -> None:
        """Create ``data_dir`` if it does not exist (raises SettingsError if it cannot be made)."""
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SettingsError(f"data folder {self.data_dir}: {exc.strerror or exc}") from None


def _number(env: Mapping[str, str], key: str, kind: type[int] | type[float], default: float) -> float:
    raw = env.get(key)
    if raw is None or raw == "":
        return default
    try:
        value = kind(raw)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SettingsError(f"{key} is {raw!r}; allowed: {what}") from None
    if value < 0:
        raise SettingsError(f"{key} is {raw!r}; allowed: zero or more")
    return value


def load_settings(
    env: Mapping[str, str] | None = None,
    *,
    data_dir: str | Path | None = None,
    host: str | None = None,
    port: int | None = None,
    database_url: str | None = None,
    redis_url: str | None = None,
    bot_delay: float | None = None,
    snapshot_every: int | None = None,
    away_seconds: float | None = None,
) -> Settings:
    """Settings from the arguments given (not None), else ``env`` (``os.environ`` by default), else defaults.

    Raises SettingsError for an environment value that is not a number where one is needed, a negative
    number, a port outside 0-65535, ``snapshot_every`` below 1 or a ``redis_url`` that is not a
    ``redis://``, ``rediss://`` or ``unix://`` URL.
    """
    env = os.environ if env is None else env
    data = Path(data_dir if data_dir is not None else env.get("HANDFOOT_DATA") or DEFAULT_DATA)
    port_value = port if port is not None else int(_number(env, "HANDFOOT_PORT", int, DEFAULT_PORT))
    if not 0 <= port_value <= 65535:
        raise SettingsError(f"port is {port_value}; allowed: 0 to 65535")
    every = (
        snapshot_every
        if snapshot_every is not None
        else int(_number(env, "HANDFOOT_SNAPSHOT_EVERY", int, DEFAULT_SNAPSHOT_EVERY))
    )
    if every < 1:
        raise SettingsError(f"snapshot_every is {every}; allowed: 1 or more")
    delay = (
        bot_delay if bot_delay is not None else _number(env, "HANDFOOT_BOT_DELAY", float, DEFAULT_BOT_DELAY)
    )
    if delay < 0:
        raise SettingsError(f"bot_delay is {delay}; allowed: zero or more seconds")
    away = (
        away_seconds
        if away_seconds is not None
        else _number(env, "HANDFOOT_AWAY_SECONDS", float, DEFAULT_AWAY_SECONDS)
    )
    if away < 0:
        raise SettingsError(f"away_seconds is {away}; allowed: zero or more seconds")
    redis = redis_url if redis_url is not None else env.get("HANDFOOT_REDIS_URL", "")
    if redis and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise SettingsError(f"redis_url is {redis!r}; allowed: a redis://, rediss:// or unix:// URL")
    return Settings(
        data_dir=data,
        host=host if host is not None else env.get("HANDFOOT_HOST") or DEFAULT_HOST,
        port=port_value,
        database_url=database_url if database_url is not None else env.get("HANDFOOT_DATABASE_URL", ""),
        redis_url=redis,
        bot_delay=float(delay),
        snapshot_every=every,
        away_seconds=float(away),
    )
