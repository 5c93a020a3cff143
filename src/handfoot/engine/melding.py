"""Melding: what a meld may hold, where a group goes, what a play leaves, and going out.

Every check returns a ``Refusal`` (the rule option broken and a sentence for the player) or ``None``.
``plan_groups`` judges groups laid in order; ``meld_legal.meld_ids`` lists the single groups a seat may lay
now.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from handfoot import cards as C
from handfoot.engine.errors import Refusal
from handfoot.engine.moves import (
    ADD_BASE,
    NEW_BASE,
    TRIPLE_COMBOS,
    Group,
    group_counts,
)
from handfoot.engine.state import HandState
from handfoot.rules.options import (
    AllFeet,
    BlackThreeBooks,
    BookAdditions,
    EmptyWithoutOut,
    MeldOwner,
    OpeningWaiver,
    OutByMeld,
    Permission,
    RuleSet,
    WildLimit,
)
from handfoot.wording import plural, sentence_list, spelled

KIND_OF: Final = C.KIND_OF
RED_THREE: Final = C.RED_THREE
BLACK_THREE: Final = C.BLACK_THREE
JOKER: Final = C.JOKER
DEUCE: Final = C.DEUCE
WILD_RANK: Final = C.WILD_RANK
NO_FEET_RULE: Final = AllFeet.NONE
ENTERED: Final = AllFeet.ENTERED
NO_WAIVER: Final = OpeningWaiver.NONE
# Enum members read on hot paths, bound once (cheaper than ``WildLimit.AT_MOST_NATURALS`` on Python 3.11).
AT_MOST_NATURALS: Final = WildLimit.AT_MOST_NATURALS
ANY_ADDITIONS: Final = BookAdditions.ANY
NATURAL_ADDITIONS: Final = BookAdditions.NATURALS
NO_THREE_BOOKS: Final = BlackThreeBooks.NONE
FORBIDDEN_EMPTY: Final = EmptyWithoutOut.FORBIDDEN
FORBIDDEN_OUT: Final = OutByMeld.FORBIDDEN
PLAYER_OWNS: Final = MeldOwner.PLAYER
REQUIRED: Final = Permission.REQUIRED

# Where a group of a rank goes (``resolve``): onto the existing meld, a new meld, or nowhere (closed).
ADD: Final = 0
NEW: Final = 1
CLOSED: Final = 2
NOT_A_BOOK: Final = -1  # a meld that is no book (clean 0, dirty 1, wild 2 index ``HandState.books``)
# Cards left after a play from which a seat is neither going out nor left unable to discard: the play
# needs no going-out check (``exit_refusal``).
SPARE_CARDS: Final = 2


class GroupSpec(NamedTuple):
    """A meld group by counts: its rank, naturals, jokers, deuces and card points."""

    rank: int
    naturals: int
    jokers: int
    deuces: int
    points: int


class Plan(NamedTuple):
    """What a meld or pickup would leave: the owner's books, the player's cards left, and the book bonuses
    the play adds (books it completes, at ``RuleSet.book_bonus``)."""

    books: tuple[int, int, int]
    left: int
    bonus: int = 0


def book_status(rules: RuleSet, rank: int, size: int, wilds: int) -> int:
    """A meld's book kind (0 clean, 1 dirty, 2 wild; a book of black 3s as ``black_three_books`` says), or
    ``NOT_A_BOOK``."""
    if size < rules.book_size:
        return NOT_A_BOOK
    if rank == WILD_RANK:
        return 2
    if rank == BLACK_THREE and rules.black_three_books is BlackThreeBooks.DIRTY:
        return 1
    return 0 if wilds == 0 else 1


def resolve(rules: RuleSet, exists: bool, size: int, has_wilds: bool) -> int:
    """Where a group of a rank goes: onto the existing meld, a new meld, or nowhere (closed)."""
    if not exists:
        return NEW
    if size < rules.book_size:
        return ADD
    additions = rules.book_additions
    if additions is ANY_ADDITIONS or (additions is NATURAL_ADDITIONS and not has_wilds):
        return ADD
    return NEW if rules.new_meld_after_book else CLOSED


def meld_shape_refusal(rules: RuleSet, rank: int, naturals: int, wilds: int, new: bool) -> Refusal | None:
    """Whether a meld of ``naturals`` and ``wilds`` (after the group is laid) keeps the wild rules."""
    size = naturals + wilds
    if rank == WILD_RANK:
        if not rules.wild_melds:
            return Refusal("wild_melds", "A meld of wilds only is not allowed at this table.")
        if new and size < 3:
            return Refusal("wild_melds", "A new meld needs at least three cards.")
        return None
    if new and size < 3:
        return Refusal("min_naturals", "A new meld needs at least three cards.")
    if rank == BLACK_THREE and wilds:
        return Refusal("black_three_melds", "Black 3s are melded only as a set of black 3s, with no wilds.")
    if naturals < rules.min_naturals:
        return Refusal(
            "min_naturals",
            f"A meld needs at least {plural(rules.min_naturals, 'natural card')} of its rank.",
        )
    if rules.wild_limit is AT_MOST_NATURALS:
        if wilds > naturals:
            return Refusal("wild_limit", "A meld may never hold more wilds than naturals.")
    elif wilds >= naturals:
        return Refusal("wild_limit", "A meld must always hold fewer wilds than naturals.")
    if rules.max_wilds and wilds > rules.max_wilds:
        return Refusal("max_wilds", f"A meld may hold at most {plural(rules.max_wilds, 'wild card')}.")
    if new and rules.max_wilds_new_meld and wilds > rules.max_wilds_new_meld:
        most = plural(rules.max_wilds_new_meld, "wild card")
        return Refusal("max_wilds_new_meld", f"A new meld may start with at most {most}.")
    return None


def added_wilds_refusal(s: HandState, index: int, wilds: int) -> Refusal | None:
    """Whether adding ``wilds`` (this turn's, this play's included) to the meld at ``index`` keeps
    ``max_wilds_added_per_turn``."""
    limit = s.rules.max_wilds_added_per_turn
    if limit and wilds and s.turn_wilds.get(index, 0) + wilds > limit:
        return Refusal(
            "max_wilds_added_per_turn",
            f"At most {plural(limit, 'wild card')} may be added to one meld in a turn.",
        )
    return None


def crossing_refusal(
    rules: RuleSet, rank: int, naturals: int, wilds: int, added_naturals: int, added_wilds: int
) -> Refusal | None:
    """Whether a group adding ``added_naturals`` and ``added_wilds`` to a meld of ``naturals`` and
    ``wilds`` (0 and 0 for a new meld) may take it past ``book_size`` in one play.

    A book closes at ``book_size`` cards, also in the middle of a play: the play is legal only if its
    cards could be laid one by one, in some order, each step legal. The best order lays the naturals
    first and the wilds by the closing card, so past it come naturals only. The shape of the whole meld
    is judged by ``meld_shape_refusal``; this judges the cards past the closing one.
    """
    book = rules.book_size
    size = naturals + wilds
    if size >= book or size + added_naturals + added_wilds <= book:
        return None
    additions = rules.book_additions
    if additions is BookAdditions.ANY:
        return None
    name = C.KIND_PLURALS[rank] if rank != WILD_RANK else "wilds"
    if additions is BookAdditions.NONE or rank == WILD_RANK:
        return Refusal(
            "book_additions",
            f"A book closes at {book} cards and then takes nothing more: this play would put "
            f"{plural(size + added_naturals + added_wilds - book, 'card')} on your closed book of {name}.",
        )
    all_wilds = wilds + added_wilds
    if naturals + all_wilds > book:
        return Refusal(
            "book_additions",
            f"A book closes at {book} cards and then takes naturals only: laid one by one, this play "
            f"would put a wild on your closed book of {name}.",
        )
    return meld_shape_refusal(rules, rank, book - all_wilds, all_wilds, False)


def lone_group_place(
    rules: RuleSet, rank: int, exists: bool, meld_naturals: int, meld_wilds: int, naturals: int, wilds: int
) -> int:
    """Where one group of ``naturals`` and ``wilds`` of ``rank`` (a natural rank or wilds, not black 3s)
    goes (``ADD`` to the owner's meld of the rank, where ``exists``, of ``meld_naturals`` and
    ``meld_wilds``; or ``NEW``), or ``CLOSED`` where the shape rules refuse it (where it goes, the wild
    rules, crossing the book's size): all ``plan_groups`` judges of such a group laid alone that leaves
    its player cards to spare, but the per-turn wild limit (``added_wilds_refusal``)."""
    where = resolve(rules, exists, meld_naturals + meld_wilds, wilds > 0)
    if where == CLOSED:
        return CLOSED
    new = where == NEW
    if new:
        meld_naturals = meld_wilds = 0
    if meld_shape_refusal(rules, rank, meld_naturals + naturals, meld_wilds + wilds, new) is not None:
        return CLOSED
    if crossing_refusal(rules, rank, meld_naturals, meld_wilds, naturals, wilds) is not None:
        return CLOSED
    return where


class GoOutNeed(NamedTuple):
    """One unmet requirement for going out (``go_out_needs``): the ``rule`` it comes from, the refusal's
    ``message``, the ``phrase`` a player reads among the needs, and ``on_others`` when it is a condition
    on the seat's partners rather than something the seat itself lacks."""

    rule: str
    message: str
    phrase: str
    on_others: bool = False


# The requirements for going out, in the order the engine judges them (``unmet_go_out``): books (clean,
# dirty, wild, any), partners in their Foot, the partner's answer (a no given this turn, or none asked for
# where the rules require one).
GO_OUT_CLEAN: Final = 0
GO_OUT_DIRTY: Final = 1
GO_OUT_WILD: Final = 2
GO_OUT_BOOKS: Final = 3
PARTNERS_IN_FOOT: Final = 4
PARTNER_SAID_NO: Final = 5
PARTNER_NOT_ASKED: Final = 6


def unmet_go_out(s: HandState, seat: int, books: tuple[int, ...], first: bool = False) -> list[int]:
    """Every requirement (``GO_OUT_CLEAN`` to ``PARTNER_NOT_ASKED``) ``seat`` does not meet to go out with its
    side holding ``books`` (clean, dirty, wild), in the order the engine judges them (only the first where
    ``first``); empty where it may go out. Being in one's own Foot is not among them (the callers check it).
    The conditions alone, no words: ``go_out_needs`` words them, and the hot checks (``go_out_refusal``'s
    callers asking only whether) read this. The books' requirements (``unmet_books``), then the partners'
    (``unmet_by_partners``)."""
    out = unmet_books(s.rules, books, first)
    if not (first and out):
        out += unmet_by_partners(s, seat, first)
    return out


def unmet_books(rules: RuleSet, books: tuple[int, ...], first: bool = False) -> list[int]:
    """The requirements on the side's books (``GO_OUT_CLEAN`` to ``GO_OUT_BOOKS``) that ``books`` (clean,
    dirty, wild) does not meet, in order (only the first where ``first``)."""
    clean, dirty, wild = books[0], books[1], books[2]
    out: list[int] = []
    if clean < rules.go_out_clean:
        # wild_book_counts_clean: the wild books beyond those go_out_wild asks for stand in for clean ones
        spare = max(wild - rules.go_out_wild, 0) if rules.wild_book_counts_clean else 0
        if clean + spare < rules.go_out_clean:
            out.append(GO_OUT_CLEAN)
            if first:
                return out
    if dirty < rules.go_out_dirty:
        out.append(GO_OUT_DIRTY)
        if first:
            return out
    if wild < rules.go_out_wild:
        out.append(GO_OUT_WILD)
        if first:
            return out
    if clean + dirty + wild < rules.go_out_books:
        out.append(GO_OUT_BOOKS)
    return out


def unmet_by_partners(s: HandState, seat: int, first: bool = False) -> list[int]:
    """The requirements on ``seat``'s partners (``PARTNERS_IN_FOOT`` to ``PARTNER_NOT_ASKED``) not met now,
    in order (only the first where ``first``): the same whatever books the side holds."""
    out: list[int] = []
    partners = s.seating.partners[seat]
    if not partners:
        return out
    rules = s.rules
    feet = rules.all_feet_to_go_out
    if feet is not NO_FEET_RULE:
        for partner in partners:
            # entered: a partner whose Hand is empty (the last card discarded) is in the Foot, though Foot
            # play begins next turn
            if not s.in_foot[partner] and not (feet is ENTERED and s.hand_size(partner) == 0):
                out.append(PARTNERS_IN_FOOT)
                if first:
                    return out
                break
    current = s.turn_seat == seat  # the partner's answer holds for the turn it was given in
    if s.permission < 0 and current:
        out.append(PARTNER_SAID_NO)
    elif rules.permission is REQUIRED and not (s.permission == 1 and current):
        out.append(PARTNER_NOT_ASKED)
    return out


def may_go_out(s: HandState, seat: int, books: tuple[int, ...]) -> bool:
    """True if ``seat`` meets every requirement to go out with its side holding ``books`` (``unmet_go_out``
    empty): ``go_out_refusal(...) is None`` without wording a refusal."""
    return not unmet_books(s.rules, books, True) and not unmet_by_partners(s, seat, True)


def may_go_out_once_asked(s: HandState, seat: int, books: tuple[int, ...]) -> bool:
    """True where ``ask_with_last_card`` lets ``seat`` keep one card to ask with: its side holding
    ``books`` meets every requirement to go out but the partner's yes, not asked yet (``PARTNER_NOT_ASKED``
    alone unmet)."""
    return (
        s.rules.ask_with_last_card
        and not unmet_books(s.rules, books, True)
        and unmet_by_partners(s, seat, True) == _NOT_ASKED_ONLY
    )


_NOT_ASKED_ONLY: Final = [PARTNER_NOT_ASKED]


def go_out_needs(s: HandState, seat: int, books: tuple[int, ...], first: bool = False) -> list[GoOutNeed]:
    """Every requirement ``seat`` does not meet to go out with its side holding ``books`` (clean, dirty,
    wild), worded, in the order the engine judges them (only the first where ``first``): ``unmet_go_out``
    with each requirement's refusal and phrase. ``go_out_refusal`` and the seat's outlook both read this
    one list."""
    unmet = unmet_go_out(s, seat, books, first)
    return [_go_out_need(s, seat, books, need, index > 0) for index, need in enumerate(unmet)]


def _go_out_need(s: HandState, seat: int, books: tuple[int, ...], need: int, after_others: bool) -> GoOutNeed:
    """The words of one unmet requirement of ``unmet_go_out`` (``after_others``: another is listed before
    it)."""
    rules = s.rules
    clean, dirty, wild = books[0], books[1], books[2]
    if need == GO_OUT_CLEAN:
        spare = max(wild - rules.go_out_wild, 0) if rules.wild_book_counts_clean else 0
        wanted = plural(rules.go_out_clean, "clean book")
        if rules.wild_book_counts_clean:
            message = f"Going out needs {wanted} (a wild book counts as one); your side has {clean + spare}."
        else:
            message = f"Going out needs {wanted}; your side has {clean}."
        return GoOutNeed(
            "go_out_clean", message, spelled(rules.go_out_clean - clean - spare, "more clean book")
        )
    if need == GO_OUT_DIRTY:
        message = f"Going out needs {plural(rules.go_out_dirty, 'dirty book')}; your side has {dirty}."
        return GoOutNeed("go_out_dirty", message, spelled(rules.go_out_dirty - dirty, "more dirty book"))
    if need == GO_OUT_WILD:
        message = f"Going out needs {plural(rules.go_out_wild, 'wild book')}; your side has {wild}."
        return GoOutNeed("go_out_wild", message, spelled(rules.go_out_wild - wild, "more wild book"))
    if need == GO_OUT_BOOKS:
        total = clean + dirty + wild
        more = "more " if total or after_others else ""
        message = f"Going out needs {plural(rules.go_out_books, 'book')}; your side has {total}."
        return GoOutNeed("go_out_books", message, spelled(rules.go_out_books - total, more + "book"))
    if need == PARTNERS_IN_FOOT:
        if rules.all_feet_to_go_out is ENTERED:
            message = "Nobody goes out while a partner has not reached their Foot."
        else:
            message = "Nobody goes out while a partner has not picked up their Foot."
        one = len(s.seating.partners[seat]) == 1
        phrase = f"your partner{'' if one else 's'} must be in their {'Foot' if one else 'Feet'}"
        return GoOutNeed("all_feet_to_go_out", message, phrase, on_others=True)
    if need == PARTNER_SAID_NO:
        return GoOutNeed(
            "permission",
            "Your partner said no: you may not go out this turn.",
            "your partner said no to going out this turn",
            on_others=True,
        )
    return GoOutNeed(
        "permission",
        "Ask your partner 'May I go out?' before going out.",
        "your partner's yes to “May I go out?”",
    )


def go_out_refusal(s: HandState, seat: int, books: tuple[int, ...]) -> Refusal | None:
    """Why ``seat`` may not go out with its side holding ``books`` (clean, dirty, wild), or None: the first
    of ``go_out_needs``."""
    needs = go_out_needs(s, seat, books, first=True)
    if not needs:
        return None
    return Refusal(needs[0].rule, needs[0].message)


def exit_refusal(s: HandState, seat: int, plan: Plan) -> Refusal | None:
    """Whether leaving ``plan.left`` cards after a meld or pickup is allowed (keeping a card to discard)."""
    if not s.in_foot[seat] or plan.left >= SPARE_CARDS:
        return None
    rules = s.rules
    if may_go_out(s, seat, plan.books):  # the refusal is worded only where one is given
        if plan.left == 0 and rules.out_by_meld is FORBIDDEN_OUT:
            return Refusal("out_by_meld", "Going out needs a final discard: keep a card to discard.")
        return None
    if rules.empty_without_out is not FORBIDDEN_EMPTY:
        return None
    if plan.left == 1 and rules.ask_with_last_card and may_go_out_once_asked(s, seat, plan.books):
        return None  # the card kept is asked with: a yes lets it go out, a no ends the turn holding it
    why = go_out_refusal(s, seat, plan.books)
    assert why is not None  # may_go_out said no
    if plan.left == 1:
        return Refusal(why.rule, f"Keep a card to discard: you cannot go out yet. {why.message}")
    return Refusal(why.rule, f"You may not play your last card: you cannot go out yet. {why.message}")


def lone_wild_refusal(s: HandState, seat: int, plan: Plan, wilds_left: int) -> Refusal | None:
    """With ``wild_final_discard`` off: a play may not leave ``seat`` in the Foot holding one card, a wild,
    when discarding it would go out (``wilds_left``: wilds still held after the play)."""
    if s.rules.wild_final_discard or plan.left != 1 or wilds_left != 1 or not s.in_foot[seat]:
        return None
    if not may_go_out(s, seat, plan.books) and not may_go_out_once_asked(s, seat, plan.books):
        return None
    return Refusal(
        "wild_final_discard",
        "The discard that goes out may not be a wild: keep a natural card to go out with.",
    )


def others_have_meld(s: HandState, owner: int, rank: int) -> bool:
    """True where melds belong to players and another player has a meld of ``rank``."""
    if s.rules.meld_owner is not PLAYER_OWNS:
        return False
    return any(other[rank] >= 0 for index, other in enumerate(s.meld_of) if index != owner)


_NO_ADDED: dict[int, int] = {}  # never written: plan_groups fills its own only under per-turn limits
_NO_FRESH: set[int] = set()


_ORDINALS: Final = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)


