"""Completions: the lay-down a staging can still grow into, found exactly, so that no offered step leads
nowhere.

A staging (``engine.staging``) grows by steps: three cards of a rank not staged yet, or one card onto a
staged rank. ``completion`` answers, for the cards actually held, whether the staged groups (with one more
group, the step being weighed) can grow into a lay-down the judge accepts: in the play phase the meld a
``commit`` lays, in the draw phase the pickup that takes the pile with them. It returns one such lay-down,
judged legal by the one judge (``melding.meld_refusal``, ``pile.pickup_refusal``), or None. Only the
seat's own cards are used: never the Foot's, nor the pile's hidden cards.

How it searches. Where the judge's answer can only get better with more cards laid (the seat is not in
its Foot, so no play can leave it short of a card to discard; the opening minimum is all that a bigger
lay-down could miss; books do not close on wilds: ``grows_with_points``), the lay-down worth the most
points decides (``_richest``): every natural of each staged rank and of each rank held three times or
more, the best pairs beside a wild, and the wilds, the most valuable first, placed where the judge's shape
rules leave room (``wild_room``; a wild meld too, where allowed). ``completion`` builds it and asks the
judge; ``leading_on`` reckons it by counts for each step weighed (``_within`` shows most steps lead on
from the richest lay-down of the staging as it stands, without reckoning again), and the random-play
tests hold that reckoning to the judge at every staging position. Elsewhere (in the Foot, books counting
toward the opening, an opening waived by emptying the hand, the pile's top card not counting, books that
close at their size, black 3s) every lay-down the staging can grow into is tried, the most cards first,
each judged, within ``SEARCH_LIMIT`` lay-downs (far more than a hand holds ways to lay its cards). In
the draw phase the wilds on the top card's rank are weighed as the pickup lays them: a group added after
the naturals, placed as the judge places it (``melding.lone_group_place``).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from handfoot import cards as C
from handfoot.engine.melding import (
    CLOSED,
    crossing_refusal,
    lone_group_place,
    meld_refusal,
    meld_shape_refusal,
)
from handfoot.engine.moves import DECODED, Action, Group, Move, move_for, pick_cards
from handfoot.engine.pile import IN_HAND_RULES, pickup_needed, pickup_refusal
from handfoot.engine.state import HandState, Phase
from handfoot.rules.cache import RulesCache
from handfoot.rules.options import BlackThreeBooks, BookAdditions, OpeningWaiver, RuleSet

KIND_OF: Final = C.KIND_OF
JOKER: Final = C.JOKER
DEUCE: Final = C.DEUCE
BLACK_THREE: Final = C.BLACK_THREE
WILD_RANK: Final = C.WILD_RANK
NATURAL_RANKS: Final = C.NATURAL_KINDS
NO_WAIVER: Final = OpeningWaiver.NONE
NO_THREE_BOOKS: Final = BlackThreeBooks.NONE
NO_ADDITIONS: Final = BookAdditions.NONE
DRAW_PHASE: Final = Phase.DRAW
# The most lay-downs the full search judges before it gives up (and offers nothing it has not proved).
SEARCH_LIMIT: Final = 4000
# The most wilds one meld is ever weighed with (a shoe's worth of wilds in one meld is beyond any hand).
_MOST_WILDS: Final = 64

# (least, most) wilds a new meld of (rank, naturals, wilds already in it) may hold beside what it has,
# by the shape rules and a book's closing size; (1, 0) where no number of wilds makes it legal.
_WILD_ROOM: RulesCache[dict[tuple[int, int, int], tuple[int, int]]] = RulesCache()


def wild_room(rules: RuleSet, rank: int, naturals: int, wilds: int) -> tuple[int, int]:
    """The least and most wilds a new meld of ``rank`` with ``naturals`` naturals and ``wilds`` wilds
    may take beside them so that its shape is legal (``melding.meld_shape_refusal``, and a book closing at
    its size: ``melding.crossing_refusal``); (1, 0) where none makes it legal."""
    return _room(rules, _rooms(rules), rank, naturals, wilds)


def _rooms(rules: RuleSet) -> dict[tuple[int, int, int], tuple[int, int]]:
    """The memo of ``wild_room`` under ``rules``."""
    memo = _WILD_ROOM.get(rules)
    return _WILD_ROOM.put(rules, {}) if memo is None else memo


def _room(
    rules: RuleSet, memo: dict[tuple[int, int, int], tuple[int, int]], rank: int, naturals: int, wilds: int
) -> tuple[int, int]:
    """``wild_room`` with its memo at hand."""
    key = (rank, naturals, wilds)
    room = memo.get(key)
    if room is None:
        least, most = 1, 0
        for extra in range(_MOST_WILDS):
            total = wilds + extra
            legal = (
                meld_shape_refusal(rules, rank, naturals, total, True) is None
                and crossing_refusal(rules, rank, 0, 0, naturals, total) is None
            )
            if legal:
                if least > most:
                    least = extra
                most = extra
            elif least <= most:
                break
        room = memo[key] = (least, most)
    return room


class _Staging:
    """The position a completion is sought from: per staged rank its (naturals, jokers, deuces) and cards
    (with the step weighed), the seat's other cards by kind, and in the draw phase the pile's top card."""

    __slots__ = ("cards", "counts", "deuces", "jokers", "pool_kinds", "seat", "state", "top", "top_card")

    def __init__(
        self,
        s: HandState,
        seat: int,
        counts: dict[int, list[int]],
        cards: dict[int, list[int]],
        pool_kinds: list[int],
        top_card: int,
    ) -> None:
        self.state = s
        self.seat = seat
        self.counts = counts
        self.cards = cards
        self.pool_kinds = pool_kinds
        self.jokers = pool_kinds[JOKER]
        self.deuces = pool_kinds[DEUCE]
        self.top_card = top_card
        self.top = KIND_OF[top_card] if top_card >= 0 else -1

    def staged_counts(self, rank: int) -> tuple[int, int, int]:
        """(naturals, jokers, deuces) staged on ``rank``."""
        row = self.counts.get(rank)
        return (0, 0, 0) if row is None else (row[0], row[1], row[2])

    def grown(self, rank: int, naturals: int, jokers: int, deuces: int) -> _Staging:
        """This staging with one more step on ``rank`` (by counts: its cards are not named, so the
        result serves ``_richest``, not ``_lay_down``)."""
        counts = {r: list(row) for r, row in self.counts.items()}
        row = counts.setdefault(rank, [0, 0, 0])
        row[0] += naturals
        row[1] += jokers
        row[2] += deuces
        pool = list(self.pool_kinds)
        if rank != WILD_RANK:
            pool[rank] -= naturals
        pool[JOKER] -= jokers
        pool[DEUCE] -= deuces
        return _Staging(self.state, self.seat, counts, self.cards, pool, self.top_card)

    def pool_cards(self) -> list[int]:
        """The seat's cards not staged (with the step weighed), by card id."""
        pool = list(self.state.hand_cards[self.seat])
        for cards in self.cards.values():
            for card in cards:
                pool[card] -= 1
        return pool


