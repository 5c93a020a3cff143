"""Run numbered jobs on an existing Dask cluster, streaming their progress reports, like ``workers``.

``cluster_map(job, indices, scheduler)`` connects to the Dask scheduler at ``scheduler`` (for example
``tcp://10.0.0.5:8786``), submits ``job(index, report)`` for every index as one task each, and yields the
same messages as ``workers.process_map``: ``Report(index, payload)`` for each ``report(payload)`` a job
sends (through the scheduler's event log, at once) and ``Done(index, value)`` as jobs finish. A job must
be a picklable function of its index (a module-level function, or a ``functools.partial`` of one), and
the workers must have the same handfoot installed, so a job plays the same game there as here.

However iteration ends (all done, an error, Ctrl-C or SIGTERM turned into an exception by the caller, the
iterator closed early), the run is called off before control returns: its tasks are cancelled, a stop
flag on the scheduler makes a job still running stop at its next report (the next finished hand), and
the connection is closed. The cluster's own processes are not ours and keep running. A job that raises
ends the run with ``WorkerError`` naming the index; a worker that dies is the scheduler's to handle (it
runs the task elsewhere, and gives up with an error after a few deaths).

Why Dask distributed: it is pure pip (``pip install 'handfoot[cluster]'``), speaks plain TCP between
machines, starts with two commands (``dask scheduler``, ``dask worker ADDRESS``), runs ordinary Python
functions with their arguments pickled, and has an event log for progress messages. A tournament is a
list of independent games, which needs no more than that; Ray would add a large native runtime, its own
object store and a cluster launcher for the same result.
"""

from __future__ import annotations

import importlib
import pickle
import queue
import time
import uuid
from collections.abc import Generator, Sequence
from typing import Any

from handfoot.sim.workers import Done, Job, Report, WorkerError

# How long to wait for the scheduler to answer, and how often to look for finished tasks (seconds).
CONNECT_SECONDS = 10.0
POLL_SECONDS = 0.05


class ClusterError(RuntimeError):
    """The cluster cannot be used: Dask is not installed, or the scheduler does not answer."""


class Cancelled(Exception):
    """Raised inside a job whose run was called off, to stop it at its next report."""


def cluster_map(
    job: Job, indices: Sequence[int], scheduler: str, connect_seconds: float = CONNECT_SECONDS
) -> Generator[Report | Done, None, None]:
    """Run ``job(index, report)`` for every index on the Dask cluster at ``scheduler``; yield each
    ``Report`` and ``Done`` as it arrives (module docstring). Raises ``ClusterError`` when the cluster
    cannot be reached and ``WorkerError`` when a job raises."""
    try:
        dask = _distributed()
    except ImportError:
        raise ClusterError("running on a cluster needs Dask: pip install 'handfoot[cluster]'") from None
    run = uuid.uuid4().hex
    topic = f"handfoot-progress-{run}"
    stop_name = f"handfoot-stop-{run}"
    try:
        client = dask.Client(scheduler, timeout=connect_seconds, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    reports: queue.Queue[tuple[int, Any]] = queue.Queue()
    futures: list[Any] = []
    stop = dask.Event(stop_name, client=client)
    try:
        client.subscribe_topic(topic, lambda event: reports.put(pickle.loads(event[1])))
        futures = [
            client.submit(_run, job, index, topic, stop_name, key=f"handfoot-{run}-{index}", pure=False)
            for index in indices
        ]
        pending = list(zip(indices, futures, strict=True))
        finished: set[int] = set()
        while pending:
            yield from _drain(reports, finished)
            batch = [(index, future) for index, future in pending if future.done()]
            if not batch:
                time.sleep(POLL_SECONDS)
                continue
            pending = [(index, future) for index, future in pending if not future.done()]
            for index, future in batch:
                if future.status == "error":
                    error = future.exception()
                    raise WorkerError(f"job {index} failed: {type(error).__name__}: {error}")
                value = future.result()
                yield from _drain(reports, finished)
                finished.add(index)
                yield Done(index, value)
    finally:
        _call_off(client, stop, futures, topic)


def _distributed() -> Any:
    """The ``distributed`` package (untyped: used through ``Any``); ImportError when it is missing."""
    return importlib.import_module("distributed")


def _drain(reports: queue.Queue[tuple[int, Any]], finished: set[int]) -> Generator[Report, None, None]:
    """The reports that arrived, except late ones for jobs already done."""
    while True:
        try:
            index, payload = reports.get_nowait()
        except queue.Empty:
            return
        if index not in finished:
            yield Report(index, payload)


def _call_off(client: Any, stop: Any, futures: list[Any], topic: str) -> None:
    """Stop the run's jobs and close the connection (best effort: the scheduler may be gone)."""
    try:
        if futures and any(not future.done() for future in futures):
            stop.set()
            client.cancel(futures, force=True)
        client.unsubscribe_topic(topic)
    except Exception:  # the connection may be gone already: closing is all that is left
        pass
    finally:
        client.close()


def _run(job: Job, index: int, topic: str, stop_name: str) -> Any:
    """A task on a worker: ``job(index, report)`` where ``report`` logs the payload to ``topic`` and
    stops the job (``Cancelled``) once the run was called off."""
    dask = _distributed()
    worker = dask.get_worker()
    stop = dask.Event(stop_name)

    def report(payload: Any) -> None:
        if stop.is_set():
            raise Cancelled(f"job {index}: the run was called off")
        worker.log_event(topic, pickle.dumps((index, payload)))

    return job(index, report)


def scheduler_address(text: str) -> str:
    """``text`` as a scheduler address: ``HOST:PORT`` gets ``tcp://``; raises ValueError saying the form
    otherwise."""
    address = text.strip()
    if "://" not in address:
        address = "tcp://" + address
    protocol, _, rest = address.partition("://")
    host, _, port = rest.rpartition(":")
    if protocol not in ("tcp", "tls") or not host or not port.isdigit():
        raise ValueError(
            f"--scheduler {text!r}: give the Dask scheduler's address as tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)"
        )
    return address
