"""The JSON Schema of the messages the server sends (``docs/protocol.schema.json``, written by
tools/client_types.py from ``server/wire/messages.py``) against the models and against docs/protocol.md:
the committed schema is the models' own, every message type and every field of every shape it holds is
described in docs/protocol.md, and the documentation's complete examples are messages of that shape."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from handfoot.server.wire.messages import SERVER_MESSAGE, server_message_schema
from handfoot.server.wire.protocol import MESSAGE_TYPES, client_message_schema

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SCHEMA = server_message_schema()
sys.path.insert(0, str(ROOT / "tools"))
import client_types  # noqa: E402


def message_types() -> list[str]:
    """The ``type`` of every message the server sends, from the schema."""
    return sorted(
        d["properties"]["type"]["const"]
        for d in SCHEMA["$defs"].values()
        if "const" in d.get("properties", {}).get("type", {})
    )


def named(word: str) -> bool:
    """True if docs/protocol.md names ``word`` as a JSON key or value or in code."""
    return f'"{word}"' in DOC or f"`{word}`" in DOC


def test_the_committed_schema_is_the_models_own() -> None:
    committed = json.loads(client_types.SCHEMA_OUT.read_text(encoding="utf-8"))
    assert committed == SCHEMA, "docs/protocol.schema.json is stale: run python tools/client_types.py"
    assert client_types.main(["--check"]) == 0


def test_every_message_type_is_documented() -> None:
    types = message_types()
    assert {"welcome", "state", "refused", "error", "table", "hint", "pong"} <= set(types)
    assert [t for t in types if f'"type": "{t}"' not in DOC and f"`{t}`" not in DOC] == []


@pytest.mark.parametrize("shape", sorted(SCHEMA["$defs"]))
def test_every_field_of_every_shape_is_documented(shape: str) -> None:
    fields = SCHEMA["$defs"][shape].get("properties", {})
    assert fields, shape
    assert [field for field in fields if not named(field)] == [], f"{shape}: fields docs/protocol.md omits"


def documented_examples() -> list[dict[str, Any]]:
    """Every JSON example of docs/protocol.md that is a whole server message (its ``type`` is one the
    server sends and it reads as JSON; the abbreviated ``welcome`` and ``state`` examples are not)."""
    found = []
    for block in re.findall(r"```json\n(.*?)```", DOC, re.S):
        try:
            value = json.loads(block)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("type") in message_types():
            found.append(value)
    return found


def test_the_documented_examples_of_whole_messages_have_their_shape() -> None:
    examples = [e for e in documented_examples() if e["type"] in ("error", "refused", "hint")]
    assert {e["type"] for e in examples} == {"error", "refused", "hint"}
    for example in examples:
        SERVER_MESSAGE.validate_python(example)


def test_the_client_messages_schema_is_the_validating_models_own() -> None:
    """The messages a client sends: the committed schema (and so the browser client's generated types)
    is the one the server validates with, and every client message type and field is documented."""
    schema = client_message_schema()
    committed = json.loads(client_types.CLIENT_SCHEMA_OUT.read_text(encoding="utf-8"))
    assert committed == schema, "docs/protocol.client.schema.json is stale: run python tools/client_types.py"
    types = sorted(d["properties"]["type"]["const"] for d in schema["$defs"].values())
    assert types == sorted(MESSAGE_TYPES)
    fields = {f for d in schema["$defs"].values() for f in d["properties"]}
    assert [f for f in sorted(fields) if not named(f)] == []
    assert "export type ClientMessageJson = " in client_types.CLIENT_OUT.read_text(encoding="utf-8")
