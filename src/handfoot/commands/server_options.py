"""The options ``handfoot serve`` and ``handfoot db upgrade`` share: where the server keeps its data and
which database it uses, declared once so both commands read the same folder by default and say so."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DataDir = Annotated[
    Path | None,
    typer.Option(
        "--data",
        help="Folder for the database (env HANDFOOT_DATA; default: the platform's folder for an "
        "application's data, ~/.local/share/handfoot on Linux).",
    ),
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url", help="A SQLAlchemy URL instead of SQLite in --data (env HANDFOOT_DATABASE_URL)."
    ),
]
