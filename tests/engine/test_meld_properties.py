"""Property tests (hypothesis) for meld validity and hand scoring, over rule variants drawn from the presets
with the meld options varied (wild_limit, min_naturals, max_wilds, book_additions).

Melds:
- random play under a variant never puts a meld on the table that breaks its wild rules;
- a new group of n naturals and w wilds is accepted exactly when the variant allows that shape, and a
  refused one names a rule option it breaks; an accepted three- or one-card group's id is listed;
- adding to an open meld is judged on the meld it makes; a finished book takes what book_additions says.

Scoring:
- a side's hand score is the sum of its breakdown lines;
- a meld moves exactly its cards' points from the side's hand to its table; melded points never fall;
- card points are conserved: table + hands + Feet + stock + pile hold the shoe's points at every step.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from handfoot import cards as C
from handfoot.engine import (
    DealSpec,
    EventType,
    Game,
    Group,
    HandState,
    IllegalMove,
    Move,
    move_id,
    score_lines,
)
from handfoot.engine.moves import Action
from handfoot.engine.tally import hand_tallies
from handfoot.rules import PRESET_NAMES, RuleSet, apply_overrides, preset
from handfoot.rules.options import BookAdditions, WildLimit
from helpers.play import RandomPlayer, play_move

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RANKS = (C.ACE, C.KING, C.NINE, C.SEVEN, C.FOUR)


@st.composite
def meld_rules(draw: st.DrawFn, **fixed: Any) -> RuleSet:
    """A preset with its meld options redrawn (valid combinations only); ``fixed`` options win."""
    limit = draw(st.sampled_from([WildLimit.AT_MOST_NATURALS, WildLimit.FEWER_THAN_NATURALS]))
    low = 1 if limit is WildLimit.AT_MOST_NATURALS else 2
    overrides: dict[str, Any] = {
        "wild_limit": limit.value,
        "min_naturals": draw(st.integers(low, 3)),
        "max_wilds": draw(st.integers(0, 3)),
        "book_additions": draw(st.sampled_from([b.value for b in BookAdditions])),
    }
    overrides.update(fixed)
    return apply_overrides(preset(draw(st.sampled_from(PRESET_NAMES))), overrides)


def shape_breaks(rules: RuleSet, naturals: int, wilds: int, new: bool) -> set[str]:
    """The rule options a meld of ``naturals`` and ``wilds`` (of a natural rank) breaks, from the options."""
    broken = set()
    if (new and naturals + wilds < 3) or naturals < rules.min_naturals:
        broken.add("min_naturals")
    if wilds > naturals or (rules.wild_limit is WildLimit.FEWER_THAN_NATURALS and wilds == naturals):
        broken.add("wild_limit")
    if rules.max_wilds and wilds > rules.max_wilds:
        broken.add("max_wilds")
    return broken


def one_by_one(rules: RuleSet, naturals: int, wilds: int) -> bool:
    """Whether a new meld of ``naturals`` and ``wilds`` could be laid one card at a time, in some order,
    each step legal: three or more cards first, then one at a time; below ``book_size`` cards every
    step keeps the shape, and from ``book_size`` on (a closed book) a card goes on only as
    ``book_additions`` allows. A search over every order, independent of the engine."""
    book = rules.book_size
    reached: set[tuple[int, int]] = set()
    todo = [
        (a, b)
        for a in range(naturals + 1)
        for b in range(wilds + 1)
        if a + b >= 3 and not shape_breaks(rules, a, b, new=True) and (a + b <= book)
    ]
    while todo:
        a, b = todo.pop()
        if (a, b) in reached:
            continue
        reached.add((a, b))
        for da, db in ((1, 0), (0, 1)):
            na, nb = a + da, b + db
            if na > naturals or nb > wilds or shape_breaks(rules, na, nb, new=False):
                continue
            if a + b >= book and not (
                rules.book_additions is BookAdditions.ANY
                or (rules.book_additions is BookAdditions.NATURALS and db == 0)
            ):
                continue
            todo.append((na, nb))
    return (naturals, wilds) in reached


def check_meld_shape(rules: RuleSet, s: HandState) -> None:
    """Every meld on the table keeps the variant's wild rules."""
    for meld in s.melds:
        naturals = sum(1 for c in meld.cards if C.KIND_OF[c] == meld.rank)
        assert naturals + meld.wilds == len(meld.cards), f"{meld}: a card of another rank"
        assert not shape_breaks(rules, naturals, meld.wilds, new=True), f"{meld} breaks {rules.name}"


# --- melds laid by random play -------------------------------------------------------------------------
@FAST
@given(rules=meld_rules(), seed=st.integers(0, 10**6))
def test_random_play_never_lays_a_meld_the_variant_forbids(rules: RuleSet, seed: int) -> None:
    """One hand of random play (openings, melds, pickups) under a meld variant: after every move every
    meld on the table has enough naturals and keeps the wild limit and max_wilds."""
    game = Game(rules, rules.default_players, seed=seed)
    player = RandomPlayer(random.Random(seed))
    state = game.state
    while game.state is state and not game.finished:
        play_move(game, player.choose(state, game.legal_ids()))
        check_meld_shape(rules, state)
    assert state.melds or state.end_reason.name == "STOCK_EMPTY"


