"""Hosting: the public address links are built from (``--public-url`` / ``HANDFOOT_PUBLIC_URL``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from handfoot.cli import app
from handfoot.server.config import Settings, SettingsError, load_settings, public_origin
from handfoot.server.testing import running_server

TWO_SEATS = {"preset": "kitchen-table", "players": 2}


@pytest.mark.parametrize(
    ("raw", "origin"),
    [
        ("https://cards.example.org", "https://cards.example.org"),
        ("  https://Cards.Example.ORG/  ", "https://cards.example.org"),
        ("https://cards.example.org:443/", "https://cards.example.org"),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("HTTP://localhost:80", "http://localhost"),
        ("https://cards.example.org:8443", "https://cards.example.org:8443"),
        ("http://[::1]:8000/", "http://[::1]:8000"),
        ("https://kärten.example", "https://xn--krten-gra.example"),
        ("", ""),
    ],
)
def test_public_url_is_kept_as_the_origin_a_browser_sends(raw: str, origin: str) -> None:
    assert public_origin(raw) == origin
    assert Settings(data_dir=Path("d"), public_url=raw).public_url == origin


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("cards.example.org", "is not an http:// or https:// address"),
        ("ftp://cards.example.org", "is not an http:// or https:// address"),
        ("https:/cards.example.org", "is not an http:// or https:// address"),
        ("https://cards.example.org/handfoot", "has a path (/handfoot)"),
        ("https://cards.example.org/?x=1", "has a query"),
        ("https://cards.example.org/#top", "has a fragment"),
        ("https://me:secret@cards.example.org", "has a user name"),
        ("https://cards.example.org:99999", "port that is not a number from 1 to 65535"),
        ("https://cards.example.org:0", "has port 0"),
        ("https://", "has no host"),
        ("https://cards example.org", "malformed host name"),
        ("https://-cards.example.org", "malformed host name"),
        ("http://[not-an-ip]/", "cannot be read as an address"),
    ],
)
def test_a_bad_public_url_is_refused_saying_what_is_allowed(raw: str, says: str) -> None:
    with pytest.raises(SettingsError) as caught:
        public_origin(raw)
    message = str(caught.value)
    assert says in message and repr(raw) in message
    assert "allowed: an http:// or https:// address" in message
    with pytest.raises(SettingsError):
        load_settings({"HANDFOOT_PUBLIC_URL": raw})


def test_public_url_from_the_environment_or_the_argument() -> None:
    assert load_settings({}).public_url == ""
    env = {"HANDFOOT_PUBLIC_URL": "https://cards.example.org/"}
    assert load_settings(env).public_url == "https://cards.example.org"
    assert load_settings(env, public_url="http://10.0.0.5:8000").public_url == "http://10.0.0.5:8000"
    assert load_settings(env, public_url="").public_url == ""


def test_serve_refuses_a_bad_public_url_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--data", str(tmp_path / "data"), "--public-url", "cards.example.org/play"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: public_url 'cards.example.org/play' is not an http://")
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "data").exists()  # nothing was made


def links(base: str, host: str | None = None) -> tuple[list[str], str]:
    """The invitation links and the watch link of a new two-seat table (asked under ``host`` if given)."""
    headers = {"Host": host} if host else {}
    created = httpx.post(f"{base}/api/tables", json=TWO_SEATS, headers=headers).json()
    return [invite["link"] for invite in created["invites"]], created["watch"]


def test_links_are_built_from_the_public_url(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, public_url="https://cards.example.org/")
    with running_server(settings) as base:
        invites, watch = links(base)
        table_id = watch.rsplit("/", 1)[1]
        assert watch == f"https://cards.example.org/watch/{table_id}"
        assert len(invites) == 2
        assert all(link.startswith(f"https://cards.example.org/play/{table_id}#seat=") for link in invites)


def test_without_a_public_url_links_use_the_address_the_page_was_opened_at(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as base:
        _, watch = links(base)
        assert watch.startswith(f"{base}/watch/")
        # Opened under another name (as a home-network address would be), links follow it.
        _, watch = links(base, "192.168.1.20:8000")
        assert watch.startswith("http://192.168.1.20:8000/watch/")


def test_settings_replace_keeps_the_public_url_checked(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert (
        replace(settings, public_url="https://Cards.Example.org/").public_url == "https://cards.example.org"
    )
    with pytest.raises(SettingsError):
        replace(settings, public_url="https://cards.example.org/game")
