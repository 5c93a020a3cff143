"""The game server: a lobby over HTTP, play over a versioned WebSocket protocol, tables kept in a database.

``create_app(settings)`` (``handfoot.server.app``) builds the FastAPI application; ``handfoot serve`` runs it
with uvicorn. Every move, from a person or a bot, goes through ``pipeline.submit``; what a client may be
sent is built in ``protocol``; tables are stored event-sourced by ``storage``. docs/protocol.md is the
contract a client is written against.
"""
