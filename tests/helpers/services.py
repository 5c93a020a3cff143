"""Fixtures for tests that need the real services: PostgreSQL and Redis.

Test modules load this with ``pytest_plugins = ["helpers.services"]``.

- ``database_url``: parametrized over SQLite (a file in the test's folder) and PostgreSQL (a database
  of its own, made for the test and dropped after it), so a test that takes it runs on both.
- ``postgres_url``: a fresh PostgreSQL database for one test.
- ``redis_url``: the Redis server, after checking it answers.

Where the services are is read from ``HANDFOOT_TEST_POSTGRES_URL`` (a URL to a database from which new
ones may be created; default ``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``) and
``HANDFOOT_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``). A service that does not answer
fails the test when ``CI=true`` (CI starts both: ``make services``) and skips it, saying why, elsewhere.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from handfoot.server.store.storage import database_url as driver_url

POSTGRES_ENV = "HANDFOOT_TEST_POSTGRES_URL"
REDIS_ENV = "HANDFOOT_TEST_REDIS_URL"
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def in_ci() -> bool:
    """True when running in CI (``CI=true``), where a missing service is a failure, not a skip."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def unavailable(service: str, why: object) -> None:
    """Fail (in CI) or skip (elsewhere) a test whose service does not answer."""
    first_line = str(why).strip().splitlines()[0] if str(why).strip() else type(why).__name__
    message = f"{service} is not answering ({first_line}); start it with `make services`"
    if in_ci():
        pytest.fail(f"{message}: CI needs it", pytrace=False)
    pytest.skip(message)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A SQLAlchemy URL to a new, empty PostgreSQL database, dropped when the test ends."""
    admin_url = driver_url(os.environ.get(POSTGRES_ENV) or DEFAULT_POSTGRES)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    name = f"hf_test_{secrets.token_hex(6)}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        admin.dispose()
        unavailable("PostgreSQL", exc)
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database for one test: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{(tmp_path / 'handfoot.db').as_posix()}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def redis_url() -> str:
    """The URL of a Redis server that answers a ping."""
    url = os.environ.get(REDIS_ENV) or DEFAULT_REDIS
    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
    except Exception as exc:
        unavailable("Redis", exc)
    finally:
        client.close()
    return url
