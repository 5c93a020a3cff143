"""Playing one hand: legal moves, verification with reasons, and applying moves.

Every check returns a ``Refusal`` (the rule option broken and a sentence for the player) or ``None``.
``check`` is the one judge of legality; ``legal_ids`` enumerates the atomic moves it accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from handfoot import cards as C
from handfoot.engine.errors import IllegalMove, Refusal
from handfoot.engine.events import Event, EventType
from handfoot.engine.moves import (
    ADD_BASE,
    ASK_ID,
    DISCARD_BASE,
    DRAW_ID,
    KEEP_ID,
    MAX_PICKUP_NATURALS,
    NEW_BASE,
    NO_ID,
    PICKUP_BASE,
    SWAP_ID,
    TRIPLE_COMBOS,
    YES_ID,
    Action,
    Group,
    Move,
    decode_id,
    group_counts,
    move_text,
)
from handfoot.engine.state import EndReason, HandState, Meld, Phase
from handfoot.rules.options import (
    AfterOut,
    BookAdditions,
    EmptyWithoutOut,
    MeldOwner,
    OutByMeld,
    Permission,
    PickupBeforeDown,
    PickupRestFrom,
    PileVisible,
    RedThrees,
    RuleSet,
    WildLimit,
)

KIND_OF = C.KIND_OF
RED_THREE = C.RED_THREE
BLACK_THREE = C.BLACK_THREE
JOKER = C.JOKER
DEUCE = C.DEUCE
WILD_RANK = C.WILD_RANK

_ADD, _NEW, _CLOSED = 0, 1, 2
_STATUS_NONE = -1  # not a book (clean 0, dirty 1, wild 2 index ``HandState.books``)


class GroupSpec(NamedTuple):
    """A meld group by counts: its rank, naturals, jokers, deuces and card points."""

    rank: int
    naturals: int
    jokers: int
    deuces: int
    points: int


class Plan(NamedTuple):
    """What a meld or pickup would leave: the owner's books and the player's cards left."""

    books: tuple[int, int, int]
    left: int


# --- small helpers ----------------------------------------------------------------------------------
def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _book_status(rules: RuleSet, rank: int, size: int, wilds: int) -> int:
    if size < rules.book_size:
        return _STATUS_NONE
    if rank == WILD_RANK:
        return 2
    return 0 if wilds == 0 else 1


def _resolve(rules: RuleSet, exists: bool, size: int, has_wilds: bool) -> int:
    """Where a group of a rank goes: onto the existing meld, a new meld, or nowhere (closed)."""
    if not exists:
        return _NEW
    if size < rules.book_size:
        return _ADD
    additions = rules.book_additions
    if additions is BookAdditions.ANY or (additions is BookAdditions.NATURALS and not has_wilds):
        return _ADD
    return _NEW if rules.new_meld_after_book else _CLOSED


def _meld_shape_refusal(rules: RuleSet, rank: int, naturals: int, wilds: int, new: bool) -> Refusal | None:
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
            f"A meld needs at least {_plural(rules.min_naturals, 'natural card')} of its rank.",
        )
    if rules.wild_limit is WildLimit.AT_MOST_NATURALS:
        if wilds > naturals:
            return Refusal("wild_limit", "A meld may never hold more wilds than naturals.")
    elif wilds >= naturals:
        return Refusal("wild_limit", "A meld must always hold fewer wilds than naturals.")
    if rules.max_wilds and wilds > rules.max_wilds:
        return Refusal("max_wilds", f"A meld may hold at most {_plural(rules.max_wilds, 'wild card')}.")
    return None


def go_out_refusal(s: HandState, seat: int, books: tuple[int, int, int] | list[int]) -> Refusal | None:
    """Why ``seat`` may not go out with its side holding ``books`` (clean, dirty, wild), or None."""
    rules = s.rules
    clean, dirty, wild = books[0], books[1], books[2]
    if clean < rules.go_out_clean:
        need = _plural(rules.go_out_clean, "clean book")
        return Refusal("go_out_clean", f"Going out needs {need}; your side has {clean}.")
    if dirty < rules.go_out_dirty:
        need = _plural(rules.go_out_dirty, "dirty book")
        return Refusal("go_out_dirty", f"Going out needs {need}; your side has {dirty}.")
    if wild < rules.go_out_wild:
        need = _plural(rules.go_out_wild, "wild book")
        return Refusal("go_out_wild", f"Going out needs {need}; your side has {wild}.")
    if clean + dirty + wild < rules.go_out_books:
        need = _plural(rules.go_out_books, "book")
        return Refusal("go_out_books", f"Going out needs {need}; your side has {clean + dirty + wild}.")
    partners = s.seating.partners[seat]
    if rules.all_feet_to_go_out:
        for partner in partners:
            if not s.in_foot[partner]:
                return Refusal(
                    "all_feet_to_go_out", "Nobody goes out while a partner has not picked up their Foot."
                )
    if partners:
        if s.permission < 0:
            return Refusal("permission", "Your partner said no: you may not go out this turn.")
        if rules.permission is Permission.REQUIRED and s.permission != 1:
            return Refusal("permission", "Ask your partner 'May I go out?' before going out.")
    return None


def _exit_refusal(s: HandState, seat: int, plan: Plan) -> Refusal | None:
    """Whether leaving ``plan.left`` cards after a meld or pickup is allowed (keeping a card to discard)."""
    if not s.in_foot[seat] or plan.left >= 2:
        return None
    rules = s.rules
    why = go_out_refusal(s, seat, plan.books)
    if plan.left == 1:
        if why is None or rules.empty_without_out is not EmptyWithoutOut.FORBIDDEN:
            return None
        return Refusal(why.rule, f"Keep a card to discard: you cannot go out yet. {why.message}")
    if why is None:
        if rules.out_by_meld is OutByMeld.FORBIDDEN:
            return Refusal("out_by_meld", "Going out needs a final discard: keep a card to discard.")
        return None
    if rules.empty_without_out is EmptyWithoutOut.FORBIDDEN:
        return Refusal(why.rule, f"You may not play your last card: you cannot go out yet. {why.message}")
    return None


def _others_have_meld(s: HandState, owner: int, rank: int) -> bool:
    """True where melds belong to players and another player has a meld of ``rank``."""
    if s.rules.meld_owner is not MeldOwner.PLAYER:
        return False
    return any(other[rank] >= 0 for index, other in enumerate(s.meld_of) if index != owner)


def plan_groups(s: HandState, seat: int, specs: list[GroupSpec], left: int) -> Plan | Refusal:
    """Check laying ``specs`` in order for ``seat`` (cards assumed held); ``left``: cards left after.

    Checks ranks, where each group goes, the wild rules, and the opening minimum is NOT checked here.
    """
    rules = s.rules
    owner = s.seating.owner_of[seat]
    books = list(s.books[owner])
    local: dict[int, tuple[int, int]] = {}  # rank -> (naturals, wilds) of its target meld in this move
    meld_of = s.meld_of[owner]
    for spec in specs:
        rank = spec.rank
        wilds = spec.jokers + spec.deuces
        if rank in (RED_THREE, DEUCE) or rank < 0:
            return Refusal("red_threes", "Red 3s and 2s cannot name a meld.")
        if rank == BLACK_THREE and not rules.black_three_melds:
            return Refusal("black_three_melds", "3s cannot be melded at this table.")
        if rank == WILD_RANK and spec.naturals:
            return Refusal("wild_melds", "A meld of wilds holds wilds only.")
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
        where = _resolve(rules, exists, naturals + held_wilds, wilds > 0)
        if where == _CLOSED:
            what = "naturals only" if rules.book_additions is BookAdditions.NATURALS else "nothing more"
            rule = "book_additions"
            return Refusal(rule, f"Your book of {C.KIND_PLURALS[rank]} is closed: it takes {what}.")
        if where == _NEW:
            before = _STATUS_NONE
            naturals = held_wilds = 0
        else:
            before = _book_status(rules, rank, naturals + held_wilds, held_wilds)
        naturals += spec.naturals
        held_wilds += wilds
        why = _meld_shape_refusal(rules, rank, naturals, held_wilds, where == _NEW)
        if why is not None:
            if where == _NEW and _others_have_meld(s, owner, rank):
                return Refusal(
                    "meld_owner",
                    f"You cannot play on another player's books: start your own meld of "
                    f"{C.KIND_PLURALS[rank]} with at least three cards.",
                )
            return why
        after = _book_status(rules, rank, naturals + held_wilds, held_wilds)
        if before != after:
            if before >= 0:
                books[before] -= 1
            if after >= 0:
                books[after] += 1
        local[rank] = (naturals, held_wilds)
    plan = Plan((books[0], books[1], books[2]), left)
    if BLACK_THREE in local:
        why = go_out_refusal(s, seat, plan.books)
        if not s.in_foot[seat] or left > 1 or why is not None:
            extra = f" {why.message}" if why is not None else ""
            return Refusal("black_three_melds", f"Black 3s are melded only when going out.{extra}")
    why = _exit_refusal(s, seat, plan)
    return why if why is not None else plan


def _opening_refusal(s: HandState, seat: int, points: int) -> Refusal | None:
    owner = s.seating.owner_of[seat]
    if s.down[owner]:
        return None
    minimum = s.minimums[owner]
    if points >= minimum:
        return None
    return Refusal(
        "opening_minimums",
        f"Your first melds this hand must count at least {minimum} points; these count {points}.",
    )


def _specs_of(rules: RuleSet, groups: tuple[Group, ...] | list[Group]) -> list[GroupSpec]:
    specs = []
    values = rules.card_values
    for group in groups:
        naturals, jokers, deuces = group_counts(group)
        points = sum(values[KIND_OF[c]] for c in group.cards)
        specs.append(GroupSpec(group.rank, naturals, jokers, deuces, points))
    return specs


def _hold_refusal(
    s: HandState, seat: int, cards: list[int], extra: list[int] | None = None
) -> Refusal | None:
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


# --- the judge ------------------------------------------------------------------------------------
def check(s: HandState, move: Move) -> Refusal | None:
    """Why ``move`` is illegal for whoever is to move, or None if it is legal. Changes nothing."""
    action = move.action
    phase = s.phase
    if phase is Phase.OVER:
        return Refusal("turn", "The hand is over.")
    if phase is Phase.PICK_FOOT:
        if action in (Action.KEEP, Action.SWAP):
            return None
        return Refusal("pick_foot_seen", "First choose which of your two piles is the Foot: keep or swap.")
    if action in (Action.KEEP, Action.SWAP):
        return Refusal("pick_foot_seen", "The Foot is chosen only when the piles are dealt.")
    if phase is Phase.ANSWER:
        if action in (Action.YES, Action.NO):
            return None
        return Refusal("permission", "Your partner asked 'May I go out?': answer yes or no.")
    if action in (Action.YES, Action.NO):
        return Refusal("permission", "Nobody has asked to go out.")
    if phase is Phase.DRAW:
        if action is Action.DRAW:
            if not s.stock and can_take_pile(s, s.to_move):
                return Refusal(
                    "pickup_allowed",
                    "The stock is empty and you can take the pile: take it (the hand ends when nobody can).",
                )
            return None
        if action is Action.PICKUP:
            return _pickup_refusal(s, move)
        return Refusal("draw_count", "Draw from the stock or take the discard pile first.")
    # Phase.PLAY
    if action is Action.DRAW or action is Action.PICKUP:
        return Refusal("draw_count", "You have already drawn this turn.")
    seat = s.to_move
    if action is Action.DISCARD:
        return _discard_refusal(s, seat, move.card)
    if action is Action.ASK:
        return _ask_refusal(s, seat)
    groups = move.groups
    if not groups:
        return Refusal("hand", "Name the cards to meld.")
    cards = [c for g in groups for c in g.cards]
    why = _hold_refusal(s, seat, cards)
    if why is not None:
        return why
    specs = _specs_of(s.rules, groups)
    why = _opening_refusal(s, seat, sum(sp.points for sp in specs))
    if why is not None:
        return why
    result = plan_groups(s, seat, specs, s.hand_size(seat) - len(cards))
    return result if isinstance(result, Refusal) else None


def pile_taken(s: HandState) -> list[int]:
    """The cards that would join the hand beside the top card if the pile were taken now.

    From the pile: the cards under the top (all, or the next ``pickup_count - 1``), bottom first.
    From the stock (``pickup_rest_from = "stock"``): its next cards, or what is left, top first.
    """
    rules = s.rules
    count = rules.pickup_count
    if rules.pickup_rest_from is PickupRestFrom.STOCK:
        return s.stock[-(count - 1) :][::-1] if count > 1 else []
    if count == 0:
        return s.pile[:-1]
    return s.pile[-count:-1]


def _remove_taken(s: HandState, taken: list[int]) -> None:
    """Remove from the stock or the pile (its top already gone) the cards ``pile_taken`` named."""
    if not taken:
        return
    if s.rules.pickup_rest_from is PickupRestFrom.STOCK:
        del s.stock[-len(taken) :]
    else:
        del s.pile[-len(taken) :]


def _top_refusal(s: HandState, seat: int) -> Refusal | None:
    rules = s.rules
    if not rules.pickup_allowed:
        return Refusal(
            "pickup_allowed", "The discard pile is never taken at this table: draw from the stock."
        )
    if not s.pile:
        return Refusal("pickup_allowed", "The discard pile is empty.")
    top = KIND_OF[s.pile[-1]]
    if C.is_wild(top):
        return Refusal("pickup_allowed", "A wild on top cannot be taken: it has no rank to meld.")
    if top == BLACK_THREE:
        if rules.black_three_freezes:
            return Refusal("black_three_freezes", "A black 3 on top freezes the pile for you: draw instead.")
        return Refusal("black_three_melds", "A 3 on top cannot be taken: 3s cannot be melded from the pile.")
    if top == RED_THREE:
        return Refusal("red_threes", "A red 3 on top cannot be taken.")
    owner = s.seating.owner_of[seat]
    if not s.down[owner] and rules.pickup_before_down is PickupBeforeDown.NEVER:
        who = "you have" if s.seating.num_owners == s.players else "your side has"
        return Refusal("pickup_before_down", f"The pile can only be taken once {who} opened this hand.")
    return None


def pickup_needed(s: HandState, seat: int) -> int:
    """Naturals of the top card's rank the player must add to take the pile now."""
    rules = s.rules
    owner = s.seating.owner_of[seat]
    index = s.meld_of[owner][KIND_OF[s.pile[-1]]]
    if index >= 0:
        meld = s.melds[index]
        if _resolve(rules, True, len(meld.cards), False) == _ADD:
            return rules.pickup_naturals_on_meld
    return rules.pickup_naturals


