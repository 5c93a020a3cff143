"""The table domain: tables in play, the service holding them, how a table moves (no socket, no HTTP)."""
