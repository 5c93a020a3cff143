"""Applying moves: ``apply_move`` verifies then plays; ``apply_checked`` plays a move already judged legal."""

from __future__ import annotations

import random
from typing import Final

from handfoot import cards as C
from handfoot.engine.errors import IllegalMove
from handfoot.engine.events import BOOK_KINDS, MELD_ADDED, MELD_BEGAN, Event, EventType, event
from handfoot.engine.judge import check
from handfoot.engine.legal import legal_ids
from handfoot.engine.melding import NEW, NOT_A_BOOK, book_status, may_go_out, resolve
from handfoot.engine.moves import (
    Action,
    Group,
    Move,
    move_text,
)
from handfoot.engine.pile import pile_taken, staged_pickup
from handfoot.engine.shuffle import shuffle
from handfoot.engine.staging import picks_up_foot, staged_meld
from handfoot.engine.state import EndReason, HandState, Meld, Phase
from handfoot.rules.options import (
    AfterOut,
    EmptyWithoutOut,
    OutByMeld,
    PickupRestFrom,
    PileVisible,
    RedThrees,
)

KIND_OF: Final = C.KIND_OF
RED_THREE: Final = C.RED_THREE
DEUCE: Final = C.DEUCE
# Enum members read on every move, bound once (on Python 3.11 reading ``Action.DRAW`` costs several times
# reading a module constant).
STAGE: Final = Action.STAGE
COMMIT: Final = Action.COMMIT
CANCEL: Final = Action.CANCEL
MELD_ACTION: Final = Action.MELD
DRAW: Final = Action.DRAW
PICKUP: Final = Action.PICKUP
DISCARD: Final = Action.DISCARD
ASK: Final = Action.ASK
YES: Final = Action.YES
NO: Final = Action.NO
KEEP: Final = Action.KEEP
SWAP: Final = Action.SWAP
LAY: Final = Action.LAY
END: Final = Action.END
DRAW_PHASE: Final = Phase.DRAW
PLAY_PHASE: Final = Phase.PLAY
ANSWER_PHASE: Final = Phase.ANSWER
TURN: Final = EventType.TURN
DREW: Final = EventType.DREW
DISCARDED: Final = EventType.DISCARDED
MELDED: Final = EventType.MELDED
LAY_DOWN: Final = RedThrees.LAY_DOWN


def _remove_taken(s: HandState, taken: list[int]) -> None:
    """Remove from the stock or the pile (its top already gone) the cards ``pile_taken`` named."""
    if not taken:
        return
    if s.rules.pickup_rest_from is PickupRestFrom.STOCK:
        del s.stock[-len(taken) :]
    else:
        del s.pile[-len(taken) :]


def take_card(s: HandState, seat: int, card: int) -> None:
    """Take ``card`` out of ``seat``'s hand (``take_cards`` of one card)."""
    take_cards(s, seat, (card,))


def take_cards(s: HandState, seat: int, cards: list[int] | tuple[int, ...]) -> None:
    """Take ``cards`` out of ``seat``'s hand: for each, one fewer of its kind known to be there, if any
    was."""
    hand, held, known = s.hands[seat], s.hand_cards[seat], s.known[seat]
    s.hand_sizes[seat] -= len(cards)
    for card in cards:
        kind = KIND_OF[card]
        hand[kind] -= 1
        held[card] -= 1
        if known[kind]:
            known = s.known[seat] = _counted(known, kind, -1)


def _counted(counts: tuple[int, ...], index: int, change: int) -> tuple[int, ...]:
    """``counts`` (a row the state keeps as a tuple: cards known by kind, books by kind) with ``change``
    added at ``index``: a new tuple."""
    row = list(counts)
    row[index] += change
    return tuple(row)


def give_card(s: HandState, seat: int, card: int) -> None:
    """Put ``card`` into ``seat``'s hand."""
    s.hands[seat][KIND_OF[card]] += 1
    s.hand_cards[seat][card] += 1
    s.hand_sizes[seat] += 1


def _lay_red_three(s: HandState, seat: int, card: int, events: list[Event]) -> None:
    side = s.seating.side_of[seat]
    s.red_threes[side] = (*s.red_threes[side], card)
    events.append(event(EventType.RED_THREE, seat, (card,)))