def _pickup_refusal(s: HandState, move: Move) -> Refusal | None:
    seat = s.to_move
    why = _top_refusal(s, seat)
    if why is not None:
        return why
    rules = s.rules
    top_card = s.pile[-1]
    top = KIND_OF[top_card]
    first = move.groups[0] if move.groups else Group(-1, ())
    if first.rank not in (-1, top):
        return Refusal("pickup_naturals", f"The first group goes with the top card, a {C.KIND_WORDS[top]}.")
    if any(KIND_OF[c] != top for c in first.cards):
        return Refusal("pickup_naturals", f"Take the pile with natural {C.KIND_PLURALS[top]} only, no wilds.")
    needed = pickup_needed(s, seat)
    if len(first.cards) < needed:
        return Refusal(
            "pickup_naturals",
            f"To take the pile you need {_plural(needed, 'natural ' + C.KIND_WORDS[top])} from your hand "
            "to meld with the top card.",
        )
    taken = pile_taken(s)
    rest = move.groups[1:]
    hand_taken = [
        c for c in taken if not (KIND_OF[c] == RED_THREE and rules.red_threes is RedThrees.LAY_DOWN)
    ]
    cards_first = list(first.cards)
    why = _hold_refusal(s, seat, cards_first)
    if why is not None:
        return why
    rest_cards = [c for g in rest for c in g.cards]
    in_hand_rule = rules.pickup_before_down is PickupBeforeDown.OPENING_IN_HAND
    owner = s.seating.owner_of[seat]
    opening = not s.down[owner]
    if rest_cards:
        why = _hold_refusal(
            s, seat, cards_first + rest_cards, None if (in_hand_rule and opening) else hand_taken
        )
        if why is not None:
            if in_hand_rule and opening:
                return Refusal(
                    "pickup_before_down",
                    "Your opening must already be in your hand before you take the pile.",
                )
            return why
    specs = _specs_of(rules, [Group(top, (top_card, *first.cards)), *rest])
    points = sum(sp.points for sp in specs)
    if in_hand_rule:
        points -= rules.card_values[top]
    why = _opening_refusal(s, seat, points)
    if why is not None:
        if in_hand_rule:
            return Refusal(
                "pickup_before_down",
                f"Before opening you may take the pile only with your opening ({s.minimums[owner]} points) "
                f"already in hand without the top card; yours counts {points}.",
            )
        return why
    left = s.hand_size(seat) + len(hand_taken) - len(cards_first) - len(rest_cards)
    result = plan_groups(s, seat, specs, left)
    return result if isinstance(result, Refusal) else None


