#!/usr/bin/env python3
"""A Hand and Foot bot speaking the handfoot bot protocol (docs/bot-protocol.md), version 1.

It imports nothing from handfoot: only the standard library. Run it as a seat of a tournament:

    handfoot simulate --seats 'cmd:python examples/bots/first_legal.py',random --games 10

or at a live table: handfoot bot connect SEAT-LINK --cmd 'python examples/bots/first_legal.py'

Its play is simple, and always legal because it only ever answers with a move it was offered:
answer "May I go out?" with yes, take the pile when it may, otherwise draw; lay down any meld it is
offered (the longest first: an opening of several melds is offered by its text); then discard the card
it holds most of that is not a wild card. Decisions are written to standard output, one JSON line each;
anything for people goes to standard error.
"""

import json
import sys

WILD_KINDS = ("JK", "2")


def log(*parts):
    """A line for people, on standard error (standard output is the protocol's)."""
    print("first_legal:", *parts, file=sys.stderr, flush=True)


def send(message):
    """One protocol line on standard output."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def kind_of(card):
    """The kind of a card code: JK, 2, A, K, ... (the rank; 3s keep their colour apart)."""
    if card == "JK":
        return "JK"
    rank, suit = card[0], card[1]
    if rank == "3":
        return "3R" if suit in "HD" else "3B"
    return rank


def choose(decision):
    """The move to answer: an offered id, or an offered text for a move without an id."""
    legal = decision["legal"]
    hand = decision["view"]["hand"]
    texts = [offer["text"] for offer in legal]

    def answer(offer):
        return offer["id"] if offer["id"] is not None else offer["text"]

    for wanted in ("yes", "keep"):
        for offer in legal:
            if offer["text"] == wanted:
                return answer(offer)
    pickups = [o for o in legal if o["text"].startswith("pickup")]
    if pickups:
        return answer(max(pickups, key=lambda o: len(o["text"])))
    if "draw" in texts:
        return answer(legal[texts.index("draw")])
    melds = [o for o in legal if o["text"].startswith(("meld", "lay"))]
    if melds:
        return answer(max(melds, key=lambda o: len(o["text"])))
    discards = [o for o in legal if o["text"].startswith("discard")]
    if discards:
        counts = {}
        for card in hand:
            counts[kind_of(card)] = counts.get(kind_of(card), 0) + 1

        def score(offer):
            card = offer["text"].split()[1]
            kind = kind_of(card)
            return (kind in WILD_KINDS, -counts.get(kind, 0) if kind == "3B" else counts.get(kind, 0))

        return answer(min(discards, key=score))
    return answer(legal[0])


def main():
    me = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            me = message["seat"]
            if message.get("protocol") != 1:
                log("this bot speaks protocol 1, not", message.get("protocol"))
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "name": "first-legal-py",
                    "author": "handfoot examples",
                    "version": "1.0",
                }
            )
        elif kind == "decision":
            send({"type": "move", "decision": message["decision"], "move": choose(message)})
        elif kind == "hand_end":
            log(f"seat {me}: hand {message['hand_index']} scores {message['scores']}")
        elif kind == "game_end":
            log(f"seat {me}: game over, totals {message['totals']}, winner side {message['winner']}")
        # any other type is new in a later version of the protocol: ignored


if __name__ == "__main__":
    main()