def reshuffle_pile(s: HandState, events: list[Event]) -> None:
    """Refill the empty stock with the pile but its top card, shuffled by the hand's own seeded random
    source (``empty_stock = "reshuffle_pile"``)."""
    rest = s.pile[:-1]
    del s.pile[:-1]
    rng = random.Random(f"handfoot:reshuffle:{s.reshuffle_seed}:{s.reshuffles}")
    shuffle(rng, rest)
    s.stock.extend(rest)
    s.reshuffles += 1
    events.append(event(EventType.RESHUFFLED, -1, amount=len(rest)))


def _draw_cards(s: HandState, seat: int, count: int, events: list[Event]) -> int:
    """Draw ``count`` cards from the stock (red 3s laid down and replaced where the rules say; an empty
    stock refilled from the pile where ``empty_stock`` says so)."""
    lay = s.rules.red_threes is LAY_DOWN
    drawn = 0
    stock = s.stock
    while drawn < count and (stock or s.can_reshuffle(count - drawn)):
        if not stock:
            reshuffle_pile(s, events)
        card = stock.pop()
        if lay and KIND_OF[card] == RED_THREE:
            _lay_red_three(s, seat, card, events)
            continue
        give_card(s, seat, card)
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
                take_card(s, seat, card)
                _lay_red_three(s, seat, card, events)
        _draw_cards(s, seat, count, events)


def _pick_up_foot(s: HandState, seat: int, events: list[Event]) -> None:
    foot = s.feet[seat]
    s.feet[seat] = []
    s.in_foot[seat] = True
    for card in foot:
        give_card(s, seat, card)
    events.append(event(EventType.FOOT, seat, amount=len(foot)))
    lay_red_threes_from_hand(s, seat, events)
    _end_if_stranded(s, events)


def _lay_group(
    s: HandState, seat: int, rank: int, cards: list[int] | tuple[int, ...], events: list[Event]
) -> None:
    """Put ``cards`` (already out of the hand) on ``seat``'s meld of ``rank`` or a new one, keep the books,
    and tell it: a ``melded`` event, and a ``book`` event where the meld became a book or changed kind."""
    rules = s.rules
    owner = s.seating.owner_of[seat]
    wilds = 0
    for card in cards:
        if KIND_OF[card] <= DEUCE:  # a joker or a 2
            wilds += 1
    index = s.meld_of[owner][rank]
    exists = index >= 0
    meld = s.melds[index] if exists else None
    where = resolve(rules, exists, len(meld.cards) if meld is not None else 0, wilds > 0)
    began = where == NEW or meld is None
    if began or meld is None:
        meld = Meld(owner, rank, list(cards), wilds)
        s.meld_of[owner][rank] = len(s.melds)
        s.melds.append(meld)
        before = NOT_A_BOOK
    else:
        before = book_status(rules, rank, len(meld.cards), meld.wilds)
        meld.cards.extend(cards)
        meld.wilds += wilds
        if wilds and rules.max_wilds_added_per_turn:
            s.turn_wilds[index] = s.turn_wilds.get(index, 0) + wilds
    after = book_status(rules, rank, len(meld.cards), meld.wilds)
    size = len(meld.cards)
    events.append(event(MELDED, seat, tuple(cards), size, MELD_BEGAN if began else MELD_ADDED, rank))
    if before != after:
        if before >= 0:
            s.books[owner] = _counted(s.books[owner], before, -1)
        if after >= 0:
            s.books[owner] = _counted(s.books[owner], after, 1)
            events.append(event(EventType.BOOK, seat, (), size, BOOK_KINDS[after], rank))


def _end_hand(s: HandState, reason: EndReason, events: list[Event]) -> None:
    s.phase = Phase.OVER
    s.end_reason = reason
    events.append(event(EventType.HAND_OVER, s.out_seat, detail=reason.name.lower()))


def _start_turn(s: HandState, seat: int, events: list[Event]) -> None:
    s.turn_seat = seat
    s.to_move = seat
    s.phase = DRAW_PHASE
    s.permission = 0
    if s.turn_wilds:
        s.turn_wilds = {}
    if s.staged:
        s.staged = []
    s.cancelled = False
    events.append(event(TURN, seat))
    if not s.in_foot[seat] and s.hand_size(seat) == 0 and s.feet[seat]:
        _pick_up_foot(s, seat, events)
        if s.rules.foot_pickup_is_draw:
            s.phase = Phase.PLAY
            _end_if_stranded(s, events)


