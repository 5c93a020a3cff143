"""Shuffling cards from a seeded random source: the deal of every hand, and a pile reshuffled into the stock.

``shuffle`` makes the very permutation ``random.Random.shuffle`` makes from the same generator state, so a
seed deals what it always dealt (records replay unchanged), but it is written out here: the engine's deal
no longer rests on the standard library's Python-level loop (about three quarters of dealing a hand of
five decks), and the compiled build runs it as C.
"""

from __future__ import annotations

import random


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` in place, drawing from ``rng`` exactly as ``rng.shuffle(cards)`` does: from the
    last position down to the second, swap it with a position drawn uniformly from those up to it, each
    draw ``getrandbits`` of the bit length of the count, drawn again while it is not below the count."""
    getrandbits = rng.getrandbits
    count = len(cards)
    if count < 2:
        return
    bits = count.bit_length()  # the bit length of ``choices``, kept as ``choices`` goes down
    lowest = 1 << (bits - 1)  # the least number of that bit length
    for last in range(count - 1, 0, -1):
        choices = last + 1
        if choices < lowest:
            bits -= 1
            lowest >>= 1
        other = getrandbits(bits)
        while other >= choices:
            other = getrandbits(bits)
        cards[last], cards[other] = cards[other], cards[last]
