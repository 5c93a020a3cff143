"""The table as text (``render_mode="ansi"``): what one seat sees, its staged opening included."""

from __future__ import annotations

from collections.abc import Sequence

from handfoot import cards as C
from handfoot.engine import View


def render_text(v: View, totals: Sequence[int]) -> str:
    """Several lines: the hand's number (from 0, as the observation's ``hand_index`` and the records
    count) and the totals, every seat's counts, the melds, the pile and stock, then the viewing seat's own
    cards (and any groups it has staged: ``v.staged``)."""
    lines = [
        f"{v.rules.name}, hand {v.hand_index}, phase {v.phase.name.lower()}, "
        f"seat {v.to_move} to move (turn of seat {v.turn_seat}); totals {list(totals)}"
    ]
    for seat, info in enumerate(v.seats):
        foot = "in Foot" if info.in_foot else f"Foot {info.foot_count}"
        mark = " <" if seat == v.to_move else ""
        lines.append(f"  seat {seat}: {info.hand_count} cards, {foot}{mark}")
    for owner, down in enumerate(v.down):
        melds = [m for m in v.melds if m.owner == owner]
        shown = "  ".join(" ".join(C.codes(m.cards)) for m in melds) or "-"
        state = "down" if down else f"needs {v.minimums[owner]}"
        clean, dirty, wild = v.books[owner]
        lines.append(f"  melds of {owner} ({state}; books {clean} clean {dirty} dirty {wild} wild): {shown}")
    for side, threes in enumerate(v.red_threes):
        if threes:
            lines.append(f"  red 3s of side {side}: {' '.join(C.codes(threes))}")
    top = C.CODE_OF[v.pile_top] if v.pile_top >= 0 else "empty"
    lines.append(f"  pile: {top} ({v.pile_size} cards), stock: {v.stock_size} cards")
    lines.append(f"  seat {v.seat} holds: {' '.join(C.codes(v.hand)) or '-'}")
    if v.staged:
        lines.append("  staged: " + " | ".join(" ".join(C.codes(g.cards)) for g in v.staged))
    return "\n".join(lines)
