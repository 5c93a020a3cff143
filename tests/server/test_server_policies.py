"""Trained policies at a server table: the operator lists them (``--policy NAME=PATH``), a table's creator
picks one by name like a bot level, and nothing a visitor sends names a path.

- A small saved MaskablePPO model (made here, untrained) is listed by the operator; ``/api/bots`` offers
  its name; a table seated with it plays a whole hand through the policy adapter (no fallback bot).
- A visitor naming a path (``policy:...``) or an unlisted name is refused with the allowed names.
- The operator's list is checked at start-up with a clear message: a bad name, a missing file, a name
  given twice, a built-in bot's name, a file that is not a saved model; ``handfoot serve`` says it in one
  line with exit status 2.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from handfoot.cli import app
from handfoot.server.settings import Settings, SettingsError, load_settings, parse_policies
from handfoot.server.tables import seat_bots
from helpers.server import running_server


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small MaskablePPO model for kitchen-table (two players), saved untrained: a real model file."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from handfoot.rl import SingleSeatEnv

    env = SingleSeatEnv("kitchen-table", players=2)
    made = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, policy_kwargs={"net_arch": [8]}, seed=1)
    path = tmp_path_factory.mktemp("models") / "tiny.zip"
    made.save(path)
    return path


@pytest.fixture(autouse=True)
def no_policies_after() -> Iterator[None]:
    """The operator's list is one per process: leave it empty for the next test."""
    yield
    seat_bots.use_policies(())


def test_a_listed_policy_plays_a_hand_at_a_table(
    model: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from handfoot.rl.policy_bot import PolicyBot

    caplog.set_level(logging.INFO, logger="handfoot.server")
    chosen: list[str] = []
    choose_seat = PolicyBot.choose_seat

    def counted(self: PolicyBot, *args: Any) -> Any:
        chosen.append(self.name)
        return choose_seat(self, *args)

    monkeypatch.setattr(PolicyBot, "choose_seat", counted)
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, rate_limit=0, policies=(("tiny", model),))
    with running_server(settings) as base:
        bots = httpx.get(f"{base}/api/bots").json()["bots"]
        assert "tiny" in bots and "medium" in bots
        body = {
            "preset": "kitchen-table",
            "options": {"game_end": "hands", "hands_per_game": 1},
            "players": 2,
            "seats": [{"kind": "bot", "bot": "tiny"}, {"kind": "bot", "bot": "random"}],
            "public": True,
        }
        made = httpx.post(f"{base}/api/tables", json=body)
        assert made.status_code == 201, made.text
        table_id = made.json()["table"]["id"]
        deadline = time.monotonic() + 60
        while not httpx.get(f"{base}/api/tables/{table_id}").json()["finished"]:
            assert time.monotonic() < deadline, "the policy's table did not finish its hand"
            time.sleep(0.2)
    assert chosen and set(chosen) == {"tiny"}, "the policy's seat was not played by the policy"
    messages = [r.getMessage() for r in caplog.records]
    assert any("trained policy tiny" in m for m in messages)
    assert not [m for m in messages if "no bot called" in m or "failed" in m or "refused" in m]


def test_a_visitor_cannot_name_a_path_or_an_unlisted_policy(model: Path, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, rate_limit=0, policies=(("tiny", model),))
    with running_server(settings) as base:
        for name in (f"policy:{model}", str(model), "other"):
            body = {"preset": "kitchen-table", "players": 2, "seats": [{"kind": "bot", "bot": name}] * 2}
            refused = httpx.post(f"{base}/api/tables", json=body)
            assert refused.status_code == 422, refused.text
            assert "allowed:" in refused.text and "tiny" in refused.text


def test_the_operator_list_is_checked(model: Path, tmp_path: Path) -> None:
    assert parse_policies([f"tiny={model}"]) == (("tiny", model.resolve()),)
    assert load_settings({"HANDFOOT_POLICIES": f"a={model},b={model}"}).policies == (
        ("a", model.resolve()),
        ("b", model.resolve()),
    )
    for entry, said in (
        (str(model), "allowed: NAME=PATH"),
        (f"Bad Name={model}", "policy name 'Bad Name'"),
        (f"tiny={tmp_path / 'missing.zip'}", "no such file"),
    ):
        with pytest.raises(SettingsError, match=said):
            parse_policies([entry])
    with pytest.raises(SettingsError, match="given twice"):
        parse_policies([f"tiny={model}", f"tiny={model}"])
    with pytest.raises(ValueError, match="built-in bot's name"):
        seat_bots.use_policies((("medium", model),))
    not_a_model = tmp_path / "notes.zip"
    not_a_model.write_text("not a model")
    with pytest.raises(ValueError, match=r"policy junk=.*: not a saved model"):
        seat_bots.use_policies((("junk", not_a_model),))
    assert "junk" not in seat_bots.bot_names()


def test_serve_says_a_bad_policy_in_one_line(tmp_path: Path) -> None:
    not_a_model = tmp_path / "notes.zip"
    not_a_model.write_text("not a model")
    for entry, said in ((f"junk={not_a_model}", "not a saved model"), ("junk", "allowed: NAME=PATH")):
        result = CliRunner().invoke(
            app, ["serve", "--port", "0", "--data", str(tmp_path / "data"), "--policy", entry]
        )
        assert result.exit_code == 2, result.output
        assert said in result.output and "Traceback" not in result.output


def test_the_start_line_names_the_policies(model: Path, tmp_path: Path) -> None:
    from handfoot.server.process.run import startup_line

    settings = Settings(data_dir=tmp_path, policies=(("tiny", model),))
    assert startup_line(settings, 8000).endswith(f"; policy tiny: {model}]")
    assert "policy" not in startup_line(Settings(data_dir=tmp_path), 8000)


def test_a_seat_whose_policy_is_gone_gets_the_default_bot(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="handfoot.server")
    with pytest.raises(ValueError, match="unknown bot"):
        seat_bots.make_bot("ppo-retired")
    bot = seat_bots.seat_bot("ppo-retired")
    assert type(bot) is type(seat_bots.make_bot(seat_bots.default_bot()))
    assert "no bot called 'ppo-retired' on this server now" in caplog.text
