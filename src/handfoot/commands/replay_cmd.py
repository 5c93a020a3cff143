"""``handfoot replay FILE [--json]``: play a game record back and show where it ends.

The position reported is the one ``handfoot.record.report`` describes: every finished hand's scores
and who went out, the totals and the winner, whose move it is and every legal move, each seat's hand
and unplayed foot, the stock's size and the discard pile, whether the pile can be taken, and the table
(melds, books, who is down and the minimums, red 3s, the pile, the Feet, the phase). With ``--json``
it is printed as that one JSON object; without, as text. At the first move that cannot be played the
position *before* it is shown with the move's index, text, rule and reason, and the exit status is 1
(the game says no). A record that cannot be used (not JSON, an unknown key, a bad card code, cards that
do not fit the shoe, ...) exits 2: with ``--json`` as ``{"error": {"code": "bad_input", "message":
...}}`` on stdout, else as one ``error:`` line on stderr. Seats, sides, hands and moves are numbered
from 0, as in the record.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from handfoot.commands import EXIT_REFUSED, fail, json_errors
from handfoot.engine.state import Seating
from handfoot.record import END_WORDS, Record, RecordError, ReplayError, load_record, replay, report
from handfoot.wording import plural, show

FileArg = Annotated[
    str,
    typer.Argument(metavar="FILE", help="A game record (JSON, see docs/records.md); - reads standard input."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to ``app``."""
    app.command("replay")(replay_command)


def record_or_fail(file: str) -> Record:
    """The validated record in ``file`` (``-``: standard input); ``fail`` with the reason otherwise."""
    try:
        return load_record(file)
    except RecordError as err:
        fail(str(err))


def replay_command(file: FileArg, json_output: JsonOpt = False) -> None:
    """Play a game record back: each hand's score, the position reached, or the first illegal move."""
    json_errors(json_output)
    record = record_or_fail(file)
    game, error = replay(record)
    data = report(game, error, record.names)
    if json_output:
        typer.echo(json.dumps(data))
    else:
        print_report(Console(highlight=False), record, data)
    if error is not None:
        raise typer.Exit(EXIT_REFUSED)


# --- text ------------------------------------------------------------------------------------------
def _cards(codes: list[str]) -> str:
    return " ".join(codes) if codes else "-"


def side_names(record: Record) -> list[str]:
    """A label per side: ``side 0 (seats 0, 2)`` in partnerships, ``seat 1`` for a player alone; with
    the record's names, ``side 0 (Sam, Ann: seats 0, 2)`` and ``Bob (seat 1)``."""
    seating = Seating(record.rules, record.players)
    names = []
    for side, seats in enumerate(seating.side_seats):
        if len(seats) == 1:
            names.append(record.seat_name(seats[0]))
            continue
        numbers = ", ".join(map(str, seats))
        named = [record.names[seat] or f"seat {seat}" for seat in seats] if record.names else []
        who = f"{', '.join(n or '' for n in named)}: " if named else ""
        names.append(f"side {side} ({who}seats {numbers})")
    return names


def _line_text(line: dict[str, Any]) -> str:
    """One item of a hand's score: ``clean books x2 +1000``."""
    count = f" x{line['count']}" if line["count"] else ""
    return f"{line['label']}{count} {line['points']:+d}"


def hand_end_text(record: Record, hand: dict[str, Any]) -> str:
    """Why a finished hand (a ``report`` hand) ended: ``Sam (seat 2) went out``, or the reason."""
    if hand["went_out"] is not None:
        return f"{record.seat_name(hand['went_out'])} went out"
    reason = str(hand["reason"])
    return END_WORDS.get(reason, reason)