def _staging(s: HandState, seat: int, extra: Group | None, in_draw: bool) -> _Staging:
    """The staging of ``seat`` (the player to move) as it stands, with ``extra`` staged after it."""
    pool_kinds = list(s.hands[seat])
    counts: dict[int, list[int]] = {}
    cards: dict[int, list[int]] = {}
    for group in s.staged if extra is None else [*s.staged, extra]:
        row = counts.get(group.rank)
        if row is None:
            row = counts[group.rank] = [0, 0, 0]
            cards[group.rank] = []
        cards[group.rank].extend(group.cards)
        for card in group.cards:
            kind = KIND_OF[card]
            pool_kinds[kind] -= 1
            row[1 if kind == JOKER else 2 if kind == DEUCE else 0] += 1
    top_card = s.pile[-1] if in_draw and s.pile else -1
    return _Staging(s, seat, counts, cards, pool_kinds, top_card)


# A lay-down by counts: per rank, the (naturals, jokers, deuces) it adds from the seat's cards not staged.
Additions = dict[int, tuple[int, int, int]]


def completion(s: HandState, seat: int, extra: Group | None = None) -> Move | None:
    """A legal lay-down the staged groups of ``seat`` (the player to move, not down), with ``extra`` staged
    after them, can grow into by staging more: in the play phase the meld ``commit`` would lay, in the
    draw phase the pickup that takes the pile with them. None where no such lay-down exists. Reads the
    position and changes nothing; uses the seat's own cards only."""
    in_draw = s.phase is DRAW_PHASE
    st = _staging(s, seat, extra, in_draw)
    if in_draw and not _pickup_possible(s, seat, st):
        return None
    if grows_with_points(s, seat, in_draw):
        richest = _richest(s, seat, st)
        if richest is None:
            return None
        move = _lay_down(st, richest.additions, in_draw)
        if _refusal_rule(s, seat, move, in_draw) is None:
            return move
    return _search(s, seat, st, in_draw)


