"""The queue bots' decisions wait in for the bots' threads, served fairly.

Each decision is queued under an *owner* (the address that created its table). The threads take the
owners in turn, round-robin, one decision each; an owner's own decisions (one per table at a time) are
taken in the order they came. So an owner with twenty tables of slow bots gets one thread-turn in each
round, like an owner with one table: another table's bot waits for at most one decision of each other
owner with decisions waiting, however many tables they have.

Decisions at tables where a person plays (``urgent``: someone is waiting for the bot) go before those
at tables of bots alone, which nobody waits on; but when both wait, at least one decision in
``URGENT_RUN + 1`` goes to the tables of bots alone, so they never stop.

With ``reserve`` threads beyond ``threads`` (the server keeps one), an urgent decision does not wait for
a thread at all: the reserve takes urgent decisions only. And while an urgent decision waits or runs,
the decisions of tables nobody waits on pause at their searches' pause points (``bots.pause``: before
each play-out, at most ``PAUSE_MOST`` seconds a time), so the urgent one has the interpreter to
itself instead of sharing it with every busy table's search.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures import Future as ThreadFuture
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

from handfoot.bots.pause import pausing

T = TypeVar("T")

URGENT_RUN = 3  # urgent decisions started in a row while others wait, before one of the others
PAUSE_MOST = 0.25  # seconds a decision nobody waits for pauses at one pause point for urgent ones


@dataclass(eq=False)
class _Job(Generic[T]):
    owner: str
    call: Callable[[], T]
    done: asyncio.Future[T]
    queued_at: int  # decisions started before this one was queued
    own_at: int  # decisions of its owner started before it was queued
    urgent: bool = False


class FairQueue:
    """Runs callables in ``pool`` (at most ``threads`` at once, and ``reserve`` more for urgent ones only:
    the pool needs ``threads + reserve`` workers), round-robin over their owners.

    ``served`` counts the decisions started for each owner; ``most_ahead`` is, for each owner, the most
    decisions of other owners that started while one of its own waited (the fairness the queue
    promises: for an owner with one decision waiting, at most one of each other owner's).
    """

    def __init__(self, pool: Executor, threads: int, reserve: int = 0) -> None:
        self.pool = pool
        self.threads = threads
        self.reserve = reserve
        self.running = 0
        self.urgent_running = 0
        self.calm = threading.Event()  # set while no urgent decision waits or runs
        self.calm.set()
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
        job = _Job(owner, call, done, self.started, self.served.get(owner, 0), urgent)
        (self.urgent if urgent else self.waiting).setdefault(owner, deque()).append(job)
        self._dispatch()
        try:
            return await done
        finally:
            self._weather()  # a cancelled urgent job no longer holds the others

    def _weather(self) -> None:
        """Set ``calm`` unless an urgent decision runs or waits (a cancelled one does not count)."""
        waiting = any(not job.done.cancelled() for jobs in self.urgent.values() for job in jobs)
        if self.urgent_running or waiting:
            self.calm.clear()
        else:
            self.calm.set()

    def _pause(self) -> None:
        """A pause point of a decision nobody waits for: wait while urgent ones run (a moment at most)."""
        self.calm.wait(PAUSE_MOST)

    def _background(self, call: Callable[[], T]) -> T:
        with pausing(self._pause):
            return call()

    def pending(self) -> int:
        """How many calls wait for a thread."""
        return sum(len(jobs) for queue in (self.urgent, self.waiting) for jobs in queue.values())

    def _next(self, urgent_only: bool = False) -> _Job[Any] | None:
        """The next job to run: an urgent one unless ``URGENT_RUN`` of them just ran while others
        waited; of those, the first owner's first live job (the owner goes to the back of the turn if
        it has more). ``urgent_only``: an urgent job or none (for a reserve thread)."""
        while self.urgent or (self.waiting and not urgent_only):
            if self.urgent and (urgent_only or not self.waiting or self.urgent_run < URGENT_RUN):
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
        """Start waiting jobs while a thread is free (a reserve thread: for an urgent job)."""
        while self.running < self.threads + self.reserve:
            job = self._next(urgent_only=self.running >= self.threads)
            if job is None:
                break
            self.running += 1
            own = self.served.get(job.owner, 0)
            ahead = (self.started - job.queued_at) - (own - job.own_at)
            self.started += 1
            self.served[job.owner] = own + 1
            self.most_ahead[job.owner] = max(self.most_ahead.get(job.owner, 0), ahead)
            if job.urgent:
                self.urgent_running += 1
                self.calm.clear()  # before the thread starts: a search's next pause point must see it
                future = self.pool.submit(job.call)
            else:
                future = self.pool.submit(self._background, job.call)
            future.add_done_callback(partial(self._from_thread, job))
        self._weather()

    def _from_thread(self, job: _Job[Any], future: ThreadFuture[Any]) -> None:
        """Called in the thread that ran ``job`` (or at once, if it was done): finish it on the loop."""
        with suppress(RuntimeError):  # the loop is closed: nobody waits any more
            job.done.get_loop().call_soon_threadsafe(self._finish, job, future)

    def _finish(self, job: _Job[Any], future: ThreadFuture[Any]) -> None:
        """A job's thread is done: hand its outcome to the waiting caller and start the next."""
        self.running -= 1
        if job.urgent:
            self.urgent_running -= 1
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
