"""Helpers the tests share (and some benchmarks): ``play`` (random play and card counts), ``server`` (a real
server in a thread and a WebSocket client), ``services`` (PostgreSQL and Redis fixtures, a pytest plugin)."""
