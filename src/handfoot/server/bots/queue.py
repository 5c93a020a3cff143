"""The queue bots' decisions wait in for the bots' threads, served fairly.

Each decision is queued under an *owner* (the address that created its table). The threads take the
owners in turn, round-robin, one decision each; an owner's own decisions (one per table at a time) are
taken in the order they came. So an owner with twenty tables of slow bots gets one thread-turn in each
round, like an owner with one table: another table's bot waits for at most one decision of each other
owner with decisions waiting, however many tables they have.

Decisions at tables where a person plays (``urgent``: someone is waiting for the bot) go before those
at tables of bots alone, which nobody waits on; but when both wait, at least one decision in
``URGENT_RUN + 1`` goes to the tables of bots alone, so they never stop.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures import Future as ThreadFuture
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

T = TypeVar("T")

URGENT_RUN = 3  # urgent decisions started in a row while others wait, before one of the others


@dataclass(eq=False)
class _Job(Generic[T]):
    owner: str
    call: Callable[[], T]
    done: asyncio.Future[T]
    queued_at: int  # decisions started before this one was queued
    own_at: int  # decisions of its owner started before it was queued


class FairQueue:
    """Runs callables in ``pool`` (at most ``threads`` at once), round-robin over their owners.

    ``served`` counts the decisions started for each owner; ``most_ahead`` is, for each owner, the most
    decisions of other owners that started while one of its own waited (the fairness the queue
    promises: for an owner with one decision waiting, at most one of each other owner's).
    """

    def __init__(self, pool: Executor, threads: int) -> None:
        self.pool = pool
        self.threads = threads
        self.running = 0
        self.started = 0
        self.waiting: OrderedDict[str, deque[_Job[Any]]] = OrderedDict()  # tables of bots alone
        self.urgent: OrderedDict[str, deque[_Job[Any]]] = OrderedDict()  # tables where a person plays
        self.urgent_run = 0
        self.served: dict[str, int] = {}
        self.most_ahead: dict[str, int] = {}

    async def run(self, owner: str, call: Callable[[], T], urgent: bool = False) -> T:
        """Queue ``call`` for ``owner`` (``urgent``: a person waits for it) and return its result once a
        thread has run it (its exception, if it raised). Cancelling the caller while the call waits
        takes it out of the queue."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = _Job(owner, call, done, self.started, self.served.get(owner, 0))
        (self.urgent if urgent else self.waiting).setdefault(owner, deque()).append(job)
        self._dispatch()
        return await done

    def pending(self) -> int:
        """How many calls wait for a thread."""
        return sum(len(jobs) for queue in (self.urgent, self.waiting) for jobs in queue.values())

    def _next(self) -> _Job[Any] | None:
        """The next job to run: an urgent one unless ``URGENT_RUN`` of them just ran while others
        waited; of those, the first owner's first live job (the owner goes to the back of the turn if
        it has more)."""
        while self.urgent or self.waiting:
            if self.urgent and (not self.waiting or self.urgent_run < URGENT_RUN):
                queue = self.urgent
                self.urgent_run += 1
            else:
                queue = self.waiting
                self.urgent_run = 0
            owner, jobs = next(iter(queue.items()))
            job = jobs.popleft()
            if jobs:
                queue.move_to_end(owner)
            else:
                del queue[owner]
            if not job.done.cancelled():
                return job
        return None

    def _dispatch(self) -> None:
        """Start waiting jobs while a thread is free."""
        while self.running < self.threads:
            job = self._next()
            if job is None:
                return
            self.running += 1
            own = self.served.get(job.owner, 0)
            ahead = (self.started - job.queued_at) - (own - job.own_at)
            self.started += 1
            self.served[job.owner] = own + 1
            self.most_ahead[job.owner] = max(self.most_ahead.get(job.owner, 0), ahead)
            future = self.pool.submit(job.call)
            future.add_done_callback(partial(self._from_thread, job))

    def _from_thread(self, job: _Job[Any], future: ThreadFuture[Any]) -> None:
        """Called in the thread that ran ``job`` (or at once, if it was done): finish it on the loop."""
        with suppress(RuntimeError):  # the loop is closed: nobody waits any more
            job.done.get_loop().call_soon_threadsafe(self._finish, job, future)

    def _finish(self, job: _Job[Any], future: ThreadFuture[Any]) -> None:
        """A job's thread is done: hand its outcome to the waiting caller and start the next."""
        self.running -= 1
        if future.cancelled():  # the pool was shut down
            job.done.cancel()
        elif not job.done.cancelled():
            error = future.exception()
            if error is not None:
                job.done.set_exception(error)
            else:
                job.done.set_result(future.result())
        self._dispatch()

    def forget(self, owner: str) -> None:
        """Drop the counts kept for ``owner``."""
        self.served.pop(owner, None)
        self.most_ahead.pop(owner, None)
