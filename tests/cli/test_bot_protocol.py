"""The bot protocol (docs/bot-protocol.md): programs as seats of a tournament, the example bots, and
every way a bad bot can fail, each reported on stderr with no harm to the game."""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from handfoot.engine import Game, Phase
from handfoot.engine.moves import Action, parse_move
from handfoot.protocol.offers import BadReply, resolve_reply, seat_offers
from handfoot.protocol.process import command_argv
from handfoot.record import parse_record
from handfoot.rules import PRESET_NAMES
from handfoot.rules import preset as get_preset
from handfoot.sim.seats import check_seat, parse_seats, seat_kind, split_seats
from handfoot.sim.tournament import (
    GameOutcome,
    TournamentConfig,
    check_config,
    play_game,
    run_tournament,
)
from helpers.dead_ends import dead_ends, describe

ROOT = Path(__file__).resolve().parents[2]
PY = shlex.quote(sys.executable)
PY_BOT = f"cmd:{PY} {ROOT / 'examples/bots/first_legal.py'}"
JS_BOT = f"cmd:node {ROOT / 'examples/bots/first_legal.js'}"
BAD_BOT = ROOT / "tests/fixtures/bots/bad_bot.py"


def bad(mode: str) -> str:
    return f"cmd:{PY} {BAD_BOT} {mode}"


def config(seats: tuple[str, ...], **kw: object) -> TournamentConfig:
    options: dict[str, object] = {"games": 1, "seed": 3, "single_hands": True, "move_time": 5.0}
    options.update(kw)
    return TournamentConfig(get_preset("kitchen-table"), len(seats), seats, **options)  # type: ignore[arg-type]


def test_seat_specs_split_at_commas_outside_quotes() -> None:
    assert split_seats("heuristic,'cmd:python a.py --x 1,2',random") == [
        "heuristic",
        "'cmd:python a.py --x 1,2'",
        "random",
    ]
    assert parse_seats("cmd:python bot.py,heuristic", 4) == ("cmd:python bot.py", "heuristic") * 2
    assert [seat_kind(s) for s in ("hard", "cmd:x", "policy:m.zip", "python:a:b", "ismcts:2s")] == [
        "bot",
        "cmd",
        "policy",
        "python",
        "bot",
    ]


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("cmd:", "needs a command"),
        ("cmd:python 'unclosed", "No closing quotation"),
        ("policy:/no/such/model.zip", "no such file"),
        ("python:nomodule", "python:MODULE:FACTORY"),
        ("python:no_such_module_x:make", "cannot import"),
        ("python:json:no_such_factory", "has no callable"),
        ("nobot", "unknown bot"),
    ],
)
def test_a_bad_seat_spec_is_refused_before_play(spec: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        check_seat(spec)


def test_bad_runner_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="--move-time"):
        check_config(config(("random", "random"), move_time=0.0))
    with pytest.raises(ValueError, match="allowed: forfeit, fallback"):
        check_config(config(("random", "random"), on_bot_error="ignore"))
    with pytest.raises(ValueError, match="unknown bot"):
        check_config(config(("random", "random"), fallback="nobody"))


def test_offers_have_ids_and_texts_and_replies_resolve_either_way() -> None:
    game = Game(get_preset("kitchen-table"), 2, seed=5)
    offers = seat_offers(game)
    assert [o.id for o in offers if o.id is not None] == game.legal_ids()
    draw = next(o for o in offers if o.text == "draw")
    assert resolve_reply(draw.id, offers, game) == draw.move
    assert resolve_reply("draw", offers, game) == draw.move
    with pytest.raises(BadReply, match="was not offered"):
        resolve_reply(999, offers, game)
    with pytest.raises(BadReply, match="not a move"):
        resolve_reply("fly away", offers, game)
    with pytest.raises(BadReply, match="illegal"):
        resolve_reply("discard 5H", offers, game)  # drawing comes first
    with pytest.raises(BadReply, match="allowed: an offered id"):
        resolve_reply(True, offers, game)


def test_the_python_example_imports_nothing_from_handfoot_and_is_short() -> None:
    for path in (ROOT / "examples/bots/first_legal.py", ROOT / "examples/bots/first_legal.js"):
        text = path.read_text()
        assert len(text.splitlines()) < 150
        assert "handfoot." not in text.replace("handfoot bot", "").replace("handfoot simulate", "")
    imports = [
        ln for ln in (ROOT / "examples/bots/first_legal.py").read_text().splitlines() if "import" in ln
    ]
    assert sorted(ln.strip() for ln in imports if ln.startswith("import")) == ["import json", "import sys"]
    assert "require(" in (ROOT / "examples/bots/first_legal.js").read_text()
    assert [
        ln for ln in (ROOT / "examples/bots/first_legal.js").read_text().splitlines() if "require(" in ln
    ] == ['const readline = require("readline");']