# --- groups judged in a position built for them ---------------------------------------------------------
def _position(rules: RuleSet, wanted: list[int], seed: int) -> Game:
    """A game whose first player holds ``wanted`` (filled up with cards of two other ranks), has drawn,
    and whose side counts as down (so the opening minimum is out of the way). Every card is in the shoe.
    A case that wants more cards than the rules deal a hand is not a position: hypothesis drops it."""
    assume(len(wanted) <= rules.hand_size)
    players = rules.default_players
    pool = C.shoe(rules.decks_for(players), rules.jokers_per_deck)
    random.Random(seed).shuffle(pool)
    for card in wanted:
        pool.remove(card)
    ranks = {C.KIND_OF[c] for c in wanted}
    fillers = [c for c in pool if C.KIND_OF[c] in (C.QUEEN, C.SIX) and not ranks & {C.QUEEN, C.SIX}]
    if ranks & {C.QUEEN, C.SIX}:
        fillers = [c for c in pool if C.KIND_OF[c] in (C.JACK, C.FIVE)]
    first = wanted + fillers[: rules.hand_size - len(wanted)]
    for card in first[len(wanted) :]:
        pool.remove(card)
    # dealer 0: seat 1 plays first
    hands: list[tuple[int, ...]] = []
    for seat in range(players):
        if seat == 1:
            hands.append(tuple(first))
        else:
            hands.append(tuple(pool[: rules.hand_size]))
            del pool[: rules.hand_size]
    game = Game(rules, players, seed=seed, dealer=0, deals=[DealSpec(hands=tuple(hands))])
    game.apply_text("draw")
    state = game.state
    state.down[state.seating.owner_of[state.to_move]] = True
    return game


def _cards(rank: int, naturals: int, jokers: int, deuces: int) -> list[int]:
    """Card ids: ``naturals`` of the rank, then jokers and deuces, suits spread."""
    out = [C.IDS_OF_KIND[rank][i % 4] for i in range(naturals)]
    out += [C.JOKER_ID] * jokers
    out += [C.IDS_OF_KIND[C.DEUCE][i % 4] for i in range(deuces)]
    return out


@FAST
@given(
    rules=meld_rules(),
    rank=st.sampled_from(RANKS),
    naturals=st.integers(0, 6),
    jokers=st.integers(0, 2),
    deuces=st.integers(0, 3),
    seed=st.integers(0, 10**6),
)
def test_a_new_group_is_judged_by_the_wild_rules(
    rules: RuleSet, rank: int, naturals: int, jokers: int, deuces: int, seed: int
) -> None:
    """A new meld of n naturals and w wilds: legal exactly when the variant's options allow that shape
    and its cards could be laid one by one (a book closes at book_size cards); refused naming an option
    the shape breaks; when legal, its atomic id (if any) is listed, and once
    laid the table keeps the rules."""
    if naturals + jokers + deuces == 0:
        return
    cards = _cards(rank, naturals, jokers, deuces)
    game = _position(rules, cards, seed)
    move = Move(Action.MELD, (Group(rank, tuple(cards)),))
    broken = shape_breaks(rules, naturals, jokers + deuces, new=True)
    why = _refusal(game, move)
    if broken:
        assert why is not None, f"{naturals}+{jokers + deuces} accepted under {rules.name}"
        assert why in broken, f"refused for {why}, but the shape breaks {broken}"
        assert move_id(move) not in game.legal_ids()
        return
    if not one_by_one(rules, naturals, jokers + deuces):
        # a book closes at book_size cards also within one play: the cards past it must be allowed there
        assert why in {"book_additions", "wild_limit", "max_wilds", "min_naturals"}, (
            f"{naturals}+{jokers + deuces} cannot be laid one by one, but refused for {why}"
        )
        return
    assert why is None, f"{naturals}+{jokers + deuces} refused for {why} under {rules.name}"
    if move_id(move) >= 0:
        assert move_id(move) in game.legal_ids()
    game.apply(move)
    check_meld_shape(rules, game.state)


def _refusal(game: Game, move: Move) -> str | None:
    """The rule option ``verify`` names, or None if the move is legal."""
    try:
        game.verify(move)
    except IllegalMove as exc:
        return exc.rule
    return None