def leading_on(s: HandState, seat: int, mids: list[int]) -> list[bool]:
    """For each of ``mids`` (stage ids the player to move, not down, may play), whether the staging grown
    by it can still become a lay-down the judge accepts (``completion`` with it staged).

    Where the richest lay-down decides (``grows_with_points``), it is reckoned by counts for each step:
    first a plain lay-down that needs no choice (``_plainly_leading``) shows most steps lead on; then a
    step whose cards are within the richest lay-down of the staging as it stands leads on, any other
    is reckoned with it staged (the judge's shape rules give each meld's room for wilds, ``wild_room``;
    the random-play tests hold the reckoning to the judge at every staging position). Elsewhere each
    step's completion is sought and judged."""
    in_draw = s.phase is DRAW_PHASE
    if not grows_with_points(s, seat, in_draw):
        pool = s.unstaged_cards(seat)
        top = s.pile[-1] if s.pile else -1
        return [completion(s, seat, move_for(pool, top, mid).groups[0]) is not None for mid in mids]
    if not in_draw and not s.staged:  # the plain reckoning needs no staging built
        plain = _plainly_leading(s, seat, s.hands[seat], _NO_COUNTS, -1, mids)
        if plain is not None and all(plain):
            return plain
    st = _staging(s, seat, None, in_draw)
    if in_draw and not _pickup_possible(s, seat, st):
        return [False] * len(mids)
    if in_draw or s.staged:
        plain = _plainly_leading(s, seat, st.pool_kinds, st.counts, st.top, mids)
        if plain is not None and all(plain):
            return plain
    base = _richest(s, seat, st)
    if base is None:  # the staging as it stands can grow into nothing: nor can it with more staged
        return [False] * len(mids)
    out = []
    room = base.points - s.minimums[s.seating.owner_of[seat]]
    rules = s.rules
    for i, mid in enumerate(mids):
        if plain is not None and plain[i]:
            out.append(True)
            continue
        step = DECODED[mid]
        assert step is not None
        rank, naturals, jokers, deuces = step.kind, step.naturals, step.jokers, step.deuces
        if _within(base, rank, naturals, jokers, deuces, room, rules):
            out.append(True)
            continue
        grown = st.grown(rank, naturals, jokers, deuces)
        out.append((not in_draw or _pickup_possible(s, seat, grown)) and _richest(s, seat, grown) is not None)
    return out


_NO_COUNTS: Final[dict[int, list[int]]] = {}