def _enter_play(s: HandState) -> None:
    """The draw phase is over (a draw, a split draw or a pickup): the play phase begins, with staging open
    again (a staging cancelled in the draw phase closed it for that phase only)."""
    s.phase = PLAY_PHASE
    s.cancelled = False


def _end_if_stranded(s: HandState, events: list[Event]) -> None:
    """After cards came to the seat to move in the play phase (a draw, a Foot picked up): when the stock is
    empty (red 3s were laid down with nothing left to replace them) and the seat can neither meld nor
    discard (a last card that may not be discarded, since discarding it would go out), the hand ends as the
    sheets end it when the stock runs out: no going-out bonus. With cards in the stock nothing is looked
    at, so the legal list is rarely built here."""
    if s.stock or s.can_reshuffle() or s.phase is not PLAY_PHASE:
        return
    if not legal_ids(s):
        _end_hand(s, EndReason.STOCK_EMPTY, events)


def _end_turn(s: HandState, events: list[Event]) -> None:
    if s.last_round_left > 0:
        s.last_round_left -= 1
        if s.last_round_left == 0:
            _end_hand(s, EndReason.WENT_OUT if s.out_seat >= 0 else EndReason.LAST_ROUND, events)
            return
    _start_turn(s, (s.turn_seat + 1) % s.players, events)


def _went_out(s: HandState, seat: int, events: list[Event], bonus: bool, end: bool) -> None:
    """``seat`` emptied hand and Foot with the books made: with ``end`` the hand ends (with the bonus), else
    a last round begins (with the bonus or without it)."""
    if bonus:
        s.out_seat = seat
        events.append(event(EventType.WENT_OUT, seat))
        if end:
            _end_hand(s, EndReason.WENT_OUT, events)
            return
    else:
        events.append(event(EventType.LAST_ROUND, seat))
    s.last_round_left = s.players
    _end_turn(s, events)


def _went_out_by_discard(s: HandState, seat: int, events: list[Event]) -> None:
    """``seat`` went out as a discard does (``after_out``): the hand ends, or a last round begins, with the
    going-out bonus or without it."""
    after = s.rules.after_out
    _went_out(s, seat, events, bonus=after is not AfterOut.LAST_ROUND_NO_BONUS, end=after is AfterOut.END)


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
    if may_go_out(s, seat, s.books[s.seating.owner_of[seat]]):
        by_meld = rules.out_by_meld
        if by_meld is OutByMeld.OUT:
            _went_out_by_discard(s, seat, events)
        else:
            bonus = by_meld is not OutByMeld.LAST_ROUND
            _went_out(s, seat, events, bonus=bonus, end=by_meld is OutByMeld.END)
        return
    if rules.empty_without_out is EmptyWithoutOut.DRAW_AGAIN and s.stock:
        drawn = _draw_cards(s, seat, rules.draw_count, events)
        events.append(event(EventType.DREW, seat, amount=drawn))
        return
    _end_turn(s, events)


