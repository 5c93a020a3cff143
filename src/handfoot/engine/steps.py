"""A lay-down of several groups written at once (``meld A | B``, ``pickup KS KH | 8S 8H 8D``) as the
atomic steps that make it.

The notation keeps the compound form (records and scenario files hold it, a client may send it):
``steps_of`` gives the steps, each naming the compound's own cards. A side that is not down (or a whole
book of black 3s) stages every group and commits (``commit``, or in the draw phase the pickup), so the
lay-down is judged whole, exactly as the compound; a side that is down lays the groups one after the
other (a group of more than three cards as three, then one at a time), each step judged as it comes.
"""

from __future__ import annotations

from typing import Final

from handfoot import cards as C
from handfoot.engine.moves import Action, Group, Move, move_id
from handfoot.engine.staging import BLACK_THREES, NONE, staging_mode
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import OpeningScope

KIND_OF: Final = C.KIND_OF
COMMIT: Final = Move(Action.COMMIT)
CANCEL: Final = Move(Action.CANCEL)


def split_group(group: Group) -> list[Group]:
    """A group as groups of three cards then one card (each has an id): naturals first in the first
    three, then the rest one by one, naturals before jokers before deuces. A group of one or three
    cards is itself; a group the ids cannot express (two cards; fewer than two naturals of a rank
    beside wilds) comes back whole."""
    cards = group.cards
    if len(cards) in (1, 3) and move_id(Move(Action.MELD, (group,))) >= 0:
        return [group]
    naturals = [c for c in cards if not C.is_wild(KIND_OF[c])]
    jokers = [c for c in cards if KIND_OF[c] == C.JOKER]
    deuces = [c for c in cards if KIND_OF[c] == C.DEUCE]
    if len(cards) < 3:
        return [group]
    if group.rank == C.WILD_RANK:
        ordered = jokers + deuces
        first = ordered[:3]
        rest = ordered[3:]
    else:
        if len(naturals) < 2:
            return [group]
        if len(naturals) >= 3:
            first = naturals[:3]
            rest = naturals[3:] + jokers + deuces
        else:
            wild = (jokers + deuces)[0]
            first = [*naturals, wild]
            rest = _without_one(jokers + deuces, wild)
    return [Group(group.rank, tuple(first)), *(Group(group.rank, (c,)) for c in rest)]


def _without_one(cards: list[int], card: int) -> list[int]:
    out = list(cards)
    out.remove(card)
    return out


def steps_of(s: HandState, move: Move) -> list[Move] | None:
    """The atomic steps that make ``move`` (a meld or pickup of several groups, or of a group of more
    than three cards) for the player to move in ``s``, or None where no steps express it (the caller
    then judges it whole). An atomic move is its own one step. The steps are not judged here."""
    if move_id(move) >= 0:
        return [move]
    action = move.action
    seat = s.to_move
    if s.staged or action not in (Action.MELD, Action.PICKUP) or not move.groups:
        return None
    if action is Action.MELD:
        if s.phase is not Phase.PLAY:
            return None
        mode = staging_mode(s, seat)
        if mode != NONE and not (mode == BLACK_THREES and any(g.rank != C.BLACK_THREE for g in move.groups)):
            out = [Move(Action.STAGE, (part,)) for g in move.groups for part in split_group(g)]
            return None if any(move_id(m) < 0 for m in out) else [*out, COMMIT]
        out = [Move(Action.MELD, (part,)) for g in move.groups for part in split_group(g)]
        return None if any(move_id(m) < 0 for m in out) else out
    if s.phase is not Phase.DRAW:
        return None
    first, rest = move.groups[0], move.groups[1:]
    top = KIND_OF[s.pile[-1]] if s.pile else -1
    extra: list[Group] = []
    if len(first.cards) > 3 and all(KIND_OF[c] == top for c in first.cards):
        extra = [Group(top, (c,)) for c in first.cards[3:]]
        first = Group(first.rank, first.cards[:3])
    take = Move(Action.PICKUP, (first,))
    if move_id(take) < 0:
        return None
    if not s.down[s.seating.owner_of[seat]]:
        staged = [Move(Action.STAGE, (g,)) for g in extra]
        staged += [Move(Action.STAGE, (part,)) for g in rest for part in split_group(g)]
        return None if any(move_id(m) < 0 for m in staged) else [*staged, take]
    melds = [Move(Action.MELD, (g,)) for g in extra]
    melds += [Move(Action.MELD, (part,)) for g in rest for part in split_group(g)]
    return None if any(move_id(m) < 0 for m in melds) else [take, *melds]


def turn_opening_steps(s: HandState, move: Move) -> list[list[Move]]:
    """Under ``opening_scope = "turn"`` (family: the minimum is laid "in one turn"), the steps that play a
    plain ``meld`` or ``discard`` of a side that is not down yet, where the judge refuses it as it stands
    (a meld short of the minimum, a discard while groups are staged), so that the melds of one turn count
    together, as staged groups do: a ``meld`` stages its groups (each staged rank takes its cards one by
    one) and commits them with the groups staged before where the whole is legal; a ``discard`` with
    groups staged takes them back first (``cancel``), as a turn that ends short of the minimum does.
    The candidates, the preferred first (with the commit, then without); empty where none applies. The
    steps are not judged here: the caller plays the first whose every step is legal in turn."""
    if s.rules.opening_scope is not OpeningScope.TURN or s.phase is not Phase.PLAY:
        return []
    if s.down[s.seating.owner_of[s.to_move]]:
        return []
    if move.action is Action.DISCARD:
        return [[CANCEL, move]] if s.staged else []
    if move.action is not Action.MELD or not move.groups:
        return []
    staged = {group.rank for group in s.staged}
    stages: list[Move] = []
    for group in move.groups:
        parts = [Group(group.rank, (c,)) for c in group.cards] if group.rank in staged else split_group(group)
        staged.add(group.rank)
        stages += [Move(Action.STAGE, (part,)) for part in parts]
    if any(move_id(step) < 0 for step in stages):
        return []
    return [[*stages, COMMIT], stages]
