"""The RuleSet: every house-rule option, named, typed, with a default and a one-line help.

Each option is a field of one frozen dataclass. ``OPTION_HELP`` and ``OPTION_SECTION`` give the
help line and the section of RULES.md it comes from. Validation of a whole rule set lives in
``validate.py``; reading TOML files and presets in ``load.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from handfoot import cards as C


class WildLimit(StrEnum):
    """How many wilds a meld may hold compared to its naturals."""

    AT_MOST_NATURALS = "at_most_naturals"
    FEWER_THAN_NATURALS = "fewer_than_naturals"


class GameEnd(StrEnum):
    """What ends a game."""

    TARGET = "target"
    HANDS = "hands"


class OpeningBy(StrEnum):
    """What sets the opening minimum of a hand."""

    SCORE = "score"
    HAND = "hand"


class BookAdditions(StrEnum):
    """What may be added to a finished book (7 cards or more)."""

    ANY = "any"
    NATURALS = "naturals"
    NONE = "none"


class MeldOwner(StrEnum):
    """Whose melds a player builds on."""

    SIDE = "side"
    PLAYER = "player"


class PickupBeforeDown(StrEnum):
    """Whether a side (or player) that has not opened may take the discard pile."""

    NEVER = "never"
    WITH_OPENING = "with_opening"
    OPENING_IN_HAND = "opening_in_hand"


class PickupRestFrom(StrEnum):
    """Where the cards taken beside the top discard come from."""

    PILE = "pile"
    STOCK = "stock"


class RedThrees(StrEnum):
    """What happens to red 3s."""

    LAY_DOWN = "lay_down"
    HOLD = "hold"


class PileVisible(StrEnum):
    """What players see of the discard pile."""

    TOP = "top"
    ALL = "all"


class Permission(StrEnum):
    """Whether a player asks the partner before going out."""

    NONE = "none"
    REQUIRED = "required"
    OPTIONAL = "optional"


class OutByMeld(StrEnum):
    """What melding one's last card (no final discard) does."""

    FORBIDDEN = "forbidden"
    OUT = "out"
    LAST_ROUND = "last_round"


class AfterOut(StrEnum):
    """What happens after a player goes out."""

    END = "end"
    LAST_ROUND = "last_round"


class EmptyWithoutOut(StrEnum):
    """Whether a player may empty hand and foot without going out."""

    FORBIDDEN = "forbidden"
    WAIT = "wait"
    DRAW_AGAIN = "draw_again"


# Card values by kind, in kind order (JK, 2, A, K, Q, J, T, 9, 8, 7, 6, 5, 4, black 3, red 3).
# A red 3 is scored by the red-3 options, never by this table.
STANDARD_CARD_VALUES: tuple[int, ...] = (50, 20, 20, 10, 10, 10, 10, 10, 10, 5, 5, 5, 5, 5, 0)


def _opt(default: Any, help_text: str, section: str) -> Any:
    return field(default=default, metadata={"help": help_text, "section": section})


