"""docs/hosting.md's set-ups, run for real with the files in deploy/ that the page shows.

- The server is started the way ``deploy/handfoot.service`` starts it (its ``ExecStart``, with the
  settings of ``deploy/handfoot.env``; only the data folder, the port and the public address's port
  changed, and bots, hints and rate limits set for machine speed), behind Debian's nginx with
  ``deploy/nginx-handfoot.conf`` and behind Debian's Caddy with ``deploy/Caddyfile``, each on localhost
  ports with a self-signed certificate for ``cards.example.org``. Through each proxy a table is made (its
  links start with the public address), the page is loaded, and a whole hand is played by two seats over
  WebSocket (each playing the trainer's hint), until the hand is scored; behind nginx, Debian's Chromium
  watches that hand on the watch page (https, the WebSocket as wss) to its score; and two processes on
  one PostgreSQL database and one Redis behind nginx's upstream play a hand across them.
- ``deploy/handfoot-backup`` backs up a running server's SQLite database and a PostgreSQL one, keeps the
  newest copies, and a restore brings the table back as it was.
- The systemd units pass ``systemd-analyze verify``; docs/hosting.md shows every deploy file as it is.

A program a test needs (nginx, caddy, sqlite3, openssl, systemd-analyze, chromium) that is not installed
skips the test, saying which; in CI (``CI=true``) it fails instead: ``make test`` installs them (``make
hosting``, ``make chromium``).
"""

from __future__ import annotations

import faulthandler
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidMessage

from handfoot.server.settings import Settings
from helpers.server import SeatClient, free_port, running_server

pytest_plugins = ["helpers.services"]

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DOC = ROOT / "docs" / "hosting.md"
NAME = "cards.example.org"
START_GUARD = 60.0  # seconds before a program that never comes up fails the test (not a speed check)
HANG_GUARD = 300  # seconds before a test that hangs is stopped, showing every thread (not a speed check)


@pytest.fixture(autouse=True)
def hang_guard() -> Iterator[None]:
    """Stop a test of this module that hangs (a proxy or a socket that never answers) with every
    thread's stack, rather than leave the run waiting forever."""

    def stop(_signal: int, _frame: Any) -> None:
        faulthandler.dump_traceback(all_threads=True)
        raise TimeoutError(f"stopped after {HANG_GUARD} s: the test hung (every thread's stack is above)")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(HANG_GUARD)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def need(program: str, package: str) -> str:
    """The path of ``program``; skips the test (fails it in CI) when it is not installed."""
    path = shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin")
    if path is None:
        message = f"{program} is not installed (apt-get install {package}; `make test` installs it)"
        if in_ci():
            pytest.fail(f"{message}: CI needs it", pytrace=False)
        pytest.skip(message)
    return path


def substitute(text: str, changes: list[tuple[str, str, int]]) -> str:
    """``text`` with each ``(old, new, count)`` replaced, checking ``old`` occurs exactly ``count`` times
    (so a change to a deploy file cannot make the test quietly run something else)."""
    for old, new, count in changes:
        assert text.count(old) == count, f"expected {count} x {old!r} in the deploy file"
        text = text.replace(old, new)
    return text


