"""No dead ends (docs/engine.md): every step the engine offers lies on a path of offered steps to a
completed action. The positions below are the two shapes the earlier engine offered steps that led only
to ``cancel`` in (found by random play); the random-play tests check the property at every staging
position of every preset and player count (``helpers.dead_ends``)."""

from __future__ import annotations

from handfoot import cards as C
from handfoot.engine import DealSpec, Game
from handfoot.engine.moves import CANCEL_ID, PICKUP_BASE, Action
from handfoot.rules import preset
from helpers.dead_ends import dead_ends


def cards(text: str) -> tuple[int, ...]:
    return tuple(C.parse_card(code) for code in text.split())


OTHER = "4S 4H 6S 6H 9C 9H TS TH JS JH KS"


def stage_texts(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves() if m.action is Action.STAGE]


def test_a_staged_natural_of_the_top_rank_counts_toward_the_pickup() -> None:
    """000 kitchen-table, 'pick up the discard pile ... with two natural cards of the same rank as the top
    card' before the first meld, with an opening (pickup_before_down = with_opening): seat 1 stages one
    of its eights onto the pile's top eight (``stage 8H``); the pickup with the other eight is then
    offered and takes the pile with the staged eight and an opening of aces (A A 2: 50). The earlier
    engine asked for two more eights after ``stage 8H`` and offered only ``cancel``."""
    hand = cards("AS AD QD 8H 8C 7D 5S 5C 3C 2S 2D")
    deal = DealSpec((cards(OTHER), hand), stock_top=cards("5H 6C"), discard=cards("8D"))
    game = Game(preset("kitchen-table"), 2, seed=3, dealer=0, deals=[deal])
    assert "stage 8H" in stage_texts(game)
    assert not dead_ends(game.state)
    game.apply_text("stage 8H")
    assert not dead_ends(game.state)
    game.apply_text("stage AS AD 2S")
    assert PICKUP_BASE + 1 in game.legal_ids(), [str(m) for m in game.legal_moves()]
    game.apply_text("pickup 8C")
    s = game.state
    assert s.down[1] and not s.staged
    assert sorted(C.KIND_NAMES[m.rank] for m in s.melds) == ["8", "A"]
    eights = next(m for m in s.melds if m.rank == C.KIND_OF[C.parse_card("8H")])
    assert eights.naturals == 3


def test_one_wild_is_offered_only_where_its_pair_makes_the_opening() -> None:
    """000 kitchen-table, 'first meld ... at least 50 points', a meld of two naturals and a wild: holding
    one 2 beside pairs of aces, nines, eights and sevens, only the aces with the 2 (15 + 15 + 20 = 50)
    can open; the nines, eights or sevens with the 2 (40 or less, the 2 spent) cannot, and no longer
    are offered (the earlier engine offered all four, three of them leading only to ``cancel``)."""
    hand = cards("AH AC KH QS JD 9S 9D 8C 8C 7S 7C")
    deal = DealSpec(
        (cards(OTHER), hand, cards("3D 4D 5D 6D 7H TC JC QC KC KD QH")),
        stock_top=cards("5H 2C"),
        discard=cards("9C"),
    )
    game = Game(preset("kitchen-table"), 3, seed=3, dealer=0, deals=[deal])
    game.apply_text("draw")
    assert stage_texts(game) == ["stage AH AC 2C"]
    assert not dead_ends(game.state)
    game.apply_text("stage AH AC 2C")
    assert "commit" in [str(m) for m in game.legal_moves()]


def test_a_cancel_leaves_every_choice_and_the_next_staging_leads_on() -> None:
    """000 kitchen-table: after a cancel the same stage steps are offered again; the next staging of the
    phase cannot be cancelled, and every step it offers still leads to a lay-down."""
    hand = cards("AH AC KH QS JD 9S 9D 8C 8C 7S 7C")
    deal = DealSpec(
        (cards(OTHER), hand, cards("3D 4D 5D 6D 7H TC JC QC KC KD QH")),
        stock_top=cards("5H 2C"),
        discard=cards("9C"),
    )
    game = Game(preset("kitchen-table"), 3, seed=3, dealer=0, deals=[deal])
    game.apply_text("draw")
    before = game.legal_ids()
    game.apply_text("stage AH AC 2C")
    game.apply_text("cancel")
    assert game.legal_ids() == before
    game.apply_text("stage AH AC 2C")
    assert CANCEL_ID not in game.legal_ids()
    assert not dead_ends(game.state)


