"""A bot program run as a child process: lines in on its standard input, lines out of its standard
output, each answer awaited against a clock, every line bounded.

Two threads per program keep the runner from ever blocking on it: a writer (a bot that stops reading its
input cannot stall the runner) and a reader that splits the output into lines of at most
``MAX_LINE_BYTES`` and keeps at most ``MAX_PENDING`` unread lines. A line too long, too many lines
unread, the output closed, or no line in time is a ``BotFailure`` saying what the bot did. The program's
standard error is passed through to the runner's (``quiet``: thrown away, as under the terminal game,
whose screen it would spoil). ``close`` ends the program (its input closed, then
after a grace period its whole process group killed), so no bot outlives its game.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from handfoot.protocol.messages import MAX_LINE_BYTES, ProtocolViolation, encode, parse_move_line

MAX_PENDING = 64  # unread lines a bot may have written ahead; beyond that it is flooding
EXIT_GRACE = 2.0  # seconds a bot has to exit after its input closes


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


class BotProcess:
    """One running bot program (see the module docstring)."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None, quiet: bool = False) -> None:
        try:
            self.proc: subprocess.Popen[bytes] = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if quiet else None,
                cwd=cwd,
                start_new_session=True,  # its own process group: close() ends the children it starts too
            )
        except OSError as err:
            raise BotFailure(f"could not be started: {err.strerror or err}") from None
        self._lines: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._outgoing: queue.Queue[bytes | None] = queue.Queue()
        self._closed = False
        assert self.proc.stdout is not None and self.proc.stdin is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._write, args=(self.proc.stdin,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            try:
                chunk = stream.readline(MAX_LINE_BYTES + 1)
            except (OSError, ValueError):
                chunk = b""
            if not chunk:
                self._lines.put(("eof", b""))
                return
            if len(chunk) > MAX_LINE_BYTES:
                self._lines.put(("flood", f"a line longer than {MAX_LINE_BYTES} bytes".encode()))
                return
            if self._lines.qsize() >= MAX_PENDING:
                self._lines.put(("flood", f"more than {MAX_PENDING} lines nobody asked for".encode()))
                return
            self._lines.put(("line", chunk.rstrip(b"\r\n")))

    def _write(self, stream: IO[bytes]) -> None:
        while True:
            data = self._outgoing.get()
            try:
                if data is None:
                    stream.close()
                    return
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                return  # the bot is gone; the next receive says how

    def send(self, line: dict[str, Any]) -> None:
        """Queue ``line`` for the bot's standard input (never blocks)."""
        if not self._closed:
            self._outgoing.put(encode(line))

    def unasked(self) -> int:
        """How many lines the bot has written that nobody asked for yet."""
        return self._lines.qsize()

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
        try:
            kind, data = self._lines.get(timeout=max(seconds, 0.0))
        except queue.Empty:
            raise BotFailure(f"wrote no answer within {seconds:g} s") from None
        if kind == "line":
            return data
        self._lines.put((kind, data))  # every later receive fails the same way
        if kind == "flood":
            raise BotFailure(f"flooded its output ({data.decode()})")
        code = self._exit_code(0.5)
        if code is None:
            raise BotFailure("closed its output")
        if code < 0:
            raise BotFailure(f"crashed (killed by signal {-code})")
        raise BotFailure(f"exited with status {code}")

    def _exit_code(self, wait: float) -> int | None:
        try:
            return self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            return None

    def close(self, grace: float = EXIT_GRACE) -> None:
        """Close the bot's input; kill its process group if it has not exited ``grace`` seconds later."""
        if self._closed:
            return
        self._closed = True
        self._outgoing.put(None)
        deadline = time.monotonic() + grace
        while self.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def kill(self) -> None:
        """End the bot at once (after it failed)."""
        self.close(grace=0.0)