def print_report(console: Console, record: Record, data: dict[str, Any]) -> None:
    """Print the replayed position ``data`` (``record.report``'s object) as text.

    Every item of the JSON object appears: each hand's scores and who went out, the totals, the winner
    (or that the game goes on), whose move it is and the legal moves, each seat's hand and foot (card
    codes in display order), the number of cards in the stock, the discard pile bottom first, and the
    error, if any, with the move's index (0-based, as in the record's ``moves``), text and rule.
    """
    sides = side_names(record)
    out = console.print
    out(
        Text(
            f"{record.rules.name}: {record.players} players, seed {record.seed}, "
            f"first dealer seat {record.dealer}, {plural(len(record.moves), 'move')}",
            style="bold",
        )
    )
    table = Table(title="Hands", title_justify="left")
    table.add_column("hand", justify="right")
    for name in sides:
        table.add_column(name, justify="right")
    table.add_column("ended")
    for number, hand in enumerate(data["hands"]):
        table.add_row(str(number), *map(str, hand["scores"]), hand_end_text(record, hand))
    table.add_row("total", *map(str, data["totals"]), "", style="bold")
    out(table)
    for number, hand in enumerate(data["hands"]):
        out(Text(f"Hand {number}: {hand_end_text(record, hand)}", style="bold"))
        for side, lines in enumerate(hand["lines"]):
            items = "; ".join(_line_text(line) for line in lines)
            out(Text(f"  {sides[side]}: {hand['scores'][side]} = {items or 'nothing'}"), soft_wrap=True)
    if data["finished"]:
        winner = data["winner"]
        out(Text("Game over: " + ("a tie" if winner is None else f"{sides[winner]} wins"), style="bold"))
    else:
        out(Text(f"Game in progress: hand {len(data['hands'])}"))
    out(Text("To move: " + ("nobody" if data["to_move"] is None else record.seat_name(data["to_move"]))))
    out(Text(f"Legal moves ({len(data['legal'])}): " + (", ".join(data["legal"]) or "none")), soft_wrap=True)
    for seat, cards in enumerate(data["seats"]):
        who = record.seat_name(seat)
        who = who[0].upper() + who[1:]
        out(Text(f"{who} hand: {_cards(cards['hand'])}"), soft_wrap=True)
        out(Text(f"{who} foot: {_cards(cards['foot'])}"), soft_wrap=True)
    out(Text(f"Stock: {plural(data['stock'], 'card')}"))
    out(Text(f"Discard pile (bottom first): {_cards(data['discard'])}"), soft_wrap=True)
    print_table(console, data)
    if "error" in data:
        print_error(console, data["error"])


def print_table(console: Console, data: dict[str, Any]) -> None:
    """Print the position's ``table`` and ``take_pile`` (``record.report``): the hand, whose turn and
    the phase; each meld owner's opening (down, or the minimum still needed), books and melds (cards as
    laid, naturals + wilds, clean or dirty, closed); red 3s laid per side; the pile's top and whether it
    is frozen; each seat's Foot; and whether the player to move can take the pile, with a move."""
    table = data["table"]
    out = console.print
    out(
        Text(
            f"Hand {table['hand']}, dealer seat {table['dealer']}: seat {table['turn']}'s turn, "
            f"phase {table['phase']}"
        )
    )
    for index, owner in enumerate(table["owners"]):
        seats = ", ".join(map(str, owner["seats"]))
        books = owner["books"]
        opened = "down" if owner["down"] else f"not down (opening minimum {owner['minimum']})"
        count = f"books {books['clean']} clean, {books['dirty']} dirty"
        if books["wild"]:
            count += f", {books['wild']} wild"
        who = f"Side {owner['side']} (seats {seats})" if len(owner["seats"]) > 1 else f"Seat {seats}"
        out(Text(f"{who}: {opened}, {count}"))
        for meld in table["melds"]:
            if meld["owner"] == index:
                kind = "clean" if meld["clean"] else "dirty"
                state = ", closed" if meld["closed"] else ""
                out(
                    Text(
                        f"  {meld['rank']}: {_cards(meld['cards'])} "
                        f"({meld['naturals']} + {meld['wilds']} wild, {kind}{state})"
                    ),
                    soft_wrap=True,
                )
    for side, threes in enumerate(table["red_threes"]):
        if threes:
            out(Text(f"Red 3s laid by side {side}: {_cards(threes)}"))
    pile = table["pile"]
    if pile["top"] is not None:
        frozen = f", frozen: {pile['why']}" if pile["frozen"] else ""
        cards = plural(pile["size"], "card")
        out(Text(f"Pile: {pile['top']} on top, {cards}{frozen}"), soft_wrap=True)
    out(Text("Feet: " + ", ".join(f"seat {seat} {state}" for seat, state in enumerate(table["feet"]))))
    take = data["take_pile"]
    if not take["can"]:
        out(Text("Take the pile: no"))
    else:
        only = " (only with an opening of several melds)" if take["opening"] else ""
        out(Text(f"Take the pile: yes{only}, e.g. {take['move']}"), soft_wrap=True)


def print_error(console: Console, error: dict[str, Any]) -> None:
    """Print a replay error: where the record stopped, the move, the reason and the rule."""
    fields = {key: error[key] for key in ("index", "move", "rule", "message")}
    console.print(Text(illegal_move_text(ReplayError(**fields)), style="bold red"), soft_wrap=True)


def illegal_move_text(error: ReplayError) -> str:
    """``Illegal move at moves[3] ("discard 5H"): <reason> [rule: <option>]``: one sentence, as replay
    and hint print it."""
    return f"Illegal move at moves[{error.index}] ({show(error.move)}): {error.message} [rule: {error.rule}]"