# head-and-foot, two players, seat 0 the document's bot and seat 1 the example bot
# (tests/cli/test_bot_protocol.py): after these moves seat 1, not down, holds six nines, five jokers and
# five 2s beside the pile's top nine.
BIG_HAND_SEED = 3181315270618188595
BIG_HAND_MOVES = [
    "draw",
    "discard 3C",
    "draw",
    "stage 4H 4C JK",
    "stage 4C",
    "commit",
    "discard AH",
    "draw",
    "discard KS",
    "draw",
    "meld 7S 7H 7D",
    "discard AC",
    "draw",
    "discard 3C",
    "draw",
    "discard QH",
    "draw",
    "discard 6C",
    "draw",
    "meld 7: 2S",
    "discard JD",
    "draw",
    "discard AH",
    "draw",
    "meld 4D",
    "discard KC",
    "draw",
    "discard 7S",
    "draw",
    "meld TH TD TC",
    "discard 9S",
    "draw",
    "discard AS",
    "draw",
    "discard AD",
    "draw",
    "discard 3D",
    "draw",
    "discard KS",
    "draw",
    "discard JS",
    "draw",
    "meld 7C",
    "discard JH",
    "draw",
    "discard JD",
    "draw",
    "discard AD",
    "draw",
    "discard TH",
    "draw",
    "discard KD",
    "draw",
    "discard JH",
    "draw",
    "meld T: 2D",
    "meld 4H",
    "discard QD",
    "draw",
    "discard KS",
    "draw",
    "meld 6H 6H 6D",
    "discard JS",
    "draw",
    "discard JH",
    "draw",
    "meld TS",
    "meld 6C",
    "discard 9H",
    "draw",
    "discard JC",
    "draw",
    "meld T: 2H",
    "discard AH",
    "draw",
    "discard 6H",
    "draw",
    "meld 7H",
    "discard QC",
    "draw",
    "discard 7S",
    "draw",
    "meld 7S",
    "discard QS",
    "draw",
    "discard 3C",
    "draw",
    "meld TD",
    "discard QC",
    "draw",
    "discard KH",
    "draw",
    "meld 5H 5D 5C",
    "discard AS",
    "draw",
    "discard 6S",
    "draw",
    "meld 4S",
    "discard 9D",
]


def test_wilds_on_the_top_rank_are_weighed_as_the_pickup_lays_them() -> None:
    """head-and-foot ('take the pile' with the opening in hand; a book closes at seven and then takes
    naturals only): a pickup lays the top card's naturals first and its wilds after, as a group added to
    that meld, so six nines with the top nine (a closed book) take no wild. The search for a lay-down
    weighed such pickups as one new meld of nine naturals and three wilds, which the judge refuses, spent
    its limit on them and offered only six stage steps of the sixteen that lead to a pickup (the eights,
    the fives, a nine or a wild onto the top rank left out). Every stage step is now offered, and each
    leads on."""
    game = Game(preset("head-and-foot"), 2, seed=BIG_HAND_SEED, dealer=0)
    for text in BIG_HAND_MOVES:
        game.apply_text(text)
    s = game.state
    assert s.to_move == 1 and s.phase.name == "DRAW" and C.CODE_OF[s.pile[-1]] == "9D"
    staged = stage_texts(game)
    for text in (
        "stage QS QS QH",
        "stage 8H 8D 8C",
        "stage 5S 5C 5C",
        "stage 4S 4H 4D",
        "stage 9S",
        "stage 9: JK",
    ):
        assert text in staged, staged
    assert len(staged) == 15
    assert not dead_ends(s)