def group_words(spec: GroupSpec) -> str:
    """A group's cards in words, for a sentence: ``three sevens and a joker``, ``an ace``, ``two 2s``."""
    parts = []
    if spec.naturals:
        single = C.KIND_WORDS[spec.rank]
        one = f"{'an' if single[0] in 'ae' else 'a'} {single}"
        parts.append(one if spec.naturals == 1 else spelled(spec.naturals, single, C.KIND_PLURALS[spec.rank]))
    if spec.jokers:
        parts.append("a joker" if spec.jokers == 1 else spelled(spec.jokers, "joker"))
    if spec.deuces:
        parts.append("a 2" if spec.deuces == 1 else spelled(spec.deuces, "2", "2s"))
    return sentence_list(parts)


def in_group(specs: list[GroupSpec], position: int, why: Refusal) -> Refusal:
    """``why``, a refusal of the group at ``position`` among ``specs``, saying which group it is when
    there are several: "The second group, three sevens and a joker: a meld may never hold ..."."""
    if len(specs) < 2:
        return why
    ordinal = _ORDINALS[position] if position < len(_ORDINALS) else f"number {position + 1}"
    message = why.message[:1].lower() + why.message[1:]
    return Refusal(why.rule, f"The {ordinal} group, {group_words(specs[position])}: {message}")


