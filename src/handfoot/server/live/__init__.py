"""The live WebSocket side: handshake and read loop, who is connected, outboxes, and the broadcast that
decides what each connection is told of a change (the table service's notifier)."""
