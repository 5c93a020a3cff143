"""Dead ends: whether an offered step lies on a path of offered steps to a completed action.

The engine's contract (docs/engine.md, *No dead ends*): every step it offers leads, by some sequence of
offered steps, to a completed action: a commit, a pickup, a meld laid, a discard, a draw (anything but
``stage`` and ``cancel``), or a ``stage`` that picks up the Foot (``opening_scope = "turn"``: the Hand's
last card set aside turns the Foot over, which cannot be taken back). ``cancel`` leads nowhere of itself:
it only takes back what was staged. ``dead_ends`` follows every offered step on a copy of the state.
"""

from __future__ import annotations

from handfoot import cards as C
from handfoot.engine import EventType, HandState
from handfoot.engine.apply import apply_move
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import CANCEL_ID, DECODED, Action

# The most staged positions one search visits: far more than any hand holds ways to grow a staging into.
SEARCH_LIMIT = 20_000


def _is_stage(mid: int) -> bool:
    decoded = DECODED[mid]
    return decoded is not None and decoded.action is Action.STAGE


def _staged_key(s: HandState) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The staged groups as the engine merges them (one per rank, cards sorted): the same set of staged
    cards reached in another order is the same position."""
    by_rank: dict[int, list[int]] = {}
    for group in s.staged:
        by_rank.setdefault(group.rank, []).extend(group.cards)
    return tuple(sorted((rank, tuple(sorted(cards))) for rank, cards in by_rank.items()))


class _Search:
    def __init__(self) -> None:
        self.known: dict[tuple[tuple[int, tuple[int, ...]], ...], bool] = {}
        self.visited = 0

    def leads_on(self, s: HandState) -> bool:
        """True if, from ``s`` (groups staged), some offered step other than ``cancel`` leads to a
        completed action."""
        key = _staged_key(s)
        if key in self.known:
            return self.known[key]
        self.visited += 1
        assert self.visited <= SEARCH_LIMIT, "the dead-end search ran past its limit"
        self.known[key] = False  # staging only grows: no position is reached again on its own path
        ids = legal_ids(s)
        found = any(not _is_stage(mid) and mid != CANCEL_ID for mid in ids)
        if not found:
            for mid in ids:
                if mid != CANCEL_ID and self.step_leads_on(s, mid):
                    found = True
                    break
        self.known[key] = found
        return found

    def step_leads_on(self, s: HandState, mid: int) -> bool:
        """True if playing ``mid`` (a stage step) in ``s`` leads to a completed action."""
        after = s.copy()
        events = apply_move(after, move_of_id(after, mid))
        if any(e.type is EventType.FOOT for e in events):
            return True
        if not after.staged:  # nothing is staged any more: the step completed something
            return True
        return self.leads_on(after)


def dead_ends(s: HandState) -> list[str]:
    """The offered steps of ``s`` (for whoever is to move) that lead nowhere, as their text: each
    ``stage`` followed on a copy through every offered step but ``cancel``; every other step is a
    completed action itself (or, for ``cancel``, a return to an earlier position). Empty: no dead end."""
    search = _Search()
    out = []
    for mid in legal_ids(s):
        if _is_stage(mid) and not search.step_leads_on(s, mid):
            out.append(str(move_of_id(s, mid)))
    return out


def describe(s: HandState) -> str:
    """The seat's hand and staged groups, for a failure message."""
    seat = s.to_move
    held = [C.CODE_OF[c] for c in range(C.NUM_CARD_IDS) for _ in range(s.hand_cards[seat][c])]
    staged = [" ".join(C.CODE_OF[c] for c in g.cards) for g in s.staged]
    top = C.CODE_OF[s.pile[-1]] if s.pile else "none"
    return f"phase {s.phase.name}, hand {' '.join(held)}, staged {staged}, pile top {top}"
