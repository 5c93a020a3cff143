"""Checks before the server starts: can it reach the database and Redis it was given?

``check_services(settings)`` connects once to each and raises SettingsError with one sentence naming the
URL (password hidden), what went wrong and what is allowed, so ``handfoot serve`` stops with one clear
line instead of a traceback from the application's startup.
"""

from __future__ import annotations

from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from handfoot.server.config import Settings, SettingsError
from handfoot.server.storage import database_url
from handfoot.wording import show

DATABASE_ALLOWED = "a SQLAlchemy URL such as postgresql://user@host/handfoot or sqlite:////path/handfoot.db"
REDIS_ALLOWED = "the URL of a running Redis, such as redis://127.0.0.1:6379/0"
# Seconds to wait for a Redis that does not answer.
CONNECT_SECONDS = 3


def check_services(settings: Settings) -> None:
    """Connect once to ``settings``' database (when a URL is given) and Redis (when given); raise
    SettingsError saying which cannot be used and why."""
    if settings.database_url:
        check_database(settings.database_url)
    if settings.redis_url:
        check_redis(settings.redis_url)


def check_database(url: str) -> None:
    """Raise SettingsError when ``url`` is not a database URL or the database does not answer."""
    try:
        shown = make_url(url).render_as_string(hide_password=True)
        parsed = make_url(database_url(url))
    except ArgumentError:
        raise SettingsError(f"database URL {show(url)} is not a URL; allowed: {DATABASE_ALLOWED}") from None
    try:
        engine = create_engine(parsed)
    except (NoSuchModuleError, ArgumentError, ImportError) as exc:
        raise SettingsError(
            f"database URL {shown}: {_first_line(exc)}; allowed: {DATABASE_ALLOWED}"
        ) from None
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        reason = _first_line(getattr(exc, "orig", None) or exc)
        raise SettingsError(f"cannot use the database at {shown}: {reason}") from None
    finally:
        engine.dispose()


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
