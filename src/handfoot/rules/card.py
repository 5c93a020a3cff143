"""A rule set as a one-page card for a newcomer: how a turn goes, the Hand and the Foot, how to begin,
books, going out, scoring and the game's end, in plain words and with this rule set's numbers.

Every sentence is derived from the rule set's values; a rule that does not apply at this table (a wild
book when melds of wilds are not allowed, a target score when the game ends after a number of hands,
partners where everyone plays alone) is not on the card. ``rules_card`` builds it; ``plain`` writes it
ahead of the full option list (``handfoot rules show --format``, the print pages).

Standard library only: the rules ring, below the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from handfoot import cards as C
from handfoot.rules.options import (
    AfterOut,
    AllFeet,
    BlackThreeBooks,
    BookAdditions,
    EmptyStock,
    EmptyWithoutOut,
    FirstUpcard,
    GameEnd,
    MeldOwner,
    OpeningBy,
    OpeningScope,
    OpeningWaiver,
    OutByMeld,
    Permission,
    PickupBeforeDown,
    PickupRestFrom,
    RedThreeBonusIf,
    RedThrees,
    RuleSet,
    WildLimit,
)

# Card kinds by name for the card values line, in kind order (a red 3 is scored by the red-3 rules).
KIND_WORDS: tuple[str, ...] = (
    "Jokers",
    "2s",
    "Aces",
    "Kings",
    "Queens",
    "Jacks",
    "10s",
    "9s",
    "8s",
    "7s",
    "6s",
    "5s",
    "4s",
    "black 3s",
)


@dataclass(frozen=True)
class CardSection:
    """One part of the card: a title and its sentences (each a short paragraph or list item)."""

    title: str
    lines: tuple[str, ...]


def value_groups(rules: RuleSet) -> list[tuple[list[int], int]]:
    """The card kinds (jokers to black 3s) grouped by equal value, in kind order: (kinds, points)."""
    groups: list[tuple[list[int], int]] = []
    for kind in range(C.BLACK_THREE + 1):
        value = rules.card_values[kind]
        if groups and groups[-1][1] == value:
            groups[-1][0].append(kind)
        else:
            groups.append(([kind], value))
    return groups


def _kinds_words(kinds: list[int]) -> str:
    """``Kings to 8s`` for a run of kinds, ``Jokers`` for one, ``2s and Aces`` for two."""
    if len(kinds) == 1:
        return KIND_WORDS[kinds[0]]
    if len(kinds) == 2:
        return f"{KIND_WORDS[kinds[0]]} and {KIND_WORDS[kinds[1]]}"
    return f"{KIND_WORDS[kinds[0]]} to {KIND_WORDS[kinds[-1]]}"


def card_values_words(rules: RuleSet) -> str:
    """What each card is worth: ``Jokers 50, 2s and Aces 20, Kings to 8s 10, 7s to black 3s 5``."""
    return ", ".join(f"{_kinds_words(kinds)} {points}" for kinds, points in value_groups(rules))


def _count(n: int, word: str) -> str:
    """``1 card``, ``2 cards``, ``no card``."""
    if n == 0:
        return f"no {word}"
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _numbers(values: tuple[int, ...]) -> str:
    """``4``, ``2 to 6`` for a run, ``2, 3, 4 and 6`` otherwise."""
    if len(values) > 2 and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}"
    return _join([str(v) for v in values])


def _per_hand(values: tuple[int, ...], word: str = "") -> str:
    """One value, or ``50 in hand 1, 90 in hand 2`` when the value changes by hand."""
    if len(set(values)) == 1:
        return f"{values[0]}{word}"
    return ", ".join(f"{v}{word} in hand {i + 1}" for i, v in enumerate(values)) + " and after"


class _Who:
    """How the card names the one who melds and scores: "your side" with partners, "you" without."""

    def __init__(self, rules: RuleSet) -> None:
        self.partners = bool(rules.partners_at)
        self.shared = self.partners and rules.meld_owner is MeldOwner.SIDE
        self.owner = "your side" if self.shared else "you"
        self.scorer = "each side" if self.partners else "each player"
        self.has = "has" if self.shared else "have"
        self.its = "its" if self.partners else "their"


def _table(rules: RuleSet) -> CardSection:
    players = rules.players_allowed
    lines = []
    count = f"{_numbers(players)} players"
    if rules.partners_at:
        pairs = _join([str(p) for p in rules.partners_at])
        alone = [p for p in players if p not in rules.partners_at]
        lines.append(
            f"{count}. At {pairs} players, partners sit across and score together"
            + (f"; at {_join([str(p) for p in alone])} everyone plays alone." if alone else ".")
        )
    else:
        lines.append(f"{count}, each playing alone.")
    if rules.decks_by_players:
        by_decks: dict[int, list[int]] = {}
        for p, d in rules.decks_by_players:
            by_decks.setdefault(d, []).append(p)
        decks = ", ".join(f"{d} decks for {_numbers(tuple(ps))} players" for d, ps in by_decks.items())
    else:
        decks = f"one deck per player and {_count(rules.decks_extra, 'more')}".replace("mores", "more")
    jokers = f"{rules.jokers_per_deck} jokers each" if rules.jokers_per_deck else "no jokers"
    lines.append(f"Cards: {decks}, with {jokers}. 2s and jokers are wild.")
    return CardSection("The table", tuple(lines))


def _hand_and_foot(rules: RuleSet) -> CardSection:
    lines = [
        f"Each player is dealt two piles: the Hand ({rules.hand_size} cards), played first, and the Foot "
        f"({rules.foot_size} cards), kept face down until the Hand is used up."
    ]
    if rules.pick_foot_seen:
        lines.append("You look at both piles and choose which one is your Foot.")
    at_once = "and play on at once" if rules.foot_at_once else "on your next turn"
    lines.append(f"When you have played every card of your Hand, pick up your Foot {at_once}.")
    if rules.foot_pickup_is_draw:
        lines.append("Picking up the Foot at the start of a turn counts as that turn's draw.")
    if rules.first_upcard is not FirstUpcard.NONE:
        upcard = (
            "one card is turned up"
            if rules.first_upcard is FirstUpcard.ONE
            else "cards are turned up until one is neither a red 3 nor a wild"
        )
        lines.append(f"To start the discard pile, {upcard}.")
    return CardSection("The Hand and the Foot", tuple(lines))


def _turn(rules: RuleSet, who: _Who) -> CardSection:
    draw = f"First, draw {_count(rules.draw_count, 'card')} from the stock"
    if rules.pickup_allowed:
        top = "the top card" if rules.pickup_count != 1 else "only the top card"
        if rules.pickup_count == 0:
            take = "the whole discard pile"
        elif rules.pickup_count == 1:
            take = "the top card of the discard pile"
        elif rules.pickup_rest_from is PickupRestFrom.STOCK:
            take = f"{top} of the discard pile and {rules.pickup_count - 1} cards from the stock"
        else:
            take = f"{top} of the discard pile and the {rules.pickup_count - 1} cards under it"
        need = f"{rules.pickup_naturals} natural cards of its rank in your hand"
        if rules.pickup_naturals_on_meld != rules.pickup_naturals:
            need += f" ({rules.pickup_naturals_on_meld} if {who.owner} already {who.has} a meld of that rank)"
        draw += f", or take {take}: you need {need}, and meld the top card with them at once."
    else:
        draw += ". The discard pile is never taken."
    lines = [draw]
    if rules.pickup_allowed:
        down = f"{who.owner} {who.has} laid down"
        before = {
            PickupBeforeDown.NEVER: f"Only once {down} a first meld may the pile be taken.",
            PickupBeforeDown.WITH_OPENING: f"Before {down}, the top card and the melds laid with it must "
            "make the opening minimum.",
            PickupBeforeDown.OPENING_IN_HAND: f"Before {down}, you must already hold melds of three or "
            "more cards (without the top card) that make the opening minimum.",
            PickupBeforeDown.OPENING_IN_HAND_WITH_PAIR: f"Before {down}, the melds you hold with the pair "
            "for the top card must make the opening minimum.",
        }[rules.pickup_before_down]
        lines.append(before)
        if rules.pickup_with_wild:
            lines.append("Once down, one natural and one wild of the top card's rank also take the pile.")
        if rules.black_three_freezes:
            lines.append("A black 3 on top of the pile stops the next player taking it.")
        if rules.split_draw:
            lines.append(
                "Or take just the top card (a natural Ace to 4) and draw "
                f"{rules.draw_count - 1} from the stock."
            )
    meld = (
        "Then lay down melds if you can: three or more cards of one rank, with at least "
        f"{_count(rules.min_naturals, 'natural card')}; wilds must be "
        + ("no more than" if rules.wild_limit is WildLimit.AT_MOST_NATURALS else "fewer than")
        + " the naturals"
    )
    if rules.max_wilds:
        meld += f", and at most {rules.max_wilds} in a meld"
    meld += ". You may also add cards to " + ("your side's melds." if who.shared else "your own melds.")
    lines.append(meld)
    if rules.must_play_all:
        lines.append("You must lay down every card that can go down before you discard.")
    if rules.wild_melds:
        lines.append("A meld of wilds alone is allowed.")
    if rules.black_three_melds:
        lines.append("Black 3s may be melded only as a meld of black 3s alone, and only when you go out.")
    if rules.black_three_books is not BlackThreeBooks.NONE:
        lines.append(
            f"In your Foot you may lay a whole book of {rules.book_size} black 3s at once "
            f"(a {rules.black_three_books.value} book)."
        )
    discard = "Last, end your turn by discarding one card onto the pile."
    never = []
    if not rules.discard_wilds:
        never.append("a wild")
    if not rules.discard_playable:
        never.append("a card you could meld (unless nothing else can go)")
    if never:
        discard += f" Never discard {' or '.join(never)}."
    lines.append(discard)
    red = {
        RedThrees.LAY_DOWN: "Red 3s are laid face up as soon as you get them and replaced from the stock.",
        RedThrees.HOLD: "Red 3s stay in your hand: discard them as soon as you can.",
        RedThrees.LAY_BY_CHOICE: "Red 3s may be laid face up in your turn when you choose (not replaced); "
        "they are never discarded.",
    }[rules.red_threes]
    lines.append(red)
    if rules.empty_stock is EmptyStock.RESHUFFLE_PILE:
        lines.append("When the stock runs out, the pile but its top card is shuffled into a new stock.")
    else:
        lines.append(
            "When the stock runs out, the hand ends"
            + (" (unless the player to draw can take the pile)." if rules.pickup_allowed else ".")
        )
    return CardSection("How a turn goes", tuple(lines))


def _begin(rules: RuleSet, who: _Who) -> CardSection:
    mins = rules.opening_minimums
    if rules.opening_by is OpeningBy.SCORE:
        bounds = [0, *rules.opening_thresholds][: len(mins)]
        bands = []
        for i, low in enumerate(bounds):
            if i + 1 < len(bounds):
                bands.append(f"{mins[i]} with {low} to {bounds[i + 1] - 1} points")
            else:
                bands.append(f"{mins[i]} from {low} points on")
        whose = "your side's" if who.shared else "your"
        when = f"depending on {whose} score going into the hand: {'; '.join(bands)}"
    else:
        hands = [f"{m} in hand {i + 1}" for i, m in enumerate(mins)]
        tail = f", then {rules.opening_increment} more each hand" if rules.opening_increment else " and after"
        when = "by hand: " + ", ".join(hands) + tail
    owner = "your side lays" if who.shared else "you lay"
    what = "in the turn" if rules.opening_scope is OpeningScope.TURN else "in one lay-down"
    lines = [
        f"The first time {owner} down in a hand, the cards laid {what} must be worth at least the "
        f"opening minimum, {when}."
    ]
    if rules.opening_scope is OpeningScope.TURN:
        lines.append("Every card laid in that turn counts, the Foot's too if you reach it.")
    if rules.opening_counts_books:
        lines.append("The bonus of a book completed in that lay-down counts toward it.")
    if rules.opening_waived_if_emptied is OpeningWaiver.DISCARD:
        lines.append("A lay-down that leaves you only a card to discard needs no minimum.")
    elif rules.opening_waived_if_emptied is OpeningWaiver.EMPTY:
        lines.append("A lay-down that melds your whole hand needs no minimum.")
    lines.append(f"Card values: {card_values_words(rules)}.")
    return CardSection("How to begin", tuple(lines))


def _books(rules: RuleSet) -> CardSection:
    size = rules.book_size
    if rules.clean_book_bonus or rules.dirty_book_bonus:
        worth = (
            f"A meld of {size} cards or more is a book: a clean book (no wilds) earns "
            f"{rules.clean_book_bonus} points, a dirty book (with wilds) {rules.dirty_book_bonus}"
        )
    else:
        worth = (
            f"A meld of {size} cards or more is a book. Books earn no bonus: their cards score their values"
        )
    if rules.wild_melds:
        worth += f", a book of wilds alone {rules.wild_book_bonus}"
    lines = [worth + "."]
    for rank, status, points in rules.book_bonuses:
        kind = "wilds" if rank == C.WILD_RANK else C.KIND_PLURALS[rank]
        status_word = ("clean ", "dirty ", "wild ")[status] if 0 <= status <= 2 else ""
        lines.append(f"A {status_word}book of {kind} earns {points}.")
    lines.append(
        {
            BookAdditions.ANY: "Cards may still be added to a book.",
            BookAdditions.NATURALS: "Only natural cards may be added to a book; no wilds.",
            BookAdditions.NONE: "A book is closed: nothing more is added to it.",
        }[rules.book_additions]
    )
    if rules.new_meld_after_book:
        lines.append("Once a book of a rank is closed, a new meld of that rank may be started.")
    if rules.wild_melds and rules.wild_meld_penalty:
        lines.append(f"A meld of wilds that is not a book at the end costs {rules.wild_meld_penalty}.")
    return CardSection("Books", tuple(lines))


def _going_out(rules: RuleSet, who: _Who) -> CardSection:
    needs = []
    for option, word in (
        ("go_out_books", "book"),
        ("go_out_clean", "clean book"),
        ("go_out_dirty", "dirty book"),
        ("go_out_wild", "wild book"),
    ):
        values = rules.per_hand(option)
        if option == "go_out_wild" and not rules.wild_melds:
            continue
        if any(values):
            if len(set(values)) == 1:
                needs.append(_count(values[0], word))
            else:
                needs.append(f"{word}s: " + _per_hand(values))
    need = _join(needs) if needs else "no book"
    finish = {
        OutByMeld.FORBIDDEN: "play your last card as a discard",
        OutByMeld.OUT: "play your last card as a discard, or meld it",
        OutByMeld.LAST_ROUND: "play your last card as a discard (or meld it: the others then get one "
        + (
            "last turn, and no going-out bonus is earned)"
            if any(rules.per_hand("going_out_bonus"))
            else "last turn)"
        ),
        OutByMeld.LAST_ROUND_BONUS: "play your last card as a discard (or meld it: the others then get one "
        "last turn)",
        OutByMeld.END: "play your last card as a discard, or meld it",
    }[rules.out_by_meld]
    lines = [
        f"You go out by playing the last card of your Foot. First {who.owner} "
        f"need{'s' if who.shared else ''} {need}; then {finish}."
    ]
    if who.partners:
        if rules.all_feet_to_go_out is AllFeet.PICKED_UP:
            lines.append("Everyone on your side must have picked up their Foot first.")
        elif rules.all_feet_to_go_out is AllFeet.ENTERED:
            lines.append("Everyone on your side must have reached their Foot first.")
        if rules.permission is Permission.REQUIRED:
            lines.append('Ask your partner "May I go out?" first; the answer binds.')
        elif rules.permission is Permission.OPTIONAL:
            lines.append('You may ask your partner "May I go out?" first; the answer binds.')
    if not rules.wild_final_discard:
        lines.append("Your last discard may not be a wild.")
    after = {
        AfterOut.END: "The hand ends when someone goes out.",
        AfterOut.LAST_ROUND: "When someone goes out, everyone else gets one more turn.",
        AfterOut.LAST_ROUND_NO_BONUS: "When someone goes out, everyone else gets one more turn, and no "
        "going-out bonus is earned.",
    }[rules.after_out]
    lines.append(after)
    if rules.empty_without_out is EmptyWithoutOut.WAIT:
        lines.append("Running out of cards without the books to go out: you draw as usual next turn.")
    elif rules.empty_without_out is EmptyWithoutOut.DRAW_AGAIN:
        lines.append("Running out of cards without the books to go out: you draw again at once and play on.")
    else:
        lines.append("You may not run out of cards without going out.")
    return CardSection("Going out", tuple(lines))


def _scoring(rules: RuleSet, who: _Who) -> CardSection:
    bonus = rules.per_hand("going_out_bonus")
    left = "Hand and Foot" if rules.unplayed_foot_counts else "hand (a Foot never picked up does not count)"
    parts = [
        f"the values of the cards in {who.its} melds",
        "its book bonuses"
        if (rules.clean_book_bonus or rules.dirty_book_bonus or rules.book_bonuses)
        else "",
    ]
    parts = [p for p in parts if p]
    if any(bonus):
        parts.append(f"{_per_hand(bonus)} for going out")
    lines = [
        f"At the end of a hand {who.scorer} adds {_join(parts)}, and subtracts the values of the cards "
        f"still in {who.its} {left}."
    ]
    if rules.red_threes is RedThrees.HOLD:
        lines.append(f"A red 3 still held at the end costs {abs(rules.red_three_held)}.")
    else:
        when = (
            "if your side went out"
            if rules.red_three_bonus_if is RedThreeBonusIf.WENT_OUT
            else (f"if {who.owner} {who.has} melded in the hand")
        )
        lines.append(
            f"A red 3 laid down earns {rules.red_three_bonus} {when}, else {rules.red_three_unmelded}"
            + (
                f"; one still held at the end costs {abs(rules.red_three_held)}."
                if rules.red_three_held
                else "."
            )
        )
    return CardSection("Scoring", tuple(lines))


def _end(rules: RuleSet, who: _Who) -> CardSection:
    if rules.game_end is GameEnd.TARGET:
        line = (
            f"The game ends after the hand in which a side reaches {rules.target_score} points; "
            "the highest total wins."
        )
        if not who.partners:
            line = line.replace("a side", "a player")
    else:
        line = f"The game is {rules.hands_per_game} hands; the highest total wins."
    return CardSection("The game's end", (line,))


def rules_card(rules: RuleSet) -> tuple[CardSection, ...]:
    """The newcomer's card of ``rules`` (the module docstring): its sections in reading order."""
    who = _Who(rules)
    return (
        _table(rules),
        _hand_and_foot(rules),
        _turn(rules, who),
        _begin(rules, who),
        _books(rules),
        _going_out(rules, who),
        _scoring(rules, who),
        _end(rules, who),
    )


__all__ = ["CardSection", "card_values_words", "rules_card", "value_groups"]