def plan_groups(s: HandState, seat: int, specs: list[GroupSpec], left: int) -> Plan | Refusal:
    """Check laying ``specs`` in order for ``seat`` (cards assumed held); ``left``: cards left after.

    Checks ranks, where each group goes, the wild rules, and the opening minimum is NOT checked here.
    """
    rules = s.rules
    owner = s.seating.owner_of[seat]
    books = list(s.books[owner])
    local: dict[int, tuple[int, int]] = {}  # rank -> (naturals, wilds) of its target meld in this move
    meld_of = s.meld_of[owner]
    bonus = 0
    per_turn = rules.max_wilds_added_per_turn
    added: dict[int, int] = {} if per_turn else _NO_ADDED  # rank -> wilds this play adds to a table meld
    fresh: set[int] = set() if per_turn else _NO_FRESH  # ranks whose meld this play starts
    books_of_threes = rules.black_three_books is not NO_THREE_BOOKS
    threes_as_book = books_of_threes and s.in_foot[seat]  # every black-3 group so far a whole book
    for position, spec in enumerate(specs):
        rank = spec.rank
        wilds = spec.jokers + spec.deuces
        if rank in (RED_THREE, DEUCE) or rank < 0:
            return in_group(specs, position, Refusal("red_threes", "Red 3s and 2s cannot name a meld."))
        if rank == BLACK_THREE and not rules.black_three_melds and not books_of_threes:
            return in_group(
                specs, position, Refusal("black_three_melds", "3s cannot be melded at this table.")
            )
        if rank == WILD_RANK and spec.naturals:
            return in_group(specs, position, Refusal("wild_melds", "A meld of wilds holds wilds only."))
        if rank in local:
            naturals, held_wilds = local[rank]
            exists = True
        else:
            index = meld_of[rank]
            exists = index >= 0
            if exists:
                meld = s.melds[index]
                naturals, held_wilds = meld.naturals, meld.wilds
            else:
                naturals = held_wilds = 0
        where = resolve(rules, exists, naturals + held_wilds, wilds > 0)
        if where == CLOSED:
            what = "naturals only" if rules.book_additions is BookAdditions.NATURALS else "nothing more"
            rule = "book_additions"
            closed = Refusal(rule, f"Your book of {C.KIND_PLURALS[rank]} is closed: it takes {what}.")
            return in_group(specs, position, closed)
        if where == NEW:
            before = NOT_A_BOOK
            naturals = held_wilds = 0
        else:
            before = book_status(rules, rank, naturals + held_wilds, held_wilds)
        naturals += spec.naturals
        held_wilds += wilds
        why = meld_shape_refusal(rules, rank, naturals, held_wilds, where == NEW)
        if why is not None:
            if where == NEW and others_have_meld(s, owner, rank):
                why = Refusal(
                    "meld_owner",
                    f"You cannot play on another player's books: start your own meld of "
                    f"{C.KIND_PLURALS[rank]} with at least three cards.",
                )
            return in_group(specs, position, why)
        why = crossing_refusal(
            rules, rank, naturals - spec.naturals, held_wilds - wilds, spec.naturals, wilds
        )
        if why is not None:
            return in_group(specs, position, why)
        if per_turn:
            if where == NEW:
                fresh.add(rank)
            elif wilds and rank not in fresh:
                added[rank] = added.get(rank, 0) + wilds
                why = added_wilds_refusal(s, meld_of[rank], added[rank])
                if why is not None:
                    return in_group(specs, position, why)
        if rank == BLACK_THREE and where == NEW and naturals < rules.book_size:
            threes_as_book = False
        after = book_status(rules, rank, naturals + held_wilds, held_wilds)
        if before != after:
            if before >= 0:
                books[before] -= 1
                bonus -= rules.book_bonus(rank, before)
            if after >= 0:
                books[after] += 1
                bonus += rules.book_bonus(rank, after)
        local[rank] = (naturals, held_wilds)
    plan = Plan((books[0], books[1], books[2]), left, bonus)
    if BLACK_THREE in local and not threes_as_book:
        if not rules.black_three_melds:
            where_from = "from the Foot" if s.in_foot[seat] else "once you play from your Foot"
            return Refusal(
                "black_three_books",
                f"Black 3s are melded only as a whole book ({rules.book_size} black 3s at once), "
                f"{where_from}.",
            )
        why = go_out_refusal(s, seat, plan.books)
        if not s.in_foot[seat] or left >= SPARE_CARDS or why is not None:
            extra = f" {why.message}" if why is not None else ""
            return Refusal("black_three_melds", f"Black 3s are melded only when going out.{extra}")
    why = exit_refusal(s, seat, plan)
    return why if why is not None else plan