def _plainly_leading(
    s: HandState, seat: int, kinds: list[int], counts: dict[int, list[int]], top: int, mids: list[int]
) -> list[bool] | None:
    """Where the richest lay-down decides: for each of ``mids`` (a staging of ``seat`` whose cards not
    staged are ``kinds``, by kind, with ``counts`` staged per rank as ``_Staging`` has them, ``top`` the
    pile's top rank in the draw phase, else -1), True where a plain lay-down shows at a glance that the
    step leads on, False where it cannot tell; None where the plain lay-down of the staging as it stands
    falls short of the minimum (``_richest`` then decides alone).

    The plain lay-down holds every natural of each staged rank (and of the pile's top rank, the top card
    with them) with the wilds staged on it, every natural of each other rank held twice or more whose
    naturals make a legal meld alone (``wild_room`` least 0), and as many of the wilds not staged as
    those melds have room for, each counted at the lesser wild's value. These are ``_richest``'s fixed
    groups with no pair taken, so where the plain lay-down reaches the minimum, ``_richest`` of the
    staging does too. A step on a natural rank then
    leads on where its wilds fit the room of its rank's meld (every natural held of the rank, the wilds
    staged on it; a meld's room is every number of wilds from its least to its most): the plain
    lay-down with the step holds the step's wilds where it held as many others, loses no room for the
    rest (a rank whose naturals alone were not a meld brings its own), and so still reaches the
    minimum; ``_richest`` of the grown staging finds at least its points, and ``leading_on``'s
    reckoning says the same. Black 3s and the wild meld are left to ``_richest``."""
    rules = s.rules
    values = rules.card_values
    lesser = min(values[JOKER], values[DEUCE])
    if BLACK_THREE in counts or WILD_RANK in counts or lesser < 0:
        return None
    memo = _rooms(rules)
    points = 0
    groups = 0
    space = 0  # the wilds the plain melds have room for
    rooms: dict[int, tuple[int, int]] = {}  # a natural rank's meld: its room for the wilds not staged
    for rank in NATURAL_RANKS:
        added = kinds[rank]
        row = counts.get(rank)
        if row is None and rank != top:
            if added >= 2:
                room = memo.get((rank, added, 0)) or _room(rules, memo, rank, added, 0)
                rooms[rank] = room
                if room[0] == 0:
                    points += added * values[rank]
                    space += room[1]
                    groups += 1
            continue
        if row is None:
            row = [0, 0, 0]
        total = row[0] + added + (1 if rank == top else 0)
        room = memo.get((rank, total, row[1] + row[2])) or _room(rules, memo, rank, total, row[1] + row[2])
        if room[0] != 0:  # the staged group needs more wilds (or can take no legal shape)
            return None
        rooms[rank] = room
        points += total * values[rank] + row[1] * values[JOKER] + row[2] * values[DEUCE]
        space += room[1]
        groups += 1
    if (
        not groups
        or points + min(kinds[JOKER] + kinds[DEUCE], space) * lesser < s.minimums[s.seating.owner_of[seat]]
    ):
        return None
    out = []
    for mid in mids:
        step = DECODED[mid]
        assert step is not None
        fit = rooms.get(step.kind)
        if fit is None or (fit[0] and values[step.kind] < 0):  # black 3s, wilds or no natural meld
            out.append(False)
        else:
            out.append(fit[0] <= step.jokers + step.deuces <= fit[1])
    return out


def might_open(s: HandState, seat: int) -> bool:
    """False where ``seat`` (play phase, not down, nothing staged) surely cannot open: where the richest
    lay-down decides (``grows_with_points``) and every natural of the ranks it holds twice or more with
    every wild falls short of the minimum. True says only that it might (``leading_on`` decides)."""
    if not grows_with_points(s, seat, False):
        return True
    values = s.rules.card_values
    hand = s.hands[seat]
    most = hand[JOKER] * values[JOKER] + hand[DEUCE] * values[DEUCE]
    for rank in NATURAL_RANKS:
        held = hand[rank]
        if held >= 2:
            most += held * values[rank]
    return most >= s.minimums[s.seating.owner_of[seat]]


