"""Run numbered jobs in worker processes, streaming their progress reports, and never leave one behind.

``process_map(job, indices, workers)`` starts ``workers`` processes, each taking indices from a shared
queue and calling ``job(index, report)``; ``report(payload)`` sends a progress message back at once.
The caller iterates over the messages as they come: ``Report(index, payload)`` for each progress report
and ``Done(index, value)`` for each job's return value (in the order jobs finish).

Cleanup is the point of this module. However iteration ends (all jobs done, an exception in the caller,
Ctrl-C, a SIGTERM turned into an exception by the caller, the iterator closed early), every worker is
terminated and joined before control returns. Workers ignore SIGINT (the terminal sends Ctrl-C to the
whole process group: the parent alone decides) and exit by themselves if the parent process dies
without cleaning up (SIGKILL). A job that raises ends the run with ``WorkerError`` naming the index; a
worker that dies (killed, out of memory) ends it with ``WorkerError`` too, instead of waiting forever.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

# How often the parent checks that its workers are alive, and a worker that its parent is (seconds).
POLL_SECONDS = 0.5
# How long terminated workers get to exit before they are killed (seconds).
GRACE_SECONDS = 5.0

_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}

Job = Callable[[int, Callable[[Any], None]], Any]


class WorkerError(RuntimeError):
    """A job raised in its worker, or a worker process died; the message says which and why."""


@dataclass(frozen=True)
class Report:
    """A progress message that job ``index`` sent with ``report(payload)``."""

    index: int
    payload: Any


@dataclass(frozen=True)
class Done:
    """Job ``index`` returned ``value``."""

    index: int
    value: Any


def process_map(job: Job, indices: Sequence[int], workers: int) -> Generator[Report | Done, None, None]:
    """Run ``job(index, report)`` for every index in ``workers`` processes; yield each ``Report`` and
    ``Done`` as it arrives. Raises ``WorkerError`` when a job raises or a worker dies. Every worker is
    gone when the iterator ends, however it ends (see the module's docstring)."""
    context = multiprocessing.get_context()
    tasks: Any = context.Queue()
    results: Any = context.Queue()
    count = max(1, min(workers, len(indices)))
    for index in indices:
        tasks.put(index)
    for _ in range(count):
        tasks.put(None)
    processes = [
        context.Process(target=_work, args=(job, tasks, results, os.getpid()), daemon=True)
        for _ in range(count)
    ]
    try:
        # Started with SIGINT and SIGTERM blocked, so a worker that has not yet set its own handlers
        # does not run the parent's (Ctrl-C would print a traceback per worker); signals that arrive
        # meanwhile wait, and reach the parent when it unblocks them.
        previous = _mask(signal.SIG_BLOCK)
        try:
            for process in processes:
                process.start()
        finally:
            if previous is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        pending = len(indices)
        while pending:
            try:
                kind, index, payload = results.get(timeout=POLL_SECONDS)
            except queue.Empty:
                _check_alive(processes)
                continue
            if kind == "error":
                raise WorkerError(f"job {index} failed: {payload}")
            if kind == "done":
                pending -= 1
                yield Done(index, payload)
            else:
                yield Report(index, payload)
    finally:
        stop(processes)
        for channel in (tasks, results):
            channel.cancel_join_thread()
            channel.close()


def stop(processes: Sequence[Any]) -> None:
    """Terminate (SIGTERM) every live process, wait up to GRACE_SECONDS, then kill what is left; join all."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + GRACE_SECONDS
    for process in processes:
        if process.pid is None:
            continue  # never started
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


def _check_alive(processes: Sequence[Any]) -> None:
    """Raise WorkerError for a worker that ended other than by finishing its jobs (exit code 0)."""
    for process in processes:
        if process.exitcode not in (None, 0):
            how = f"signal {-process.exitcode}" if process.exitcode < 0 else f"exit code {process.exitcode}"
            raise WorkerError(f"a worker process died ({how}) before finishing its jobs")


def _work(job: Job, tasks: Any, results: Any, parent: int) -> None:
    """A worker's loop: run jobs from ``tasks`` until the ``None`` at its end, sending every report,
    result and error to ``results``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _mask(signal.SIG_UNBLOCK)
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    while (index := tasks.get()) is not None:

        def report(payload: Any, index: int = index) -> None:
            results.put(("report", index, payload))

        try:
            value = job(index, report)
        except Exception as err:  # sent back whole: some exceptions cannot be pickled
            results.put(("error", index, f"{type(err).__name__}: {err}"))
            return
        results.put(("done", index, value))


def _mask(how: int) -> set[int | signal.Signals] | None:
    """Block or unblock SIGINT and SIGTERM in this thread; the previous mask (None where the platform
    has no signal masks)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(how, _STOP_SIGNALS)


def _exit_with_parent(parent: int) -> None:
    """End this worker as soon as its parent process is gone (it was killed without cleaning up)."""
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(1)