def opening_refusal(
    s: HandState, seat: int, points: int, specs: list[GroupSpec] | None = None, left: int = 2
) -> Refusal | None:
    """Whether a lay-down worth ``points`` (the groups ``specs``, leaving ``left`` cards) makes the
    opening minimum, where ``seat``'s side (or the player) is not down yet. With
    ``opening_waived_if_emptied`` a lay-down leaving at most the card to discard (``discard``) or nothing
    (``empty``) needs none; with
    ``opening_counts_books`` the bonuses of the books it completes count."""
    owner = s.seating.owner_of[seat]
    if s.down[owner]:
        return None
    minimum = s.minimums[owner]
    if points >= minimum:
        return None
    rules = s.rules
    waiver = rules.opening_waived_if_emptied
    if waiver is not NO_WAIVER and left <= (1 if waiver is OpeningWaiver.DISCARD else 0):
        return None
    if rules.opening_counts_books and specs is not None:
        plan = plan_groups(s, seat, specs, left)
        if isinstance(plan, Plan) and points + plan.bonus >= minimum:
            return None
        if isinstance(plan, Plan) and plan.bonus:
            return Refusal(
                "opening_minimums",
                f"Your first melds this hand must count at least {minimum} points; these count {points} "
                f"and {plan.bonus} for the books they complete.",
            )
    return Refusal(
        "opening_minimums",
        f"Your first melds this hand must count at least {minimum} points; these count {points}.",
    )