def _discardable(rules: RuleSet, kind: int, playable: set[int]) -> bool:
    if not rules.discard_wilds and C.is_wild(kind):
        return False
    return rules.discard_playable or kind not in playable


def _discard_refusal(s: HandState, seat: int, card: int, meld_ids: list[int] | None = None) -> Refusal | None:
    """Why discarding ``card`` is not allowed (``meld_ids``: the legal meld ids, if already known)."""
    rules = s.rules
    if s.hand_cards[seat][card] <= 0:
        return Refusal("hand", f"You do not hold {C.CODE_OF[card]}.")
    kind = KIND_OF[card]
    if not rules.discard_wilds or not rules.discard_playable or rules.must_play_all:
        if meld_ids is None:
            meld_ids = _meld_ids(s, seat)
        if rules.must_play_all and meld_ids:
            return Refusal("must_play_all", "Meld everything you can before discarding.")
        playable = _playable_kinds(meld_ids)
        if not _discardable(rules, kind, playable):
            hand = s.hands[seat]
            others = any(hand[k] and _discardable(rules, k, playable) for k in range(C.NUM_KINDS))
            if others:
                if C.is_wild(kind) and not rules.discard_wilds:
                    return Refusal("discard_wilds", "Wild cards may not be discarded.")
                return Refusal(
                    "discard_playable",
                    f"You may not discard a card you can play: meld your {C.KIND_WORDS[kind]}.",
                )
    if s.in_foot[seat] and s.hand_size(seat) == 1:
        why = go_out_refusal(s, seat, s.books[s.seating.owner_of[seat]])
        if why is not None and rules.empty_without_out is EmptyWithoutOut.FORBIDDEN:
            return Refusal(why.rule, f"Keep your last card: you cannot go out yet. {why.message}")
    return None