def _within(
    base: _Richest, rank: int, naturals: int, jokers: int, deuces: int, room: int, rules: RuleSet
) -> bool:
    """True where the richest lay-down ``base`` (``room`` points above the minimum) shows, by counts, that
    staging ``naturals``, ``jokers`` and ``deuces`` on ``rank`` still leaves a lay-down that makes the
    minimum; False where it cannot tell (``_richest`` of the grown staging then decides).

    The naturals must be among what ``base`` adds to the rank (or, for a pair beside a wild that ``base``
    does not lay, make a legal meld with them). Wilds the rank holds beyond ``base``'s come, at no cost,
    from those ``base`` leaves out or from melds that keep their shape without them, else from pairs
    given up (costing their naturals and the wilds not moved). Jokers and 2s have the same room in a meld, so
    wilds of another kind than ``base`` put there are swapped with another meld's; where ``base`` leaves
    wilds out, a swap may leave out a better one, costing the difference of their values."""
    values = rules.card_values
    wilds = jokers + deuces
    added = base.additions.get(rank)
    if added is None:
        if rank == WILD_RANK or naturals != 2 or not wilds:
            return False
        least, most = wild_room(rules, rank, naturals, 0)
        if not least <= wilds <= most:
            return False
        extra = wilds
    else:
        if naturals > added[0]:
            return False
        extra = wilds - added[1] - added[2]
        if extra > 0 and wilds > base.most[rank]:
            return False
        if extra <= 0 and jokers <= added[1] and deuces <= added[2]:
            return True
    loss = -naturals * values[rank] if added is None else 0  # a pair laid that base does not lay
    if extra > 0:
        free = base.unplaced + sum(base.slack.values()) - base.slack.get(rank, 0)
        short = extra - free
        for points, count, pair_rank in base.pairs:
            if short <= 0:
                break
            if pair_rank == rank:
                continue
            used = min(count, short)  # those move onto the rank; the pair's others may be left out
            loss += points + (count - used) * max(values[JOKER], values[DEUCE])
            short -= used
        if short > 0:
            return False
    if not base.every_wild:
        loss += wilds * abs(values[JOKER] - values[DEUCE])
    return loss <= room


def _pickup_possible(s: HandState, seat: int, st: _Staging) -> bool:
    """In the draw phase: the seat holds (staged or not) the naturals of the top card's rank it needs."""
    if st.top < 0:
        return False
    return st.staged_counts(st.top)[0] + st.pool_kinds[st.top] >= pickup_needed(s, seat)


def grows_with_points(s: HandState, seat: int, in_draw: bool) -> bool:
    """True where laying more cards never turns the judge's yes into a no and points are all a smaller
    lay-down could lack (see the module's docstring): the richest lay-down decides."""
    rules = s.rules
    if s.in_foot[seat] or rules.opening_counts_books or rules.opening_waived_if_emptied is not NO_WAIVER:
        return False
    if rules.book_additions is NO_ADDITIONS:
        return False
    return not (in_draw and rules.pickup_before_down in IN_HAND_RULES)


def _ranks(s: HandState, seat: int, st: _Staging) -> list[int]:
    """The ranks a lay-down may hold: the staged ones first, then those of the seat's cards that could
    start a group by a stage step (two naturals or more; three black 3s; three wilds for a wild meld)."""
    rules = s.rules
    kinds = st.pool_kinds
    out = sorted(st.counts)
    if st.top >= 0 and st.top not in st.counts:
        out.append(st.top)
    threes_ok = rules.black_three_melds or (rules.black_three_books is not NO_THREE_BOOKS and s.in_foot[seat])
    values = rules.card_values
    rest = [r for r in NATURAL_RANKS if kinds[r] >= 2 and r not in out]
    rest.sort(key=lambda r: -kinds[r] * values[r])
    out += rest
    if threes_ok and BLACK_THREE not in out and kinds[BLACK_THREE] >= 3:
        out.append(BLACK_THREE)
    if rules.wild_melds and WILD_RANK not in out and st.jokers + st.deuces >= 3:
        out.append(WILD_RANK)
    return out


class _Richest(NamedTuple):
    """The richest lay-down of a staging: what it adds to each rank, its points, whether it places every
    wild the seat has not staged (``unplaced``: how many it leaves out), and per meld the most wilds it
    may add (``most``) and the wilds it could give up and keep its shape (``slack``); ``pairs``: the
    pairs it lays beside wilds, as (points of their naturals, wilds added, rank), cheapest first."""

    additions: Additions
    points: int
    every_wild: bool
    unplaced: int
    most: dict[int, int]
    slack: dict[int, int]
    pairs: list[tuple[int, int, int]]