def meld_refusal(s: HandState, seat: int, groups: tuple[Group, ...]) -> Refusal | None:
    """Why laying ``groups`` from the hand is not allowed for ``seat`` in the play phase, or None: the
    cards held, the opening minimum, and every group's place and shape (``plan_groups``)."""
    if not groups:
        return Refusal("hand", "Name the cards to meld.")
    cards = [c for g in groups for c in g.cards]
    why = hold_refusal(s, seat, cards)
    if why is not None:
        return why
    specs = specs_of(s.rules, groups)
    left = s.hand_size(seat) - len(cards)
    why = opening_refusal(s, seat, sum(sp.points for sp in specs), specs, left)
    if why is not None:
        return why
    result = plan_groups(s, seat, specs, left)
    if isinstance(result, Refusal):
        return result
    if s.rules.wild_final_discard:
        return None
    hand = s.hands[seat]
    wilds_left = hand[JOKER] + hand[DEUCE] - sum(sp.jokers + sp.deuces for sp in specs)
    return lone_wild_refusal(s, seat, result, wilds_left)


def specs_of(rules: RuleSet, groups: tuple[Group, ...] | list[Group]) -> list[GroupSpec]:
    specs = []
    values = rules.card_values
    for group in groups:
        naturals, jokers, deuces = group_counts(group)
        points = sum(values[KIND_OF[c]] for c in group.cards)
        specs.append(GroupSpec(group.rank, naturals, jokers, deuces, points))
    return specs


def hold_refusal(s: HandState, seat: int, cards: list[int], extra: list[int] | None = None) -> Refusal | None:
    """Whether ``seat`` holds every card listed (``extra``: cards about to join the hand)."""
    need: dict[int, int] = {}
    for card in cards:
        need[card] = need.get(card, 0) + 1
    held = s.hand_cards[seat]
    for card, count in need.items():
        have = held[card] + (extra.count(card) if extra else 0)
        if have < count:
            return Refusal("hand", f"You do not hold {'that many ' if have else ''}{C.CODE_OF[card]}.")
    return None


def playable_kinds(meld_ids: list[int]) -> set[int]:
    """Natural ranks that some legal meld id plays a natural of (what a discard limit protects)."""
    out: set[int] = set()
    for mid in meld_ids:
        if mid >= ADD_BASE:
            rank, card_type = divmod(mid - ADD_BASE, 3)
            if card_type == 0:
                out.add(rank)
        else:
            rank, combo = divmod(mid - NEW_BASE, 8)
            if TRIPLE_COMBOS[combo][0]:
                out.add(rank)
    return out
