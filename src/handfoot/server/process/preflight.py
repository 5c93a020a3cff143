"""Checks before the server starts: can its database be opened, does the Redis it was given answer?

``check_database(settings)`` opens the database once and ``check_redis(url)`` connects once; each raises
SettingsError with one sentence naming the database or URL (password hidden) and what went wrong, so
``handfoot serve`` stops with one clear line instead of a traceback from the application's startup.
"""

from __future__ import annotations

from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from handfoot.server.settings import Settings, SettingsError
from handfoot.server.store.migrate import MigrationError
from handfoot.server.store.storage import Storage
from handfoot.wording import show

REDIS_ALLOWED = "the URL of a running Redis, such as redis://127.0.0.1:6379/0"
# Seconds to wait for a Redis that does not answer.
CONNECT_SECONDS = 3


def shown_database(settings: Settings) -> str:
    """The database as it may be shown: its URL without the password, or the SQLite file's path."""
    if settings.database_url:
        try:
            return make_url(settings.database_url).render_as_string(hide_password=True)
        except ArgumentError:
            return "(an unreadable database URL)"
    return str((settings.data_dir / "handfoot.db").resolve())


def check_database(settings: Settings) -> tuple[str | None, str]:
    """Open the database once (bringing its schema up to date: ``store.migrate``) and close it again;
    the schema revision before (None: a new database) and after. Raises SettingsError, naming the
    database (never its password) and the reason, if it cannot be opened or a newer version of handfoot
    made it."""
    try:
        storage = Storage(settings.db_url)
        storage.close()
        return storage.revisions
    except MigrationError as exc:
        raise SettingsError(f"database {shown_database(settings)}: {exc}") from None
    except (SQLAlchemyError, ImportError) as exc:
        reason = _first_line(getattr(exc, "orig", None) or exc)
        raise SettingsError(f"cannot open the database {shown_database(settings)}: {reason}") from None


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