@FAST
@given(
    rules=meld_rules(),
    rank=st.sampled_from(RANKS),
    base=st.sampled_from([(3, 0), (2, 1), (4, 1), (3, 2), (4, 2), (5, 1)]),
    add=st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(0, 2)),
    seed=st.integers(0, 10**6),
)
def test_adding_to_an_open_meld_is_judged_on_the_meld_it_makes(
    rules: RuleSet, rank: int, base: tuple[int, int], add: tuple[int, int, int], seed: int
) -> None:
    """On an open meld (not yet a book) a group is legal exactly when the meld it makes keeps the wild
    limit and max_wilds; a refusal names an option the merged meld breaks."""
    base_naturals, base_wilds = base
    naturals, jokers, deuces = add
    if shape_breaks(rules, base_naturals, base_wilds, new=True) or naturals + jokers + deuces == 0:
        return
    if base_naturals + base_wilds + naturals + jokers + deuces >= rules.book_size:
        return
    base_cards = _cards(rank, base_naturals, 0, base_wilds)
    added = _cards(rank, naturals, jokers, deuces)
    game = _position(rules, base_cards + added, seed)
    game.apply(Move(Action.MELD, (Group(rank, tuple(base_cards)),)))
    move = Move(Action.MELD, (Group(rank, tuple(added)),))
    broken = shape_breaks(rules, base_naturals + naturals, base_wilds + jokers + deuces, new=False)
    why = _refusal(game, move)
    if broken:
        assert why in broken, f"refused for {why}, the merged meld breaks {broken}"
        return
    assert why is None, f"adding {add} to {base} refused for {why} under {rules.name}"
    game.apply(move)
    check_meld_shape(rules, game.state)


@FAST
@given(
    rules=meld_rules(new_meld_after_book=False),
    rank=st.sampled_from(RANKS),
    card_kind=st.sampled_from(["natural", "joker", "deuce"]),
    seed=st.integers(0, 10**6),
)
def test_a_finished_book_takes_what_book_additions_allows(
    rules: RuleSet, rank: int, card_kind: str, seed: int
) -> None:
    """On a clean book of seven naturals, one more card: any card under "any" (wild rules still holding),
    naturals only under "naturals", nothing under "none"; a refusal names book_additions."""
    book = _cards(rank, rules.book_size, 0, 0)
    added = {"natural": C.IDS_OF_KIND[rank][0], "joker": C.JOKER_ID, "deuce": C.IDS_OF_KIND[C.DEUCE][0]}[
        card_kind
    ]
    game = _position(rules, [*book, added], seed)
    game.apply(Move(Action.MELD, (Group(rank, tuple(book)),)))
    assert game.state.books[game.state.seating.owner_of[game.state.to_move]][0] == 1
    why = _refusal(game, Move(Action.MELD, (Group(rank, (added,)),)))
    allowed = rules.book_additions is BookAdditions.ANY or (
        rules.book_additions is BookAdditions.NATURALS and card_kind == "natural"
    )
    if allowed:
        assert why is None, f"adding a {card_kind} to a book refused for {why} under {rules.book_additions}"
    else:
        assert why == "book_additions"


# --- scoring ---------------------------------------------------------------------------------------------
def _shoe_points(s: HandState) -> int:
    values = s.rules.card_values
    counts = C.shoe_counts(s.rules.decks_for(s.players), s.rules.jokers_per_deck)
    return sum(values[C.KIND_OF[card]] * n for card, n in enumerate(counts))


def _loose_points(s: HandState) -> int:
    """Points of the cards in no tally: stock, pile, and Feet when an unplayed Foot does not count."""
    values = s.rules.card_values
    loose = [*s.stock, *s.pile]
    if not s.rules.unplayed_foot_counts:
        loose += [c for foot in s.feet for c in foot]
    return sum(values[C.KIND_OF[c]] for c in loose)


@FAST
@given(name=st.sampled_from(PRESET_NAMES), data=st.data(), seed=st.integers(0, 10**6))
def test_scores_follow_the_cards(name: str, data: st.DataObject, seed: int) -> None:
    """One hand of random play: at every step the tallies' melded and held points plus the loose cards
    make the shoe's points; no side's melded points ever fall; a plain meld (no Foot picked up) moves
    exactly its cards' points from hand to table; the finished hand's scores are the sums of their lines."""
    rules = preset(name)
    players = data.draw(st.sampled_from(rules.players_allowed), label="players")
    game = Game(rules, players, seed=seed)
    player = RandomPlayer(random.Random(seed))
    state = game.state
    total = _shoe_points(state)
    values = rules.card_values
    before = hand_tallies(state)
    while game.state is state and not game.finished:
        choice = player.choose(state, game.legal_ids())
        events = game.apply(choice) if isinstance(choice, Move) else game.apply_id(choice)
        after = hand_tallies(state)
        assert sum(t.melded_points + t.held_points for t in after) + _loose_points(state) == total
        for side, (old, new) in enumerate(zip(before, after, strict=True)):
            assert new.melded_points >= old.melded_points, f"side {side}'s melded points fell"
        kinds = {e.type for e in events}
        if EventType.MELDED in kinds and not kinds & {EventType.FOOT, EventType.TOOK_PILE, EventType.DREW}:
            side = state.seating.side_of[events[0].seat]
            laid = sum(values[C.KIND_OF[c]] for e in events if e.type is EventType.MELDED for c in e.cards)
            assert after[side].melded_points - before[side].melded_points == laid
            assert before[side].held_points - after[side].held_points == laid
        before = after
    result = game.results[-1]
    for score, tally in zip(result.scores, result.tallies, strict=True):
        assert score == sum(line.points for line in score_lines(rules, tally))
        assert any(line.label == "going out" for line in score_lines(rules, tally)) == tally.went_out
