"""``handfoot play``: the terminal game, driven by its keys (Textual's Pilot), and the real command in
tmux at 80x24, read back with capture-pane."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from handfoot import cards as C
from handfoot.engine import IllegalMove
from handfoot.engine.moves import parse_move
from handfoot.rules import preset
from handfoot.tui.app import HandOverScreen, PlayApp
from handfoot.tui.cards import card_label
from handfoot.tui.source import LocalTable

ROOT = Path(__file__).resolve().parents[2]
CARD_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")  # a card named in the notation, not in words


def local_app(
    rules: str = "kitchen-table", players: int = 4, seed: int = 3, ascii_only: bool = False
) -> PlayApp:
    table = LocalTable(preset(rules), players, ["heuristic"], seed=seed, hint_seconds=0)
    return PlayApp(table, ascii_only=ascii_only, bot_delay=0)


async def my_turn(app: PlayApp, pilot: object) -> None:
    """Wait (the bots play on the app's timer) until the player is to move or the game is over."""
    for _ in range(2000):
        snap = app.source.snapshot()
        if snap.finished or snap.view["to_move"] == app.source.seat or isinstance(app.screen, HandOverScreen):
            return
        await pilot.pause(0.01)  # type: ignore[attr-defined]
    raise AssertionError("the bots never handed the turn back")


async def choose_cards(app: PlayApp, pilot: object, codes: list[str]) -> None:
    """Select ``codes`` in the hand with the cursor keys and space, as a player would: from where the
    cursor is, or from the hand's first or last card (home, end), whichever takes fewer keys."""
    for code in codes:
        cards = app.available()
        index = next(i for i, c in enumerate(cards) if c == code and i not in app.selected)
        ways = [
            [("right" if index > app.cursor else "left")] * abs(index - app.cursor),
            ["home", *["right"] * index],
            ["end", *["left"] * (len(cards) - 1 - index)],
        ]
        await pilot.press(*min(ways, key=len), "space")  # type: ignore[attr-defined]
        assert app.cursor == index and index in app.selected


def cards_of(move: str) -> list[str]:
    """The card codes a move's text names (no verbs, no rank names of wild groups), sorted."""
    words = move.replace("|", " ").split()
    return sorted(w for w in words[1:] if not w.endswith(":"))


def played_cards(table: LocalTable, version: int) -> list[str]:
    """The cards the player's moves since ``version`` named, sorted (staged cards once)."""
    moves = [e["move"] for e in table.history[version:] if e["seat"] == table.seat]
    return sorted(code for move in moves for code in cards_of(move))


@pytest.mark.parametrize(("rules", "players"), [("kitchen-table", 4), ("family", 3), ("marmot", 2)])
def test_a_whole_hand_played_by_keys(rules: str, players: int) -> None:
    """Every decision of the player's seat made with keys: the trainer's move (h) played by the keys
    that make it (cards selected with the cursor and space, then d, x, m, p...), or with enter when
    no single key makes it; the hand ends and the score sheet (s) shows it."""

    async def run() -> None:
        app = local_app(rules, players)
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.source
            assert isinstance(table, LocalTable)
            decisions = 0
            keyed = {"x": 0, "meld": 0, "pickup": 0}
            while not table.game.results:
                await my_turn(app, pilot)
                if table.game.results:
                    break
                version = table.version
                await pilot.press("h")
                assert str(app.message).startswith("Hint: ")
                move = app.suggested or ""
                verb, _, rest = move.partition(" ")
                groups = [group.split() for group in rest.split("|")] if rest else []
                if verb in ("draw", "ask", "yes", "no", "keep", "swap"):
                    await pilot.press(
                        {"draw": "d", "ask": "a", "yes": "y", "no": "n", "keep": "k", "swap": "w"}[verb]
                    )
                elif verb == "discard":
                    await choose_cards(app, pilot, groups[0])
                    await pilot.press("x")
                    keyed["x"] += 1
                elif verb in ("meld", "pickup") and all(":" not in c for g in groups for c in g):
                    down = app.places is not None and app.places["opening"] is None
                    if verb == "pickup" and down:  # take the pile, then lay the other groups one by one
                        await choose_cards(app, pilot, groups[0])
                        await pilot.press("p")
                        for group in groups[1:]:
                            await choose_cards(app, pilot, group)
                            await pilot.press("m")
                    elif verb == "pickup":  # stage the opening's other groups, then take the pile
                        for group in groups[1:]:
                            await choose_cards(app, pilot, group)
                            await pilot.press("g")
                        await choose_cards(app, pilot, groups[0])
                        await pilot.press("p")
                    else:  # stage each group and lay them (an opening), or lay each (a side down)
                        for group in groups[:-1]:
                            await choose_cards(app, pilot, group)
                            await pilot.press("m" if down else "g")
                        await choose_cards(app, pilot, groups[-1])
                        await pilot.press("m")
                    keyed[verb] += 1
                else:
                    await pilot.press("enter")
                assert table.version > version, f"{move}: {app.message}"  # the move was played
                assert played_cards(table, version) == cards_of(move), (move, app.message)
                decisions += 1
            assert decisions > 3 and keyed["x"] > 0 and keyed["meld"] + keyed["pickup"] > 0, keyed
            assert [e["seat"] for e in table.history].count(table.seat) >= decisions
            await pilot.pause(0.05)
            assert str(app.message).startswith("Hand 1 is over: Us ")
            # the end of the hand stays, the table waiting, until a key is pressed: each side's score
            # item by item
            assert isinstance(app.screen, HandOverScreen)
            version = table.version
            await pilot.pause(0.2)
            assert isinstance(app.screen, HandOverScreen) and table.version == version
            shown = str(app.screen.query_one("#page").render())
            result = table.game.results[0]
            assert "this hand" in shown and "cards on the table" in shown
            assert all(str(score) in shown for score in result.scores)
            await pilot.press("space")
            assert not isinstance(app.screen, HandOverScreen)
            await pilot.press("s")
            sheet = str(app.screen.query_one("#page").render())
            scores = table.game.results[0].scores
            assert str(scores[0]) in sheet and str(scores[1]) in sheet
            await pilot.press("escape")
            await pilot.press("q")
        assert app.return_code == 0

    asyncio.run(run())


def test_select_stage_meld_and_discard_by_keys_and_refusals_in_the_engines_words() -> None:
    async def run() -> None:
        app = local_app(seed=11)
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.source
            assert isinstance(table, LocalTable)
            await my_turn(app, pilot)
            assert table.game.state.phase.name.lower() == "draw"
            # a discard before drawing: refused, in the engine's own sentence, and nothing changed
            card = app.available()[0]
            try:
                table.game.verify(parse_move(f"discard {card}"))
            except IllegalMove as err:
                expected = err.message
            version = table.version
            await pilot.press("home", "x")
            assert str(app.message) == expected and table.version == version
            await pilot.press("d")  # draw
            assert table.version == version + 1 and table.game.state.phase.name.lower() == "play"
            # two cards are no group the table offers to stage: they are sent whole, nothing is staged,
            # and the engine's own sentence says why
            pair = app.available()[:2]
            try:
                table.game.verify(parse_move(f"stage {' '.join(pair)}"))
            except IllegalMove as err:
                expected = err.message
            await pilot.press("home", "space", "right", "space", "g")
            assert app.staged == [] and table.version == version + 1
            assert str(app.message) == expected
            await pilot.press("u")
            assert str(app.message) == "Nothing is staged."
            await pilot.press("escape")
            app.selected = set()
            # discard the card under the cursor: the turn passes
            hand_before = list(app.available())
            await pilot.press("end", "x")
            mine = [e for e in table.history if e["seat"] == table.seat]
            assert mine[-1]["move"] == f"discard {hand_before[-1]}"
            await pilot.press("t")  # the history, one key away
            page = str(app.screen.query_one("#page").render())
            assert f"discarded {card_label(hand_before[-1])}." in page and "discard " not in page
            await pilot.press("escape", "question_mark")
            assert "take the pile" in str(app.screen.query_one("#page").render())
            await pilot.press("escape", "q")

    asyncio.run(run())


def test_ascii_mode_draws_no_symbols() -> None:
    async def run() -> None:
        for ascii_only in (True, False):
            app = local_app(ascii_only=ascii_only)
            async with app.run_test(size=(80, 24)) as pilot:
                await my_turn(app, pilot)
                hand = str(app.query_one("#hand").render())
                screen = "\n".join(
                    str(app.query_one(f"#{part}").render()) for part in ("status", "table", "hand")
                )
                if ascii_only:
                    assert screen.isascii(), screen
                    assert app.available()[0] in hand
                else:
                    assert any(symbol in hand for symbol in "♠♥♦♣")
                await pilot.press("q")

    asyncio.run(run())


def test_the_real_command_in_tmux_at_80x24(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("tmux is not installed: make terminal installs it")
        pytest.skip("tmux is not installed (make terminal installs it)")
    session = f"handfoot-play-{tmp_path.name}"
    command = (
        f"cd {ROOT} && PYTHONPATH={ROOT / 'src'} {sys.executable} -m handfoot play --seed 3 --bot-delay 0 "
        f"--hint-seconds 0"
    )
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command], check=True)

    def screen() -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True)
        return done.stdout

    def wait_for(text: str) -> str:
        for _ in range(300):
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{shown}")

    try:
        wait_for("your turn")
        shown = wait_for(" h hint ")
        lines = shown.splitlines()
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
        assert "kitchen-table · hand 1" in shown and "Your hand (11)" in shown
        assert "North (medium) · partner" in shown.replace("(heuristic)", "(medium)")
        assert " d draw " in shown and " x discard " in shown
        subprocess.run(["tmux", "send-keys", "-t", session, "d"], check=True)
        wait_for("You drew 2 cards.")
        assert "Your hand (13)" in screen()
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        for _ in range(100):
            if subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("q did not end the game")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def discard_refusal_before_drawing() -> str:
    """The engine's sentence for a discard before drawing (what the server sends and the browser shows)."""
    from handfoot.engine import Game

    game = Game(preset("kitchen-table"), 2, seed=1)
    card = C.codes(game.seat_info(game.state.to_move).hand)[0]
    try:
        game.verify(parse_move(f"discard {card}"))
    except IllegalMove as err:
        return err.message
    raise AssertionError("a discard before drawing was legal")