def _richest(s: HandState, seat: int, st: _Staging) -> _Richest | None:
    """What the lay-down worth the most points the staging can grow into adds to each rank, where it
    reaches the opening minimum; None where it does not, or where the staged groups can take no legal
    shape. Reckoned by counts: every natural of each staged rank and of each rank held three times or
    more, the best pairs beside a wild, the wilds (the most valuable first) where the shape rules leave
    room (``wild_room``), a wild meld where allowed. Black 3s are never in it (laid only from the Foot,
    which ``grows_with_points`` excludes)."""
    rules = s.rules
    values = rules.card_values
    kinds = st.pool_kinds
    counts = st.counts
    top = st.top
    memo = _rooms(rules)
    fixed: list[tuple[int, int, int, int]] = []  # rank, naturals added, least and most wilds added
    pairs: list[tuple[int, int, int, int]] = []  # rank, points, least and most wilds added
    points = 0
    base_least = base_most = 0  # the least and most wilds the fixed groups take
    for rank in NATURAL_RANKS:
        added = kinds[rank]
        row = counts.get(rank)
        if row is None and rank != top:
            if added < 2:
                continue
            least, most = _room(rules, memo, rank, added, 0)
            if least > most:
                continue
            if least == 0:
                fixed.append((rank, added, 0, most))
                points += added * values[rank]
                base_most += most
            else:
                pairs.append((rank, added * values[rank], least, most))
            continue
        naturals, jokers, deuces = (row[0], row[1], row[2]) if row is not None else (0, 0, 0)
        total = naturals + added + (1 if rank == top else 0)
        least, most = _room(rules, memo, rank, total, jokers + deuces)
        if least > most:
            return None
        fixed.append((rank, added, least, most))
        points += total * values[rank] + jokers * values[JOKER] + deuces * values[DEUCE]
        base_least += least
        base_most += most
    if BLACK_THREE in counts:
        return None
    wild_row = counts.get(WILD_RANK)
    wild_meld: tuple[int, int] | None = None  # least and most wilds the wild meld takes
    if wild_row is not None:
        points += wild_row[1] * values[JOKER] + wild_row[2] * values[DEUCE]
        wild_meld = _room(rules, memo, WILD_RANK, 0, wild_row[1] + wild_row[2])
        if wild_meld[0] > wild_meld[1]:
            return None
    elif rules.wild_melds:
        room = _room(rules, memo, WILD_RANK, 0, 0)
        if room[0] <= room[1]:
            wild_meld = room
    wilds = st.jokers + st.deuces
    jokers_first = values[JOKER] >= values[DEUCE]
    best_value = values[JOKER] if jokers_first else values[DEUCE]
    other_value = values[DEUCE] if jokers_first else values[JOKER]
    best_count = st.jokers if jokers_first else st.deuces
    if len(pairs) > 1:
        pairs.sort(key=lambda p: -p[1])
    if wild_row is not None and wild_meld is not None:
        base_least += wild_meld[0]
        base_most += wild_meld[1]
    choice: tuple[int, int, bool] | None = None  # points, pairs taken, wild meld begun
    pair_points = pair_least = pair_most = 0
    for taken in range(min(len(pairs), wilds) + 1):
        if taken:
            pair = pairs[taken - 1]
            pair_points += pair[1]
            pair_least += pair[2]
            pair_most += pair[3]
        begins = (False, True) if (wild_meld is not None and wild_row is None) else (False,)
        for begin in begins:
            least = base_least + pair_least + (wild_meld[0] if begin and wild_meld else 0)
            most = base_most + pair_most + (wild_meld[1] if begin and wild_meld else 0)
            if least > wilds:
                continue
            placed = min(wilds, most)
            better = min(placed, best_count)
            total = points + pair_points + better * best_value + (placed - better) * other_value
            if choice is None or total > choice[0]:
                choice = (total, taken, begin)
    if choice is None:
        return None
    total, taken, begin = choice
    if not fixed and not taken and not begin and wild_row is None:
        return None  # nothing to lay
    if total < s.minimums[s.seating.owner_of[seat]]:
        return None
    # every group's wilds: the least it needs first, then as many as its room takes, in order
    groups = [(f[0], f[1], f[2], f[3]) for f in fixed] + [(p[0], 2, p[2], p[3]) for p in pairs[:taken]]
    if wild_meld is not None and (wild_row is not None or begin):
        groups.append((WILD_RANK, 0, wild_meld[0], wild_meld[1]))
    left = wilds - sum(g[2] for g in groups)
    additions: Additions = {}
    mosts: dict[int, int] = {}
    slack: dict[int, int] = {}
    best_left = best_count
    for rank, naturals, least, most in groups:
        extra = min(most - least, left)
        left -= extra
        count = least + extra
        better = min(count, best_left)
        best_left -= better
        if jokers_first:
            additions[rank] = (naturals, better, count - better)
        else:
            additions[rank] = (naturals, count - better, better)
        mosts[rank] = most
        slack[rank] = extra
    laid_pairs = (
        sorted((p[1], additions[p[0]][1] + additions[p[0]][2], p[0]) for p in pairs[:taken]) if taken else []
    )
    return _Richest(additions, total, left == 0, left, mosts, slack, laid_pairs)


