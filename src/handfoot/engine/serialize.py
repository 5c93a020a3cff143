"""A hand's full state as JSON-ready data, and back (for snapshots and tests; it holds hidden cards)."""

from __future__ import annotations

from typing import Any

from handfoot import cards as C
from handfoot.engine.state import EndReason, HandState, Meld, Phase
from handfoot.rules.load import rules_from_mapping, rules_to_mapping


def _cards_out(counts: list[int]) -> list[str]:
    return [C.CODE_OF[card] for card in range(C.NUM_CARD_IDS) for _ in range(counts[card])]


def state_to_json(s: HandState) -> dict[str, Any]:
    """Every field of a HandState as plain data (card codes for cards). Secret: never send it to a player."""
    return {
        "rules": rules_to_mapping(s.rules),
        "players": s.players,
        "hand_index": s.hand_index,
        "dealer": s.dealer,
        "minimums": list(s.minimums),
        "hands": [_cards_out(h) for h in s.hand_cards],
        "feet": [C.codes(f) for f in s.feet],
        "in_foot": list(s.in_foot),
        "known": [list(k) for k in s.known],
        "stock": C.codes(s.stock),
        "pile": C.codes(s.pile),
        "melds": [
            {"owner": m.owner, "rank": m.rank, "cards": C.codes(m.cards), "wilds": m.wilds} for m in s.melds
        ],
        "meld_of": [list(m) for m in s.meld_of],
        "books": [list(b) for b in s.books],
        "down": list(s.down),
        "red_threes": [C.codes(r) for r in s.red_threes],
        "turn_seat": s.turn_seat,
        "to_move": s.to_move,
        "phase": s.phase.name.lower(),
        "permission": s.permission,
        "last_round_left": s.last_round_left,
        "out_seat": s.out_seat,
        "end_reason": s.end_reason.name.lower(),
        "move_count": s.move_count,
        "reshuffle_seed": s.reshuffle_seed,
        "reshuffles": s.reshuffles,
        "turn_wilds": [[index, count] for index, count in sorted(s.turn_wilds.items())],
    }


def state_from_json(data: dict[str, Any]) -> HandState:
    """The HandState ``state_to_json`` wrote (trusted input: raises KeyError/ValueError if malformed)."""
    rules_data = dict(data["rules"])
    rules = rules_from_mapping({"extends": "kitchen-table", **rules_data})
    s = HandState(
        rules, int(data["players"]), int(data["hand_index"]), int(data["dealer"]), list(data["minimums"])
    )
    for seat, codes in enumerate(data["hands"]):
        for card in C.parse_cards(codes):
            s.hands[seat][C.KIND_OF[card]] += 1
            s.hand_cards[seat][card] += 1
    s.feet = [C.parse_cards(f) for f in data["feet"]]
    s.in_foot = [bool(x) for x in data["in_foot"]]
    s.known = [list(k) for k in data["known"]]
    s.stock = C.parse_cards(data["stock"])
    s.pile = C.parse_cards(data["pile"])
    s.melds = [Meld(m["owner"], m["rank"], C.parse_cards(m["cards"]), m["wilds"]) for m in data["melds"]]
    s.meld_of = [list(m) for m in data["meld_of"]]
    s.books = [list(b) for b in data["books"]]
    s.down = [bool(x) for x in data["down"]]
    s.red_threes = [C.parse_cards(r) for r in data["red_threes"]]
    s.turn_seat = int(data["turn_seat"])
    s.to_move = int(data["to_move"])
    s.phase = Phase[str(data["phase"]).upper()]
    s.permission = int(data["permission"])
    s.last_round_left = int(data["last_round_left"])
    s.out_seat = int(data["out_seat"])
    s.end_reason = EndReason[str(data["end_reason"]).upper()]
    s.move_count = int(data["move_count"])
    s.reshuffle_seed = int(data.get("reshuffle_seed", 0))
    s.reshuffles = int(data.get("reshuffles", 0))
    s.turn_wilds = {int(index): int(count) for index, count in data.get("turn_wilds", [])}
    return s
