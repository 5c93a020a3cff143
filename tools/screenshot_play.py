"""Draw docs/screenshots/play.svg: the terminal game (``handfoot play``) at 80x24, a few turns into a
kitchen-table game against heuristic bots (seed 3), as Textual renders it.

    PYTHONPATH=src python tools/screenshot_play.py [--out docs/screenshots/play.svg] [--turns 6]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from handfoot.rules import preset
from handfoot.tui.app import PlayApp
from handfoot.tui.source import LocalTable


async def shoot(out: Path, turns: int) -> None:
    """Play ``turns`` of the player's decisions with the trainer's moves (h, enter), then save the
    screen with the hand's cursor on its second card and two cards selected."""
    table = LocalTable(preset("kitchen-table"), 4, ["medium"], seed=3, hint_seconds=0)
    app = PlayApp(table, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        played = 0
        while played < turns and not table.game.finished:
            if table.game.to_move != table.seat:
                await pilot.pause(0.02)
                continue
            await pilot.press("h", "enter")
            played += 1
        while table.game.to_move != table.seat:
            await pilot.pause(0.02)
        await pilot.press("home", "right", "space", "right", "space", "h")
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> None:
    """Parse the options and draw the screenshot."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots/play.svg"))
    parser.add_argument("--turns", type=int, default=6)
    args = parser.parse_args()
    asyncio.run(shoot(args.out, args.turns))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
