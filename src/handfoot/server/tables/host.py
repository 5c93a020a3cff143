"""What the host of a table may do, from the table itself (the ``host`` WebSocket message).

The host is whoever holds the table's host key (the creator's link). The host may:

- hand a missing player's seat to a bot (``bot``), which then plays it through ``tables.moves.play``
  like any seat, and hand it back (``person``): the player's own link keeps working all along (it shows
  the seat, and plays again once handed back);
- give any seat a display name (``rename``);
- end the game (``end``): no more moves are taken, and the side ahead on the totals of the finished
  hands wins (none on a tie or before a hand ended);
- give a person's seat a new invitation link (``invite``): the old link opens nothing any more (a
  connection made with it is closed, ``TableService.revoke``), and the new one is sent to the host alone;
- start the first hand without the invited people who are not here yet (``start``): a bot plays each
  of their seats until the host hands it back, as with ``bot`` (the first hand waits for them else:
  ``LiveTable.waiting_for``);
- set how long the table waits at most, after a hand, for people reading its score (``pace``, in
  seconds; 0: not at all).

Each change is stored before it is made, so it survives a restart. A request that cannot be done, or
whose change the database did not take, changes nothing and is answered to the host only, with a
sentence saying why.
"""

from __future__ import annotations

import secrets

from handfoot.server.settings import MAX_READ_SECONDS
from handfoot.server.store.storage import token_hash
from handfoot.server.tables.ports import Change, HostRequest
from handfoot.server.tables.seat_bots import bot_names, default_bot
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import ENDED_BY_HOST, HUMAN, LiveTable


class HostError(ValueError):
    """A host request that cannot be done; the message says why and what is allowed."""


def _seat(live: LiveTable, action: HostRequest) -> int:
    """The seat an action names (raises HostError when none or not one of this table's)."""
    if action.seat is None:
        raise HostError(f"{action.action}: name a seat (0 to {live.players - 1})")
    if action.seat >= live.players:
        raise HostError(f"seat {action.seat} does not exist; allowed: 0 to {live.players - 1}")
    return action.seat


def _who(live: LiveTable, seat: int) -> str:
    return live.seats[seat].name or f"seat {seat + 1}"


def change_of(action: HostRequest) -> Change:
    """What a host's action, once done, means for the table's connections: a new state when who plays a
    seat or whether the game goes on changed (``end``, ``bot``, ``person``, ``start``), else the table's
    summary (a name, the pace, an invitation: the new link itself goes to the host alone)."""
    return Change.STATE if action.action in ("end", "bot", "person", "start") else Change.SUMMARY


async def apply_host_action(service: TableService, live: LiveTable, action: HostRequest) -> str | None:
    """Do what the host asked at ``live`` (call with the table's lock held) and, once it is stored and
    made, tell the table's connections (``change_of``); raises HostError, changing nothing and telling
    nobody, when it cannot be done, and StorageError when the change could not be stored (nothing
    changed). Returns the seat's new token for ``invite`` (else None), which the caller gives the host
    alone. The caller pokes the bots."""
    token = await _apply(service, live, action)
    service.tell(live, change_of(action))
    return token


async def _apply(service: TableService, live: LiveTable, action: HostRequest) -> str | None:
    """Do what the host asked, as ``apply_host_action`` says, without telling anyone."""
    if action.action == "invite":
        return await _new_invitation(service, live, action)
    if live.over:
        raise HostError("the game is over")
    if action.action == "end":
        await service.write(live, service.storage.set_ended, ENDED_BY_HOST)
        live.ended = ENDED_BY_HOST
        return None
    if action.action == "pace":
        if action.seconds is None:
            raise HostError(
                f"pace: give the seconds to wait for people reading the score (0 to {MAX_READ_SECONDS})"
            )
        await service.write(live, service.storage.set_read_seconds, action.seconds)
        live.read_seconds = float(action.seconds)
        return None
    if action.action == "start":
        await _start(service, live, action.bot)
        return None
    seat = _seat(live, action)
    target = live.seats[seat]
    if action.action == "rename":
        if action.name is None:
            raise HostError("rename: give the seat's new name (1 to 32 characters)")
        await service.write(live, service.storage.set_name, seat, action.name)
        target.name = action.name
        return None
    if target.kind != HUMAN:
        raise HostError(f"seat {seat + 1} is a bot's own seat; only a person's seat can be handed over")
    if action.action == "bot":
        if target.stand_in is not None:
            raise HostError(f"a bot already plays {_who(live, seat)}'s seat")
        if seat in live.connected_seats():
            raise HostError(f"{_who(live, seat)} is at the table: only a missing player's seat goes to a bot")
        names = bot_names()
        bot = action.bot or default_bot()
        if bot not in names:
            raise HostError(f"no bot called {bot!r}; allowed: {', '.join(names)}")
        await service.write(live, service.storage.set_stand_in, seat, bot)
        target.stand_in = bot
        live.bot_tokens[seat] = secrets.token_urlsafe(24)
        return None
    if target.stand_in is None:
        raise HostError(f"{_who(live, seat)} already plays their own seat")
    await service.write(live, service.storage.set_stand_in, seat, None)
    target.stand_in = None
    live.bot_tokens.pop(seat, None)
    return None


async def _start(service: TableService, live: LiveTable, bot: str | None) -> None:
    """Hand every seat the first hand waits for to a bot (``bot``, else the default); raises HostError
    when it waits for nobody. Each stand-in is stored before it is made: a failed write leaves the seats
    not yet handed over waiting."""
    waiting = live.waiting_for()
    if not waiting:
        raise HostError("the game has already begun: it waits for nobody")
    names = bot_names()
    chosen = bot or default_bot()
    if chosen not in names:
        raise HostError(f"no bot called {chosen!r}; allowed: {', '.join(names)}")
    for seat in waiting:
        await service.write(live, service.storage.set_stand_in, seat, chosen)
        live.seats[seat].stand_in = chosen
        live.bot_tokens[seat] = secrets.token_urlsafe(24)


async def _new_invitation(service: TableService, live: LiveTable, action: HostRequest) -> str:
    """Give a person's seat a new token (stored as its hash), voiding the old one and closing the
    connections made with it; returns the token. Raises StorageError, changing nothing, when the new
    token could not be stored."""
    seat = _seat(live, action)
    if live.seats[seat].kind != HUMAN:
        raise HostError(f"seat {seat + 1} is a bot's own seat: it has no invitation")
    token = secrets.token_urlsafe(24)
    digest = token_hash(token)
    await service.write(live, service.storage.set_token, seat, digest)
    live.seats[seat].token_hash = digest
    gone = [c for c in live.connections if c.seat == seat]
    for old in gone:
        live.connections.remove(old)
    service.revoke(live, gone)
    return token