def _ask_refusal(s: HandState, seat: int) -> Refusal | None:
    rules = s.rules
    if rules.permission is Permission.NONE:
        return Refusal("permission", "Nobody asks permission to go out at this table.")
    if not s.seating.partners[seat]:
        return Refusal("permission", "You have no partner to ask.")
    if s.permission != 0:
        return Refusal("permission", "You have already asked this turn.")
    if not s.in_foot[seat]:
        return Refusal("permission", "Ask to go out once you are in your Foot.")
    if s.hand_size(seat) < 2:
        # told "no", a player holding one card would have nothing to discard and could not go out
        return Refusal("permission", "Ask before melding down to your last card.")
    return None


# --- legal moves -------------------------------------------------------------------------------------
# (naturals, jokers, deuces, id offset) of the groups a rank's legal-move scan tries, natural ranks first.
_RANK_TRIPLES = tuple((n, j, d, i) for i, (n, j, d) in enumerate(TRIPLE_COMBOS) if n)
_WILD_TRIPLES = tuple((n, j, d, i) for i, (n, j, d) in enumerate(TRIPLE_COMBOS) if not n)
_SINGLES = ((1, 0, 0, 0), (0, 1, 0, 1), (0, 0, 1, 2))


def _meld_ids(s: HandState, seat: int) -> list[int]:
    """Ids of the legal one- and three-card meld groups for ``seat`` (PLAY phase).

    The common case (cards to spare, a natural rank) is judged here by the same shape rules as
    ``plan_groups``; a group that may leave the player out of cards, or a black-3 meld, goes through
    ``plan_groups`` itself.
    """
    rules = s.rules
    hand = s.hands[seat]
    owner = s.seating.owner_of[seat]
    minimum = 0 if s.down[owner] else s.minimums[owner]
    jokers, deuces = hand[JOKER], hand[DEUCE]
    size = sum(hand)
    careful_from = 2 if s.in_foot[seat] else -99  # hand sizes at or below this go through plan_groups
    values = rules.card_values
    joker_value, deuce_value = values[JOKER], values[DEUCE]
    meld_of = s.meld_of[owner]
    melds = s.melds
    out: list[int] = []
    ranks = [r for r in range(C.ACE, C.FOUR + 1) if hand[r] or (meld_of[r] >= 0 and (jokers or deuces))]
    if rules.black_three_melds and hand[BLACK_THREE] >= 3:
        ranks.append(BLACK_THREE)
    if rules.wild_melds and jokers + deuces:
        ranks.append(WILD_RANK)
    for rank in ranks:
        have = hand[rank] if rank != WILD_RANK else 0
        index = meld_of[rank]
        exists = index >= 0
        if exists:
            meld = melds[index]
            meld_size = len(meld.cards)
            meld_wilds = meld.wilds
        else:
            meld_size = meld_wilds = 0
        triples = _WILD_TRIPLES if rank == WILD_RANK else _RANK_TRIPLES
        tries: list[tuple[int, int, int, int]] = [
            (n, j, d, NEW_BASE + rank * 8 + i)
            for n, j, d, i in triples
            if n <= have and j <= jokers and d <= deuces
        ]
        if exists:
            tries.extend(
                (n, j, d, ADD_BASE + rank * 3 + t)
                for n, j, d, t in _SINGLES
                if n <= have and j <= jokers and d <= deuces and not (n and rank == WILD_RANK)
            )
        for naturals, j, d, mid in tries:
            wilds = j + d
            points = naturals * values[rank] + j * joker_value + d * deuce_value
            if points < minimum:
                continue
            count = naturals + wilds
            if size - count <= careful_from or rank == BLACK_THREE:
                spec = GroupSpec(rank, naturals, j, d, points)
                if isinstance(plan_groups(s, seat, [spec], size - count), Plan):
                    out.append(mid)
                continue
            where = _resolve(rules, exists, meld_size, wilds > 0)
            if where == _CLOSED:
                continue
            if where == _NEW:
                if _meld_shape_refusal(rules, rank, naturals, wilds, True) is None:
                    out.append(mid)
            elif (
                _meld_shape_refusal(rules, rank, meld_size - meld_wilds + naturals, meld_wilds + wilds, False)
                is None
            ):
                out.append(mid)
    return out


