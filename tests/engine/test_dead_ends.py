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
