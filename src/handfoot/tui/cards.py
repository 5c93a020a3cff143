"""Cards as text for the terminal: ``K♠`` in colour (hearts and diamonds red, wild cards yellow), or
plain ASCII (``KS``) with ``ascii=True``. Every card takes the same two columns, so hands line up."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")


def card_label(code: str, ascii_only: bool = False) -> str:
    """Two characters for a card code: ``K♠`` (``KS`` in ASCII), ``10`` written ``T``, a joker ``JK``
    (``🃏`` would not fit two columns everywhere)."""
    if code == "JK" or ascii_only:
        return code
    return code[0] + SUIT_SYMBOLS.get(code[1], code[1])


def card_style(code: str) -> str:
    """The style of a card: wild cards (jokers, 2s) bold yellow, red suits red, black suits bold."""
    if code == "JK" or code[0] == "2":
        return "bold yellow"
    return "bold red" if code[1] in RED_SUITS else "bold"


def card_text(code: str, ascii_only: bool = False) -> Text:
    """One card as styled text."""
    return Text(card_label(code, ascii_only), style=card_style(code))


def cards_text(codes: Sequence[str], ascii_only: bool = False, sep: str = " ") -> Text:
    """Cards side by side."""
    out = Text()
    for index, code in enumerate(codes):
        if index:
            out.append(sep)
        out.append_text(card_text(code, ascii_only))
    return out
