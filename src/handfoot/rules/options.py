"""The RuleSet: every house-rule option, named, typed, with a default and a one-line help.

Each option is a field of one frozen dataclass. ``OPTION_HELP`` and ``OPTION_SECTION`` give the
help line and the section of RULES.md it comes from. Validation of a whole rule set lives in
``validate.py``; reading TOML files and presets in ``load.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cache
from typing import Any, Final

from handfoot import cards as C


class WildLimit(StrEnum):
    """How many wilds a meld may hold compared to its naturals."""

    AT_MOST_NATURALS = "at_most_naturals"
    FEWER_THAN_NATURALS = "fewer_than_naturals"


class FirstUpcard(StrEnum):
    """How the discard pile starts."""

    NONE = "none"
    ONE = "one"
    UNTIL_NATURAL = "until_natural"


class GameEnd(StrEnum):
    """What ends a game."""

    TARGET = "target"
    HANDS = "hands"


class OpeningBy(StrEnum):
    """What sets the opening minimum of a hand."""

    SCORE = "score"
    HAND = "hand"


class BlackThreeBooks(StrEnum):
    """Whether a whole book of black 3s may be laid from the Foot, and what kind of book it counts as."""

    NONE = "none"
    CLEAN = "clean"
    DIRTY = "dirty"


class OpeningScope(StrEnum):
    """What the opening minimum counts: one lay-down, or every card laid in the turn (Foot included)."""

    PLAY = "play"
    TURN = "turn"


class EmptyStock(StrEnum):
    """What an empty stock does when a player must draw."""

    END = "end"
    RESHUFFLE_PILE = "reshuffle_pile"


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
    OPENING_IN_HAND = "opening_in_hand"  # melds of 3+ cards held without the top card make the minimum
    OPENING_IN_HAND_WITH_PAIR = "opening_in_hand_with_pair"  # as above, the pair for the top card counting


class PickupRestFrom(StrEnum):
    """Where the cards taken beside the top discard come from."""

    PILE = "pile"
    STOCK = "stock"


class RedThrees(StrEnum):
    """What happens to red 3s."""

    LAY_DOWN = "lay_down"
    HOLD = "hold"
    LAY_BY_CHOICE = "lay_by_choice"


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
    LAST_ROUND_BONUS = "last_round_bonus"
    END = "end"


class AfterOut(StrEnum):
    """What happens after a player goes out."""

    END = "end"
    LAST_ROUND = "last_round"
    LAST_ROUND_NO_BONUS = "last_round_no_bonus"


class RedThreeBonusIf(StrEnum):
    """When a laid-down red 3 earns its bonus (else it counts red_three_unmelded)."""

    MELDED = "melded"
    WENT_OUT = "went_out"


class AllFeet(StrEnum):
    """Whether everyone on a side must be in their Foot before anyone goes out, and what being in it is."""

    NONE = "none"
    PICKED_UP = "picked_up"  # the Foot has been picked up
    ENTERED = "entered"  # the Foot has been picked up, or the Hand emptied (the Foot comes next turn)


class OpeningWaiver(StrEnum):
    """When a lay-down needs no opening minimum because of what it leaves in the hand."""

    NONE = "none"
    DISCARD = "discard"  # the lay-down leaves the hand empty or holding only the card to discard
    EMPTY = "empty"  # the lay-down leaves the hand empty (melded empty, no discard)


class EmptyWithoutOut(StrEnum):
    """Whether a player may empty hand and foot without going out."""

    FORBIDDEN = "forbidden"
    WAIT = "wait"
    DRAW_AGAIN = "draw_again"


# Card values by kind, in kind order (JK, 2, A, K, Q, J, T, 9, 8, 7, 6, 5, 4, black 3, red 3).
# A red 3 is scored by the red-3 options, never by this table.
STANDARD_CARD_VALUES: tuple[int, ...] = (50, 20, 20, 10, 10, 10, 10, 10, 10, 5, 5, 5, 5, 5, 0)


# ``book_bonuses`` entries are (meld rank kind, book status, points); the status is 0 clean, 1 dirty,
# 2 wild, or BOOK_ANY for a row that names the rank alone (any book of it).
BOOK_ANY: Final = -1
BOOK_STATUS_WORDS: tuple[str, ...] = ("clean", "dirty")


def _meta(help_text: str, section: str) -> dict[str, str]:
    """The metadata of one option field: its one-line help and its RULES.md section."""
    return {"help": help_text, "section": section}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete house-rule configuration. Build one with ``load_rules`` so it is validated."""

    # --- identity
    name: str = field(default="custom", metadata=_meta("Short name of this rule set.", "identity"))
    title: str = field(
        default="Custom house rules", metadata=_meta("The rule sheet's own title.", "identity")
    )
    summary: str = field(default="", metadata=_meta("One line describing the rule set.", "identity"))

    # --- 1. table and deal
    players_allowed: tuple[int, ...] = field(
        default=(2, 3, 4, 5, 6),
        metadata=_meta("Player counts this rule set can be played with (2 to 10).", "table"),
    )
    default_players: int = field(default=4, metadata=_meta("Player count used when none is given.", "table"))
    partners_at: tuple[int, ...] = field(
        default=(4,),
        metadata=_meta(
            "Player counts played in partnerships (pairs, partners across); others play alone.", "table"
        ),
    )
    decks_extra: int = field(
        default=1, metadata=_meta("Decks in the shoe are the player count plus this many.", "table")
    )
    decks_by_players: tuple[tuple[int, int], ...] = field(
        default=(),
        metadata=_meta(
            "Fixed deck counts by player count (a table players -> decks); overrides decks_extra.", "table"
        ),
    )
    jokers_per_deck: int = field(default=2, metadata=_meta("Jokers in each deck.", "table"))
    hand_size: int = field(default=11, metadata=_meta("Cards dealt to each Hand.", "table"))
    foot_size: int = field(default=11, metadata=_meta("Cards dealt to each Foot.", "table"))
    pick_foot_seen: bool = field(
        default=False,
        metadata=_meta(
            "Each player sees both dealt piles, then chooses which is the Foot (else it is taken unseen).",
            "table",
        ),
    )
    first_upcard: FirstUpcard = field(
        default=FirstUpcard.UNTIL_NATURAL,
        metadata=_meta(
            "How the discard pile starts: no upcard, exactly one upcard whatever it is, or upcards turned "
            "until one is neither a red 3 nor a wild (true and false, as older files write it, are "
            "until_natural and none).",
            "table",
        ),
    )
    exact_deal_bonus: int = field(
        default=0,
        metadata=_meta(
            "Score-pad bonus for a player who grabs exactly the cards of both piles (paper games).", "table"
        ),
    )

    # --- 2. length of a game and the opening minimum
    game_end: GameEnd = field(
        default=GameEnd.TARGET,
        metadata=_meta("A game ends at a target score or after a number of hands.", "game"),
    )
    target_score: int = field(
        default=10000, metadata=_meta("With game_end = target: the total that ends the game.", "game")
    )
    hands_per_game: int = field(
        default=4, metadata=_meta("With game_end = hands: how many hands make a game.", "game")
    )
    opening_by: OpeningBy = field(
        default=OpeningBy.SCORE,
        metadata=_meta("The opening minimum rises with the side's score, or with the hand number.", "game"),
    )
    opening_minimums: tuple[int, ...] = field(
        default=(50, 90, 120, 150),
        metadata=_meta("Opening minimums, lowest first (one per hand, or per score band).", "game"),
    )
    opening_thresholds: tuple[int, ...] = field(
        default=(3000, 5000, 8000),
        metadata=_meta("With opening_by = score: the totals at which the next minimum applies.", "game"),
    )
    opening_increment: int = field(
        default=0,
        metadata=_meta(
            "With opening_by = hand: added per hand once the list of minimums is used up.", "game"
        ),
    )
    short_opening_penalty: int = field(
        default=0,
        metadata=_meta(
            "Score-pad penalty for laying down short of the minimum (paper games; software refuses it).",
            "game",
        ),
    )
    opening_counts_books: bool = field(
        default=False,
        metadata=_meta(
            "The bonuses of the books an opening lay-down completes count toward the opening minimum.",
            "game",
        ),
    )
    opening_scope: OpeningScope = field(
        default=OpeningScope.PLAY,
        metadata=_meta(
            "What the opening minimum counts: the groups laid down together (play), or every card laid "
            "in the turn, the Foot's cards included when the Hand runs out in it (turn).",
            "game",
        ),
    )
    opening_waived_if_emptied: OpeningWaiver = field(
        default=OpeningWaiver.NONE,
        metadata=_meta(
            "A lay-down that empties the hand needs no opening minimum: never (none), when it leaves the "
            "hand empty or holding only the card to discard (discard), or only when it melds the hand "
            "empty (empty; true and false, as older files write it, are discard and none).",
            "game",
        ),
    )

    # --- 3. melds and books
    wild_limit: WildLimit = field(
        default=WildLimit.AT_MOST_NATURALS,
        metadata=_meta("A meld's wilds may be at most, or fewer than, its naturals.", "melds"),
    )
    min_naturals: int = field(default=2, metadata=_meta("Naturals every meld of a rank must hold.", "melds"))
    max_wilds: int = field(
        default=0, metadata=_meta("Most wilds in one meld or book (0: no limit beyond wild_limit).", "melds")
    )
    max_wilds_new_meld: int = field(
        default=0,
        metadata=_meta(
            "Most wilds in the group that starts a meld of a rank (0: no limit beyond the others).", "melds"
        ),
    )
    max_wilds_added_per_turn: int = field(
        default=0,
        metadata=_meta(
            "Most wilds one turn may add to one meld already on the table (0: no limit).", "melds"
        ),
    )
    wild_melds: bool = field(
        default=False,
        metadata=_meta("Melds made only of wilds are allowed (they close as wild books).", "melds"),
    )
    black_three_melds: bool = field(
        default=False,
        metadata=_meta(
            "Black 3s may be melded, only as a natural meld of black 3s, only when going out.", "melds"
        ),
    )
    black_three_books: BlackThreeBooks = field(
        default=BlackThreeBooks.NONE,
        metadata=_meta(
            "A book of black 3s may be laid by a player in the Foot, only whole (book_size black 3s at "
            "once, no wilds), counting as a clean or a dirty book (none: not allowed).",
            "melds",
        ),
    )
    book_size: int = field(default=7, metadata=_meta("Cards that make a meld a book.", "melds"))
    book_additions: BookAdditions = field(
        default=BookAdditions.ANY,
        metadata=_meta("What may be added to a finished book: any card, naturals only, or none.", "melds"),
    )
    new_meld_after_book: bool = field(
        default=False,
        metadata=_meta("Once a book of a rank is closed, a new meld of that rank may be started.", "melds"),
    )
    meld_owner: MeldOwner = field(
        default=MeldOwner.SIDE,
        metadata=_meta(
            "Melds belong to the side (partners share them and open together) or to each player.", "melds"
        ),
    )

    # --- 4. a turn
    draw_count: int = field(default=2, metadata=_meta("Cards drawn from the stock each turn.", "turn"))
    split_draw: bool = field(
        default=False,
        metadata=_meta(
            "Instead of drawing draw_count cards from the stock, a player may take the discard pile's top "
            "card (a natural of rank A to 4, the pile not frozen) and draw one card fewer from the stock.",
            "turn",
        ),
    )
    pickup_allowed: bool = field(
        default=True, metadata=_meta("The discard pile may be taken instead of drawing.", "turn")
    )
    pickup_naturals: int = field(
        default=2,
        metadata=_meta("Naturals of the top card's rank from the hand needed to take the pile.", "turn"),
    )
    pickup_naturals_on_meld: int = field(
        default=1,
        metadata=_meta("Naturals needed when one's side already has an open meld of that rank.", "turn"),
    )
    pickup_count: int = field(
        default=0, metadata=_meta("Cards taken with the pile, top card included (0: the whole pile).", "turn")
    )
    pickup_rest_from: PickupRestFrom = field(
        default=PickupRestFrom.PILE,
        metadata=_meta("The cards taken beside the top card come from the pile or the stock.", "turn"),
    )
    pickup_before_down: PickupBeforeDown = field(
        default=PickupBeforeDown.WITH_OPENING,
        metadata=_meta(
            "Before opening: never take the pile; take it when the top card and this turn's melds make "
            "the minimum; only when melds of three or more cards held without the top card make it; or "
            "the same with the pair for the top card counting too.",
            "turn",
        ),
    )
    pickup_with_wild: bool = field(
        default=False,
        metadata=_meta(
            "Once one's side is down, the pile may also be taken with one natural and one wild of the top "
            "card's rank.",
            "turn",
        ),
    )
    empty_stock: EmptyStock = field(
        default=EmptyStock.END,
        metadata=_meta(
            "A player who must draw from an empty stock: the hand ends (unless the pile can be taken), or "
            "the pile but its top card is shuffled into a new stock (reshuffle_pile).",
            "turn",
        ),
    )
    black_three_freezes: bool = field(
        default=True, metadata=_meta("A black 3 on top of the pile stops the next player taking it.", "turn")
    )
    discard_wilds: bool = field(default=True, metadata=_meta("Wilds may be discarded.", "turn"))
    wild_final_discard: bool = field(
        default=True,
        metadata=_meta(
            "The discard that goes out may be a wild (if not, a play may not leave a lone wild to go out "
            "with).",
            "turn",
        ),
    )
    discard_playable: bool = field(
        default=True,
        metadata=_meta(
            "A card that could be melded now may be discarded (if not, the limit lifts when nothing "
            "else can go).",
            "turn",
        ),
    )
    must_play_all: bool = field(
        default=False,
        metadata=_meta(
            "A player must lay down every card that can go down (onto a meld, as a new meld, or as an "
            "opening held) before discarding.",
            "turn",
        ),
    )
    red_threes: RedThrees = field(
        default=RedThrees.LAY_DOWN,
        metadata=_meta(
            "Red 3s are laid down at once and replaced from the stock; held like other cards; or held and "
            "laid down (not replaced) in one's turn when the player chooses, never discarded "
            "(lay_by_choice).",
            "turn",
        ),
    )
    pile_visible: PileVisible = field(
        default=PileVisible.TOP,
        metadata=_meta("Players see only the pile's top card and size, or every card in it.", "turn"),
    )

    # --- 5. the Foot and going out
    foot_at_once: bool = field(
        default=True,
        metadata=_meta(
            "A player who melds the last Hand card picks up the Foot at once (else next turn).", "out"
        ),
    )
    foot_pickup_is_draw: bool = field(
        default=False,
        metadata=_meta(
            "Picking up the Foot at the start of a turn is that turn's draw: play goes on to melding.", "out"
        ),
    )
    go_out_books: int = field(
        default=1, metadata=_meta("Books of any kind needed to go out (a list: one per hand).", "out")
    )
    go_out_clean: int = field(
        default=0, metadata=_meta("Clean books needed to go out (a list: one per hand).", "out")
    )
    go_out_dirty: int = field(
        default=0,
        metadata=_meta(
            "Dirty books needed to go out (a clean book does not count as dirty; a list: one per hand).",
            "out",
        ),
    )
    go_out_wild: int = field(
        default=0,
        metadata=_meta("Wild books needed to go out (needs wild_melds; a list: one per hand).", "out"),
    )
    all_feet_to_go_out: AllFeet = field(
        default=AllFeet.PICKED_UP,
        metadata=_meta(
            "Before anyone goes out, everyone on the side must be in their Foot: not needed (none), the "
            "Foot picked up (picked_up), or the Foot picked up or the Hand emptied, the Foot coming next "
            "turn (entered; true and false, as older files write it, are picked_up and none).",
            "out",
        ),
    )
    wild_book_counts_clean: bool = field(
        default=False,
        metadata=_meta(
            "A wild book counts as a clean book toward go_out_clean (needs wild_melds).",
            "out",
        ),
    )
    permission: Permission = field(
        default=Permission.NONE,
        metadata=_meta("Asking the partner 'May I go out?': not done, required, or optional.", "out"),
    )
    ask_with_last_card: bool = field(
        default=False,
        metadata=_meta(
            "A player in the Foot may meld down to the last card before asking 'May I go out?' and ask "
            "holding it; told no, the player ends the turn holding the card (end) instead of discarding "
            "(needs permission).",
            "out",
        ),
    )
    out_by_meld: OutByMeld = field(
        default=OutByMeld.FORBIDDEN,
        metadata=_meta(
            "Melding one's last card: not allowed (a final discard is required); goes out as a discard "
            "would (after_out); gives the others one last turn without the going-out bonus, or with it "
            "(last_round_bonus); or goes out and ends the hand at once (end).",
            "out",
        ),
    )
    after_out: AfterOut = field(
        default=AfterOut.END,
        metadata=_meta(
            "After someone goes out (by a discard) the hand ends, or everyone else gets one more turn, "
            "with the going-out bonus earned (last_round) or not (last_round_no_bonus).",
            "out",
        ),
    )
    empty_without_out: EmptyWithoutOut = field(
        default=EmptyWithoutOut.FORBIDDEN,
        metadata=_meta(
            "Emptying hand and foot without going out: not allowed, allowed (draw as usual next turn), or "
            "allowed with an immediate new draw.",
            "out",
        ),
    )

    # --- 6. scoring
    card_values: tuple[int, ...] = field(
        default=STANDARD_CARD_VALUES,
        metadata=_meta("Points of each card kind (JK 2 A K Q J T 9 8 7 6 5 4 3B).", "scoring"),
    )
    red_three_bonus: int = field(
        default=100, metadata=_meta("Each laid-down red 3 when the side has melded this hand.", "scoring")
    )
    red_three_unmelded: int = field(
        default=-100,
        metadata=_meta("Each laid-down red 3 when the side has not melded this hand.", "scoring"),
    )
    red_three_bonus_if: RedThreeBonusIf = field(
        default=RedThreeBonusIf.MELDED,
        metadata=_meta(
            "A laid-down red 3 earns red_three_bonus when its side has melded this hand, or only when its "
            "side went out (otherwise red_three_unmelded).",
            "scoring",
        ),
    )
    red_three_held: int = field(
        default=-100,
        metadata=_meta("Each red 3 still held (in hand or an unplayed Foot) at the end.", "scoring"),
    )
    clean_book_bonus: int = field(
        default=500, metadata=_meta("Bonus for each clean (natural) book.", "scoring")
    )
    dirty_book_bonus: int = field(
        default=300, metadata=_meta("Bonus for each dirty (mixed) book.", "scoring")
    )
    wild_book_bonus: int = field(
        default=1500, metadata=_meta("Bonus for each wild book (with wild_melds).", "scoring")
    )
    book_bonuses: tuple[tuple[int, int, int], ...] = field(
        default=(),
        metadata=_meta(
            'Bonuses of books by rank and kind (a table such as { "clean 7" = 1500, W = 2500 }); a book '
            "the table does not name earns clean_book_bonus, dirty_book_bonus or wild_book_bonus.",
            "scoring",
        ),
    )
    wild_meld_penalty: int = field(
        default=0,
        metadata=_meta(
            "Points taken away for each meld of wilds that is not a book at the end of the hand.", "scoring"
        ),
    )
    going_out_bonus: int = field(
        default=100, metadata=_meta("Bonus for the side that goes out (a list: one per hand).", "scoring")
    )
    unplayed_foot_counts: bool = field(
        default=True, metadata=_meta("Cards in a Foot never picked up count against the side.", "scoring")
    )
    # Not an option of its own: the options of PER_HAND_OPTIONS given as a list in a rule file, one value
    # per hand (the option's field holds the first hand's value). ``for_hand`` resolves them.
    hand_values: tuple[tuple[str, tuple[int, ...]], ...] = field(
        default=(), metadata={"help": "", "section": "game", "internal": True}
    )

    def __reduce__(self) -> tuple[type[RuleSet], tuple[Any, ...]]:
        """Pickled as its field values, rebuilt through the constructor: a frozen rule set is never set
        field by field (compiled with mypyc, the default pickling would try to)."""
        return (RuleSet, tuple(getattr(self, f.name) for f in fields(self)))

    def __copy__(self) -> RuleSet:
        """A rule set is frozen: a copy is the rule set itself."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> RuleSet:
        """A rule set is frozen, its values immutable: a deep copy is the rule set itself (so what is kept
        by its identity, such as the meld memo, serves the copy too)."""
        return self

    def for_hand(self, hand_index: int) -> RuleSet:
        """The rules one hand (0-based) is played under: each option given one value per hand takes that
        hand's value (the last value holds for later hands). The rule set itself when none is."""
        if not self.hand_values:
            return self
        return _for_hand(self, hand_index)

    def per_hand(self, option: str) -> tuple[int, ...]:
        """The values of an option of PER_HAND_OPTIONS, one per hand (one value: every hand)."""
        for name, values in self.hand_values:
            if name == option:
                return values
        value: int = getattr(self, option)
        return (value,)

    def decks_for(self, players: int) -> int:
        """Decks in the shoe for this many players."""
        for count, decks in self.decks_by_players:
            if count == players:
                return decks
        return players + self.decks_extra

    def partnerships(self, players: int) -> bool:
        """True when this many players play as pairs of partners."""
        return players in self.partners_at

    def book_bonus(self, rank: int, status: int) -> int:
        """The bonus of one book of ``rank`` (a meld rank kind) and status (0 clean, 1 dirty, 2 wild)."""
        best = -1
        for table_rank, table_status, points in self.book_bonuses:
            if table_rank == rank:
                if table_status == status:
                    return points
                if table_status == BOOK_ANY:
                    best = points
        if best >= 0:
            return best
        if status == 0:
            return self.clean_book_bonus
        return self.dirty_book_bonus if status == 1 else self.wild_book_bonus

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