@pytest.mark.parametrize("bot", [PY_BOT, JS_BOT], ids=["python", "node"])
@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_each_example_plays_whole_legal_games(bot: str, opponent: str) -> None:
    """Whole games (every move verified by the engine, no failure, no cap), seats alternating."""
    tournament = TournamentConfig(get_preset("kitchen-table"), 2, (bot, opponent), games=2, seed=1)
    summary = run_tournament(tournament)
    data = summary.to_json()
    assert data["bot_errors"] == [] and data["capped"] == 0 and data["forfeits"] == 0
    assert data["games"] == 2
    for outcome in summary.outcomes:
        assert max(outcome.totals) >= tournament.rules.target_score
    assert data["sides"][0]["decision_ms"]["mean"] > 0


FAILURES = [
    ("crash", "exited with status 3"),
    ("hang", "wrote no answer within 3 s"),
    ("garbage", "wrote 'I think I will draw', which is not JSON"),
    ("illegal", "chose a move it may not play: move 999 was not offered"),
    ("illegaltext", "chose a move it may not play: 'discard JK JK JK' is not a move"),
    ("flood", "flooded its output (a line longer than 65536 bytes)"),
    ("badhello", "speaks protocol 7; this runner speaks 1"),
    ("nodecision", 'wrote a "move" line without "decision" (this is decision 3)'),
    ("bignumber", "wrote a number of more than 4300 digits; allowed: move ids and numbers of at most 4300"),
    ("deep", "wrote arrays or objects nested too deep to read"),
]


