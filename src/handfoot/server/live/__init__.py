"""The live WebSocket side: handshake and read loop, who is connected, outboxes, broadcast."""
