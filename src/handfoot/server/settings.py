"""Server settings: where the data lives, where to listen, how bots pace themselves.

Each setting can come from an argument, else an environment variable, else its default:

====================  ==========================  ==========================================
setting               environment variable        default
====================  ==========================  ==========================================
data_dir              HANDFOOT_DATA               the platform's folder for the app's data
                                                  (``default_data_dir``: ~/.local/share/handfoot)
host                  HANDFOOT_HOST               ``127.0.0.1``
port                  HANDFOOT_PORT               ``8000``
database_url          HANDFOOT_DATABASE_URL       ``sqlite:///<data_dir>/handfoot.db``
redis_url             HANDFOOT_REDIS_URL          none (one process: moves reach only its clients)
bot_delay             HANDFOOT_BOT_DELAY          ``0.8`` (seconds before a bot moves)
snapshot_every        HANDFOOT_SNAPSHOT_EVERY     ``50`` (moves between snapshots)
away_seconds          HANDFOOT_AWAY_SECONDS       ``60`` (a player gone this long is shown away)
rate_limit            HANDFOOT_RATE_LIMIT         ``1`` (scales every rate limit; ``0``: none)
idle_seconds          HANDFOOT_IDLE_SECONDS       ``600`` (a table unused this long is unloaded)
public_url            HANDFOOT_PUBLIC_URL         none (links use the address the page was opened at)
max_connections       HANDFOOT_MAX_CONNECTIONS    ``4096`` (connections in all; then 503)
api_docs              HANDFOOT_API_DOCS           off (``1``: serve ``/docs``, ``/redoc``, ``/openapi.json``)
access_log            HANDFOOT_ACCESS_LOG         off (``1``: uvicorn logs a line per request)
policies              HANDFOOT_POLICIES           none (``NAME=PATH,...``: trained models tables may seat)
====================  ==========================  ==========================================

``policies`` are the operator's list of saved models (Stable-Baselines3 / sb3-contrib ``.zip`` files) a
table may seat by ``NAME``, like a bot level. Loading such a file runs code from it (a pickle), so only the
operator names paths (``handfoot serve --policy NAME=PATH``, repeated); a table's creator picks among the
names. ``parse_policies`` checks the names and that each file exists; ``server.tables.seat_bots.use_policies``
loads them at start-up.

``public_url`` is the address players reach the server at (``https://cards.example.org``, behind a
reverse proxy): invitation and watch links are built from it. It is kept as an origin (see
``public_origin``), which is also what a browser on that site sends in a WebSocket ``Origin`` header.

Several processes can serve the same tables when they share a PostgreSQL ``database_url`` and a
``redis_url``: Redis carries "table X is at version N" between them (server.cluster).
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

APP_NAME = "handfoot"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_BOT_DELAY = 0.8
DEFAULT_SNAPSHOT_EVERY = 50
DEFAULT_AWAY_SECONDS = 60.0
# The longest a host may have a table wait for people reading a finished hand's score (host action ``pace``).
MAX_READ_SECONDS = 600
DEFAULT_RATE_LIMIT = 1.0
DEFAULT_IDLE_SECONDS = 600.0
# connections in all; past it uvicorn answers 503 (deploy/handfoot.service allows 8192 files)
DEFAULT_MAX_CONNECTIONS = 4096
_YES, _NO = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")
POLICY_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_POLICY_ALLOWED = (
    "NAME=PATH, NAME of 1 to 32 lower-case letters, digits, - or _ (starting with a letter or digit), "
    "PATH a saved model file (.zip)"
)


class SettingsError(ValueError):
    """A setting with a value that cannot be used (the message names the setting and what is allowed)."""


_DEFAULT_PORTS = {"http": 80, "https": 443}
_HOST_NAME = re.compile(
    r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$"
)
_PUBLIC_URL_ALLOWED = (
    "an http:// or https:// address with a host and at most a port, such as https://cards.example.org"
)


def public_origin(raw: str) -> str:
    """The origin ``scheme://host[:port]`` of the public address ``raw``, or ``""`` for an empty ``raw``.

    The scheme and host are lower-cased, a default port (80 for http, 443 for https) and a trailing ``/``
    are dropped, so the result equals the ``Origin`` a browser sends from that site. Raises SettingsError
    naming what is wrong when ``raw`` is not http(s), has no host or a malformed one, a bad port, a user
    name, a path (the game is served at the root of its address), a query or a fragment.
    """
    text = raw.strip()
    if not text:
        return ""

    def bad(why: str) -> SettingsError:
        return SettingsError(f"public_url {raw!r} {why}; allowed: {_PUBLIC_URL_ALLOWED}")

    try:
        parts = urlsplit(text)
    except ValueError as exc:  # e.g. a bracketed host that is not an IP address
        raise bad(f"cannot be read as an address ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not text.lower().startswith(f"{scheme}://"):
        raise bad("is not an http:// or https:// address")
    if "@" in parts.netloc:
        raise bad("has a user name in it")
    if parts.path not in ("", "/"):
        raise bad(f"has a path ({parts.path}): the game is served at the root of its address")
    if parts.query or text.endswith("?"):
        raise bad("has a query (?...)")
    if parts.fragment or "#" in text:
        raise bad("has a fragment (#...)")
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        raise bad("has a port that is not a number from 1 to 65535") from None
    if port == 0:
        raise bad("has port 0")
    if not host:
        raise bad("has no host")
    if parts.netloc.startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise bad(f"has a malformed IPv6 host ({host})") from None
        host = f"[{host}]"
    else:
        try:
            host = host.encode("idna").decode("ascii")  # a non-ASCII name as browsers send it (xn--...)
        except UnicodeError:
            raise bad(f"has a malformed host name ({host})") from None
    if not host.startswith("[") and not _HOST_NAME.match(host):
        raise bad(f"has a malformed host name ({host})")
    shown_port = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host.rstrip('.')}{shown_port}"


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
    rate_limit: float = DEFAULT_RATE_LIMIT  # multiplies each rate limit's burst (server.limits); 0: none
    idle_seconds: float = DEFAULT_IDLE_SECONDS  # a table nobody used for this long leaves memory
    public_url: str = ""
    max_connections: int = DEFAULT_MAX_CONNECTIONS  # connections in all (uvicorn's limit_concurrency)
    api_docs: bool = False  # serve the API's own pages (/docs, /redoc, /openapi.json)
    access_log: bool = False  # uvicorn's line per request (the server logs one per table event)
    policies: tuple[tuple[str, Path], ...] = ()  # (name, model file) a table may seat, the operator's list

    def __post_init__(self) -> None:
        # Kept as an origin whichever way the settings were made (raises SettingsError for a bad one).
        object.__setattr__(self, "public_url", public_origin(self.public_url))

    def site_url(self, opened_at: str) -> str:
        """The base of the links the server hands out (no trailing ``/``): ``public_url`` if set, else
        ``opened_at``, the address the request came in at (``request.base_url``)."""
        return self.public_url or opened_at.rstrip("/")

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


def default_data_dir() -> Path:
    """Where the server keeps its data unless told (``--data``, ``HANDFOOT_DATA``): the folder the platform
    keeps an application's data in (platformdirs' user data folder: ``~/.local/share/handfoot`` on
    Linux, or under ``$XDG_DATA_HOME``; ``~/Library/Application Support/handfoot`` on macOS;
    ``%LOCALAPPDATA%\\handfoot`` on Windows), whatever folder the server was started from."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def parse_policies(entries: Sequence[str]) -> tuple[tuple[str, Path], ...]:
    """``(name, path)`` pairs from ``NAME=PATH`` entries, in their order.

    Raises SettingsError, naming the entry and what is allowed, for an entry without ``=``, a name that is
    not 1-32 lower-case letters, digits, ``-`` or ``_``, a name given twice, or a path that is not a file.
    Nothing is loaded here (``server.tables.seat_bots.use_policies`` loads the models).
    """
    pairs: list[tuple[str, Path]] = []
    for entry in entries:
        name, sep, raw_path = entry.strip().partition("=")
        name, raw_path = name.strip(), raw_path.strip()
        if not sep or not raw_path:
            raise SettingsError(f"policy {entry!r}: allowed: {_POLICY_ALLOWED}")
        if not POLICY_NAME.match(name):
            raise SettingsError(f"policy name {name!r}: allowed: {_POLICY_ALLOWED}")
        if any(name == seen for seen, _ in pairs):
            raise SettingsError(f"policy name {name!r} is given twice; allowed: one path per name")
        path = Path(raw_path).expanduser()
        if not path.is_file():
            raise SettingsError(f"policy {name}={raw_path}: no such file; allowed: {_POLICY_ALLOWED}")
        pairs.append((name, path.resolve()))
    return tuple(pairs)


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