@pytest.mark.parametrize(("mode", "said"), FAILURES, ids=[m for m, _ in FAILURES])
def test_a_failing_bot_forfeits_with_a_clear_line(
    mode: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome = play_game(config((bad(mode), "heuristic"), move_time=3.0), 0)
    err = capsys.readouterr().err
    line = next(ln for ln in err.splitlines() if ln.startswith("bot error:"))
    decision = "the handshake" if mode == "badhello" else "decision 3"
    assert f"bot error: seat 0, {bad(mode)}" in line
    assert f"game 0, hand 0, {decision}: {said}" in line
    assert line.endswith("side 0 forfeits the game")
    assert outcome.forfeited == 0 and len(outcome.failures) == 1
    assert outcome.failures[0]["what"].startswith(said)


@pytest.mark.parametrize("mode", ["crash", "garbage", "illegal", "extra"])
def test_with_fallback_a_bot_finishes_the_game(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    outcome = play_game(config((bad(mode), "random"), on_bot_error="fallback", single_hands=False), 0)
    err = capsys.readouterr().err
    assert "heuristic plays the seat to the end" in err
    if mode == "extra":
        assert "nobody asked for" in err or "answered decision 3, not 4" in err
    assert outcome.forfeited is None and not outcome.capped
    assert max(outcome.totals) >= get_preset("kitchen-table").target_score  # the whole game was played


def test_a_bot_writing_many_lines_nobody_asked_for_fails(capsys: pytest.CaptureFixture[str]) -> None:
    """100 answers to one decision: at the next decision the runner finds the unasked lines, or, where
    more than 64 of them came in with the answer it was reading (how many did depends on how fast the
    bot wrote them), the reader calls it a flood at that decision; nothing of them is played."""
    outcome = play_game(config((bad("spam"), "random")), 0)
    failure = outcome.failures[0]
    what = failure["what"]
    if failure["decision"] == 3:
        assert "flooded its output" in what
    else:
        assert failure["decision"] == 4
        assert "nobody asked for" in what or "answered decision 3, not 4" in what
    assert outcome.forfeited == 0


def test_a_forfeit_counts_as_a_loss_in_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_tournament(config((bad("crash"), "random"), games=2))
    data = summary.to_json()
    assert data["forfeits"] == 2 and data["sides"][0]["wins"] == 0 and data["sides"][1]["wins"] == 2
    assert [e["game"] for e in data["bot_errors"]] == [0, 1]
    assert json.dumps(data)  # the failures are plain JSON


def test_a_program_that_cannot_start_is_a_failure(capsys: pytest.CaptureFixture[str]) -> None:
    outcome = play_game(config(("cmd:/no/such/program", "random")), 0)
    assert "could not be started" in outcome.failures[0]["what"]


def test_no_bot_outlives_its_game() -> None:
    """A bot that hangs is killed (its keeper ends its whole tree), so nothing is left after the game."""
    mark = f"outlives-{uuid.uuid4().hex}"  # this game's bot only, not another test's hanging one
    play_game(config((f"{bad('hang')} {mark}", "random"), move_time=0.5), 0)
    left = subprocess.run(["pgrep", "-f", f"{BAD_BOT} hang {mark}"], capture_output=True, text=True)
    assert left.stdout.strip() == ""


def test_simulate_command_runs_a_program_seat(tmp_path: Path) -> None:
    argv = [
        sys.executable,
        "-m",
        "handfoot",
        "simulate",
        "--rules",
        "kitchen-table",
        "--players",
        "2",
        "--seats",
        f"{PY_BOT},heuristic",
        "--games",
        "1",
        "--hands",
        "--workers",
        "1",
        "--json",
        "-q",
    ]
    done = subprocess.run(argv, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["sides"][0]["bots"] == [f"{PY_BOT}"] and data["bot_errors"] == []


def test_command_argv_splits_like_a_shell() -> None:
    assert command_argv("node 'my bot.js' --level 2") == ["node", "my bot.js", "--level", "2"]


def highest_legal() -> object:
    """A policy factory for ``python:``: always the highest legal action (which, staging and cancelling,
    would never end a turn on its own)."""
    return lambda obs, mask: int(np.flatnonzero(mask)[-1])


@pytest.mark.parametrize("rules", ["kitchen-table", "family", "marmot", "in-laws", "head-and-foot"])
def test_a_policy_callable_takes_a_seat_and_plays_legal_hands(rules: str) -> None:
    """``python:MODULE:FACTORY`` making an ``(observation, mask) -> action`` callable: the adapter plays
    whole legal hands under every preset, even for a policy that would stage and cancel forever."""
    ruleset = get_preset(rules)
    seats = parse_seats("python:test_bot_protocol:highest_legal,random", ruleset.default_players)
    data = run_tournament(
        TournamentConfig(ruleset, ruleset.default_players, seats, games=1, seed=2, single_hands=True)
    ).to_json()
    assert data["hands"] == 1 and data["capped"] == 0


def test_a_policy_bot_is_a_single_seat_env_opponent() -> None:
    """Self-play against frozen copies: ``SingleSeatEnv`` takes ``Bot`` objects and seat specs."""
    from handfoot.rl.policy_bot import PolicyBot
    from handfoot.rl.single import SingleSeatEnv

    frozen = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[0]), name="frozen")
    env = SingleSeatEnv("kitchen-table", 2, opponents=frozen, max_cycles=200)
    env.reset(seed=1)
    assert env.bot_names == {1: "frozen"}
    done = False
    steps = 0
    while not done:
        mask = env.action_masks()
        _obs, _reward, terminated, truncated, _info = env.step(int(np.flatnonzero(mask)[0]))
        done = terminated or truncated
        steps += 1
    assert steps > 10
    with pytest.raises(ValueError, match="is a program"):
        SingleSeatEnv("kitchen-table", 2, opponents=PY_BOT)
    assert SingleSeatEnv(
        "kitchen-table", 2, opponents="python:test_bot_protocol:highest_legal"
    ).bot_names == {1: "python:test_bot_protocol:highest_legal"}


def test_a_policy_bot_also_chooses_from_a_frozen_view() -> None:
    """Runners that hand a ``View`` (the server, hints) get a legal move from a policy too."""
    from handfoot.bots.base import legal_for
    from handfoot.engine.views import view
    from handfoot.rl.policy_bot import PolicyBot

    bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[-1]))
    game = Game(get_preset("kitchen-table"), 2, seed=9)
    rng = random.Random(1)
    for _ in range(60):
        state = game.state
        legal = legal_for(state, game.legal_ids())
        move = bot.choose(view(state, state.to_move), legal, rng)
        game.apply(move)  # verified: raises if the policy's move were illegal


