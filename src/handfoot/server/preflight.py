"""A check before the server starts: does the Redis it was given answer? (The database is checked by
``server.run.check_database``.)

``check_redis(url)`` connects once and raises SettingsError with one sentence naming the URL (password
hidden), what went wrong and what is allowed, so ``handfoot serve`` stops with one clear line instead of
a traceback from the application's startup.
"""

from __future__ import annotations

from redis import Redis
from redis.exceptions import RedisError

from handfoot.server.config import SettingsError
from handfoot.wording import show

REDIS_ALLOWED = "the URL of a running Redis, such as redis://127.0.0.1:6379/0"
# Seconds to wait for a Redis that does not answer.
CONNECT_SECONDS = 3


def check_redis(url: str) -> None:
    """Raise SettingsError when ``url`` is not a Redis URL or Redis does not answer."""
    try:
        client = Redis.from_url(url, socket_connect_timeout=CONNECT_SECONDS, socket_timeout=CONNECT_SECONDS)
    except ValueError as exc:
        raise SettingsError(
            f"Redis URL {show(_hide_password(url))}: {_first_line(exc)}; allowed: {REDIS_ALLOWED}"
        ) from None
    try:
        client.ping()
    except (RedisError, OSError) as exc:
        raise SettingsError(f"cannot reach Redis at {_hide_password(url)}: {_first_line(exc)}") from None
    finally:
        client.close()


def _hide_password(url: str) -> str:
    """``url`` with the password of its ``user:password@`` part replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"


def _first_line(exc: object) -> str:
    """The first line of an exception's message (driver messages run on with hints and links)."""
    lines = str(exc).strip().splitlines()
    return lines[0].strip() if lines else type(exc).__name__
