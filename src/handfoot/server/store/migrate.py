"""Bringing a database's storage schema up to date: the Alembic revisions in ``store/migrations``, applied
when the server opens its storage (``Storage``) and by ``handfoot db upgrade``.

A database made before migrations existed has the tables but no ``alembic_version``: the first revision
(``0001``) keeps its rows and adds what it lacks. A database already at the newest revision costs one
query and runs nothing."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class MigrationError(RuntimeError):
    """The database's schema cannot be brought up to date: it is at a revision this version of handfoot
    does not know (a newer version made it), or a revision failed; the message says which."""


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this schema; with ``connection``, migrations run on it (in its
    transaction) rather than on a URL."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@cache
def head() -> str:
    """The newest revision of the schema."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None  # the migrations hold at least the baseline
    return revision


def current(connection: Connection) -> str | None:
    """The revision the database on ``connection`` is at (None: none yet, new or made before
    migrations)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> tuple[str | None, str]:
    """Apply every revision the database on ``connection`` lacks, in its transaction; returns the
    revisions it was at before and is at now."""
    before = current(connection)
    if before == head():
        return before, before
    known = {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if before is not None and before not in known:
        raise MigrationError(
            f"the database is at schema revision {before!r}, which this version of handfoot does not know "
            f"(a newer version made it); allowed: revisions up to {head()!r}: upgrade handfoot"
        )
    try:
        command.upgrade(alembic_config(connection), "head")
    except Exception as exc:
        raise MigrationError(f"migrating the schema from {before!r} to {head()!r} failed: {exc}") from exc
    return before, head()