def _playable_kinds(meld_ids: list[int]) -> set[int]:
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


def _pickup_ids(s: HandState, seat: int) -> list[int]:
    """Ids of the legal atomic pickups for ``seat`` (draw phase)."""
    out: list[int] = []
    if _top_refusal(s, seat) is None:
        top = KIND_OF[s.pile[-1]]
        have = s.hands[seat][top]
        for naturals in range(pickup_needed(s, seat), min(have, MAX_PICKUP_NATURALS) + 1):
            if _pickup_refusal(s, _pickup_move(s, seat, naturals)) is None:
                out.append(PICKUP_BASE + naturals)
    return out


def can_take_pile(s: HandState, seat: int) -> bool:
    """True if ``seat`` may take the discard pile now with an atomic pickup.

    (An empty stock ends the hand when the player to draw cannot take the pile; a pile that could only
    be taken with an opening of several melds does not keep the hand going.)
    """
    return bool(_pickup_ids(s, seat))


def legal_ids(s: HandState) -> list[int]:
    """Ids of every legal atomic move for whoever is to move, sorted."""
    phase = s.phase
    if phase is Phase.OVER:
        return []
    if phase is Phase.ANSWER:
        return [YES_ID, NO_ID]
    if phase is Phase.PICK_FOOT:
        return [KEEP_ID, SWAP_ID]
    seat = s.to_move
    if phase is Phase.DRAW:
        pickups = _pickup_ids(s, seat)
        return pickups if pickups and not s.stock else [DRAW_ID, *pickups]
    meld_ids = _meld_ids(s, seat)
    out = []
    hand = s.hands[seat]
    rules = s.rules
    unrestricted = rules.discard_wilds and rules.discard_playable and not rules.must_play_all
    if unrestricted and not (s.in_foot[seat] and sum(hand) == 1):
        out = [DISCARD_BASE + kind for kind in range(C.NUM_KINDS) if hand[kind]]
    else:
        for kind in range(C.NUM_KINDS):
            if (
                hand[kind]
                and _discard_refusal(s, seat, first_card(s.hand_cards[seat], kind), meld_ids) is None
            ):
                out.append(DISCARD_BASE + kind)
    if _ask_refusal(s, seat) is None:
        out.append(ASK_ID)
    out.extend(meld_ids)
    out.sort()
    return out