def test_play_at_a_server_table_by_its_seat_link(tmp_path: Path) -> None:
    """``handfoot play LINK``: the same app at a live table over the WebSocket protocol: moves by keys,
    the server's refusal sentence (the browser's) shown as it is, a dropped connection reopened."""
    import httpx

    from handfoot.protocol.link import parse_seat_link
    from handfoot.server.settings import Settings
    from handfoot.tui.source import LiveTable
    from helpers.server import running_server

    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    with running_server(settings) as base:
        body = {
            "preset": "kitchen-table",
            "players": 2,
            "seats": [{"kind": "invite"}, {"kind": "bot", "bot": "random"}],
        }
        created = httpx.post(f"{base}/api/tables", json=body).json()
        table = LiveTable(parse_seat_link(created["invites"][0]["link"]), name="Ann")
        table.wait_state()

        async def run() -> None:
            app = PlayApp(table, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                await my_turn(app, pilot)
                snap = table.snapshot()
                assert snap.names[0] == "You" and snap.view["phase"] == "draw"
                # the bot's seat named as the browser names it, on the table's lines
                assert snap.names[1] == "Random bot 2"
                assert "Random bot 2: " in str(app.query_one("#table").render())
                await pilot.press("home", "x")
                assert str(app.message) == discard_refusal_before_drawing()
                await pilot.press("d")
                for _ in range(200):
                    if table.snapshot().version > snap.version:
                        break
                    await pilot.pause(0.02)
                assert table.snapshot().view["phase"] == "play"
                assert table.snapshot().history[-1]["move"] == "draw"
                connection = table.connection._ws
                assert connection is not None
                connection.close()  # the connection drops: the table reconnects, welcome back
                for _ in range(200):
                    if "Reconnected: welcome back." in table.snapshot().notes:
                        break
                    await pilot.pause(0.02)
                assert (
                    "Reconnected: welcome back." in str(app.message)
                    or "Reconnected: welcome back." in table.snapshot().notes
                )
                await pilot.press("end", "x")
                for _ in range(200):
                    if table.snapshot().version >= snap.version + 2:
                        break
                    await pilot.pause(0.02)
                assert any(e["move"].startswith("discard") for e in table.snapshot().history)
                await pilot.press("q")

        asyncio.run(run())
        summary = httpx.get(
            f"{base}/api/tables/{created['table']['id']}", headers={"X-Handfoot-Key": created["watch_key"]}
        ).json()
        assert summary["seats"][0]["name"] == "Ann"


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["--players", "9"], 1, "is played by"),
        (["--rules", "family", "--players", "11"], 1, "family is played by 2, 3, 4, 5, 6, 7, 8, 9 or 10"),
        (  # family (002) seats ten; the terminal's seats are named You, West, ... Southwest
            ["--rules", "family", "--players", "9"],
            1,
            "the terminal table seats up to 8 players, not 9; family plays here with 2, 3, 4, 5, 6, 7 or 8",
        ),
        (["--bots", "nobot"], 2, "unknown bot"),
        (["--rules", "no-such-rules"], 2, "no-such-rules"),
        (["http://127.0.0.1:1/watch/abc#key=k"], 2, "no /play/TABLE"),
        (["http://127.0.0.1:1/play/abc#seat=token123"], 1, "cannot connect"),
    ],
)
def test_bad_play_options_are_refused_before_the_game_starts(args: list[str], status: int, said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "handfoot", "play", *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": os.environ.get("PATH", "")},
        timeout=120,
    )
    assert done.returncode == status, done.stderr
    assert said in done.stderr


