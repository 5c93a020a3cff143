"""What the seat to move may do, in the terms a person's interface builds a move from: for every card in
hand where it may go now, the opening points staged and still needed, whether the pile may be taken and
with which cards, and why each action that is not offered is not, in words.

Everything here is read from the legal list (``legal.legal_ids``, ``legal.move_of_id``) and the judge
(``judge.check``); nothing decides a rule of its own, so a client that builds its moves from these
facts knows no rule and stays right whenever the engine's list changes. Read-only: nothing here changes
a state.

- ``cards``: one entry per card code the seat holds outside the staged groups (every card of a kind,
  not one per kind), each with its places: ``meld`` (onto the side's meld of that rank on the table),
  ``staged`` (onto a staged group), ``new`` (a new group of the rank, laid or staged), ``pile`` (with
  the pile's top card), ``discard`` and ``lay`` (a red 3 laid down). Each place names the legal steps
  that put this very card there: the engine's id and the move's text naming this card (``meld KH``,
  ``meld K: 2C``, ``stage QC QD QS``, ``pickup 5H 5D``); the text is the move the judge accepts.
- ``opening``: while the seat's side is not down, the points its staged groups count toward the
  opening as the judge counts them (with the pile's top card in the draw phase where the rules count it;
  under the in-hand rules, ``pickup_before_down``, without it) and what is still needed.
- ``pile``: whether the pile may be taken now (a pickup is legal, or in the draw phase a staging that
  leads to one is), the pickups offered, and else why not (the judge's sentence).
- ``why_not``: for draw, taking the pile, melding, discarding and going out, a sentence saying why it is
  not offered now (None where it is).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from handfoot import cards as C
from handfoot.engine.judge import check
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.melding import Plan, plan_groups, specs_of
from handfoot.engine.moves import (
    COMMIT_ID,
    DRAW_ID,
    MAX_PICKUP_NATURALS,
    PICKUP_BASE,
    Action,
    Group,
    Move,
    decode_id,
    merge_groups,
    move_text,
)
from handfoot.engine.outlook import FREEZING_RULES, go_out_needs, going_out_sentence
from handfoot.engine.pile import IN_HAND_RULES, in_hand_points, staged_pickup
from handfoot.engine.state import HandState, Phase

KIND_OF: Final = C.KIND_OF
# The places a card may go (``Place.to``).
TO_MELD: Final = "meld"
TO_STAGED: Final = "staged"
TO_NEW: Final = "new"
TO_PILE: Final = "pile"
TO_DISCARD: Final = "discard"
TO_LAY: Final = "lay"
_NAMES_CARDS: Final = (Action.MELD, Action.STAGE, Action.PICKUP, Action.DISCARD, Action.LAY)


@dataclass(frozen=True)
class Step:
    """One legal step: the engine's move id, the move's text and the cards of the hand it plays (their
    codes; a pickup's are the naturals from the hand, the top card not among them)."""

    id: int
    move: str
    cards: tuple[str, ...]


def step_of(mid: int, move: Move) -> Step:
    """The ``Step`` of legal id ``mid`` played as ``move``."""
    if move.card >= 0 and move.action is not Action.DRAW:
        named: tuple[str, ...] = (C.CODE_OF[move.card],)
    else:
        named = tuple(C.CODE_OF[c] for g in move.groups for c in g.cards)
    return Step(mid, move_text(move), named)


@dataclass(frozen=True)
class Place:
    """Where a card may go: ``to`` (``meld``, ``staged``, ``new``, ``pile``, ``discard``, ``lay``), the
    rank letter of the group it joins (``W`` for wilds, ``3`` for black 3s; empty for a discard or a
    red 3 laid) and the legal steps that put the card there."""

    to: str
    rank: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class CardOffer:
    """One card code the seat holds outside the staged groups: how many copies, and where it may go."""

    card: str
    held: int
    places: tuple[Place, ...]


@dataclass(frozen=True)
class StagedGroup:
    """A staged group (one per rank), as ``commit`` or a pickup would lay it; ``with_pile``: it goes
    with the pile's top card (the draw phase, a group of the top card's rank)."""

    rank: str
    cards: tuple[str, ...]
    with_pile: bool


@dataclass(frozen=True)
class OpeningCount:
    """The opening of a side not down yet: its ``minimum``, the ``points`` the staged groups count
    toward it (with the pile's top card where ``with_top``), and the points still ``needed``."""

    minimum: int
    points: int
    needed: int
    with_top: bool


@dataclass(frozen=True)
class PileOffer:
    """Whether the pile may be taken now (``may``), the pickups offered now (``takes``: each with the
    cards it names), why not in words (``refusal``; None when it may) and whether that is a freeze."""

    may: bool
    takes: tuple[Step, ...]
    refusal: str | None
    frozen: bool


@dataclass(frozen=True)
class WhyNot:
    """Why each action is not offered now, one sentence each (None: it is offered)."""

    draw: str | None
    pile: str | None
    meld: str | None
    discard: str | None
    go_out: str | None


@dataclass(frozen=True)
class SeatOffers:
    """Everything the seat to move needs to build a move (module docstring)."""

    seat: int
    cards: tuple[CardOffer, ...]
    staged: tuple[StagedGroup, ...]
    opening: OpeningCount | None
    pile: PileOffer
    commit: Step | None
    cancel: Step | None
    why_not: WhyNot


def _with_card(move: Move, card: int) -> Move:
    """``move`` (one group, or a discard or lay) naming ``card`` in place of the first card of its kind
    (the move itself when it names ``card`` already)."""
    if move.action is Action.DISCARD or move.action is Action.LAY:
        return move._replace(card=card)
    group = move.groups[0]
    if card in group.cards:
        return move
    kind = KIND_OF[card]
    cards = list(group.cards)
    for i, other in enumerate(cards):
        if KIND_OF[other] == kind:
            cards[i] = card
            break
    return Move(move.action, (Group(group.rank, tuple(cards)), *move.groups[1:]))


def _place_of(s: HandState, seat: int, mid: int) -> tuple[str, str]:
    """The place (``to``, rank letter) a legal id that names cards puts them."""
    decoded = decode_id(mid)
    action = decoded.action
    if action is Action.DISCARD:
        return TO_DISCARD, ""
    if action is Action.LAY:
        return TO_LAY, ""
    if action is Action.PICKUP:
        return TO_PILE, C.RANK_LETTER[KIND_OF[s.pile[-1]]]
    rank = decoded.kind
    letter = C.RANK_LETTER[rank]
    single = decoded.naturals + decoded.jokers + decoded.deuces == 1
    if action is Action.STAGE:
        if not single:
            return TO_NEW, letter
        if any(g.rank == rank for g in s.staged):
            return TO_STAGED, letter
        if s.phase is Phase.DRAW and s.pile and KIND_OF[s.pile[-1]] == rank:
            return TO_PILE, letter
        return TO_STAGED, letter
    owner = s.seating.owner_of[seat]
    if single or s.meld_of[owner][rank] >= 0:
        return TO_MELD, letter
    return TO_NEW, letter


def card_offers(s: HandState, ids: list[int]) -> tuple[CardOffer, ...]:
    """For every card code the seat to move holds outside its staged groups, where it may go now: each
    legal id ``ids`` that names cards, as the move naming this card (judged by ``check`` where it names
    another card of the kind than the id's own)."""
    seat = s.to_move
    held = s.unstaged_cards(seat) if s.staged else s.hand_cards[seat]
    places: dict[int, dict[tuple[str, str], list[Step]]] = {}
    for mid in ids:
        move = move_of_id(s, mid)
        if move.action not in _NAMES_CARDS:
            continue
        if move.action is Action.DISCARD or move.action is Action.LAY:
            kinds = {KIND_OF[move.card]}
        else:
            kinds = {KIND_OF[c] for g in move.groups for c in g.cards}
        if not kinds:
            continue
        where = _place_of(s, seat, mid)
        for kind in kinds:
            for card in C.IDS_OF_KIND[kind]:
                if not held[card]:
                    continue
                variant = _with_card(move, card)
                if variant is not move and check(s, variant) is not None:
                    continue
                places.setdefault(card, {}).setdefault(where, []).append(step_of(mid, variant))
    out = []
    for card in C.DISPLAY_ORDER:
        if held[card]:
            found = places.get(card, {})
            out.append(
                CardOffer(
                    C.CODE_OF[card],
                    held[card],
                    tuple(Place(to, rank, tuple(steps)) for (to, rank), steps in found.items()),
                )
            )
    return tuple(out)


def opening_count(s: HandState, seat: int, pile_open: bool = True) -> OpeningCount | None:
    """The opening count of ``seat``'s side (``OpeningCount``), or None when it is down or the seat is
    not in the draw or play phase; ``pile_open``: the pile may be taken now (``pile_offer``), else the
    draw phase's count leaves the top card out. Counted as the judge counts a commit
    (``melding.meld_refusal``: the staged groups' card points, with the bonuses of the books they
    complete under ``opening_counts_books``) or a pickup (``pile._pickup_plan_refusal``: the top
    card's group counted with the top card, or under the in-hand rules ``pile.in_hand_points``,
    without it), the pickup being the one ``pile.staged_pickup`` makes of the staged groups."""
    owner = s.seating.owner_of[seat]
    if s.down[owner] or s.phase not in (Phase.DRAW, Phase.PLAY):
        return None
    rules = s.rules
    minimum = s.minimums[owner]
    staged = merge_groups(s.staged)
    with_top = False
    if s.phase is Phase.DRAW and s.pile and (pile_open or s.staged):
        top_card = s.pile[-1]
        top = KIND_OF[top_card]
        # the pickup the engine would judge now with the staged groups (``pile.staged_pickup``)
        pickup = staged_pickup(s, Move(Action.PICKUP, (Group(top, ()),)))
        first, rest = pickup.groups[0], pickup.groups[1:]
        if rules.pickup_before_down in IN_HAND_RULES:
            points = in_hand_points(s, top, first, rest)
            groups = [first, *rest]
        else:
            with_top = True
            groups = [Group(top, (top_card, *first.cards)), *rest]
            points = sum(sp.points for sp in specs_of(rules, groups))
    else:
        groups = list(staged)
        points = sum(sp.points for sp in specs_of(rules, groups))
    if rules.opening_counts_books and groups:
        left = s.hand_size(seat) - sum(len(g.cards) for g in staged)
        plan = plan_groups(s, seat, specs_of(rules, groups), left)
        if isinstance(plan, Plan):
            points += plan.bonus
    return OpeningCount(minimum, points, max(0, minimum - points), with_top)


def pile_offer(s: HandState, ids: list[int]) -> PileOffer:
    """Whether the seat to move may take the pile now, from the legal ``ids``: a pickup is offered, or in
    the draw phase a staging is (every staging offered there leads to a pickup). Else the judge's
    sentence for the pickup with as many naturals of the top card's rank as the seat holds."""
    takes = tuple(step_of(mid, move_of_id(s, mid)) for mid in ids if decode_id(mid).action is Action.PICKUP)
    staging = s.phase is Phase.DRAW and any(decode_id(mid).action is Action.STAGE for mid in ids)
    if takes or staging:
        return PileOffer(True, takes, None, False)
    if s.pile and s.phase is Phase.DRAW:
        held = s.unstaged_cards(s.to_move)
        have = sum(held[c] for c in C.IDS_OF_KIND[KIND_OF[s.pile[-1]]])
        why = check(s, move_of_id(s, PICKUP_BASE + min(have, MAX_PICKUP_NATURALS)))
    else:
        why = check(s, Move(Action.PICKUP, (Group(-1, ()),)))
    if why is None:  # the judge would take it, though it is not listed: say what the list says
        return PileOffer(False, (), "The pile cannot be taken now.", False)
    return PileOffer(False, (), why.message, why.rule in FREEZING_RULES)


def _meld_refusal(s: HandState, ids: list[int]) -> str | None:
    """Why no meld (a group laid, staged or committed in the play phase) is offered, or None."""
    if s.phase is Phase.PLAY:
        for mid in ids:
            action = decode_id(mid).action
            if action is Action.MELD or action is Action.STAGE or mid == COMMIT_ID:
                return None
    if s.phase is not Phase.PLAY or s.staged:
        why = check(s, Move(Action.COMMIT) if s.staged else Move(Action.MELD, ()))
        return why.message if why is not None else None
    seat = s.to_move
    owner = s.seating.owner_of[seat]
    if not s.down[owner]:
        who = "you need" if s.seating.num_owners == s.players else "your side needs"
        return f"Your cards cannot make the {s.minimums[owner]} points {who} to open."
    return "None of your cards can be melded now."


def _discard_refusal(s: HandState, ids: list[int]) -> str | None:
    """Why no discard is offered, or None: the judge's sentence for discarding a card the seat holds."""
    if any(decode_id(mid).action is Action.DISCARD for mid in ids):
        return None
    seat = s.to_move
    held = s.hand_cards[seat]
    for card in C.DISPLAY_ORDER:
        if held[card]:
            why = check(s, Move(Action.DISCARD, card=card))
            if why is not None:
                return why.message
    return "You have no card to discard." if s.hand_size(seat) == 0 else None


def seat_offers(s: HandState) -> SeatOffers | None:
    """The offers of the seat to move in ``s`` (module docstring), or None once the hand is over or while
    the seat to move only answers or chooses its Foot."""
    if s.phase not in (Phase.DRAW, Phase.PLAY):
        return None
    seat = s.to_move
    ids = legal_ids(s)
    pile = pile_offer(s, ids)
    wanted, others = go_out_needs(s, seat)
    draw = None
    if DRAW_ID not in ids:
        why = check(s, Move(Action.DRAW))
        draw = why.message if why is not None else "Drawing is not offered now."
    why_not = WhyNot(
        draw=draw,
        pile=pile.refusal,
        meld=_meld_refusal(s, ids),
        discard=_discard_refusal(s, ids),
        go_out=None if not wanted and not others else going_out_sentence(wanted, others),
    )
    top = KIND_OF[s.pile[-1]] if s.phase is Phase.DRAW and s.pile else -1
    commit = next((Step(mid, "commit", ()) for mid in ids if mid == COMMIT_ID), None)
    cancel = next((Step(mid, "cancel", ()) for mid in ids if decode_id(mid).action is Action.CANCEL), None)
    return SeatOffers(
        seat=seat,
        cards=card_offers(s, ids),
        staged=tuple(
            StagedGroup(C.RANK_LETTER[g.rank], tuple(C.CODE_OF[c] for c in g.cards), g.rank == top)
            for g in merge_groups(s.staged)
        ),
        opening=opening_count(s, seat, pile.may),
        pile=pile,
        commit=commit,
        cancel=cancel,
        why_not=why_not,
    )