def _pick_foot(s: HandState, seat: int, swap: bool, events: list[Event]) -> None:
    """``seat`` keeps its dealt Hand or swaps it with its Foot; after the last seat, play begins."""
    if swap:
        held = [card for card in range(C.NUM_CARD_IDS) for _ in range(s.hand_cards[seat][card])]
        for card in held:
            take_card(s, seat, card)
        for card in s.feet[seat]:
            give_card(s, seat, card)
        s.feet[seat] = held
    events.append(event(EventType.PICKED, seat, detail="swap" if swap else "keep"))
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
    if action is MELD_ACTION:  # the most common move first
        _lay_groups(s, seat, move.groups, events)
        return events
    rules = s.rules
    if action is DRAW:
        if move.card >= 0:  # split_draw: the pile's top card, then one card fewer from the stock
            card = s.pile.pop()
            give_card(s, seat, card)
            s.known[seat] = _counted(s.known[seat], KIND_OF[card], 1)  # everyone saw it taken
            events.append(event(EventType.TOOK_TOP, seat, (card,), amount=1))
            drawn = _draw_cards(s, seat, rules.draw_count - 1, events)
            events.append(event(DREW, seat, amount=drawn))
            _enter_play(s)
            _end_if_stranded(s, events)
            return events
        if not s.stock and not s.can_reshuffle():
            _end_hand(s, EndReason.STOCK_EMPTY, events)
            return events
        drawn = _draw_cards(s, seat, rules.draw_count, events)
        events.append(event(DREW, seat, amount=drawn))
        _enter_play(s)
        _end_if_stranded(s, events)
        return events
    if action is STAGE:
        # the cards stay in the hand, set aside: nothing public happens, unless the Hand runs out
        foot = picks_up_foot(s, seat, move)
        s.staged.append(move.groups[0])
        if foot:
            _pick_up_foot(s, seat, events)
            s.cancelled = False  # with the Foot's cards, a staging may be taken back once more
        return events
    if action is CANCEL:
        s.staged = []
        s.cancelled = True
        return events
    if action is COMMIT:
        groups = staged_meld(s).groups
        s.staged = []
        _lay_groups(s, seat, groups, events)
        return events
    if action is PICKUP and s.staged:
        move = staged_pickup(s, move)
        s.staged = []
    if action is DISCARD:
        take_card(s, seat, move.card)
        s.pile.append(move.card)
        events.append(event(DISCARDED, seat, (move.card,)))
        # a discard that goes out ends the hand at once (after_out = end) also in a last round that melding
        # out without the bonus began; in a last round after someone went out, nobody else goes out
        emptied = s.in_foot[seat] and s.hand_size(seat) == 0
        if s.last_round_left >= 0:
            emptied = emptied and s.out_seat < 0 and rules.after_out is AfterOut.END
        if emptied and may_go_out(s, seat, s.books[s.seating.owner_of[seat]]):
            _went_out_by_discard(s, seat, events)
            return events
        _end_turn(s, events)
        return events
    if action is KEEP or action is SWAP:
        _pick_foot(s, seat, action is SWAP, events)
        return events
    if action is LAY:
        take_card(s, seat, move.card)
        _lay_red_three(s, seat, move.card, events)
        _after_meld(s, seat, events)
        return events
    if action is END:  # told no holding one card (ask_with_last_card): the turn ends, the card kept
        _end_turn(s, events)
        return events
    if action is ASK:
        s.phase = ANSWER_PHASE
        s.to_move = s.seating.partners[seat][0]
        events.append(event(EventType.ASKED, seat))
        return events
    if action is YES or action is NO:
        s.permission = 1 if action is YES else -1
        events.append(event(EventType.ANSWERED, seat, detail=action.name.lower()))
        s.phase = PLAY_PHASE
        s.to_move = s.turn_seat
        return events
    # what is left is a pickup: the pile's top card with the first group, then the other groups
    taken = pile_taken(s)
    top_card = s.pile.pop()
    _remove_taken(s, taken)
    first = move.groups[0]
    take_cards(s, seat, first.cards)
    laid: list[Event] = []  # told after the pile is: the top card's meld, then any book it made
    _lay_group(s, seat, KIND_OF[top_card], [top_card, *first.cards], laid)
    visible = rules.pile_visible is PileVisible.ALL and rules.pickup_rest_from is PickupRestFrom.PILE
    for card in taken:
        if KIND_OF[card] == RED_THREE and rules.red_threes is LAY_DOWN:
            _lay_red_three(s, seat, card, events)
        else:
            give_card(s, seat, card)
            if visible:
                s.known[seat] = _counted(s.known[seat], KIND_OF[card], 1)
    events.append(event(EventType.TOOK_PILE, seat, (top_card,), amount=len(taken) + 1))
    _enter_play(s)
    events += laid
    _lay_groups(s, seat, move.groups[1:], events)
    return events


def _lay_groups(s: HandState, seat: int, groups: tuple[Group, ...], events: list[Event]) -> None:
    """Lay ``groups`` from ``seat``'s hand in order (a meld, the staged groups committed, or a pickup's
    groups after the pile's): the side is down, then the hand may be empty (``_after_meld``)."""
    for group in groups:
        cards = group.cards
        take_cards(s, seat, cards)
        _lay_group(s, seat, group.rank, cards, events)
    s.down[s.seating.owner_of[seat]] = True
    _after_meld(s, seat, events)
