"""Pause points: where a long search lets more urgent work of its process go first.

A search calls ``pause_point()`` between two steps of its work (``bots.ismcts``: before each play-out
of a candidate move in a sampled world, after the first world). By default that does nothing. A thread
that runs searches nobody is waiting for (the server's bots at tables of bots alone,
``server.bots.queue``) sets a hook with ``pausing(hook)``: each pause point then calls it, and the hook
may block the thread for a moment while decisions someone waits for run, so those have the interpreter
to themselves. A search's time budget runs on meanwhile (it searches less).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_local = threading.local()


def pause_point() -> None:
    """Let more urgent work go first, if this thread was given a hook (see the module docstring)."""
    hook: Callable[[], None] | None = getattr(_local, "hook", None)
    if hook is not None:
        hook()


@contextmanager
def pausing(hook: Callable[[], None]) -> Iterator[None]:
    """Within the block, this thread's pause points call ``hook``."""
    before = getattr(_local, "hook", None)
    _local.hook = hook
    try:
        yield
    finally:
        _local.hook = before