@cache
def _for_hand(rules: RuleSet, hand_index: int) -> RuleSet:
    changes: dict[str, Any] = {
        name: values[min(hand_index, len(values) - 1)] for name, values in rules.hand_values
    }
    changes["hand_values"] = ()
    return replace(rules, **changes)


# Options a rule file may give as a list, one value per hand (as opening_minimums is, by hand).
PER_HAND_OPTIONS: tuple[str, ...] = (
    "go_out_books",
    "go_out_clean",
    "go_out_dirty",
    "go_out_wild",
    "going_out_bonus",
)
# The option fields (``hand_values`` is how per-hand lists are kept, not an option of its own).
OPTION_FIELDS = tuple(f for f in fields(RuleSet) if not f.metadata.get("internal"))
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in OPTION_FIELDS)
# The sections of RULES.md the options are grouped by, in order, with their headings.
SECTION_TITLES: dict[str, str] = {
    "identity": "Identity",
    "table": "1. Table and deal",
    "game": "2. Length of a game and the opening minimum",
    "melds": "3. Melds and books",
    "turn": "4. A turn",
    "out": "5. The Foot and going out",
    "scoring": "6. Scoring a hand",
}
OPTION_HELP: dict[str, str] = {f.name: str(f.metadata["help"]) for f in OPTION_FIELDS}
OPTION_SECTION: dict[str, str] = {f.name: str(f.metadata["section"]) for f in OPTION_FIELDS}
CARD_VALUE_KEYS: tuple[str, ...] = C.KIND_NAMES[:14]
# The allowed words of every option that takes one of a few (an enumeration), in declaration order.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    f.name: tuple(member.value for member in type(f.default))
    for f in fields(RuleSet)
    if isinstance(f.default, StrEnum)
}
