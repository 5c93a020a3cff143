"""The judge: ``check`` says why a move is illegal for whoever is to move, or None. It changes nothing.

Every check returns a ``Refusal`` (the rule option broken and a sentence for the player) or ``None``.
"""

from __future__ import annotations

from handfoot import cards as C
from handfoot.engine.errors import Refusal
from handfoot.engine.melding import (
    go_out_refusal,
    hold_refusal,
    meld_ids,
    opening_refusal,
    plan_groups,
    playable_kinds,
    specs_of,
)
from handfoot.engine.moves import (
    Action,
    Move,
)
from handfoot.engine.pile import can_take_pile, pickup_refusal
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import (
    EmptyWithoutOut,
    Permission,
    RuleSet,
)

KIND_OF = C.KIND_OF


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
            return pickup_refusal(s, move)
        return Refusal("draw_count", "Draw from the stock or take the discard pile first.")
    # Phase.PLAY
    if action is Action.DRAW or action is Action.PICKUP:
        return Refusal("draw_count", "You have already drawn this turn.")
    seat = s.to_move
    if action is Action.DISCARD:
        return discard_refusal(s, seat, move.card)
    if action is Action.ASK:
        return ask_refusal(s, seat)
    groups = move.groups
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
    return result if isinstance(result, Refusal) else None


def _discardable(rules: RuleSet, kind: int, playable: set[int]) -> bool:
    if not rules.discard_wilds and C.is_wild(kind):
        return False
    return rules.discard_playable or kind not in playable


def discard_refusal(
    s: HandState, seat: int, card: int, legal_melds: list[int] | None = None
) -> Refusal | None:
    """Why discarding ``card`` is not allowed (``legal_melds``: the legal meld ids, if already known)."""
    rules = s.rules
    if s.hand_cards[seat][card] <= 0:
        return Refusal("hand", f"You do not hold {C.CODE_OF[card]}.")
    kind = KIND_OF[card]
    if not rules.discard_wilds or not rules.discard_playable or rules.must_play_all:
        if legal_melds is None:
            legal_melds = meld_ids(s, seat)
        if rules.must_play_all and legal_melds:
            return Refusal("must_play_all", "Meld everything you can before discarding.")
        playable = playable_kinds(legal_melds)
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


def ask_refusal(s: HandState, seat: int) -> Refusal | None:
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
