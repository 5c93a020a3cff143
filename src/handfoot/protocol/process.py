"""A bot program run as a child process: lines in on its standard input, lines out of its standard
output, each answer awaited against a clock, every line bounded.

The runner never blocks on the program. Its output is read without blocking, against the answer's
deadline, into lines of at most ``MAX_LINE_BYTES`` (at most ``MAX_PENDING`` lines unread); a writer
thread feeds its input, so a bot that stops reading cannot stall the runner either. A line too long,
too many lines unread, the output closed, or no line in time is a ``BotFailure`` saying what the bot
did. The program's standard error is passed through to the runner's (``quiet``: thrown away, as under
the terminal game, whose screen it would spoil).

The program runs under a keeper (``protocol.keeper``, in a session of its own), which owns every process
the bot starts, even one in another session: when the bot exits, or ``close`` ends it (its input
closed, then after a grace period killed), or the runner dies, the keeper kills the whole tree. So no
bot, nor anything a bot started, outlives its game, and a helper left holding the bot's output cannot
hold the runner.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from handfoot.protocol.messages import MAX_LINE_BYTES, ProtocolViolation, encode, parse_move_line

MAX_PENDING = 64  # unread lines a bot may have written ahead; beyond that it is flooding
EXIT_GRACE = 2.0  # seconds a bot has to exit after its input closes
STOP_GRACE = 0.0  # seconds a bot has to exit when the runner is stopped (SIGTERM, Ctrl-C): none
KEEPER = str(Path(__file__).with_name("keeper.py"))
KEEPER_START_SECONDS = 30.0  # the keeper starting the bot (an interpreter start; more on a busy machine)
KEEPER_EXIT_SECONDS = 2.0  # the keeper ending the bot's tree, before the keeper itself is killed
READ_CHUNK = 65536
MAX_MOVE_TIME = 3600.0  # the longest --move-time: an hour a decision


def check_move_time(seconds: float) -> float:
    """``seconds`` if it is a usable time per decision (more than 0, at most ``MAX_MOVE_TIME``); raises
    ValueError saying what is allowed otherwise (infinity and NaN included)."""
    if not 0 < seconds <= MAX_MOVE_TIME:
        raise ValueError(
            f"--move-time {seconds!r} is out of range; allowed: seconds per decision, more than 0 and at "
            f"most {MAX_MOVE_TIME:g}"
        )
    return seconds


class BotFailure(Exception):
    """A bot program did something the protocol does not allow; ``what`` says what, in words."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def command_argv(command: str) -> list[str]:
    """The argument list of a ``cmd:`` command line, split as a POSIX shell would (no shell runs it).
    Raises ValueError for an empty or unbalanced command."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise ValueError(
            f"cmd:{command}: {err}; allowed: a command line such as cmd:'python bot.py'"
        ) from None
    if not argv:
        raise ValueError(
            "cmd: needs a command after the colon, such as cmd:'python examples/bots/first_legal.py'"
        )
    return argv


def readable(fd: int, seconds: float) -> bool:
    """True once ``fd`` has something to read (or its end), waiting at most ``seconds`` (0: look only)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    wait = 0 if seconds <= 0 else min(int(seconds * 1000) + 1, 2**31 - 1)
    try:
        return bool(poller.poll(wait))
    except InterruptedError:
        return False