def _lay_down(st: _Staging, additions: Additions, in_draw: bool) -> Move:
    """The move a staging makes once grown by ``additions``: the staged cards and, from the seat's other
    cards (lowest suit first), what each rank adds. In the draw phase the top card's rank goes first as
    the pickup's group of naturals, and any wilds on it as a group of its rank after."""
    taken: dict[int, int] = {}
    pool = st.pool_cards()
    groups: list[Group] = []
    first = Group(st.top, ())
    ranks = list(st.cards)
    ranks += [rank for rank in additions if rank not in st.cards]
    if st.top >= 0 and st.top not in ranks:
        ranks.append(st.top)
    for rank in ranks:
        naturals, jokers, deuces = additions.get(rank, (0, 0, 0))
        staged = st.cards.get(rank, [])
        added_naturals = pick_cards(pool, rank, naturals, taken) if rank != WILD_RANK else []
        added_wilds = pick_cards(pool, JOKER, jokers, taken) + pick_cards(pool, DEUCE, deuces, taken)
        if rank == st.top:
            own = [c for c in staged if not C.is_wild(KIND_OF[c])] + added_naturals
            first = Group(rank, tuple(own))
            wild_cards = [c for c in staged if C.is_wild(KIND_OF[c])] + added_wilds
            if wild_cards:
                groups.append(Group(rank, tuple(wild_cards)))
            continue
        cards = (*staged, *added_naturals, *added_wilds)
        if cards:
            groups.append(Group(rank, cards))
    if in_draw:
        return Move(Action.PICKUP, (first, *groups))
    return Move(Action.MELD, tuple(groups))


def _refusal_rule(s: HandState, seat: int, move: Move, in_draw: bool) -> str | None:
    """The rule the judge says ``move`` breaks, or None where it is legal."""
    if in_draw:
        why = pickup_refusal(s, move)
    else:
        if not move.groups:
            return "hand"
        why = meld_refusal(s, seat, move.groups)
    return None if why is None else why.rule


