"""The judge: ``check`` says why a move is illegal for whoever is to move, or None. It changes nothing.

Every check returns a ``Refusal`` (the rule option broken and a sentence for the player) or ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from handfoot import cards as C
from handfoot.engine.errors import Refusal
from handfoot.engine.meld_legal import meld_ids
from handfoot.engine.melding import (
    Plan,
    exit_refusal,
    go_out_refusal,
    group_words,
    meld_refusal,
    playable_kinds,
    specs_of,
)
from handfoot.engine.moves import Action, Group, Move
from handfoot.engine.openings import pile_pickup, play_example
from handfoot.engine.pile import pickup_refusal, split_draw_refusal, staged_pickup
from handfoot.engine.staging import stage_refusal, staged_meld
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import (
    EmptyWithoutOut,
    Permission,
    RedThrees,
    RuleSet,
)
from handfoot.wording import sentence_list

KIND_OF: Final = C.KIND_OF
NO_ASKING: Final = Permission.NONE  # bound once: cheaper than the enum's attribute on Python 3.11


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
    if s.staged:
        return staged_refusal(s, move)
    if action is Action.STAGE:
        return stage_refusal(s, s.to_move, move)
    if action is Action.COMMIT or action is Action.CANCEL:
        return Refusal("turn", "Nothing is staged: stage a group first.")
    if phase is Phase.DRAW:
        if action is Action.DRAW:
            return draw_refusal(s) if move.card < 0 else split_draw_refusal(s, move.card)
        if action is Action.PICKUP:
            return pickup_refusal(s, move)
        return Refusal("draw_count", "Draw from the stock or take the discard pile first.")
    # Phase.PLAY
    seat = s.to_move
    if action is Action.DRAW or action is Action.PICKUP:
        if s.rules.empty_without_out is EmptyWithoutOut.DRAW_AGAIN and s.in_foot[seat]:
            # the draw after running out of cards without the books is made for the player, never written
            return Refusal(
                "empty_without_out",
                "Your cards for this turn are drawn: a player who runs out of cards without the books to "
                "go out draws again at once, and that draw is made for you. Go on melding, or discard.",
            )
        return Refusal("draw_count", "You have already drawn this turn.")
    if action is Action.DISCARD:
        return discard_refusal(s, seat, move.card)
    if action is Action.ASK:
        return ask_refusal(s, seat)
    if action is Action.END:
        return end_refusal(s, seat)
    if action is Action.LAY:
        return lay_refusal(s, seat, move.card)
    return meld_refusal(s, seat, move.groups)


def staged_refusal(s: HandState, move: Move) -> Refusal | None:
    """Why ``move`` may not be played while groups are staged (only staging more, committing, a pickup
    in the draw phase, and cancelling are), or None."""
    action = move.action
    seat = s.to_move
    if action is Action.STAGE:
        return stage_refusal(s, seat, move)
    if action is Action.CANCEL:
        if s.cancelled:
            return Refusal(
                "turn",
                "You have taken back a staging once in this part of the turn: lay this one down (every "
                "group offered can still be laid).",
            )
        return None
    if s.phase is Phase.DRAW:
        if action is Action.PICKUP and len(move.groups) <= 1:
            return pickup_refusal(s, staged_pickup(s, move))
        return Refusal("turn", "Groups are staged: stage more, take the pile with them (pickup), or cancel.")
    if action is Action.COMMIT:
        return meld_refusal(s, seat, staged_meld(s).groups)
    return Refusal("turn", "Groups are staged: stage more, commit them, or cancel.")


def lay_refusal(s: HandState, seat: int, card: int) -> Refusal | None:
    """Why ``seat`` may not lay ``card`` down as a red 3 now (``red_threes = "lay_by_choice"``), or None.
    Laying one's last card counts as melding it (the Foot, going out: ``exit_refusal``)."""
    if s.rules.red_threes is not RedThrees.LAY_BY_CHOICE:
        return Refusal("red_threes", "Red 3s are not laid down by choice at this table.")
    if KIND_OF[card] != C.RED_THREE:
        return Refusal("red_threes", "Only a red 3 is laid down on its own.")
    if s.hand_cards[seat][card] <= 0:
        return Refusal("hand", f"You do not hold {C.CODE_OF[card]}.")
    books = s.books[s.seating.owner_of[seat]]
    return exit_refusal(s, seat, Plan((books[0], books[1], books[2]), s.hand_size(seat) - 1))


def draw_refusal(s: HandState) -> Refusal | None:
    """Why the player to move may not draw: with the stock empty, a player who can take the pile
    (with any legal pickup, an opening of several melds included) must; drawing from an empty stock
    ends the hand, which happens only when the player to move cannot take the pile."""
    if s.stock or s.can_reshuffle():
        return None
    pickup = pile_pickup(s)
    if pickup is None:
        return None
    first = pickup.groups[0].cards if pickup.groups else ()
    with_cards = f" with {groups_words(s.rules, [Group(KIND_OF[first[0]], first)])}" if first else ""
    return Refusal(
        "pickup_allowed",
        f"The stock is empty and you can take the pile{with_cards}: take it. The hand ends only when the "
        "player to move cannot.",
    )


def groups_words(rules: RuleSet, groups: Sequence[Group]) -> str:
    """Groups of cards in words for a sentence, by rank: "three aces, and two kings and a joker"."""
    return sentence_list([group_words(spec) for spec in specs_of(rules, list(groups))])