def test_simulate_names_failures_on_stderr_and_notes_them_under_the_table() -> None:
    argv = [
        sys.executable,
        "-m",
        "handfoot",
        "simulate",
        "--players",
        "2",
        "--seats",
        f"{bad('crash')},random",
    ]
    argv += ["--games", "2", "--hands", "--workers", "1", "-q", "--on-bot-error", "fallback"]
    done = subprocess.run(argv, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("bot error: seat 0,") == 2 and "exited with status 3" in done.stderr
    assert (
        "note: 2 bot failures (each named on standard error above); heuristic finished them." in done.stdout
    )


RECORDING_BOT = """
import json, sys
log = open(sys.argv[1], "w")
for raw in sys.stdin:
    line = json.loads(raw)
    log.write(raw)
    log.flush()
    if line["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "recorder"}), flush=True)
    elif line["type"] == "decision":
        move = line["legal"][0]["id"]
        print(json.dumps({"type": "move", "decision": line["decision"], "move": move}), flush=True)
"""


def test_decisions_carry_the_offers_and_game_end_names_the_hands_winner(tmp_path: Path) -> None:
    """Each decision's ``offers`` are the engine's: every step of every card's places is an offered id;
    a game of one hand (``--hands``) ends with ``game_end`` naming the side that scored most."""
    script = tmp_path / "recorder.py"
    script.write_text(RECORDING_BOT)
    log = tmp_path / "lines.jsonl"
    seats = (f"cmd:{PY} {script} {log}", "heuristic")
    outcome = play_game(config(seats), 0)
    lines = [json.loads(raw) for raw in log.read_text().splitlines()]
    decisions = [line for line in lines if line["type"] == "decision"]
    assert decisions
    placed = 0
    for decision in decisions:
        offered = {entry["id"] for entry in decision["legal"]}
        offers = decision["offers"]
        if offers is None:
            continue
        assert (
            sorted(c["card"] for c in offers["cards"]) == sorted(set(decision["view"]["hand"]))
            or offers["staged"]
        )
        for card in offers["cards"]:
            for place in card["places"]:
                for step in place["steps"]:
                    assert step["id"] in offered and card["card"] in step["move"]
                    placed += 1
    assert placed > 0
    end = lines[-1]
    assert end["type"] == "game_end" and end["reason"] == "finished"
    scores = outcome.hand_scores[0]
    assert end["totals"] == scores
    best = [side for side, points in enumerate(scores) if points == max(scores)]
    assert end["winner"] == (best[0] if len(best) == 1 else None) and end["winner"] is not None


def test_the_documented_decision_is_whole_and_its_offers_name_offered_ids() -> None:
    """docs/bot-protocol.md's decision example is a whole line: no elided entry in its lists, and each
    step of its offers is one of its legal ids, the move text naming the card it is listed under."""
    text = (ROOT / "docs" / "bot-protocol.md").read_text()
    start = text.index('```json\n{"type": "decision"') + len("```json\n")
    line = json.loads(text[start : text.index("```", start)])
    assert "..." not in json.dumps(line)
    legal = {entry["id"]: entry["text"] for entry in line["legal"]}
    for card in line["offers"]["cards"]:
        assert card["card"] in line["view"]["hand"]
        for place in card["places"]:
            for step in place["steps"]:
                assert legal[step["id"]] == step["move"] and card["card"] in step["move"]


OFFERS_BOT = f"cmd:{PY} {ROOT / 'tests/fixtures/bots/offers_bot.py'}"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_example_bot_and_a_bot_from_the_document_meet_no_dead_end(
    name: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """The example bot (examples/bots/first_legal.py) and a bot written from docs/bot-protocol.md alone
    (tests/fixtures/bots/offers_bot.py: its moves built from the decisions' ``offers``, a natural of the
    pile's top rank staged first, the shape that once led only to ``cancel``) play single hands of every
    preset against each other: neither ever plays ``cancel`` (the document's bot says ``dead end`` where
    nothing else is offered), at every position with groups staged each offered step leads to a completed
    action (``helpers.dead_ends``; random play checks every staging position), and the document's bot
    opens by staging in the play phase."""
    rules = get_preset(name)
    players = min(rules.players_allowed)
    seats = tuple(OFFERS_BOT if seat % 2 == 0 else PY_BOT for seat in range(players))
    tournament = TournamentConfig(rules, players, seats, games=2, seed=11, single_hands=True, records=True)
    played: list[tuple[list[str], dict[str, Any]]] = []

    def keep(outcome: GameOutcome) -> None:
        assert outcome.record is not None
        played.append((outcome.seats, outcome.record))

    data = run_tournament(tournament, on_game=keep).to_json()
    assert data["bot_errors"] == [] and data["capped"] == 0 and data["forfeits"] == 0
    assert "dead end" not in capfd.readouterr().err
    assert len(played) == 2
    staged_plays = checked = 0
    for seat_specs, data_record in played:
        record = parse_record(data_record)
        game = record.new_game()
        for text in record.moves:
            s = game.state
            move = parse_move(text)
            if s.staged:
                nowhere = dead_ends(s)
                assert not nowhere, f"{name}: {nowhere} lead nowhere ({describe(s)})"
                checked += 1
            assert move.action is not Action.CANCEL, f"{name}: seat {s.to_move} cancelled ({describe(s)})"
            if move.action is Action.STAGE and seat_specs[s.to_move] == OFFERS_BOT:
                staged_plays += s.phase is Phase.PLAY
            game.apply_written(move)
    assert checked > 0 and staged_plays > 0