def _search(s: HandState, seat: int, st: _Staging, in_draw: bool) -> Move | None:
    """Every lay-down the staging can grow into, the most cards first, judged until one is legal (at most
    ``SEARCH_LIMIT`` judged); None where none is."""
    rules = s.rules
    ranks = _ranks(s, seat, st)
    values = rules.card_values
    kinds = st.pool_kinds
    binding = not (rules.opening_counts_books or rules.opening_waived_if_emptied is not NO_WAIVER)
    minimum = s.minimums[s.seating.owner_of[seat]]
    staged_points = 0
    for cards in st.cards.values():
        staged_points += sum(values[KIND_OF[c]] for c in cards)
    if st.top_card >= 0:  # the top card counts, but under the in-hand rules: a bound all the same
        staged_points += values[st.top]
    wild_values = [values[JOKER], values[DEUCE]]
    # the most points the ranks from index i on could still add (their naturals) beside the wilds left
    natural_room = [0] * (len(ranks) + 1)
    for i in range(len(ranks) - 1, -1, -1):
        rank = ranks[i]
        natural_room[i] = natural_room[i + 1] + (kinds[rank] * values[rank] if rank != WILD_RANK else 0)
    judged = 0
    additions: Additions = {}

    def wilds_after(rank: int, naturals: int, wilds: int) -> bool:
        """True where ``wilds`` added to a new meld of ``naturals`` of ``rank`` just laid are refused."""
        return lone_group_place(rules, rank, True, naturals, 0, 0, wilds) == CLOSED

    def options(rank: int, jokers: int, deuces: int) -> list[tuple[int, int, int]]:
        """What ``rank``'s group may add: (naturals, jokers, deuces), the most cards first; (0, 0, 0) is
        among them where the rank may be left out or left as staged."""
        staged = rank in st.counts or rank == st.top
        sn, sj, sd = st.staged_counts(rank)
        out: list[tuple[int, int, int]] = []
        held = kinds[rank] if rank != WILD_RANK else 0
        least_naturals = 0 if staged or rank == WILD_RANK else (3 if rank == BLACK_THREE else 2)
        for naturals in range(held, least_naturals - 1, -1):
            total = sn + naturals + (1 if rank == st.top else 0)
            if rank == BLACK_THREE:
                if sj + sd == 0:
                    out.append((naturals, 0, 0))
                continue
            least, most = wild_room(rules, rank, total, sj + sd)
            if least > most:
                continue
            for count in range(min(most, jokers + deuces), least - 1, -1):
                # the pickup lays the top card's naturals first and its wilds after them, as a group
                # added to that meld (``_lay_down``): the judge places them so (``lone_group_place``)
                if rank == st.top and sj + sd + count and wilds_after(rank, total, sj + sd + count):
                    continue
                for j in range(min(count, jokers), -1, -1):
                    d = count - j
                    if d <= deuces:
                        out.append((naturals, j, d))
        if not staged and (0, 0, 0) not in out:
            out.append((0, 0, 0))
        return out

    def dfs(index: int, jokers: int, deuces: int, points: int) -> Move | None:
        nonlocal judged
        if judged >= SEARCH_LIMIT:
            return None
        if (
            binding
            and points + natural_room[index] + jokers * wild_values[0] + deuces * wild_values[1] < minimum
        ):
            return None
        if index == len(ranks):
            judged += 1
            move = _lay_down(st, additions, in_draw)
            if not in_draw and not move.groups:
                return None
            return move if _refusal_rule(s, seat, move, in_draw) is None else None
        rank = ranks[index]
        for naturals, j, d in options(rank, jokers, deuces):
            if (naturals, j, d) == (0, 0, 0):
                additions.pop(rank, None)
            else:
                additions[rank] = (naturals, j, d)
            gained = (
                (naturals * values[rank] if rank != WILD_RANK else 0) + j * values[JOKER] + d * values[DEUCE]
            )
            found = dfs(index + 1, jokers - j, deuces - d, points + gained)
            if found is not None:
                return found
        additions.pop(rank, None)
        return None

    return dfs(0, st.jokers, st.deuces, staged_points)


def stages_every_card(s: HandState, seat: int, extra: Group | None) -> bool:
    """True where the seat (play phase, not down) could, by stage steps, set aside every card of its Hand
    (the staged groups, with ``extra``, and every other card), which under ``opening_scope = "turn"``
    picks up the Foot: three of a rank start a group (two beside a wild), a card joins a staged rank (a
    wild any natural rank or the wild meld; a black 3 only black 3s), and nothing else can be staged."""
    rules = s.rules
    st = _staging(s, seat, extra, False)
    kinds = st.pool_kinds
    if kinds[C.RED_THREE]:
        return False
    threes_ok = rules.black_three_melds or (rules.black_three_books is not NO_THREE_BOOKS and s.in_foot[seat])
    if kinds[BLACK_THREE] and not (BLACK_THREE in st.counts or (threes_ok and kinds[BLACK_THREE] >= 3)):
        return False
    wilds = st.jokers + st.deuces
    needing = 0  # pairs of an unstaged rank: each needs a wild to start
    natural_groups = any(r in st.counts for r in NATURAL_RANKS)
    for rank in NATURAL_RANKS:
        held = kinds[rank]
        if not held or rank in st.counts:
            continue
        if held == 1:
            return False
        if held == 2:
            needing += 1
        natural_groups = True
    if needing > wilds:
        return False
    spare = wilds - needing
    if not spare:
        return True
    if natural_groups or WILD_RANK in st.counts:
        return True
    return rules.wild_melds and spare >= 3