def env_file() -> dict[str, str]:
    """The settings in deploy/handfoot.env (NAME=value lines; comments and blank lines skipped)."""
    settings: dict[str, str] = {}
    for line in (DEPLOY / "handfoot.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            settings[name] = value
    return settings


def unit_value(unit: str, key: str) -> str:
    """The value of ``key=`` in the systemd unit file ``deploy/<unit>``."""
    found = re.findall(rf"^{key}=(.*)$", (DEPLOY / unit).read_text(), re.M)
    assert len(found) == 1, f"{unit}: one {key}= expected"
    return str(found[0])


def wait_for_port(port: int, process: subprocess.Popen[Any], log: Path) -> None:
    """Wait until something accepts connections on 127.0.0.1:``port``; fail with ``log`` if ``process``
    ends first."""
    deadline = time.monotonic() + START_GUARD
    while True:
        if process.poll() is not None:
            pytest.fail(f"exited with {process.returncode}:\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail(f"nothing listens on port {port}:\n{log.read_text()}")
            time.sleep(0.05)


@contextmanager
def running(command: list[str], log: Path, port: int, env: dict[str, str] | None = None) -> Iterator[None]:
    """Run ``command`` (its output to ``log``) until the block ends, once it listens on ``port``."""
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_for_port(port, process, log)
        yield
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def handfoot_as_the_unit_starts_it(
    tmp: Path, public_url: str, processes: int = 1, shared: dict[str, str] | None = None
) -> Iterator[list[int]]:
    """The server started by handfoot.service's ExecStart with handfoot.env's settings (data folder, port
    and public address moved for the test; bots, hints and rate limits for machine speed), as
    ``processes`` processes on ports of their own with the ``shared`` settings (the database and Redis
    they share); yields their ports."""
    argv = shlex.split(unit_value("handfoot.service", "ExecStart"))
    assert argv[0].endswith("/bin/handfoot"), argv
    assert unit_value("handfoot.service", "EnvironmentFile") == "/etc/handfoot/handfoot.env"
    settings = env_file()
    for name in ("HANDFOOT_DATA", "HANDFOOT_PORT", "HANDFOOT_PUBLIC_URL"):
        assert name in settings, f"handfoot.env sets {name}"
    settings |= {"HANDFOOT_DATA": str(tmp / "data"), "HANDFOOT_PUBLIC_URL": public_url}
    settings |= {"HANDFOOT_BOT_DELAY": "0", "HANDFOOT_HINT_SECONDS": "0"}
    # The hand is played at machine speed, a hint a move: faster than the per-client limits allow people.
    settings |= {"HANDFOOT_RATE_LIMIT": "0"} | (shared or {})
    command = [sys.executable, "-c", "from handfoot.cli import main; main()", *argv[1:]]
    ports = [free_port() for _ in range(processes)]
    with ExitStack() as stack:
        for number, port in enumerate(ports):
            log = tmp / f"handfoot-{number}.log"
            env = os.environ | settings | {"HANDFOOT_PORT": str(port)}
            stack.enter_context(running(command, log, port, env=env))
        yield ports


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate and key for cards.example.org."""
    openssl = need("openssl", "openssl")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            f"/CN={NAME}",
            "-addext",
            f"subjectAltName=DNS:{NAME}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@contextmanager
def behind_nginx(tmp: Path, app_ports: list[int], https_port: int, cert: tuple[Path, Path]) -> Iterator[None]:
    """deploy/nginx-handfoot.conf in a throwaway nginx: its ports and certificate moved, nothing else."""
    nginx = need("nginx", "nginx")
    http_port = free_port()
    site = substitute(
        (DEPLOY / "nginx-handfoot.conf").read_text(),
        [
            ("    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n", 1),
            ("    listen [::]:80;\n", "", 1),
            ("    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{https_port} ssl http2;\n", 1),
            ("    listen [::]:443 ssl http2;\n", "", 1),
            (f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(cert[0]), 1),
            (f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(cert[1]), 1),
            ("    server 127.0.0.1:8000;\n", "".join(f"    server 127.0.0.1:{p};\n" for p in app_ports), 1),
        ],
    )
    (tmp / "site.conf").write_text(site)
    # What Debian's /etc/nginx/nginx.conf gives a site, with every file in the test's folder.
    temp = "".join(f"    {kind}_temp_path {tmp}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi"))
    temp += "".join(f"    {kind}_temp_path {tmp}/{kind};\n" for kind in ("uwsgi", "scgi"))
    (tmp / "nginx.conf").write_text(
        f"worker_processes 1;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\n"
        "events { worker_connections 256; }\n"
        "http {\n    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n"
        f"    access_log {tmp}/access.log;\n{temp}    include {tmp}/site.conf;\n}}\n"
    )
    command = [nginx, "-e", str(tmp / "error.log"), "-p", str(tmp), "-c", str(tmp / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    with running([*command, "-g", "daemon off;"], tmp / "nginx.log", https_port):
        yield


@contextmanager
def behind_caddy(tmp: Path, app_ports: list[int], https_port: int, cert: tuple[Path, Path]) -> Iterator[None]:
    """deploy/Caddyfile in a throwaway Caddy: its upstream port moved and the test's certificate given
    (instead of one from Let's Encrypt); ports and storage set in its global block for the test."""
    caddy = need("caddy", "caddy")
    test_globals = (
        f"\n{{\n\tadmin off\n\thttp_port {free_port()}\n\thttps_port {https_port}\n"
        "\tauto_https disable_redirects\n\tskip_install_trust\n"
    )
    site = substitute(
        (DEPLOY / "Caddyfile").read_text(),
        [
            ("\n{\n", test_globals, 1),
            (f"\n{NAME} {{\n", f"\n{NAME} {{\n\ttls {cert[0]} {cert[1]}\n", 1),
            (
                "reverse_proxy 127.0.0.1:8000\n",
                f"reverse_proxy {' '.join(f'127.0.0.1:{p}' for p in app_ports)}\n",
                1,
            ),
        ],
    )
    (tmp / "Caddyfile").write_text(site)
    home = {"HOME": str(tmp), "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config")}
    command = [caddy, "run", "--adapter", "caddyfile", "--config", str(tmp / "Caddyfile")]
    with running(command, tmp / "caddy.log", https_port, env=os.environ | home):
        yield


@dataclass
class Visitor:
    """A client that reaches https://cards.example.org:PORT at 127.0.0.1 (as DNS would send it there),
    trusting the test's certificate and checking it is for that name."""

    port: int
    cert: Path

    @property
    def site(self) -> str:
        return f"https://{NAME}:{self.port}"

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def request(self, method: str, path: str, **options: Any) -> httpx.Response:
        headers = {"Host": f"{NAME}:{self.port}", **options.pop("headers", {})}
        with httpx.Client(verify=self.tls()) as client:
            return client.request(
                method,
                f"https://127.0.0.1:{self.port}{path}",
                headers=headers,
                extensions={"sni_hostname": NAME},
                **options,
            )

    def seat(self, table_id: str, token: str, origin: str | None = None) -> SeatClient:
        """A seat's WebSocket, opened as a page of ``origin`` (default: the site itself) would. A
        connection the proxy closes before answering the handshake is opened once more, as the page
        reconnects: on a loaded machine nginx has now and then closed one unanswered after its 10 s
        ``client_header_timeout`` (nothing in its logs; the cause is not found); a second one fails."""
        try:
            return self._open_seat(table_id, token, origin)
        except InvalidMessage:
            return self._open_seat(table_id, token, origin)

    def _open_seat(self, table_id: str, token: str, origin: str | None) -> SeatClient:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        options = {"ssl": self.tls(), "sock": sock, "origin": origin or self.site, "open_timeout": 30}
        try:
            return SeatClient(self.site, table_id, token, **options)
        except InvalidMessage:
            sock.close()
            raise


@contextmanager
def through(
    proxy: str, tmp: Path, cert: tuple[Path, Path], processes: int = 1, shared: dict[str, str] | None = None
) -> Iterator[Visitor]:
    """handfoot (``processes`` of it, sharing the ``shared`` settings) behind ``proxy`` (nginx or caddy)
    set up as documented; yields a visitor of the site."""
    start = behind_nginx if proxy == "nginx" else behind_caddy
    visitor = Visitor(free_port(), cert[0])
    with (
        handfoot_as_the_unit_starts_it(tmp, visitor.site, processes, shared) as app_ports,
        start(tmp, app_ports, visitor.port, cert),
    ):
        yield visitor


def new_two_seat_table(visitor: Visitor) -> dict[str, Any]:
    """Create a two-seat table through the proxy; its links start with the public address."""
    created = visitor.request("POST", "/api/tables", json={"preset": "kitchen-table", "players": 2})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    table_id = body["table"]["id"]
    assert body["watch"] == f"{visitor.site}/watch/{table_id}#key={body['watch_key']}"  # private
    assert [i["link"].split("#")[0] for i in body["invites"]] == [f"{visitor.site}/play/{table_id}"] * 2
    assert body["host"]["link"].startswith(f"{visitor.site}/")
    return body


def play_a_hand(visitor: Visitor, table: dict[str, Any]) -> dict[str, Any]:
    """Play a whole hand at ``table`` by its two seats over WebSocket through the proxy, each move the
    trainer's hint; returns the state after the hand's last move."""
    seats = [visitor.seat(table["table"]["id"], invite["token"]) for invite in table["invites"]]
    state: dict[str, Any]
    try:
        state, _ = (seat.state() for seat in seats)  # both seats start at the same version
        while True:
            mover = seats[state["view"]["to_move"]]
            mover.send({"type": "hint", "version": state["version"]})
            hint = mover.until(lambda m: m["type"] == "hint", timeout=30)
            mover.move(hint["move"], state["version"])
            states = [seat.state(state["version"] + 1, timeout=30) for seat in seats]
            state = states[0]
            if any(e["type"] == "hand_over" for e in state["last"]["events"]):
                break
        assert len(state["table"]["hands"]) == 1 and state["view"]["hand_index"] == 1
        return state
    finally:
        for seat in seats:
            seat.close()


@pytest.mark.parametrize("proxy", ["nginx", "caddy"])
def test_a_whole_hand_through_the_documented_proxy(
    proxy: str, tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    with through(proxy, tmp_path, certificate) as visitor:
        table = new_two_seat_table(visitor)
        table_id = table["table"]["id"]
        page = visitor.request("GET", f"/play/{table_id}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert "default-src 'self'" in page.headers["content-security-policy"]
        script = re.search(r'src="(/assets/[^"]+\.js)"', page.text)
        assert script, page.text
        bundle = visitor.request("GET", script[1], headers={"Accept-Encoding": "gzip"})
        assert bundle.status_code == 200 and bundle.headers["content-encoding"] == "gzip"

        # The proxy passes the page's origin on: a page of another address is refused.
        stranger = visitor.seat(table_id, table["invites"][0]["token"], origin=f"https://www.{NAME}")
        assert stranger.welcome["code"] == "bad_origin", stranger.welcome
        stranger.close()

        state = play_a_hand(visitor, table)
        again = visitor.seat(table_id, table["invites"][1]["token"])  # a player who comes back
        assert again.state()["table"]["hands"] == state["table"]["hands"]
        again.close()


def test_a_whole_hand_through_nginx_to_two_processes_on_postgresql_and_redis(
    tmp_path: Path, certificate: tuple[Path, Path], postgres_url: str, redis_url: str
) -> None:
    """The documented move to several processes: two of them on one PostgreSQL database and one Redis,
    both in nginx's upstream, which hands connections to each in turn; the hand is played across them."""
    shared = {"HANDFOOT_DATABASE_URL": postgres_url, "HANDFOOT_REDIS_URL": redis_url}
    with through("nginx", tmp_path, certificate, processes=2, shared=shared) as visitor:
        table = new_two_seat_table(visitor)
        state = play_a_hand(visitor, table)
        again = visitor.seat(table["table"]["id"], table["invites"][0]["token"])
        assert again.state()["table"]["hands"] == state["table"]["hands"]
        again.close()
    for number in (0, 1):  # each process served some of the table's connections
        assert '"WebSocket /ws/tables/' in (tmp_path / f"handfoot-{number}.log").read_text()


CHROMIUM = Path("/usr/bin/chromium")


def test_a_browser_watches_a_whole_hand_through_nginx(tmp_path: Path, certificate: tuple[Path, Path]) -> None:
    """Chromium opens the watch link (https, the WebSocket as wss) and follows the hand to its score."""
    if not CHROMIUM.exists():
        need("chromium", "chromium")
    from playwright.sync_api import sync_playwright

    with through("nginx", tmp_path, certificate) as visitor, sync_playwright() as playwright:
        resolve = f"--host-resolver-rules=MAP {NAME} 127.0.0.1"
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", resolve]
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            context = chromium.new_context(ignore_https_errors=True)  # the test's own certificate
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            table = new_two_seat_table(visitor)
            page.goto(table["watch"])
            page.wait_for_selector("main.felt[data-version='0']", timeout=15_000)
            state = play_a_hand(visitor, table)
            page.wait_for_selector(f"main.felt[data-hands='1'][data-version='{state['version']}']")
            assert not errors, errors
        finally:
            chromium.close()


def backup(tmp: Path, env: dict[str, str], *args: str) -> str:
    """Run deploy/handfoot-backup with ``env``; returns its output (it must succeed)."""
    done = subprocess.run(
        [str(DEPLOY / "handfoot-backup"), *args],
        env=os.environ | {"HANDFOOT_ENV_FILE": str(tmp / "handfoot.env")} | env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def new_table(base: str) -> tuple[str, list[str]]:
    """A new two-seat table: its id and its seat tokens."""
    created = {"preset": "kitchen-table", "players": 2, "public": True}  # its summary is read without a key
    body = httpx.post(f"{base}/api/tables", json=created).json()
    return body["table"]["id"], [invite["token"] for invite in body["invites"]]


def play(base: str, table_id: str, tokens: list[str], moves: int) -> int:
    """Play ``moves`` draw-or-discard moves at the table; returns its version after them."""
    seats = [SeatClient(base, table_id, token) for token in tokens]
    try:
        states = [seat.state() for seat in seats]
        for _ in range(moves):
            version, mover = states[0]["version"], states[0]["view"]["to_move"]
            legal = states[mover]["legal"]
            seats[mover].move(
                "draw" if "draw" in legal else next(t for t in legal if "discard" in t), version
            )
            states = [seat.state(version + 1) for seat in seats]
        return int(states[0]["version"])
    finally:
        for seat in seats:
            seat.close()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_backups_of_a_running_server_restore_the_tables(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    need(
        "sqlite3" if database == "sqlite" else "pg_dump",
        "sqlite3" if database == "sqlite" else "postgresql-client",
    )
    url = "" if database == "sqlite" else str(request.getfixturevalue("postgres_url"))
    (tmp_path / "handfoot.env").write_text(
        f"HANDFOOT_DATA={tmp_path / 'data'}\nHANDFOOT_BACKUP_DIR={tmp_path / 'backups'}\n"
        f"HANDFOOT_BACKUP_KEEP=2\nHANDFOOT_DATABASE_URL={url}\n"
    )
    settings = Settings(data_dir=tmp_path / "data", port=0, bot_delay=0.0, database_url=url)
    with running_server(settings) as base:
        table_id, tokens = new_table(base)
        first = backup(tmp_path, {})  # while the server runs
        saved_at = play(base, table_id, tokens, 6)
        second = backup(tmp_path, {})
        third = backup(tmp_path, {})
        assert play(base, table_id, tokens, 4) == saved_at + 4
    kept = sorted(p.name for p in (tmp_path / "backups").iterdir())
    assert kept == sorted(Path(p).name for p in (second, third))
    assert not Path(first).exists()  # the oldest went: HANDFOOT_BACKUP_KEEP=2
    # Restore the copy made at saved_at: the table is back where it was then, and plays on from there.
    assert backup(tmp_path, {}, "--restore", second) == f"restored {second}"
    with running_server(settings) as base:
        assert play(base, table_id, tokens, 0) == saved_at
        assert play(base, table_id, tokens, 2) == saved_at + 2


def test_restoring_a_damaged_sqlite_copy_changes_nothing(tmp_path: Path) -> None:
    need("sqlite3", "sqlite3")
    (tmp_path / "handfoot.env").write_text(f"HANDFOOT_DATA={tmp_path}\n")
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    with running_server(settings) as base:
        table_id, tokens = new_table(base)
        version = play(base, table_id, tokens, 3)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    done = subprocess.run(
        [str(DEPLOY / "handfoot-backup"), "--restore", str(junk)],
        env=os.environ | {"HANDFOOT_ENV_FILE": str(tmp_path / "handfoot.env")},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr == f"handfoot-backup: {junk} is not a sound SQLite database; nothing was changed\n"
    with running_server(settings) as base:
        assert play(base, table_id, tokens, 0) == version


def test_the_systemd_units_verify(tmp_path: Path) -> None:
    analyze = need("systemd-analyze", "systemd")
    handfoot = Path(sys.executable).parent / "handfoot"
    units = {
        "handfoot.service": ("/opt/handfoot/venv/bin/handfoot", str(handfoot)),
        "handfoot-backup.service": ("/usr/local/bin/handfoot-backup", str(DEPLOY / "handfoot-backup")),
        "handfoot-backup.timer": ("", ""),
    }
    for unit, (installed, here) in units.items():  # the programs where this checkout has them
        text = (DEPLOY / unit).read_text()
        (tmp_path / unit).write_text(substitute(text, [(installed, here, 1)]) if installed else text)
    done = subprocess.run(
        [analyze, "verify", *(str(tmp_path / unit) for unit in units)], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr


SHOWN = re.compile(r"<!-- deploy/(?P<file>[\w.-]+) -->\n```[\w-]*\n(?P<text>.*?)```\n", re.S)


def test_the_hosting_page_shows_every_deploy_file_as_it_is() -> None:
    shown = {m["file"]: m["text"] for m in SHOWN.finditer(DOC.read_text())}
    assert set(shown) == {p.name for p in DEPLOY.iterdir()}
    for name, text in shown.items():
        assert text == (DEPLOY / name).read_text(), f"docs/hosting.md shows an old deploy/{name}"


def test_the_hosting_page_lists_every_setting() -> None:
    """Every HANDFOOT_* variable the program or the backup script reads is in the page's settings table."""
    sources = [*(ROOT / "src" / "handfoot").rglob("*.py"), DEPLOY / "handfoot-backup"]
    read = {name for path in sources for name in re.findall(r"HANDFOOT_[A-Z_]*[A-Z]", path.read_text())}
    listed = set(re.findall(r"^\| `(HANDFOOT_[A-Z_]+)` \|", DOC.read_text(), re.M))
    assert read == listed


def test_the_deploy_files_cap_files_connections_and_headers() -> None:
    """The unit allows the files the server's connection cap needs; both proxies cap a request's headers
    and the time to send them, nginx the connections of one address too (each as docs/hosting.md says)."""
    from handfoot.server.limits import MAX_HEAD_BYTES
    from handfoot.server.settings import DEFAULT_MAX_CONNECTIONS

    files = int(unit_value("handfoot.service", "LimitNOFILE"))
    assert files >= 2 * DEFAULT_MAX_CONNECTIONS  # room for the database, logs and refused connections
    nginx = (DEPLOY / "nginx-handfoot.conf").read_text()
    for line in (
        "limit_conn_zone $binary_remote_addr zone=handfoot_per_address:10m;",
        "limit_conn handfoot_per_address 64;",
        "limit_conn_status 429;",
        "large_client_header_buffers 4 8k;",
        "client_header_timeout 10s;",
        "client_body_timeout 10s;",
    ):
        assert line in nginx, line
    caddy = (DEPLOY / "Caddyfile").read_text()
    assert f"max_header_size {MAX_HEAD_BYTES // 1024}KB" in caddy and "read_header 10s" in caddy
    page = DOC.read_text()
    assert f"LimitNOFILE={files}" in page and f"{DEFAULT_MAX_CONNECTIONS:,}" in page