def first_card(held: Sequence[int], kind: int) -> int:
    """The first card of ``kind`` in ``held`` (counts by card id), lowest suit first (or the kind's first)."""
    for card in C.IDS_OF_KIND[kind]:
        if held[card]:
            return card
    return C.IDS_OF_KIND[kind][0]


def pick_cards(held: Sequence[int], kind: int, count: int, taken: dict[int, int]) -> list[int]:
    """``count`` cards of ``kind`` from ``held`` (counts by card id), lowest suit first, not reusing the
    cards counted in ``taken`` (which it updates). Where too few are held, the kind's first card stands
    in (a move naming it will be refused)."""
    out: list[int] = []
    for card in C.IDS_OF_KIND[kind]:
        spare = held[card] - taken.get(card, 0)
        while spare > 0 and len(out) < count:
            out.append(card)
            taken[card] = taken.get(card, 0) + 1
            spare -= 1
        if len(out) == count:
            break
    while len(out) < count:
        out.append(C.IDS_OF_KIND[kind][0])
    return out


def _pickup_move(s: HandState, seat: int, naturals: int) -> Move:
    return move_for(s.hand_cards[seat], s.pile[-1], PICKUP_BASE + naturals)


def move_for(held: Sequence[int], pile_top: int, mid: int) -> Move:
    """The Move an atomic id stands for, naming cards from ``held`` (the mover's counts by card id) and
    the pile's top card (-1: empty). It needs nothing a seat does not see, so a bot can build it from its
    view. Raises ValueError for a number that is no move id."""
    decoded = decode_id(mid)
    action = decoded.action
    if action is Action.PICKUP:
        if pile_top < 0:
            return Move(Action.PICKUP, (Group(-1, ()),))
        top = KIND_OF[pile_top]
        return Move(Action.PICKUP, (Group(top, tuple(pick_cards(held, top, decoded.naturals, {}))),))
    if action is Action.DISCARD:
        return Move(Action.DISCARD, card=first_card(held, decoded.kind))
    if action is Action.MELD:
        taken: dict[int, int] = {}
        kind = decoded.kind
        cards = pick_cards(held, kind, decoded.naturals, taken) if kind != WILD_RANK else []
        cards += pick_cards(held, JOKER, decoded.jokers, taken)
        cards += pick_cards(held, DEUCE, decoded.deuces, taken)
        return Move(Action.MELD, (Group(kind, tuple(cards)),))
    return Move(action)


def move_of_id(s: HandState, mid: int) -> Move:
    """The Move an atomic id stands for in this position, naming cards the player to move holds."""
    return move_for(s.hand_cards[s.to_move], s.pile[-1] if s.pile else -1, mid)


# --- applying ------------------------------------------------------------------------------------
def _take(s: HandState, seat: int, card: int) -> None:
    s.hands[seat][KIND_OF[card]] -= 1
    s.hand_cards[seat][card] -= 1
    known = s.known[seat]
    kind = KIND_OF[card]
    if known[kind]:
        known[kind] -= 1


