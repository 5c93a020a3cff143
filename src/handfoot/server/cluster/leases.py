"""Who runs a table's bots when several processes serve it: a lease per table, with an expiry.

A process runs a bot's turn only while it holds the table's lease. It takes the lease when it is free
or already its own (renewing it), keeps it while its bots play there, and never releases it early: a
process that is killed simply stops renewing, the lease expires after ``LEASE_SECONDS``, and another
process that was waiting for it (it retries every ``LEASE_SECONDS``) takes the turn over. The database's
unique key on a table's move index still decides any race, so a lease only has to be right about
liveness, never about safety.

``LocalLeases`` (one process) always grants. ``RedisLeases`` keeps them in Redis (the ``redis_url`` the
processes share): ``SET key owner NX PX ttl`` to take one, a compare-and-renew script to keep it. If
Redis does not answer the lease is granted (logged): a move stored twice is refused by the database.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod

from redis.asyncio import Redis

log = logging.getLogger("handfoot.server")

LEASE_SECONDS = 5.0
KEY_PREFIX = "handfoot:bot-lease:"

# Take the lease if free, renew it if ours; 1 if we hold it now, 0 if another process does.
_ACQUIRE = """
local owner = redis.call('GET', KEYS[1])
if owner == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
elseif owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""


class BotLeases(ABC):
    """Leases on running a table's bots, one owner at a time."""

    def __init__(self, owner: str, seconds: float = LEASE_SECONDS) -> None:
        self.owner = owner
        self.seconds = seconds

    @abstractmethod
    async def acquire(self, table_id: str) -> bool:
        """Take or renew the lease of ``table_id`` for ``seconds``; True if this process holds it now."""

    @abstractmethod
    async def close(self) -> None:
        """Release connections."""


class LocalLeases(BotLeases):
    """Leases in this process's memory: in a ``shared`` dict (table -> (owner, expiry)) that services of
    one Python process may share (as tests do), else a dict of its own, where every lease is granted."""

    def __init__(
        self, owner: str, seconds: float = LEASE_SECONDS, shared: dict[str, tuple[str, float]] | None = None
    ) -> None:
        super().__init__(owner, seconds)
        self.held: dict[str, tuple[str, float]] = {} if shared is None else shared

    async def acquire(self, table_id: str) -> bool:
        """Take the lease if it is free, expired or ours (renewing it); True if ours now."""
        now = time.monotonic()
        owner, expiry = self.held.get(table_id, (self.owner, now))
        if owner != self.owner and expiry > now:
            return False
        self.held[table_id] = (self.owner, now + self.seconds)
        return True

    async def close(self) -> None:
        """Nothing to release."""


class RedisLeases(BotLeases):
    """Leases kept in Redis, shared by every process of one database."""

    def __init__(self, url: str, owner: str, seconds: float = LEASE_SECONDS) -> None:
        super().__init__(owner, seconds)
        self.client = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    async def acquire(self, table_id: str) -> bool:
        """Take or renew the lease in Redis; granted (and logged) if Redis does not answer."""
        try:
            held = await self.client.eval(
                _ACQUIRE, 1, KEY_PREFIX + table_id, self.owner, int(self.seconds * 1000)
            )
        except Exception as exc:
            log.warning("bot lease of table %s: Redis did not answer (%s); moving anyway", table_id, exc)
            return True
        return bool(held)

    async def close(self) -> None:
        """Close the Redis connection."""
        await self.client.aclose()


def make_leases(redis_url: str, owner: str, seconds: float = LEASE_SECONDS) -> BotLeases:
    """Redis leases if ``redis_url`` is set (several processes), else local ones."""
    return RedisLeases(redis_url, owner, seconds) if redis_url else LocalLeases(owner, seconds)
