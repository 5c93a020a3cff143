"""What a seat is offered: the legal moves as ``(id, text)`` pairs, from the engine.

``seat_offers`` is the one function every outer client of the engine's legal list uses (the bot
protocol's runners and the terminal game): the engine's legal moves (``Game.legal_ids`` and the move
each id stands for, as ``bots.base.legal_for`` builds them). Every offer has an id: a lay-down of several
groups is offered as its steps (stage a group, commit, cancel; ``engine.staging``).

``resolve_reply`` turns a reply (an id or a move's text) into the move to play, or says what is wrong
with it; a text is accepted when the engine finds it legal, offered or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from handfoot.bots.base import legal_for
from handfoot.engine import Game, IllegalMove, Move
from handfoot.engine.moves import MoveSyntaxError, move_id, move_text, parse_move


@dataclass(frozen=True)
class Offer:
    """One legal move for the seat to move: its id (None for a move without one) and its text."""

    id: int | None
    text: str
    move: Move

    def to_json(self) -> dict[str, object]:
        """``{"id": 17, "text": "meld KS KH KD"}``, as the protocol sends it."""
        return {"id": self.id, "text": self.text}


def seat_offers(game: Game) -> list[Offer]:
    """Every move the seat to move may play now, in id order (empty once the game is over)."""
    if game.finished:
        return []
    legal = legal_for(game.state, game.legal_ids())
    return [Offer(mid, move_text(legal[i]), legal[i]) for i, mid in enumerate(legal.ids)]


def offers_from_texts(texts: Sequence[str]) -> list[Offer]:
    """Offers from a list of move texts (a server's ``legal`` list): each with the id the engine gives
    its move (None for a compound one). Raises ValueError for a text that is not a move."""
    offers = []
    for text in texts:
        move = parse_move(text)
        mid = move_id(move)
        offers.append(Offer(mid if mid >= 0 else None, move_text(move), move))
    return offers


class BadReply(ValueError):
    """A reply that names no move the seat may play; the text says what was wrong and what is allowed."""


def resolve_reply(reply: object, offers: Sequence[Offer], game: Game | None = None) -> Move:
    """The move a bot's reply names: an offer's id (a whole number), or a move's text (an offer's text,
    or, when ``game`` is given, any move the engine finds legal now). Raises BadReply otherwise."""
    if isinstance(reply, bool) or not isinstance(reply, (int, str)):
        raise BadReply(f"the move is {type_word(reply)}; allowed: an offered id or a move's text")
    if isinstance(reply, int):
        for offer in offers:
            if offer.id == reply:
                return offer.move
        ids = [offer.id for offer in offers if offer.id is not None]
        raise BadReply(f"move {reply} was not offered; offered ids: {ids}")
    text = reply.strip()
    for offer in offers:
        if offer.text == text:
            return offer.move
    try:
        move = parse_move(text)
    except MoveSyntaxError as err:
        raise BadReply(f"{shorten(text)!r} is not a move: {err}") from None
    for offer in offers:
        if offer.move == move:
            return offer.move
    if game is None:
        raise BadReply(f"{shorten(text)!r} was not offered")
    try:
        game.verify(move)
    except IllegalMove as err:
        raise BadReply(f"{shorten(text)!r} is illegal: {err.message} [{err.rule}]") from None
    return move


def type_word(value: object) -> str:
    """A JSON value's kind in words, for messages (``a list``, ``null``, ``true``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {dict: "an object", list: "a list", float: "a number with a fraction"}.get(
        type(value), "not a move"
    )


def shorten(text: str, most: int = 80) -> str:
    """``text`` cut to ``most`` characters (a bot's garbage is repeated in messages, never whole)."""
    return text if len(text) <= most else text[:most] + "…"
