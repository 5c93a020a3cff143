"""The keeper of one bot program: a small process between the runner and the bot that owns every
process the bot starts, and ends them all (standard library only: it runs as ``python -I keeper.py``).

    python -I keeper.py CONTROL_FD [--cwd DIR] -- BOT_ARGV...

The runner starts the keeper in a session of its own, with the bot's standard input and output as the
keeper's, and one end of a socket pair as ``CONTROL_FD``. The keeper

- makes itself the *child subreaper* of everything below it (Linux): a process the bot starts and
  orphans, even in a session of its own (``setsid helper &``), becomes the keeper's child, not init's;
- starts the bot (its standard input, output and error are the keeper's; the keeper then lets go of
  its own copies, so the runner sees the bot's output close when the bot's processes are gone) and
  says ``started PID`` on the control socket, or ``failed WHY`` if the program cannot be started;
- when the bot exits, ends every process left below the keeper (SIGKILL, level by level, until none
  is left), says ``exited CODE`` (negative: killed by that signal) and exits;
- when the runner says ``end``, closes the control socket or dies (the socket then closes by itself),
  or the keeper receives SIGTERM, SIGINT or SIGHUP: ends the bot and everything below it, and exits.

Where there is no ``/proc`` (not Linux) the processes below the keeper are found with ``ps``, and a
process that escaped the tree before the keeper looked is not found.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
END_ROUNDS = 200  # kill rounds at most (each one level of a tree that keeps forking)


def _become_subreaper() -> None:
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _parents() -> dict[int, int]:
    """Every live (not zombie) process's parent, by pid."""
    parents: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        names = []
    if names:
        for name in names:
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    fields = stat.read().rpartition(b")")[2].split()
            except OSError:
                continue
            if len(fields) > 1 and fields[0] != b"Z":
                parents[int(name)] = int(fields[1])
        return parents
    try:
        listing = subprocess.run(
            ["ps", "-A", "-o", "pid=", "-o", "ppid=", "-o", "stat="], capture_output=True, timeout=5
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return parents
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) >= 3 and not parts[2].startswith(b"Z"):
            parents[int(parts[0])] = int(parts[1])
    return parents


def _below(root: int) -> list[int]:
    """The live processes below ``root``, parents before their children."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child != root:
                found.append(child)
                todo.append(child)
    return found


class Keeper:
    """The keeper's state: the bot's pid, its exit status once known, the control socket."""

    def __init__(self, control: int) -> None:
        self.control = control
        self.bot = -1
        self.group = -1
        self.status: int | None = None

    def say(self, line: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self.control, line.encode() + b"\n")

    def reap(self) -> None:
        """Collect every child that has exited (orphans of the bot's tree come here too)."""
        while True:
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == self.bot and self.status is None:
                self.status = os.waitstatus_to_exitcode(wait_status)

    def end_all(self) -> None:
        """SIGKILL every process below the keeper, round after round, until none is left."""
        me = os.getpid()
        if self.group > 0:
            with contextlib.suppress(OSError):
                os.killpg(self.group, signal.SIGKILL)
        for _ in range(END_ROUNDS):
            left = _below(me)
            if not left:
                break
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)
            self.reap()
        self.reap()

    def finish(self, code: int = 0) -> None:
        self.end_all()
        if self.status is not None:
            self.say(f"exited {self.status}")
        os._exit(code)


def main(argv: list[str]) -> None:
    """Run the keeper (module docstring) on ``argv`` (without the program name)."""
    control = int(argv[0])
    rest = argv[1:]
    cwd = None
    if rest[:1] == ["--cwd"]:
        cwd, rest = rest[1], rest[2:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    keeper = Keeper(control)
    _become_subreaper()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    for stop in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(stop, lambda signum, frame: keeper.finish())
    try:
        bot = subprocess.Popen(rest, cwd=cwd, process_group=0, close_fds=True)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        if isinstance(err, OSError) and err.filename is None and rest:
            reason = f"{reason}: {rest[0]!r}"
        elif isinstance(err, OSError) and err.filename is not None:
            reason = f"{reason}: {err.filename!r}"
        keeper.say(f"failed {reason}")
        os._exit(127)
    keeper.bot = bot.pid
    keeper.group = bot.pid
    keeper.say(f"started {bot.pid}")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # the bot's input and output are the bot's alone now
    os.dup2(null, 1)
    os.close(null)
    while True:
        keeper.reap()
        if keeper.status is not None:
            keeper.group = -1  # its group may be reused by now; what is left is found below the keeper
            keeper.finish()
        try:
            ready, _, _ = select.select([control, wake_read], [], [], 1.0)
        except InterruptedError:
            continue
        if wake_read in ready:
            with contextlib.suppress(OSError):
                os.read(wake_read, 512)
        if control in ready:
            try:
                data = os.read(control, 512)
            except OSError:
                data = b""
            if not data or b"end" in data:
                keeper.finish()


if __name__ == "__main__":
    main(sys.argv[1:])