@dataclass(frozen=True)
class RuleSet:
    """A complete house-rule configuration. Build one with ``load_rules`` so it is validated."""

    # --- identity
    name: str = _opt("custom", "Short name of this rule set.", "identity")
    title: str = _opt("Custom house rules", "The rule sheet's own title.", "identity")
    summary: str = _opt("", "One line describing the rule set.", "identity")

    # --- 1. table and deal
    players_allowed: tuple[int, ...] = _opt(
        (2, 3, 4, 5, 6), "Player counts this rule set can be played with (2 to 6).", "table"
    )
    default_players: int = _opt(4, "Player count used when none is given.", "table")
    partners_at: tuple[int, ...] = _opt(
        (4,), "Player counts played in partnerships (pairs, partners across); others play alone.", "table"
    )
    decks_extra: int = _opt(1, "Decks in the shoe are the player count plus this many.", "table")
    decks_by_players: tuple[tuple[int, int], ...] = _opt(
        (), "Fixed deck counts by player count (a table players -> decks); overrides decks_extra.", "table"
    )
    jokers_per_deck: int = _opt(2, "Jokers in each deck.", "table")
    hand_size: int = _opt(11, "Cards dealt to each Hand.", "table")
    foot_size: int = _opt(11, "Cards dealt to each Foot.", "table")
    first_upcard: bool = _opt(
        True, "Turn one card up to start the discard pile (a red 3 or wild is covered by another).", "table"
    )
    exact_deal_bonus: int = _opt(
        0, "Score-pad bonus for a player who grabs exactly the cards of both piles (paper games).", "table"
    )

    # --- 2. length of a game and the opening minimum
    game_end: GameEnd = _opt(GameEnd.TARGET, "A game ends at a target score or after a number of hands.", "game")
    target_score: int = _opt(10000, "With game_end = target: the total that ends the game.", "game")
    hands_per_game: int = _opt(4, "With game_end = hands: how many hands make a game.", "game")
    opening_by: OpeningBy = _opt(
        OpeningBy.SCORE, "The opening minimum rises with the side's score, or with the hand number.", "game"
    )
    opening_minimums: tuple[int, ...] = _opt(
        (50, 90, 120, 150), "Opening minimums, lowest first (one per hand, or per score band).", "game"
    )
    opening_thresholds: tuple[int, ...] = _opt(
        (3000, 5000, 8000), "With opening_by = score: the totals at which the next minimum applies.", "game"
    )
    opening_increment: int = _opt(
        0, "With opening_by = hand: added per hand once the list of minimums is used up.", "game"
    )
    short_opening_penalty: int = _opt(
        0, "Score-pad penalty for laying down short of the minimum (paper games; software refuses it).", "game"
    )

    # --- 3. melds and books
    wild_limit: WildLimit = _opt(
        WildLimit.AT_MOST_NATURALS, "A meld's wilds may be at most, or fewer than, its naturals.", "melds"
    )
    min_naturals: int = _opt(2, "Naturals every meld of a rank must hold.", "melds")
    max_wilds: int = _opt(0, "Most wilds in one meld or book (0: no limit beyond wild_limit).", "melds")
    wild_melds: bool = _opt(False, "Melds made only of wilds are allowed (they close as wild books).", "melds")
    black_three_melds: bool = _opt(
        False, "Black 3s may be melded, only as a natural meld of black 3s, only when going out.", "melds"
    )
    book_size: int = _opt(7, "Cards that make a meld a book.", "melds")
    book_additions: BookAdditions = _opt(
        BookAdditions.ANY, "What may be added to a finished book: any card, naturals only, or none.", "melds"
    )
    new_meld_after_book: bool = _opt(
        False, "Once a book of a rank is closed, a new meld of that rank may be started.", "melds"
    )
    meld_owner: MeldOwner = _opt(
        MeldOwner.SIDE,
        "Melds belong to the side (partners share them and open together) or to each player.",
        "melds",
    )

    # --- 4. a turn
    draw_count: int = _opt(2, "Cards drawn from the stock each turn.", "turn")
    pickup_allowed: bool = _opt(True, "The discard pile may be taken instead of drawing.", "turn")
    pickup_naturals: int = _opt(
        2, "Naturals of the top card's rank from the hand needed to take the pile.", "turn"
    )
    pickup_naturals_on_meld: int = _opt(
        1, "Naturals needed when one's side already has an open meld of that rank.", "turn"
    )
    pickup_count: int = _opt(0, "Cards taken with the pile, top card included (0: the whole pile).", "turn")
    pickup_rest_from: PickupRestFrom = _opt(
        PickupRestFrom.PILE, "The cards taken beside the top card come from the pile or the stock.", "turn"
    )
    pickup_before_down: PickupBeforeDown = _opt(
        PickupBeforeDown.WITH_OPENING,
        "Before opening: never take the pile; take it when the top card and this turn's melds make "
        "the minimum; or only when the opening is in hand without the top card.",
        "turn",
    )
    black_three_freezes: bool = _opt(True, "A black 3 on top of the pile stops the next player taking it.", "turn")
    discard_wilds: bool = _opt(True, "Wilds may be discarded.", "turn")
    discard_playable: bool = _opt(
        True, "A card that could be melded now may be discarded (if not, the limit lifts when nothing else can go).",
        "turn",
    )
    must_play_all: bool = _opt(False, "A player must meld everything they can before discarding.", "turn")
    red_threes: RedThrees = _opt(
        RedThrees.LAY_DOWN,
        "Red 3s are laid down at once and replaced from the stock, or held like other cards.",
        "turn",
    )
    pile_visible: PileVisible = _opt(
        PileVisible.TOP, "Players see only the pile's top card and size, or every card in it.", "turn"
    )

    # --- 5. the Foot and going out
    foot_at_once: bool = _opt(
        True, "A player who melds the last Hand card picks up the Foot at once (else next turn).", "out"
    )
    go_out_books: int = _opt(1, "Books of any kind needed to go out.", "out")
    go_out_clean: int = _opt(0, "Clean books needed to go out.", "out")
    go_out_dirty: int = _opt(0, "Dirty books needed to go out (a clean book does not count as dirty).", "out")
    go_out_wild: int = _opt(0, "Wild books needed to go out (needs wild_melds).", "out")
    all_feet_to_go_out: bool = _opt(
        True, "Everyone on the side must have picked up their Foot before anyone goes out.", "out"
    )
    permission: Permission = _opt(
        Permission.NONE, "Asking the partner 'May I go out?': not done, required, or optional.", "out"
    )
    out_by_meld: OutByMeld = _opt(
        OutByMeld.FORBIDDEN,
        "Melding one's last card: not allowed (a final discard is required), goes out, or gives the "
        "others one last turn without a going-out bonus.",
        "out",
    )
    after_out: AfterOut = _opt(
        AfterOut.END, "After someone goes out the hand ends, or everyone else gets one more turn.", "out"
    )
    empty_without_out: EmptyWithoutOut = _opt(
        EmptyWithoutOut.FORBIDDEN,
        "Emptying hand and foot without going out: not allowed, allowed (draw as usual next turn), or "
        "allowed with an immediate new draw.",
        "out",
    )

    # --- 6. scoring
    card_values: tuple[int, ...] = _opt(
        STANDARD_CARD_VALUES, "Points of each card kind (JK 2 A K Q J T 9 8 7 6 5 4 3B).", "scoring"
    )
    red_three_bonus: int = _opt(100, "Each laid-down red 3 when the side has melded this hand.", "scoring")
    red_three_unmelded: int = _opt(
        -100, "Each laid-down red 3 when the side has not melded this hand.", "scoring"
    )
    red_three_held: int = _opt(-100, "Each red 3 still held (in hand or an unplayed Foot) at the end.", "scoring")
    clean_book_bonus: int = _opt(500, "Bonus for each clean (natural) book.", "scoring")
    dirty_book_bonus: int = _opt(300, "Bonus for each dirty (mixed) book.", "scoring")
    wild_book_bonus: int = _opt(1500, "Bonus for each wild book (with wild_melds).", "scoring")
    going_out_bonus: int = _opt(100, "Bonus for the side that goes out.", "scoring")
    unplayed_foot_counts: bool = _opt(True, "Cards in a Foot never picked up count against the side.", "scoring")

    def decks_for(self, players: int) -> int:
        """Decks in the shoe for this many players."""
        for count, decks in self.decks_by_players:
            if count == players:
                return decks
        return players + self.decks_extra

    def partnerships(self, players: int) -> bool:
        """True when this many players play as pairs of partners."""
        return players in self.partners_at

    def card_value(self, kind: int) -> int:
        """Points of one card kind (red 3s are scored by the red-3 options, never here)."""
        return self.card_values[kind]

    def opening_minimum(self, hand_index: int, side_total: int) -> int:
        """The opening minimum for a hand (0-based) for a side with this total going into it."""
        mins = self.opening_minimums
        if self.opening_by is OpeningBy.SCORE:
            band = 0
            for threshold in self.opening_thresholds:
                if side_total >= threshold:
                    band += 1
            return mins[min(band, len(mins) - 1)]
        if hand_index < len(mins):
            return mins[hand_index]
        return mins[-1] + self.opening_increment * (hand_index - len(mins) + 1)


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RuleSet))
OPTION_HELP: dict[str, str] = {f.name: str(f.metadata["help"]) for f in fields(RuleSet)}
OPTION_SECTION: dict[str, str] = {f.name: str(f.metadata["section"]) for f in fields(RuleSet)}
CARD_VALUE_KEYS: tuple[str, ...] = C.KIND_NAMES[:14]