def dealt_app(hand: str, other: str, discard: str) -> PlayApp:
    """A two-player kitchen-table game whose first player (the app's seat) holds ``hand``."""
    from handfoot.engine import DealSpec, Game

    rules = preset("kitchen-table")
    table = LocalTable(rules, 2, ["heuristic"], seed=0, hint_seconds=0)
    parse = lambda text: tuple(C.parse_card(code) for code in text.split())  # noqa: E731
    deal = DealSpec(hands=(parse(hand), parse(other)), stock_top=parse("7D 7H"), discard=parse(discard))
    table.game = Game(rules, 2, seed=0, dealer=1, deals=[deal])
    return PlayApp(table, bot_delay=0)


def test_the_keys_say_in_words_why_a_move_is_not_offered() -> None:
    """The issue's cases: ``m`` with one wild selected before drawing says to draw first (not the
    notation's "name its rank"), and ``p`` on a pile a black 3 froze says it is frozen; after the draw,
    ``m`` with the joker alone (no group the table offers: the selection is sent whole) says in words
    that wild cards make no group alone, naming no card by its code. Nothing is played but the draw."""

    async def run() -> None:
        app = dealt_app("JK AS AH KD QC 9S 9H 7C 6D 5S 4H", "KS KH QD QS JS JH TD TC 8S 8H 6S", "3S")
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.source
            assert isinstance(table, LocalTable)
            await choose_cards(app, pilot, ["JK"])
            await pilot.press("m")
            said = str(app.message)
            assert said.startswith("Draw from the stock"), said
            assert "K:" not in said and table.version == 0
            await pilot.press("p")
            said = str(app.message)
            assert "freezes the pile" in said and table.version == 0, said
            await pilot.press("d")
            assert table.version == 1
            await choose_cards(app, pilot, ["JK"])
            await pilot.press("m")
            said = str(app.message)
            assert said.startswith("Wild cards alone make no group: put them with natural cards"), said
            assert not CARD_CODE.search(said) and "|" not in said and table.version == 1, said
            await pilot.press("q")

    asyncio.run(run())


def test_staging_shows_the_points_still_needed_and_lays_the_opening() -> None:
    """kitchen-table, an opening of 50: three nines staged (30) say in the staged line how many points
    are still needed, m then lays nothing and says so, and with three aces (60 more) m lays both."""

    async def run() -> None:
        app = dealt_app("AS AH AD 9S 9H 9D 7C 6D 5S 4H 4D", "KS KH QD QS JS JH TD TC 8S 8H 6S", "5C")
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.source
            assert isinstance(table, LocalTable)
            await pilot.press("d")
            await choose_cards(app, pilot, ["9S", "9H", "9D"])
            await pilot.press("g")
            assert app.staged == [["9S", "9H", "9D"]]
            line = str(app.query_one("#staged").render())
            assert "to open you need 50: 20 more" in line, line
            await pilot.press("m")  # not enough: nothing is laid, and it says so
            assert "20 more" in str(app.message) and not table.game.state.down[0]
            await choose_cards(app, pilot, ["AS", "AH", "AD"])
            await pilot.press("m")
            assert table.game.state.down[0], str(app.message)
            await pilot.press("q")

    asyncio.run(run())
