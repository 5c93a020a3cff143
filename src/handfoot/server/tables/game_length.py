"""The longest game a server table plays: ``MAX_GAME_HANDS`` hands or ``MAX_GAME_MOVES`` moves.

Rules can make a game that never ends (a target score nobody reaches, bots that take the pile back and
forth), and a table of bots alone would play it forever. So once a table has played either many hands
or many moves, the game is ended as the host would end it (``ended`` is ``ENDED_BY_LENGTH``): no more
moves are taken and the side ahead on the totals of the finished hands wins. The limits are far past
any real game (a game of the presets is four hands of some 150 to 250 moves each).

``GameLength`` listens to a TableService (after every accepted move) and ends such games; it also
writes the server's log line when a game ends.
"""

from __future__ import annotations

import asyncio
import logging

from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import LiveTable

log = logging.getLogger("handfoot.server")

MAX_GAME_HANDS = 20
MAX_GAME_MOVES = 8_000
ENDED_BY_LENGTH = "length"


def too_long(live: LiveTable, hands: int = MAX_GAME_HANDS, moves: int = MAX_GAME_MOVES) -> bool:
    """True if ``live``'s game is still going but has played ``hands`` hands or ``moves`` moves."""
    return not live.over and (len(live.game.results) >= hands or live.version >= moves)


class GameLength:
    """Ends the games of a service that go on past ``hands`` hands or ``moves`` moves."""

    def __init__(
        self, service: TableService, hands: int = MAX_GAME_HANDS, moves: int = MAX_GAME_MOVES
    ) -> None:
        self.service = service
        self.hands = hands
        self.moves = moves
        self.ending: set[str] = set()
        self.playing: set[str] = set()  # tables seen with their game going on
        self.tasks: set[asyncio.Task[None]] = set()

    def attach(self) -> None:
        """Listen to the service."""
        self.service.listeners.append(self.check)
        self.service.unloaders.append(self.forget)

    def check(self, live: LiveTable) -> None:
        """After a change at ``live``: log a game that just ended; end one that went on too long."""
        if live.over:
            if live.id in self.playing:
                self.playing.discard(live.id)
                why = {ENDED_BY_LENGTH: "its length", None: "its rules"}.get(live.ended, f"the {live.ended}")
                log.info("table %s: the game is over after %d moves, ended by %s", live.id, live.version, why)
            return
        self.playing.add(live.id)
        if not too_long(live, self.hands, self.moves) or live.id in self.ending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.ending.add(live.id)
        task = loop.create_task(self._end(live), name=f"handfoot-end-{live.id}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _end(self, live: LiveTable) -> None:
        try:
            async with live.lock:
                if not too_long(live, self.hands, self.moves):
                    return
                await self.service.write(live, self.service.storage.set_ended, ENDED_BY_LENGTH)
                live.ended = ENDED_BY_LENGTH
                self.service.show(live)
            self.service.notify(live)
        except Exception:
            log.exception("table %s could not be ended", live.id)
        finally:
            self.ending.discard(live.id)

    def forget(self, table_id: str) -> None:
        """Drop what is kept for an unloaded table."""
        self.playing.discard(table_id)