def _give(s: HandState, seat: int, card: int) -> None:
    s.hands[seat][KIND_OF[card]] += 1
    s.hand_cards[seat][card] += 1


def _lay_red_three(s: HandState, seat: int, card: int, events: list[Event]) -> None:
    s.red_threes[s.seating.side_of[seat]].append(card)
    events.append(Event(EventType.RED_THREE, seat, (card,)))


def _draw_cards(s: HandState, seat: int, count: int, events: list[Event]) -> int:
    """Draw ``count`` cards from the stock (red 3s laid down and replaced where the rules say)."""
    lay = s.rules.red_threes is RedThrees.LAY_DOWN
    drawn = 0
    stock = s.stock
    while drawn < count and stock:
        card = stock.pop()
        if lay and KIND_OF[card] == RED_THREE:
            _lay_red_three(s, seat, card, events)
            continue
        _give(s, seat, card)
        drawn += 1
    return drawn


def lay_red_threes_from_hand(s: HandState, seat: int, events: list[Event]) -> None:
    """Lay down the red 3s a seat holds and replace them from the stock (rules that lay them down)."""
    if s.rules.red_threes is not RedThrees.LAY_DOWN:
        return
    while s.hands[seat][RED_THREE]:
        count = s.hands[seat][RED_THREE]
        for card in C.IDS_OF_KIND[RED_THREE]:
            while s.hand_cards[seat][card]:
                _take(s, seat, card)
                _lay_red_three(s, seat, card, events)
        _draw_cards(s, seat, count, events)


def _pick_up_foot(s: HandState, seat: int, events: list[Event]) -> None:
    foot = s.feet[seat]
    s.feet[seat] = []
    s.in_foot[seat] = True
    for card in foot:
        _give(s, seat, card)
    events.append(Event(EventType.FOOT, seat, amount=len(foot)))
    lay_red_threes_from_hand(s, seat, events)


def _lay_group(s: HandState, seat: int, rank: int, cards: list[int] | tuple[int, ...]) -> None:
    rules = s.rules
    owner = s.seating.owner_of[seat]
    wilds = sum(1 for c in cards if KIND_OF[c] <= DEUCE)
    index = s.meld_of[owner][rank]
    exists = index >= 0
    meld = s.melds[index] if exists else None
    where = _resolve(rules, exists, len(meld.cards) if meld is not None else 0, wilds > 0)
    books = s.books[owner]
    if where == _NEW or meld is None:
        meld = Meld(owner, rank, list(cards), wilds)
        s.meld_of[owner][rank] = len(s.melds)
        s.melds.append(meld)
        before = _STATUS_NONE
    else:
        before = _book_status(rules, rank, len(meld.cards), meld.wilds)
        meld.cards.extend(cards)
        meld.wilds += wilds
    after = _book_status(rules, rank, len(meld.cards), meld.wilds)
    if before != after:
        if before >= 0:
            books[before] -= 1
        if after >= 0:
            books[after] += 1


def _end_hand(s: HandState, reason: EndReason, events: list[Event]) -> None:
    s.phase = Phase.OVER
    s.end_reason = reason
    events.append(Event(EventType.HAND_OVER, s.out_seat, detail=reason.name.lower()))


def _start_turn(s: HandState, seat: int, events: list[Event]) -> None:
    s.turn_seat = seat
    s.to_move = seat
    s.phase = Phase.DRAW
    s.permission = 0
    events.append(Event(EventType.TURN, seat))
    if not s.in_foot[seat] and s.hand_size(seat) == 0 and s.feet[seat]:
        _pick_up_foot(s, seat, events)


def _end_turn(s: HandState, events: list[Event]) -> None:
    if s.last_round_left > 0:
        s.last_round_left -= 1
        if s.last_round_left == 0:
            _end_hand(s, EndReason.WENT_OUT if s.out_seat >= 0 else EndReason.LAST_ROUND, events)
            return
    _start_turn(s, (s.turn_seat + 1) % s.players, events)


def _went_out(s: HandState, seat: int, events: list[Event], bonus: bool) -> None:
    """``seat`` emptied hand and Foot with the books made: the hand ends, or a last round begins."""
    if bonus:
        s.out_seat = seat
        events.append(Event(EventType.WENT_OUT, seat))
        if s.rules.after_out is AfterOut.END:
            _end_hand(s, EndReason.WENT_OUT, events)
            return
    else:
        events.append(Event(EventType.LAST_ROUND, seat))
    s.last_round_left = s.players
    _end_turn(s, events)