def _non_negative(
    name: str, given: float | None, env: Mapping[str, str], key: str, default: float, unit: str
) -> float:
    """The setting ``name``: the argument ``given`` if not None, else ``env[key]``, else ``default``; a
    negative number is refused, naming what is allowed ("zero or more" and ``unit``)."""
    value = given if given is not None else _number(env, key, float, default)
    if value < 0:
        allowed = f"zero {unit} or more" if unit.startswith("(") else f"zero or more {unit}"
        raise SettingsError(f"{name} is {value}; allowed: {allowed}")
    return float(value)


def _positive(name: str, given: int | None, env: Mapping[str, str], key: str, default: int) -> int:
    """The whole-number setting ``name``: the argument ``given`` if not None, else ``env[key]``, else
    ``default``; a number below 1 is refused ("1 or more")."""
    value = given if given is not None else int(_number(env, key, int, default))
    if value < 1:
        raise SettingsError(f"{name} is {value}; allowed: 1 or more")
    return value


def _switch(env: Mapping[str, str], key: str, given: bool | None) -> bool:
    """An on/off setting: ``given`` if not None, else ``env[key]`` (``1``, ``true``, ``yes``, ``on`` or
    ``0``, ``false``, ``no``, ``off``; raises SettingsError otherwise), else off."""
    if given is not None:
        return given
    raw = env.get(key, "").strip().lower()
    if raw in _YES:
        return True
    if raw in _NO:
        return False
    raise SettingsError(f"{key} is {env.get(key)!r}; allowed: 1 or 0 (also true/false, yes/no, on/off)")


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
    rate_limit: float | None = None,
    idle_seconds: float | None = None,
    public_url: str | None = None,
    max_connections: int | None = None,
    api_docs: bool | None = None,
    access_log: bool | None = None,
    policies: Sequence[str] | None = None,
) -> Settings:
    """Settings from the arguments given (not None), else ``env`` (``os.environ`` by default), else defaults.

    Raises SettingsError for an environment value that is not a number where one is needed, a negative
    number, a port outside 0-65535, ``snapshot_every`` or ``max_connections`` below 1, an on/off
    setting that is neither, a ``redis_url`` that is not a
    ``redis://``, ``rediss://`` or ``unix://`` URL, a ``public_url`` that ``public_origin`` refuses, or
    a policy entry that ``parse_policies`` refuses (``policies``, else ``HANDFOOT_POLICIES``: entries
    separated by commas).
    """
    env = os.environ if env is None else env
    data = Path(data_dir if data_dir is not None else env.get("HANDFOOT_DATA") or default_data_dir())
    port_value = port if port is not None else int(_number(env, "HANDFOOT_PORT", int, DEFAULT_PORT))
    if not 0 <= port_value <= 65535:
        raise SettingsError(f"port is {port_value}; allowed: 0 to 65535")
    every = _positive(
        "snapshot_every", snapshot_every, env, "HANDFOOT_SNAPSHOT_EVERY", DEFAULT_SNAPSHOT_EVERY
    )
    delay = _non_negative("bot_delay", bot_delay, env, "HANDFOOT_BOT_DELAY", DEFAULT_BOT_DELAY, "seconds")
    away = _non_negative(
        "away_seconds", away_seconds, env, "HANDFOOT_AWAY_SECONDS", DEFAULT_AWAY_SECONDS, "seconds"
    )
    rate = _non_negative(
        "rate_limit", rate_limit, env, "HANDFOOT_RATE_LIMIT", DEFAULT_RATE_LIMIT, "(no rate limits)"
    )
    idle = _non_negative(
        "idle_seconds", idle_seconds, env, "HANDFOOT_IDLE_SECONDS", DEFAULT_IDLE_SECONDS, "seconds"
    )
    most = _positive(
        "max_connections", max_connections, env, "HANDFOOT_MAX_CONNECTIONS", DEFAULT_MAX_CONNECTIONS
    )
    redis = redis_url if redis_url is not None else env.get("HANDFOOT_REDIS_URL", "")
    if redis and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise SettingsError(f"redis_url is {redis!r}; allowed: a redis://, rediss:// or unix:// URL")
    if policies is None:
        policies = [part for part in env.get("HANDFOOT_POLICIES", "").split(",") if part.strip()]
    return Settings(
        data_dir=data,
        host=host if host is not None else env.get("HANDFOOT_HOST") or DEFAULT_HOST,
        port=port_value,
        database_url=database_url if database_url is not None else env.get("HANDFOOT_DATABASE_URL", ""),
        redis_url=redis,
        bot_delay=delay,
        snapshot_every=every,
        away_seconds=away,
        rate_limit=rate,
        idle_seconds=idle,
        public_url=public_url if public_url is not None else env.get("HANDFOOT_PUBLIC_URL", ""),
        max_connections=most,
        api_docs=_switch(env, "HANDFOOT_API_DOCS", api_docs),
        access_log=_switch(env, "HANDFOOT_ACCESS_LOG", access_log),
        policies=parse_policies(policies),
    )
