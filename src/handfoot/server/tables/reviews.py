"""Hand reviews for the seat that asks: ``POST /api/tables/{id}/review`` starts one, ``GET`` reads it
(the routes are ``http.reviews``; this is the work behind them).

A seat asks with its own seat token in the ``X-Handfoot-Key`` header (the watch and host keys get 403
``seat_only``: a review is of one seat's play, for that seat), for a hand of its table that is over
(409 ``not_finished`` otherwise). The review (``handfoot.review``) is worked out in the background,
one decision per task, in a pool of ``REVIEW_WORKERS`` worker processes that lower their own CPU
priority to the lowest (``os.nice``): the tables' moves and bots, in the server's own process, always
come first, and the event loop never waits for a review. ``GET`` answers with its progress (``done``
of ``total`` decisions) and, once finished, the review.

Bounds: at most ``MAX_ACTIVE`` reviews are being worked out at a time in one process (429 ``busy``
beyond that); the last ``KEPT`` finished ones are kept in memory (a review is asked again after that).

Nothing in a review shows a card that is not the asking seat's own or public once the hand is over: the
bot's move is found from the seat's own view, costs come from worlds dealt from that view, and the
sentences read the seat's view and the next public move. The record, with every deal, never leaves the
server process and its workers.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from handfoot.record import Record, parse_record
from handfoot.review import DecisionPoint, DecisionReview, ReviewError, ReviewSettings, decision_points
from handfoot.review.hand import hand_bounds, hand_review, last_finished_hand, review_decision

REVIEW_WORKERS = 1
MAX_ACTIVE = 4
KEPT = 64
WORLDS_ENV = "HANDFOOT_REVIEW_WORLDS"


def review_settings() -> ReviewSettings:
    """The settings of the server's reviews: ``HANDFOOT_REVIEW_WORLDS`` worlds per decision (the
    review's default when unset; a value that is not a whole number from 1 up falls back to it)."""
    raw = os.environ.get(WORLDS_ENV, "")
    try:
        return ReviewSettings(worlds=int(raw)) if raw else ReviewSettings()
    except (ValueError, ReviewError):
        return ReviewSettings()


class ReviewRequest(BaseModel):
    """Which hand to review (counted from 0; the last finished hand if absent)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    hand: int | None = Field(default=None, ge=0, le=10_000)


def _lowest_priority() -> None:
    """A review worker's start: the lowest CPU priority, so that the server's own work comes first."""
    with suppress(OSError):  # not allowed here: the pool's size still bounds what reviews take
        os.nice(19)


def judge_task(
    record_json: dict[str, Any], hand: int, point: DecisionPoint, worlds: int, search_worlds: int, rounds: int
) -> DecisionReview:
    """One decision's review, in a worker process: replay the record to just before the decision
    ``point`` of hand ``hand`` and judge it (``handfoot.review.review_decision``)."""
    record = parse_record(record_json)
    settings = ReviewSettings(worlds=worlds, search_worlds=search_worlds, rounds=rounds)
    return review_decision(record, point, hand, settings)


def chosen_hand(record: Record, hand: int | None) -> int:
    """``hand`` if the record plays it to its end, or the last finished hand for None; ReviewError
    otherwise."""
    if hand is None:
        return last_finished_hand(record)
    hand_bounds(record, hand)
    return hand


class ReviewsBusy(Exception):
    """As many reviews as a process works out at a time are being worked out; the message says so."""


@dataclass
class ReviewJob:
    """A review being worked out, or finished: ``done`` of ``total`` decisions, the result, or why it
    failed."""

    table_id: str
    seat: int
    hand: int
    total: int = 0
    done: int = 0
    decisions: list[DecisionReview] = field(default_factory=list)
    result: dict[str, Any] | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The job as ``GET /api/tables/{id}/review`` answers."""
        state = "failed" if self.error else "done" if self.result is not None else "running"
        return {
            "table": self.table_id,
            "seat": self.seat,
            "hand": self.hand,
            "state": state,
            "done": self.done,
            "total": self.total,
            "review": self.result,
            "error": self.error,
        }


class ReviewService:
    """The reviews of one server process (see the module docstring)."""

    def __init__(self, executor: Executor | None = None, settings: ReviewSettings | None = None) -> None:
        self._executor = executor
        self.settings = settings or review_settings()
        self.jobs: OrderedDict[tuple[str, int, int], ReviewJob] = OrderedDict()
        self.tasks: set[asyncio.Task[None]] = set()

    @property
    def executor(self) -> Executor:
        """The worker pool (started on first use)."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=REVIEW_WORKERS,
                mp_context=multiprocessing.get_context("spawn"),  # not a fork of a process with threads
                initializer=_lowest_priority,
            )
        return self._executor

    def active(self) -> int:
        """Reviews being worked out now."""
        return sum(1 for job in self.jobs.values() if job.result is None and job.error is None)

    def find(self, table_id: str, seat: int, hand: int | None) -> ReviewJob | None:
        """The review of ``seat`` for ``hand`` of the table (None: the last one it asked for), if asked."""
        if hand is not None:
            return self.jobs.get((table_id, seat, hand))
        mine = [job for key, job in self.jobs.items() if key[:2] == (table_id, seat)]
        return mine[-1] if mine else None

    def start(self, table_id: str, seat: int, hand: int, record: Record) -> ReviewJob:
        """Start the review of ``seat`` for ``hand`` (finished) of ``record``, or return the one already
        asked for. Raises ReviewsBusy when ``MAX_ACTIVE`` are being worked out."""
        key = (table_id, seat, hand)
        job = self.jobs.get(key)
        if job is not None and job.error is None:
            self.jobs.move_to_end(key)
            return job
        if self.active() >= MAX_ACTIVE:
            raise ReviewsBusy(
                f"the server is working out {MAX_ACTIVE} reviews already; ask again in a minute"
            )
        job = ReviewJob(table_id, seat, hand)
        self.jobs[key] = job
        while len(self.jobs) > KEPT:
            oldest = next(iter(self.jobs))
            if self.jobs[oldest].result is None and self.jobs[oldest].error is None:
                break
            del self.jobs[oldest]
        task = asyncio.get_running_loop().create_task(
            self._run(job, record), name=f"handfoot-review-{table_id}"
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job

    async def _run(self, job: ReviewJob, record: Record) -> None:
        loop = asyncio.get_running_loop()
        settings = self.settings
        try:
            points = await asyncio.to_thread(decision_points, record, job.hand, job.seat)
            job.total = len(points)
            data = record.to_json()
            futures = [
                loop.run_in_executor(
                    self.executor,
                    judge_task,
                    data,
                    job.hand,
                    point,
                    settings.worlds,
                    settings.search_worlds,
                    settings.rounds,
                )
                for point in points
            ]
            for future in asyncio.as_completed(futures):
                job.decisions.append(await future)
                job.done += 1
        except ReviewError as exc:
            job.error = exc.message
            return
        except Exception as exc:  # a worker that died: say so rather than hang
            job.error = f"the review could not be worked out ({type(exc).__name__})"
            return
        job.result = hand_review(record, job.hand, job.seat, settings, job.decisions).to_json()

    async def close(self) -> None:
        """Stop the reviews being worked out and the worker pool."""
        for task in list(self.tasks):
            task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


__all__ = [
    "KEPT",
    "MAX_ACTIVE",
    "REVIEW_WORKERS",
    "WORLDS_ENV",
    "ReviewJob",
    "ReviewRequest",
    "ReviewService",
    "judge_task",
    "review_settings",
]