def _after_meld(s: HandState, seat: int, events: list[Event]) -> None:
    """Foot pickup, going out, or an emptied hand after cards left the hand by melding."""
    if s.hand_size(seat) > 0:
        return
    rules = s.rules
    if not s.in_foot[seat]:
        if s.feet[seat] and rules.foot_at_once:
            _pick_up_foot(s, seat, events)
        else:
            _end_turn(s, events)
        return
    if s.last_round_left > 0:
        _end_turn(s, events)
        return
    if go_out_refusal(s, seat, s.books[s.seating.owner_of[seat]]) is None:
        _went_out(s, seat, events, bonus=rules.out_by_meld is OutByMeld.OUT)
        return
    if rules.empty_without_out is EmptyWithoutOut.DRAW_AGAIN and s.stock:
        drawn = _draw_cards(s, seat, rules.draw_count, events)
        events.append(Event(EventType.DREW, seat, amount=drawn))
        return
    _end_turn(s, events)


def _pick_foot(s: HandState, seat: int, swap: bool, events: list[Event]) -> None:
    """``seat`` keeps its dealt Hand or swaps it with its Foot; after the last seat, play begins."""
    if swap:
        held = [card for card in range(C.NUM_CARD_IDS) for _ in range(s.hand_cards[seat][card])]
        for card in held:
            _take(s, seat, card)
        for card in s.feet[seat]:
            _give(s, seat, card)
        s.feet[seat] = held
    events.append(Event(EventType.PICKED, seat, detail="swap" if swap else "keep"))
    following = (seat + 1) % s.players
    if following != s.first_player:
        s.to_move = s.turn_seat = following
        return
    for offset in range(s.players):
        lay_red_threes_from_hand(s, (s.first_player + offset) % s.players, events)
    _start_turn(s, s.first_player, events)


def apply_move(s: HandState, move: Move) -> list[Event]:
    """Verify ``move`` and play it; returns its events. Raises IllegalMove and changes nothing if illegal."""
    why = check(s, move)
    if why is not None:
        raise IllegalMove.of(why, move_text(move))
    return apply_checked(s, move)


def apply_checked(s: HandState, move: Move) -> list[Event]:
    """Play a move already judged legal by ``check`` (unchecked: callers verify first)."""
    events: list[Event] = []
    seat = s.to_move
    action = move.action
    s.move_count += 1
    rules = s.rules
    if action is Action.DRAW:
        if not s.stock:
            _end_hand(s, EndReason.STOCK_EMPTY, events)
            return events
        drawn = _draw_cards(s, seat, rules.draw_count, events)
        events.append(Event(EventType.DREW, seat, amount=drawn))
        s.phase = Phase.PLAY
        return events
    if action is Action.DISCARD:
        _take(s, seat, move.card)
        s.pile.append(move.card)
        events.append(Event(EventType.DISCARDED, seat, (move.card,)))
        emptied = s.in_foot[seat] and s.hand_size(seat) == 0 and s.last_round_left < 0
        if emptied and go_out_refusal(s, seat, s.books[s.seating.owner_of[seat]]) is None:
            _went_out(s, seat, events, bonus=True)
            return events
        _end_turn(s, events)
        return events
    if action is Action.KEEP or action is Action.SWAP:
        _pick_foot(s, seat, action is Action.SWAP, events)
        return events
    if action is Action.ASK:
        s.phase = Phase.ANSWER
        s.to_move = s.seating.partners[seat][0]
        events.append(Event(EventType.ASKED, seat))
        return events
    if action is Action.YES or action is Action.NO:
        s.permission = 1 if action is Action.YES else -1
        events.append(Event(EventType.ANSWERED, seat, detail=action.name.lower()))
        s.phase = Phase.PLAY
        s.to_move = s.turn_seat
        return events
    owner = s.seating.owner_of[seat]
    if action is Action.PICKUP:
        taken = pile_taken(s)
        top_card = s.pile.pop()
        _remove_taken(s, taken)
        first = move.groups[0]
        for card in first.cards:
            _take(s, seat, card)
        _lay_group(s, seat, KIND_OF[top_card], [top_card, *first.cards])
        visible = rules.pile_visible is PileVisible.ALL and rules.pickup_rest_from is PickupRestFrom.PILE
        for card in taken:
            if KIND_OF[card] == RED_THREE and rules.red_threes is RedThrees.LAY_DOWN:
                _lay_red_three(s, seat, card, events)
            else:
                _give(s, seat, card)
                if visible:
                    s.known[seat][KIND_OF[card]] += 1
        events.append(Event(EventType.TOOK_PILE, seat, (top_card,), amount=len(taken) + 1))
        s.phase = Phase.PLAY
        groups = move.groups[1:]
        events.append(Event(EventType.MELDED, seat, (top_card, *first.cards)))
    else:
        groups = move.groups
    for group in groups:
        for card in group.cards:
            _take(s, seat, card)
        _lay_group(s, seat, group.rank, group.cards)
        events.append(Event(EventType.MELDED, seat, group.cards))
    s.down[owner] = True
    _after_meld(s, seat, events)
    return events
