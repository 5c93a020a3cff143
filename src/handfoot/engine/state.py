"""The data of one hand in play: who holds what, the table, whose turn it is.

``HandState`` is plain mutable data with no rules in it: ``judge.check`` judges moves on it,
``legal.legal_ids`` lists them and ``apply.apply_move`` plays them. Card holdings are
kept twice: per kind (what the rules count) and per card id (what is shown), updated together.
"""

from __future__ import annotations

from enum import IntEnum

from handfoot import cards as C
from handfoot.rules.options import EmptyStock, MeldOwner, RuleSet


class Phase(IntEnum):
    """Where the player to move is in their turn."""

    DRAW = 0  # must draw or take the pile
    PLAY = 1  # may meld, ask, and must discard (or go out)
    ANSWER = 2  # the partner answers "May I go out?"
    OVER = 3  # the hand has ended
    PICK_FOOT = 4  # seats in turn keep or swap their two seen piles (rules.pick_foot_seen)


class EndReason(IntEnum):
    """Why a hand ended."""

    NONE = 0
    WENT_OUT = 1
    STOCK_EMPTY = 2
    LAST_ROUND = 3


class Meld:
    """Cards of one rank on the table, owned by a side (or a player)."""

    __slots__ = ("cards", "owner", "rank", "wilds")

    def __init__(self, owner: int, rank: int, cards: list[int], wilds: int) -> None:
        self.owner = owner
        self.rank = rank
        self.cards = cards
        self.wilds = wilds

    @property
    def naturals(self) -> int:
        """Natural cards in the meld."""
        return len(self.cards) - self.wilds

    def copy(self) -> Meld:
        """An independent copy."""
        return Meld(self.owner, self.rank, list(self.cards), self.wilds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and (self.owner, self.rank, self.cards, self.wilds) == (
            other.owner,
            other.rank,
            other.cards,
            other.wilds,
        )

    def __repr__(self) -> str:
        return f"Meld(owner={self.owner}, rank={C.KIND_NAMES[self.rank]}, cards={C.codes(self.cards)})"


class Seating:
    """Who sits where: sides, partners, and who owns the melds a seat plays on."""

    __slots__ = ("num_owners", "num_sides", "owner_of", "partners", "players", "side_of", "side_seats")

    def __init__(self, rules: RuleSet, players: int) -> None:
        self.players = players
        if rules.partnerships(players):
            half = players // 2
            self.side_of = tuple(seat % half for seat in range(players))
            self.num_sides = half
        else:
            self.side_of = tuple(range(players))
            self.num_sides = players
        self.side_seats = tuple(
            tuple(s for s in range(players) if self.side_of[s] == side) for side in range(self.num_sides)
        )
        self.partners = tuple(
            tuple(s for s in self.side_seats[self.side_of[seat]] if s != seat) for seat in range(players)
        )
        if rules.meld_owner is MeldOwner.PLAYER:
            self.owner_of = tuple(range(players))
            self.num_owners = players
        else:
            self.owner_of = self.side_of
            self.num_owners = self.num_sides

    def side_of_owner(self, owner: int, rules: RuleSet) -> int:
        """The side a meld owner belongs to."""
        return self.side_of[owner] if rules.meld_owner is MeldOwner.PLAYER else owner


class HandState:
    """Everything about one hand in play (hidden cards included)."""

    __slots__ = (
        "books",
        "dealer",
        "down",
        "end_reason",
        "feet",
        "first_player",
        "hand_cards",
        "hand_index",
        "hands",
        "in_foot",
        "known",
        "last_round_left",
        "meld_of",
        "melds",
        "minimums",
        "move_count",
        "out_seat",
        "permission",
        "phase",
        "pile",
        "players",
        "red_threes",
        "reshuffle_seed",
        "reshuffles",
        "rules",
        "seating",
        "stock",
        "to_move",
        "turn_seat",
        "turn_wilds",
    )

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        hand_index: int,
        dealer: int,
        minimums: list[int],
        seating: Seating | None = None,
        blank: bool = False,
    ) -> None:
        self.rules = rules
        self.players = players
        self.seating = Seating(rules, players) if seating is None else seating  # derived: may be shared
        self.hand_index = hand_index
        self.dealer = dealer
        self.first_player = (dealer + 1) % players
        if blank:
            return  # ``copy`` sets every other field
        # per seat: counts by kind, counts by card id, the unplayed foot (card ids), whether in the foot
        self.hands: list[list[int]] = [[0] * C.NUM_KINDS for _ in range(players)]
        self.hand_cards: list[list[int]] = [[0] * C.NUM_CARD_IDS for _ in range(players)]
        self.feet: list[list[int]] = [[] for _ in range(players)]
        self.in_foot: list[bool] = [False] * players
        # cards each seat is publicly known to hold (seen taken from a visible pile), by kind
        self.known: list[list[int]] = [[0] * C.NUM_KINDS for _ in range(players)]
        self.stock: list[int] = []  # top is the end
        self.pile: list[int] = []  # top is the end
        owners = self.seating.num_owners
        self.melds: list[Meld] = []
        self.meld_of: list[list[int]] = [[-1] * C.NUM_KINDS for _ in range(owners)]
        self.books: list[list[int]] = [[0, 0, 0] for _ in range(owners)]  # clean, dirty, wild
        self.down: list[bool] = [False] * owners
        self.minimums: list[int] = list(minimums)  # opening minimum per owner
        self.red_threes: list[list[int]] = [[] for _ in range(self.seating.num_sides)]  # laid down, per side
        self.turn_seat = self.first_player  # whose turn it is
        self.to_move = self.first_player  # who must act (the partner while answering)
        self.phase = Phase.DRAW
        self.permission = 0  # this turn: 0 not asked, 1 granted, -1 refused
        self.last_round_left = -1  # turns left once someone went out with a last round to play
        self.out_seat = -1
        self.end_reason = EndReason.NONE
        self.move_count = 0
        # empty_stock = "reshuffle_pile": the hand's own seed for reshuffling the pile (secret, never in a
        # view), and how many times it was reshuffled
        self.reshuffle_seed = 0
        self.reshuffles = 0
        # wilds added this turn to melds already on the table, by meld index (max_wilds_added_per_turn)
        self.turn_wilds: dict[int, int] = {}

    def can_reshuffle(self, need: int = 0) -> bool:
        """True if an empty stock is refilled from the pile (``empty_stock``) and the pile but its top card
        holds the ``need`` cards still to draw (``draw_count`` by default): a pile too small to refill a
        draw ends the hand as an empty stock does, so a hand cannot go on with cards trickling round."""
        if self.rules.empty_stock is not EmptyStock.RESHUFFLE_PILE:
            return False
        return len(self.pile) - 1 >= (need or self.rules.draw_count)

    def hand_size(self, seat: int) -> int:
        """Cards in a seat's hand (the Foot, once picked up, is the hand)."""
        return sum(self.hands[seat])

    def copy(self) -> HandState:
        """A deep, independent copy."""
        # the constructor, not __new__: compiled with mypyc, a HandState is only made through __init__
        other = HandState(
            self.rules, self.players, self.hand_index, self.dealer, self.minimums, self.seating, blank=True
        )
        other.first_player = self.first_player
        other.minimums = list(self.minimums)
        other.hands = [list(h) for h in self.hands]
        other.hand_cards = [list(h) for h in self.hand_cards]
        other.feet = [list(f) for f in self.feet]
        other.in_foot = list(self.in_foot)
        other.known = [list(k) for k in self.known]
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.melds = [m.copy() for m in self.melds]
        other.meld_of = [list(m) for m in self.meld_of]
        other.books = [list(b) for b in self.books]
        other.down = list(self.down)
        other.red_threes = [list(r) for r in self.red_threes]
        other.turn_seat = self.turn_seat
        other.to_move = self.to_move
        other.phase = self.phase
        other.permission = self.permission
        other.last_round_left = self.last_round_left
        other.out_seat = self.out_seat
        other.end_reason = self.end_reason
        other.move_count = self.move_count
        other.reshuffle_seed = self.reshuffle_seed
        other.reshuffles = self.reshuffles
        other.turn_wilds = dict(self.turn_wilds)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _COMPARED_FIELDS)

    def __hash__(self) -> int:
        raise TypeError("a HandState is mutable and cannot be hashed")


# Fields compared by ``HandState.__eq__`` (``seating`` is derived from rules and players).
_COMPARED_FIELDS: tuple[str, ...] = (
    "books",
    "dealer",
    "down",
    "end_reason",
    "feet",
    "first_player",
    "hand_cards",
    "hand_index",
    "hands",
    "in_foot",
    "known",
    "last_round_left",
    "meld_of",
    "melds",
    "minimums",
    "move_count",
    "out_seat",
    "permission",
    "phase",
    "pile",
    "players",
    "red_threes",
    "reshuffle_seed",
    "reshuffles",
    "rules",
    "stock",
    "to_move",
    "turn_seat",
    "turn_wilds",
)