class BotProcess:
    """One running bot program, under its keeper (see the module docstring)."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None, quiet: bool = False) -> None:
        ours, theirs = socket.socketpair()
        command = [sys.executable, "-I", KEEPER, str(theirs.fileno())]
        if cwd is not None:
            command += ["--cwd", cwd]
        try:
            self.proc: subprocess.Popen[bytes] = subprocess.Popen(
                [*command, "--", *argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if quiet else None,
                start_new_session=True,  # its own session: a Ctrl-C at the terminal goes to the runner
                pass_fds=(theirs.fileno(),),
            )
        except OSError as err:
            ours.close()
            raise BotFailure(f"could not be started: {err.strerror or err}") from None
        finally:
            theirs.close()
        self._control = ours
        self._control_buffer = b""
        self.status: int | None = None  # the bot's exit status, once the keeper said it
        self._closed = False
        self._failure: BotFailure | None = None  # the failure every later receive repeats
        self._buffer = b""
        self._eof = False
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._outgoing: queue.Queue[bytes | None] = queue.Queue()
        started = self._control_line(KEEPER_START_SECONDS)
        if started is None or not started.startswith("started "):
            why = started.removeprefix("failed ") if started else "its keeper did not start it"
            self._end_keeper()
            self.proc.stdout.close()
            self.proc.stdin.close()
            raise BotFailure(f"could not be started: {why}")
        self.pid = int(started.split()[1])
        threading.Thread(target=self._write, args=(self.proc.stdin,), daemon=True).start()

    def _control_line(self, seconds: float) -> str | None:
        """The keeper's next line (``started``, ``failed``, ``exited``), waiting at most ``seconds``;
        None when it said nothing in time or is gone."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self._control_buffer:
            if not readable(self._control.fileno(), deadline - time.monotonic()):
                return None
            try:
                data = self._control.recv(512)
            except OSError:
                data = b""
            if not data:
                return None
            self._control_buffer += data
        line, _, self._control_buffer = self._control_buffer.partition(b"\n")
        return line.decode(errors="replace")

    def _exit_code(self, wait: float) -> int | None:
        """The bot's exit status, waiting at most ``wait`` seconds for it (None: still running)."""
        if self.status is None:
            line = self._control_line(wait)
            if line is not None and line.startswith("exited "):
                self.status = int(line.split()[1])
        return self.status

    def _write(self, stream: IO[bytes]) -> None:
        try:
            while True:
                data = self._outgoing.get()
                if data is None:
                    return
                stream.write(data)
                stream.flush()
        except (OSError, ValueError):
            return  # the bot is gone; the next receive says how
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def send(self, line: dict[str, Any]) -> None:
        """Queue ``line`` for the bot's standard input (never blocks)."""
        if not self._closed:
            self._outgoing.put(encode(line))

    def _fill(self, seconds: float) -> None:
        """Read what the bot has written, waiting at most ``seconds`` for something (0: only what is
        there now); stops at the end of its output or once the unread lines pass their bounds."""
        if self._eof or self._failure is not None:
            return
        wait = seconds
        while True:
            if not readable(self._out, wait):
                return
            try:
                data = os.read(self._out, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._eof = True
                return
            self._buffer += data
            self._check_bounds()
            if self._failure is not None:
                return
            wait = 0.0  # take everything already written, without waiting for more

    def _check_bounds(self) -> None:
        pending = self._buffer.count(b"\n")
        last = len(self._buffer) - 1 - self._buffer.rfind(b"\n")
        longest = last
        if pending:
            start = 0
            for _ in range(min(pending, MAX_PENDING + 1)):
                end = self._buffer.index(b"\n", start)
                longest = max(longest, end - start)
                start = end + 1
        if longest > MAX_LINE_BYTES:
            self._failure = BotFailure(f"flooded its output (a line longer than {MAX_LINE_BYTES} bytes)")
        elif pending > MAX_PENDING:
            self._failure = BotFailure(f"flooded its output (more than {MAX_PENDING} lines nobody asked for)")

    def _take_line(self) -> bytes | None:
        line, newline, rest = self._buffer.partition(b"\n")
        if not newline:
            return None
        self._buffer = rest
        return line.rstrip(b"\r")

    def unasked(self) -> int:
        """How many lines the bot has written that nobody asked for yet."""
        self._fill(0.0)
        if self._failure is not None:
            raise self._failure
        return self._buffer.count(b"\n")

    def ask_move(self, decision: int, line: dict[str, Any], seconds: float) -> object:
        """Send ``line``, the bot's ``decision`` (its number), and return the ``move`` its answer names (an
        offered id or a move's text, for the caller to resolve against the offers). Raises BotFailure when
        the bot wrote lines nobody asked for, answers nothing in ``seconds`` or answers outside the
        protocol (``receive``, ``parse_move_line``)."""
        extra = self.unasked()
        if extra:
            raise BotFailure(f"wrote {extra} line{'s' if extra > 1 else ''} nobody asked for")
        self.send(line)
        try:
            return parse_move_line(self.receive(seconds), decision)
        except ProtocolViolation as err:
            raise BotFailure(str(err)) from None

    def receive(self, seconds: float) -> bytes:
        """The bot's next line (without its newline), waiting at most ``seconds``. Raises BotFailure
        when it exits or closes its output, floods it, or writes nothing in time."""
        deadline = time.monotonic() + max(seconds, 0.0)
        while True:
            if self._failure is not None:
                raise self._failure
            line = self._take_line()
            if line is not None:
                return line
            if self._eof:
                self._failure = self._gone()
                raise self._failure
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFailure(f"wrote no answer within {seconds:g} s")
            self._fill(left)

    def _gone(self) -> BotFailure:
        """What happened to a bot whose output closed."""
        code = self._exit_code(0.5)
        if code is None:
            return BotFailure("closed its output")
        if code < 0:
            return BotFailure(f"crashed (killed by signal {-code})")
        return BotFailure(f"exited with status {code}")

    def close(self, grace: float = EXIT_GRACE) -> None:
        """Close the bot's input; end it and everything it started if it has not exited ``grace``
        seconds later (everything it started ends with it either way)."""
        if self._closed:
            return
        self._closed = True
        self._outgoing.put(None)
        if grace > 0:
            self._exit_code(grace)
        self._end_keeper()
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def _end_keeper(self) -> None:
        """Tell the keeper to end the bot's tree and wait for it; kill the keeper's session if it
        does not end in time."""
        with contextlib.suppress(OSError):
            self._control.send(b"end\n")
        try:
            self.proc.wait(KEEPER_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self._exit_code(0.0)
        self._control.close()

    def end_soon(self) -> None:
        """Tell the keeper to end the bot and everything it started now, without waiting for it (a
        later ``close`` or ``kill`` waits). A runner stopped with several bots tells every keeper
        first, so the keepers end their trees at the same time rather than one after another."""
        if not self._closed:
            with contextlib.suppress(OSError):
                self._control.send(b"end\n")

    def kill(self) -> None:
        """End the bot at once (after it failed, or when the runner is stopped)."""
        self.close(grace=0.0)
