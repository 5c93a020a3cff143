"""Cards, card kinds and the card notation.

A *card* is an ``int`` id: ``rank_index * 4 + suit_index`` for the 52 suited cards (ranks in the
order ``A K Q J T 9 8 7 6 5 4 3 2``, suits ``S H D C``) and ``JOKER_ID`` (52) for a joker.
Its text code is rank then suit (``"KS"``, ``"TD"``, ``"3H"``); ``"JK"`` is a joker.

A *kind* is what the rules care about: the two wilds, the eleven natural ranks, black 3 and red 3.
Suits matter only to tell red 3s from black 3s, and for display; the engine counts kinds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from handfoot.wording import show

RANKS: Final = "AKQJT98765432"
SUITS: Final = "SHDC"
JOKER_ID: Final = 52
NUM_CARD_IDS: Final = 53

# Kind indices. Wilds first, then naturals from high to low, then the threes.
JOKER: Final = 0
DEUCE: Final = 1
ACE: Final = 2
KING: Final = 3
QUEEN: Final = 4
JACK: Final = 5
TEN: Final = 6
NINE: Final = 7
EIGHT: Final = 8
SEVEN: Final = 9
SIX: Final = 10
FIVE: Final = 11
FOUR: Final = 12
BLACK_THREE: Final = 13
RED_THREE: Final = 14
NUM_KINDS: Final = 15

WILD_KINDS: Final[tuple[int, ...]] = (JOKER, DEUCE)
NATURAL_KINDS: Final[tuple[int, ...]] = tuple(range(ACE, FOUR + 1))
# Kinds that can name a meld: the natural ranks and black 3 (kitchen-table's going-out meld).
MELD_RANKS: Final[tuple[int, ...]] = (*NATURAL_KINDS, BLACK_THREE)
# A meld made only of wilds (where a table allows them) is filed under this pseudo-rank.
WILD_RANK: Final[int] = JOKER

KIND_NAMES: Final[tuple[str, ...]] = (
    "JK",
    "2",
    "A",
    "K",
    "Q",
    "J",
    "T",
    "9",
    "8",
    "7",
    "6",
    "5",
    "4",
    "3B",
    "3R",
)
KIND_WORDS: Final = (
    "joker",
    "2",
    "ace",
    "king",
    "queen",
    "jack",
    "ten",
    "nine",
    "eight",
    "seven",
    "six",
    "five",
    "four",
    "black 3",
    "red 3",
)
KIND_PLURALS: Final = (
    "jokers",
    "2s",
    "aces",
    "kings",
    "queens",
    "jacks",
    "tens",
    "nines",
    "eights",
    "sevens",
    "sixes",
    "fives",
    "fours",
    "black 3s",
    "red 3s",
)
# Rank letter used for a meld's target in the notation ("K: 2C JK"); wild melds use "W".
RANK_LETTER: Final = ("W", "", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "")

_RANK_TO_KIND = {"A": ACE, "K": KING, "Q": QUEEN, "J": JACK, "T": TEN, "9": NINE, "8": EIGHT}
_RANK_TO_KIND.update({"7": SEVEN, "6": SIX, "5": FIVE, "4": FOUR, "2": DEUCE})


def _kind_of_id(card: int) -> int:
    if card == JOKER_ID:
        return JOKER
    rank = RANKS[card // 4]
    if rank == "3":
        return RED_THREE if SUITS[card % 4] in "HD" else BLACK_THREE
    return _RANK_TO_KIND[rank]


KIND_OF: Final[tuple[int, ...]] = tuple(_kind_of_id(c) for c in range(NUM_CARD_IDS))
CODE_OF: Final[tuple[str, ...]] = (*(RANKS[c // 4] + SUITS[c % 4] for c in range(52)), "JK")
_ID_OF_CODE = {code: i for i, code in enumerate(CODE_OF)}
# The card ids of each kind, in suit order: the order in which an unsuited request picks a card.
IDS_OF_KIND: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(c for c in range(NUM_CARD_IDS) if KIND_OF[c] == k) for k in range(NUM_KINDS)
)


class CardError(ValueError):
    """A card code that is not part of the notation."""


def is_wild(kind: int) -> bool:
    """True for the wild kinds (jokers and 2s)."""
    return kind <= DEUCE


def parse_card(code: str) -> int:
    """The card id of a suited code such as ``"KS"`` or ``"JK"``; raises ``CardError`` otherwise."""
    card = _ID_OF_CODE.get(code.strip().upper())
    if card is None:
        raise CardError(
            f"{show(code)} is not a card: write rank then suit, rank one of {' '.join(RANKS)} "
            f"and suit one of {' '.join(SUITS)} (for example KS, TD, 3H), or JK for a joker"
        )
    return card


def parse_kind(code: str) -> int:
    """The kind of an unsuited code: a rank letter (``"K"``, ``"2"``), ``"JK"``, ``"3B"`` or ``"3R"``."""
    text = code.strip().upper()
    if text in _RANK_TO_KIND:
        return _RANK_TO_KIND[text]
    if text in ("JK", "3B", "3R"):
        return KIND_NAMES.index(text)
    raise CardError(f"{show(code)} is not a card kind: use a rank ({' '.join(RANKS)}), JK, 3B or 3R")


def parse_rank(letter: str) -> int:
    """The meld rank named by a target letter (``"K"``, ``"3"`` for black 3s, ``"W"`` for wilds)."""
    text = letter.strip().upper()
    if text == "W":
        return WILD_RANK
    if text == "3":
        return BLACK_THREE
    kind = _RANK_TO_KIND.get(text)
    if kind is None or kind == DEUCE:
        raise CardError(f"{show(letter)} is not a meld rank: use one of A K Q J T 9 8 7 6 5 4, 3 or W")
    return kind


def code(card: int) -> str:
    """The text code of a card id."""
    return CODE_OF[card]


def codes(cards: Iterable[int]) -> list[str]:
    """Text codes of several card ids."""
    return [CODE_OF[c] for c in cards]


def parse_cards(texts: Sequence[str]) -> list[int]:
    """Card ids of several suited codes."""
    return [parse_card(t) for t in texts]


def shoe(decks: int, jokers_per_deck: int = 2) -> list[int]:
    """Every card of ``decks`` standard decks, each with ``jokers_per_deck`` jokers, in a fixed order."""
    one_deck = list(range(52)) + [JOKER_ID] * jokers_per_deck
    return one_deck * decks


def shoe_counts(decks: int, jokers_per_deck: int = 2) -> list[int]:
    """How many copies of each card id a shoe of ``decks`` decks holds."""
    counts = [decks] * NUM_CARD_IDS
    counts[JOKER_ID] = decks * jokers_per_deck
    return counts


def sort_key(card: int) -> tuple[int, int]:
    """Display order: by kind (wilds, then high to low, then 3s), then by suit."""
    return (KIND_OF[card], card)


# Every card id in display order (see ``sort_key``).
DISPLAY_ORDER: Final[tuple[int, ...]] = tuple(sorted(range(NUM_CARD_IDS), key=sort_key))