def _discardable(rules: RuleSet, kind: int, playable: set[int]) -> bool:
    if not rules.discard_wilds and C.is_wild(kind):
        return False
    if kind == C.RED_THREE and rules.red_threes is RedThrees.LAY_BY_CHOICE:
        return False
    return rules.discard_playable or kind not in playable


def must_play_refusal(s: HandState, seat: int, legal_melds: list[int]) -> Refusal | None:
    """With ``must_play_all``: why ``seat`` may not discard yet (a card can still go down: onto an open
    meld within the wild limits, as a new meld, or in an opening), or None."""
    if not s.rules.must_play_all:
        return None
    play = play_example(s, seat, legal_melds)
    if play is None:
        return None
    return Refusal(
        "must_play_all",
        "Your turn lasts until no card can go down: put down every card you can before discarding "
        f"({groups_words(s.rules, play.groups)} can still go down).",
    )


def discard_refusal(
    s: HandState, seat: int, card: int, legal_melds: list[int] | None = None, play_checked: bool = False
) -> Refusal | None:
    """Why discarding ``card`` is not allowed (``legal_melds``: the legal meld ids, if already known;
    ``play_checked``: ``must_play_refusal`` is already known to be None)."""
    rules = s.rules
    if s.hand_cards[seat][card] <= 0:
        return Refusal("hand", f"You do not hold {C.CODE_OF[card]}.")
    kind = KIND_OF[card]
    if (
        not rules.discard_wilds
        or not rules.discard_playable
        or rules.must_play_all
        or rules.red_threes is RedThrees.LAY_BY_CHOICE
    ):
        if legal_melds is None:
            legal_melds = meld_ids(s, seat)
        why = None if play_checked else must_play_refusal(s, seat, legal_melds)
        if why is not None:
            return why
        playable = playable_kinds(legal_melds)
        if not _discardable(rules, kind, playable):
            hand = s.hands[seat]
            others = any(hand[k] and _discardable(rules, k, playable) for k in range(C.NUM_KINDS))
            if others:
                if kind == C.RED_THREE:
                    return Refusal(
                        "red_threes", f"Red 3s are laid down, never discarded: lay {C.CODE_OF[card]}."
                    )
                if C.is_wild(kind) and not rules.discard_wilds:
                    return Refusal("discard_wilds", "Wild cards may not be discarded.")
                return Refusal(
                    "discard_playable",
                    f"You may not discard a card you can play: meld your {C.KIND_WORDS[kind]}.",
                )
    if s.in_foot[seat] and s.hand_size(seat) == 1:
        why = go_out_refusal(s, seat, s.books[s.seating.owner_of[seat]])
        # no wild to go out with; the limit lifts when the wild has nowhere else to go
        lone_wild = why is None and not rules.wild_final_discard and C.is_wild(kind)
        if lone_wild and (legal_melds if legal_melds is not None else meld_ids(s, seat)):
            return Refusal(
                "wild_final_discard",
                "The discard that goes out may not be a wild: meld it instead.",
            )
        if why is not None and rules.empty_without_out is EmptyWithoutOut.FORBIDDEN:
            if rules.ask_with_last_card and s.permission < 0:
                return Refusal(
                    "ask_with_last_card",
                    "Your partner said no: keep your last card and end your turn holding it (end).",
                )
            return Refusal(why.rule, f"Keep your last card: you cannot go out yet. {why.message}")
    return None


# ``ask_refusal``'s answers, made once (a Refusal is an immutable value): it is asked in every play phase.
_NOBODY_ASKS: Final = Refusal("permission", "Nobody asks permission to go out at this table.")
_NO_PARTNER: Final = Refusal("permission", "You have no partner to ask.")
_ASKED: Final = Refusal("permission", "You have already asked this turn.")
_NOT_IN_FOOT: Final = Refusal("permission", "Ask to go out once you are in your Foot.")
_LAST_CARD: Final = Refusal("permission", "Ask before melding down to your last card.")


def ask_refusal(s: HandState, seat: int) -> Refusal | None:
    rules = s.rules
    if rules.permission is NO_ASKING:
        return _NOBODY_ASKS
    if not s.seating.partners[seat]:
        return _NO_PARTNER
    if s.permission != 0:
        return _ASKED
    if not s.in_foot[seat]:
        return _NOT_IN_FOOT
    held = s.hand_size(seat)
    if held < 2 and not (held == 1 and rules.ask_with_last_card):
        # told "no", a player holding one card would have nothing to discard and could not go out
        # (ask_with_last_card: the player told no ends the turn holding it, ``end``)
        return _LAST_CARD
    return None


_END_NOT_HERE: Final = Refusal(
    "ask_with_last_card", "A turn ends with a discard: 'end' is only for a last card your partner said no to."
)
_END_NO_NO: Final = Refusal(
    "ask_with_last_card", "End your turn holding your last card only after your partner says no."
)


def end_refusal(s: HandState, seat: int) -> Refusal | None:
    """Why ``seat`` may not end the turn without a discard (``end``), or None: only under
    ``ask_with_last_card``, in the Foot holding one card, the partner having said no this turn."""
    if not s.rules.ask_with_last_card or not s.in_foot[seat] or s.hand_size(seat) != 1:
        return _END_NOT_HERE
    if s.permission >= 0:
        return _END_NO_NO
    return None
