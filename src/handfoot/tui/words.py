"""The terminal game's text: the history in words (who drew, melded which cards, discarded what), a
finished hand's score item by item for each side, and lines packed to the screen's width at the gaps
between their parts (never inside a word or a card).

Everything here reads the server protocol's JSON (events as ``event_json`` writes them, hands as
``record.hand_json``), so a local game and a live table read the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from handfoot.tui.cards import card_label

# A meld's rank letter (``event_json``'s ``rank``, the protocol's) in words, as the browser says them.
RANK_WORDS = {
    "W": "wilds",
    "A": "aces",
    "K": "kings",
    "Q": "queens",
    "J": "jacks",
    "T": "tens",
    "9": "nines",
    "8": "eights",
    "7": "sevens",
    "6": "sixes",
    "5": "fives",
    "4": "fours",
    "3": "black 3s",
}


def short_name(name: str) -> str:
    """A seat's name without its bot kind: ``West (heuristic)`` is ``West``."""
    return name.split(" (")[0]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _cards(codes: Sequence[str], ascii_only: bool) -> str:
    return " ".join(card_label(code, ascii_only) for code in codes)


def event_clause(event: dict[str, Any], ascii_only: bool = False) -> str | None:
    """What one event's seat did, without the subject (``drew 2 cards``, ``melded kings (K♠ K♥ JK)``),
    or None for an event that is no one's act (a turn starting, a hand dealt or over)."""
    kind = event.get("type")
    cards = [str(c) for c in event.get("cards", [])]
    shown = _cards(cards, ascii_only)
    rank = RANK_WORDS.get(str(event.get("rank", "")), "a meld")
    amount = int(event.get("amount") or 0)
    detail = str(event.get("detail") or "")
    if kind == "drew":
        return f"drew {_plural(amount, 'card')}"
    if kind == "took_top":
        return f"took {shown} from the pile"
    if kind == "took_pile":
        return f"took the pile ({_plural(amount or len(cards), 'card')})"
    if kind == "melded":
        return f"added {shown} to the {rank}" if event.get("added") else f"melded {rank} ({shown})"
    if kind == "book":
        return f"made a {detail} book of {rank}"
    if kind == "discarded":
        return f"discarded {shown}" if shown else "discarded"
    if kind == "red_three":
        return f"laid down a red 3 ({shown})"
    if kind == "foot":
        return "picked up the Foot"
    if kind == "picked":
        return "swapped Hand and Foot" if detail == "swap" else "kept the Hand"
    if kind == "asked":
        return 'asked "May I go out?"'
    if kind == "answered":
        return f"answered {detail or ('yes' if amount else 'no')}"
    if kind == "went_out":
        return "went out"
    if kind == "last_round":
        return "played the last card: everyone else has one more turn"
    return None


# Events that are the table's, not a seat's act: each its own line of the history.
TABLE_EVENTS = {
    "reshuffled": "The pile but its top card was shuffled into a new stock.",
    "hand_over": "The hand is over.",
    "game_over": "The game is over.",
}


def history_lines(
    names: Sequence[str], entries: Sequence[dict[str, Any]], ascii_only: bool = False
) -> list[str]:
    """The history in words, oldest first: one line per seat's turn (its moves' acts joined by ``;``),
    the table's own events (a reshuffle, a hand over, a new hand dealt) on lines of their own. A step
    that shows nothing to the table (staging, taking staged groups back) adds nothing."""
    lines: list[str] = []
    seat: int | None = None
    clauses: list[str] = []
    # while a turn adds cards to one meld: its rank, the cards added so far and their clause's index
    added: list[Any] = [None, [], 0]

    def close() -> None:
        if clauses and seat is not None:
            name = short_name(names[seat]) if 0 <= seat < len(names) else "?"
            lines.append(f"{name} {'; '.join(clauses)}.")
        clauses.clear()
        added[0] = None

    for entry in entries:
        who = entry.get("seat")
        if who != seat:
            close()
            seat = who if isinstance(who, int) else None
        for event in entry.get("events", []):
            kind = event.get("type")
            if kind in TABLE_EVENTS:
                close()
                lines.append(TABLE_EVENTS[str(kind)])
            elif kind == "new_hand":
                close()
                lines.append(f"Hand {int(event.get('amount') or 0) + 1} is dealt.")
            elif kind == "melded" and event.get("added") and event.get("seat") == who:
                rank, cards = event.get("rank"), [str(c) for c in event.get("cards", [])]
                if added[0] == rank and clauses:  # more cards onto the same meld: one clause
                    added[1] = [*added[1], *cards]
                    clause = event_clause({**event, "cards": added[1]}, ascii_only)
                    clauses[added[2]] = clause or clauses[added[2]]
                else:
                    added[:] = [rank, cards, len(clauses)]
                    clauses.append(event_clause(event, ascii_only) or "added to a meld")
            elif event.get("seat") == who or kind in ("went_out", "last_round"):
                clause = event_clause(event, ascii_only)
                if clause:
                    clauses.append(clause)
                    if kind != "book":
                        added[0] = None
    close()
    return lines


def flow(parts: Sequence[Text], width: int, indent: str = "", sep: str = "  ") -> Text:
    """``parts`` on lines of at most ``width`` cells, ``sep`` between parts, a new line (begun with
    ``indent``) before a part that would not fit: a line breaks only between parts. A part longer than
    a line is put on a line of its own (and may wrap there)."""
    out = Text()
    used = 0
    for part in parts:
        size = part.cell_len
        if used and used + len(sep) + size > width:
            out.append("\n" + indent)
            used = len(indent)
        elif used:
            out.append(sep)
            used += len(sep)
        out.append_text(part)
        used += size
    return out


def rows_needed(line: str, width: int) -> int:
    """The screen rows ``line`` takes when wrapped at spaces to ``width`` cells."""
    rows, used = 1, 0
    for word in line.split(" "):
        size = len(word)
        if used and used + 1 + size > width:
            rows += 1 + (size - 1) // width
            used = size % width or width
        else:
            used += (1 if used else 0) + size
    return rows


def hand_breakdown(hand: dict[str, Any], labels: Sequence[str]) -> Text:
    """A finished hand's score item by item (``hand["lines"]``, one list per side), a column per side
    headed by ``labels``, and each side's total; items worth nothing to any side are left out."""
    sides = range(len(hand["scores"]))
    items: list[str] = []
    for side_lines in hand.get("lines", []):
        for line in side_lines:
            if line["label"] not in items:
                items.append(line["label"])
    column = max(10, min(16, (72 - 28) // max(1, len(labels))))
    out = Text(
        f"{'':28}" + "".join(f"{label[: column - 1]:>{column}}" for label in labels) + "\n", style="bold"
    )
    for item in items:
        row = f"{item[:27]:28}"
        for side in sides:
            found = [ln for ln in hand["lines"][side] if ln["label"] == item] if hand.get("lines") else []
            if found:
                count, points = found[0]["count"], found[0]["points"]
                cell = (
                    f"{count}: {points:+d}"
                    if count > 1 or (count and item != "going out")
                    else f"{points:+d}"
                )
            else:
                cell = ""
            row += f"{cell:>{column}}"
        out.append(row + "\n")
    out.append(f"{'this hand':28}" + "".join(f"{hand['scores'][s]:>{column}}" for s in sides), style="bold")
    return out
