"""``/ws/tables/{id}``: the WebSocket route, given what it serves with by the typed dependencies every HTTP
route takes (``http.deps``); the connection itself is served by ``live.socket``."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from handfoot.server.http.deps import Client, Limits, Runner, ServerSettings, Service
from handfoot.server.live.socket import Server, table_socket

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_connection(
    websocket: WebSocket,
    table_id: str,
    service: Service,
    runner: Runner,
    settings: ServerSettings,
    limits: Limits,
    client: Client,
) -> None:
    """One client's connection to a table (docs/protocol.md), until it closes."""
    await table_socket(websocket, table_id, Server(service, runner, settings, limits), client)
