"""Dealing a hand: shuffled from a seed, or laid out explicitly by a record."""

from __future__ import annotations

import random
from dataclasses import dataclass

from handfoot import cards as C
from handfoot.engine.apply import lay_red_threes_from_hand
from handfoot.engine.events import Event
from handfoot.engine.shuffle import shuffle
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import EmptyStock, FirstUpcard, RuleSet
from handfoot.wording import plural


class DealError(ValueError):
    """An explicit deal whose cards do not fit the shoe or the rules."""


@dataclass(frozen=True)
class DealSpec:
    """An explicit deal. ``hands``: one complete Hand per seat. ``feet``: one Foot per seat, or None to
    shuffle them. ``stock_top``: the top cards of the stock, top first (the rest is shuffled under them).
    ``discard``: the discard pile, bottom first, replacing the upcard the rules would turn (None: as the
    rules deal it)."""

    hands: tuple[tuple[int, ...], ...]
    feet: tuple[tuple[int, ...], ...] | None = None
    stock_top: tuple[int, ...] = ()
    discard: tuple[int, ...] | None = None

    def __reduce__(self) -> tuple[type[DealSpec], tuple[object, ...]]:
        """Pickled through the constructor (compiled with mypyc, the only way one is made)."""
        return (DealSpec, (self.hands, self.feet, self.stock_top, self.discard))


def hand_rng(seed: int, hand_index: int) -> random.Random:
    """The random source of one hand of a game: stable across runs and Python versions."""
    return random.Random(f"handfoot:{seed}:{hand_index}")


def _take_counts(pool: list[int], cards: tuple[int, ...], what: str) -> None:
    for card in cards:
        if pool[card] <= 0:
            raise DealError(f"{what}: too many copies of {C.CODE_OF[card]} for the shoe")
        pool[card] -= 1


def deal(
    rules: RuleSet,
    players: int,
    hand_index: int,
    dealer: int,
    minimums: list[int],
    rng: random.Random,
    spec: DealSpec | None = None,
) -> tuple[HandState, list[Event]]:
    """A new HandState for one hand, dealt at random or from ``spec``.

    Red 3s are laid down (and replaced) where the rules say.
    """
    state = HandState(rules, players, hand_index, dealer, minimums)
    decks = rules.decks_for(players)
    if spec is None:
        cards = C.shoe(decks, rules.jokers_per_deck)
        shuffle(rng, cards)
        hands = [cards[i * rules.hand_size : (i + 1) * rules.hand_size] for i in range(players)]
        del cards[: players * rules.hand_size]
        feet = [cards[i * rules.foot_size : (i + 1) * rules.foot_size] for i in range(players)]
        del cards[: players * rules.foot_size]
        stock = cards  # top is the end
        pile: list[int] = []
        discard_given = False
    else:
        hands, feet, stock, pile = _explicit(rules, players, decks, rng, spec)
        discard_given = spec.discard is not None
    for seat in range(players):
        for card in hands[seat]:
            state.hands[seat][C.KIND_OF[card]] += 1
            state.hand_cards[seat][card] += 1
        state.hand_sizes[seat] = len(hands[seat])
        state.feet[seat] = list(feet[seat])
    upcard = rules.first_upcard
    if not discard_given and upcard is not FirstUpcard.NONE:
        while stock:
            card = stock.pop()
            pile.append(card)
            kind = C.KIND_OF[card]
            if upcard is FirstUpcard.ONE or not (C.is_wild(kind) or kind == C.RED_THREE):
                break
    state.stock = stock
    state.pile = pile
    if rules.empty_stock is EmptyStock.RESHUFFLE_PILE:
        state.reshuffle_seed = rng.getrandbits(64)  # drawn after the deal: the deal is the same either way
    events: list[Event] = []
    if rules.pick_foot_seen:
        state.phase = Phase.PICK_FOOT  # red 3s are laid once every seat has chosen its Hand
        return state, events
    for offset in range(players):
        lay_red_threes_from_hand(state, (state.first_player + offset) % players, events)
    return state, events


def _explicit(
    rules: RuleSet, players: int, decks: int, rng: random.Random, spec: DealSpec
) -> tuple[list[list[int]], list[list[int]], list[int], list[int]]:
    if len(spec.hands) != players:
        raise DealError(f"hands: {len(spec.hands)} given, one per seat needed ({players})")
    pool = C.shoe_counts(decks, rules.jokers_per_deck)
    for seat, hand in enumerate(spec.hands):
        if len(hand) != rules.hand_size:
            raise DealError(f"hands[{seat}]: {plural(len(hand), 'card')}, the rules deal {rules.hand_size}")
        _take_counts(pool, hand, f"hands[{seat}]")
    if spec.feet is not None:
        if len(spec.feet) != players:
            raise DealError(f"feet: {len(spec.feet)} given, one per seat needed ({players})")
        for seat, foot in enumerate(spec.feet):
            if len(foot) != rules.foot_size:
                raise DealError(
                    f"feet[{seat}]: {plural(len(foot), 'card')}, the rules deal {rules.foot_size}"
                )
            _take_counts(pool, foot, f"feet[{seat}]")
    _take_counts(pool, spec.stock_top, "stock")
    if spec.discard is not None:
        _take_counts(pool, spec.discard, "discard")
    rest = [card for card in range(C.NUM_CARD_IDS) for _ in range(pool[card])]
    shuffle(rng, rest)
    if spec.feet is None:
        if len(rest) < players * rules.foot_size:
            raise DealError("not enough cards left in the shoe to deal the feet")
        feet = [rest[i * rules.foot_size : (i + 1) * rules.foot_size] for i in range(players)]
        del rest[: players * rules.foot_size]
    else:
        feet = [list(f) for f in spec.feet]
    stock = rest + list(reversed(spec.stock_top))
    pile = list(spec.discard) if spec.discard is not None else []
    return [list(h) for h in spec.hands], feet, stock, pile
