"""Fan-out between services of one Python process, for tests that play the part of several processes
serving one database: each ``InProcessFanout`` joins a ``LocalBus`` and hears the advances the other
members publish, as processes hear each other over Redis (``handfoot.server.cluster.bus``)."""

from __future__ import annotations

import asyncio
import logging

from handfoot.server.cluster.bus import AdvanceHandler, Fanout, ResyncHandler

log = logging.getLogger("handfoot.server")


class LocalBus:
    """The fan-outs of the services that stand for processes sharing a database (each
    ``InProcessFanout`` joins one bus)."""

    def __init__(self) -> None:
        self.members: list[InProcessFanout] = []


class InProcessFanout(Fanout):
    """A service's fan-out on a ``bus``: its advances reach the bus's other members."""

    def __init__(self, bus: LocalBus) -> None:
        super().__init__()
        self.bus = bus
        self.deliveries: set[asyncio.Task[None]] = set()  # advances on their way to other members

    async def start(self, handler: AdvanceHandler, resync: ResyncHandler) -> None:
        """Join the bus."""
        await super().start(handler, resync)
        self.bus.members.append(self)

    def publish(self, table_id: str, version: int) -> None:
        """Call every other member's handler, each in a task of its own (returns at once)."""
        for member in list(self.bus.members):
            if member is not self and member.handler is not None:
                task = asyncio.get_running_loop().create_task(self._deliver(member, table_id, version))
                self.deliveries.add(task)
                task.add_done_callback(self.deliveries.discard)

    @staticmethod
    async def _deliver(member: Fanout, table_id: str, version: int) -> None:
        """Hand one advance to ``member``'s handler; a failure is logged."""
        try:
            if member.handler is not None:
                await member.handler(table_id, version)
        except Exception:
            log.exception("fan-out of table %s version %d failed", table_id, version)

    async def close(self) -> None:
        """Leave the bus."""
        if self in self.bus.members:
            self.bus.members.remove(self)
        await super().close()
