"""What the host of a table may do, from the table itself (the ``host`` WebSocket message).

The host is whoever holds the table's host key (the creator's link). The host may:

- hand a missing player's seat to a bot (``bot``), which then plays it through the usual pipeline, and
  hand it back (``person``): the player's own link keeps working all along (it shows the seat, and
  plays again once handed back);
- give any seat a display name (``rename``);
- end the game (``end``): no more moves are taken, and the side ahead on the totals of the finished
  hands wins (none on a tie or before a hand ended).

Each change is stored, so it survives a restart. A request that cannot be done changes nothing and is
answered to the host only, with a sentence saying why.
"""

from __future__ import annotations

import secrets

from handfoot.server.protocol import HostAction
from handfoot.server.seat_bots import bot_names, default_bot
from handfoot.server.tables import ENDED_BY_HOST, HUMAN, LiveTable, TableService


class HostError(ValueError):
    """A host request that cannot be done; the message says why and what is allowed."""


def _seat(live: LiveTable, action: HostAction) -> int:
    """The seat an action names (raises HostError when none or not one of this table's)."""
    if action.seat is None:
        raise HostError(f"{action.action}: name a seat (0 to {live.players - 1})")
    if action.seat >= live.players:
        raise HostError(f"seat {action.seat} does not exist; allowed: 0 to {live.players - 1}")
    return action.seat


def _who(live: LiveTable, seat: int) -> str:
    return live.seats[seat].name or f"seat {seat + 1}"


def apply_host_action(service: TableService, live: LiveTable, action: HostAction) -> None:
    """Do what the host asked at ``live`` (call with the table's lock held); raises HostError, changing
    nothing, when it cannot be done. The caller tells the connections and pokes the bots."""
    if live.over:
        raise HostError("the game is over")
    if action.action == "end":
        service.storage.set_ended(live.id, ENDED_BY_HOST)
        live.ended = ENDED_BY_HOST
        return
    seat = _seat(live, action)
    target = live.seats[seat]
    if action.action == "rename":
        if action.name is None:
            raise HostError("rename: give the seat's new name (1 to 32 characters)")
        service.storage.set_name(live.id, seat, action.name)
        target.name = action.name
        return
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
        service.storage.set_stand_in(live.id, seat, bot)
        target.stand_in = bot
        live.bot_tokens[seat] = secrets.token_urlsafe(24)
        return
    if target.stand_in is None:
        raise HostError(f"{_who(live, seat)} already plays their own seat")
    service.storage.set_stand_in(live.id, seat, None)
    target.stand_in = None
    live.bot_tokens.pop(seat, None)
