"""The game server: a lobby over HTTP, play over a versioned WebSocket protocol, tables kept in a database.

``create_app(settings)`` (``handfoot.server.app``) builds the FastAPI application; ``handfoot serve`` runs it
with uvicorn. The rooms, each with its job in its own ``__init__``:

- ``tables``: the table domain (a table, the service that holds them, the one way a table moves, and in
  ``tables.ports`` the storage and notifier interfaces it is handed at start-up);
- ``store``: storage (schema, migrations, snapshots);
- ``live``: the WebSocket side (handshake, read loop, outboxes, broadcast);
- ``cluster``: several processes on one database (the bus, following, bot leases);
- ``bots``: the bots playing their seats server-side;
- ``http``: the HTTP API, one router per resource;
- ``process``: start-up (``handfoot serve``, preflight, the lifespan, the door's caps);
- ``wire``: the JSON the server speaks; ``settings`` and ``limits``: what it is told and what it allows.

The arrows point one way: ``http`` and ``live`` use ``bots``, ``cluster`` and ``tables``; ``tables`` uses
``store``'s records and ``wire``'s codec and never imports a transport; it is handed the real storage and
``live.broadcast.Broadcaster`` (the one place that decides what a table's connections are told) by
``process.lifespan``. docs/protocol.md is the contract a client is written against.
"""
