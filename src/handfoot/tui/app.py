"""The terminal game (Textual): one table, seen from the player's seat, played with the keyboard.

The screen (it fits 80x24): the table's state on one line, every seat (partners marked) and the melds
of every side, the pile and stock, the player's hand with a cursor, the groups staged for a meld or a
pickup, the last moves and what the table said, and the keys. Keys:

    ←/→ move the cursor        space select a card        g stage the selection as a group
    u  take the staged groups back                         m  meld (the staged groups and the selection)
    d  draw                    p  take the pile (the staged groups and the selection go with it)
    x  discard the card under the cursor                   l  lay the red 3 under the cursor
    a  ask "May I go out?"     y / n  answer yes / no      k / w  keep / swap (pick the Foot)
    h  hint (enter plays it)   t  history                  s  score sheet      ?  keys     q  quit

Moves are sent in the notation (docs/records.md); a move the rules refuse changes nothing and the
refusal is shown in the table's own sentence (the one the browser shows). ``ascii`` draws cards as
``KS`` instead of ``K♠``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from handfoot.tui.cards import card_label, card_style, cards_text
from handfoot.tui.source import Snapshot, TableSource

RANK_NAMES = {"W": "wilds", "3": "3s"}
PHASES = {
    "draw": "draw or take the pile",
    "play": "meld, then discard",
    "answer": "answer: may your partner go out?",
    "pick_foot": "keep or swap your piles",
    "over": "the hand is over",
}


def side_label(snapshot: Snapshot, side: int, me: int) -> str:
    """``Us`` for the player's side, else the names of the side's seats."""
    if snapshot.side_of[me] == side:
        return "Us"
    return "+".join(snapshot.names[s].split(" (")[0] for s, sd in enumerate(snapshot.side_of) if sd == side)


def history_line(snapshot: Snapshot, entry: dict[str, Any]) -> str:
    """One move of the history in words: who played what."""
    seat = entry.get("seat")
    name = snapshot.names[seat] if isinstance(seat, int) and 0 <= seat < len(snapshot.names) else "?"
    line = f"{name.split(' (')[0]}: {entry.get('move')}"
    for event in entry.get("events", []):
        if event.get("type") == "went_out":
            line += " (went out)"
        elif event.get("type") == "hand_over":
            line += " (the hand is over)"
    return line


class TextScreen(ModalScreen[None]):
    """A page of text over the table (history, score sheet, keys); escape or the same key closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "close"),
        Binding("q", "dismiss", "close", show=False),
        Binding("t", "dismiss", "close", show=False),
        Binding("s", "dismiss", "close", show=False),
        Binding("question_mark", "dismiss", "close", show=False),
    ]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 78; height: 22; border: round $accent; background: $surface; }
    """

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = self.title_text
            yield Static(self.body, id="page")

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)


class PlayApp(App[int]):
    """The terminal game at ``source`` (module docstring). ``bot_delay``: seconds between the bots'
    moves (0: they play at once)."""

    TITLE = "handfoot"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #table { height: auto; max-height: 10; }
    #hand { height: auto; min-height: 2; border-top: solid $secondary; }
    #staged { height: 1; }
    #log { height: auto; max-height: 4; color: $text-muted; }
    #message { height: auto; max-height: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("home", "cursor(-999)", show=False),
        Binding("end", "cursor(999)", show=False),
        Binding("space", "select", "select", show=False),
        Binding("g", "stage", "group", show=False),
        Binding("u", "unstage", "ungroup", show=False),
        Binding("d", "move('draw')", "draw"),
        Binding("p", "pickup", "pile"),
        Binding("m", "meld", "meld"),
        Binding("x", "discard", "discard"),
        Binding("l", "lay", "lay 3", show=False),
        Binding("a", "move('ask')", "ask", show=False),
        Binding("y", "move('yes')", "yes", show=False),
        Binding("n", "move('no')", "no", show=False),
        Binding("k", "move('keep')", "keep", show=False),
        Binding("w", "move('swap')", "swap", show=False),
        Binding("h", "hint", "hint"),
        Binding("enter", "play_hint", "play hint", show=False),
        Binding("t", "history", "history"),
        Binding("s", "scores", "scores"),
        Binding("question_mark", "keys", "keys"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, source: TableSource, ascii_only: bool = False, bot_delay: float = 0.5) -> None:
        super().__init__()
        self.source = source
        self.ascii_only = ascii_only
        self.dot = "-" if ascii_only else "·"
        self.bot_delay = bot_delay
        self.cursor = 0
        self.selected: set[int] = set()
        self.staged: list[list[str]] = []
        self.message = Text("Your seat. ? lists the keys.")
        self.suggested: str | None = None
        self.snap: Snapshot = source.snapshot()
        self.seen_version = -1
        self.seen_notes = 0
        self.seen_hands = len(self.snap.hands)

    # --- layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield Static(id="hand")
        yield Static(id="staged")
        yield Static(id="log")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self.set_interval(max(self.bot_delay, 0.05), self.tick)

    def tick(self) -> None:
        """Let the table move on (a bot's move, a message from the server) and redraw if it did."""
        changed = False
        for _ in range(1 if self.bot_delay > 0 else 10_000):
            if not self.source.step():
                break
            changed = True
        if changed:
            self.redraw()

    # --- what the player holds and has chosen
    def available(self) -> list[str]:
        """The hand without the staged cards, in the hand's order."""
        left = list(self.snap.view["hand"])
        for group in self.staged:
            for code in group:
                left.remove(code)
        return left

    def selection(self) -> list[str]:
        cards = self.available()
        return [cards[i] for i in sorted(self.selected) if i < len(cards)]

    def reset_choice(self) -> None:
        self.selected = set()
        self.staged = []
        self.suggested = None

    # --- drawing
    def redraw(self) -> None:
        snap = self.snap = self.source.snapshot()
        if snap.version != self.seen_version:
            self.seen_version = snap.version
            self.reset_choice()
        if len(snap.hands) > self.seen_hands:
            self.seen_hands = len(snap.hands)
            me = self.source.seat
            scores = ", ".join(
                f"{side_label(snap, side, me)} {points}"
                for side, points in enumerate(snap.hands[-1]["scores"])
            )
            self.message = Text(
                f"Hand {len(snap.hands)} is over: {scores}. s shows the score sheet.", style="bold"
            )
        if len(snap.notes) > self.seen_notes:
            self.message = Text(snap.notes[-1], style="bold")
            self.seen_notes = len(snap.notes)
        cards = self.available()
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        self.query_one("#status", Static).update(self.status_text(snap))
        self.query_one("#table", Static).update(self.table_text(snap))
        self.query_one("#hand", Static).update(self.hand_text(snap, cards))
        staged = Text("Staged: ", style="dim")
        for group in self.staged:
            staged.append("[")
            staged.append_text(cards_text(group, self.ascii_only))
            staged.append("] ")
        self.query_one("#staged", Static).update(staged if self.staged else Text(""))
        log = [history_line(snap, entry) for entry in snap.history[-3:]]
        self.query_one("#log", Static).update("\n".join(log))
        self.query_one("#message", Static).update(self.message)

    def status_text(self, snap: Snapshot) -> Text:
        view = snap.view
        me = self.source.seat
        sides = sorted(set(snap.side_of))
        totals = "  ".join(f"{side_label(snap, s, me)} {snap.totals[s]}" for s in sides)
        if snap.finished:
            winner = "a tie" if snap.winner is None else f"{side_label(snap, snap.winner, me)} won"
            turn = f"game over: {winner}"
        elif view["to_move"] == me:
            turn = f"your turn: {PHASES.get(view['phase'], view['phase'])}"
        else:
            turn = f"{snap.names[view['to_move']].split(' (')[0]} to move"
        dot = self.dot
        return Text(
            f" {snap.rules_name} {dot} hand {view['hand_index'] + 1} {dot} {totals} {dot} {turn}",
            style="bold",
        )

    def table_text(self, snap: Snapshot) -> Text:
        view = snap.view
        me = self.source.seat
        out = Text()
        for seat, info in enumerate(view["seats"]):
            partner = seat != me and snap.side_of[seat] == snap.side_of[me]
            where = "Foot" if info["in_foot"] else "Hand"
            foot = "" if info["in_foot"] else f", Foot {info['foot_count']} waiting"
            marker = (
                "▶"
                if view["to_move"] == seat and not self.ascii_only
                else ">"
                if view["to_move"] == seat
                else " "
            )
            out.append(
                f"{marker} {snap.names[seat]}{f' {self.dot} partner' if partner else ''}: ",
                style="bold" if seat == me else "",
            )
            out.append(f"{info['hand_count']} in {where}{foot}\n")
        by_side = snap.owner_of == snap.side_of
        for owner in sorted({m["owner"] for m in view["melds"]}):
            label = side_label(snap, owner, me) if by_side else snap.names[owner].split(" (")[0]
            out.append(f"  {label}: ", style="bold")
            for meld in [m for m in view["melds"] if m["owner"] == owner]:
                count = len(meld["cards"])
                rank = RANK_NAMES.get(meld["rank"], meld["rank"])
                times = "x" if self.ascii_only else "×"
                out.append(f"{rank}{times}{count}", style="bold")
                if meld["wilds"]:
                    out.append(f"({meld['wilds']}w)", style="yellow")
                out.append(("*" if self.ascii_only else "★") if count >= 7 else "")
                out.append(" ")
            books = view["books"][owner]
            out.append(f" books: {books['clean']} clean, {books['dirty']} dirty\n", style="dim")
        threes = [
            f"{side_label(snap, side, me)} {len(codes)}"
            for side, codes in enumerate(view["red_threes"])
            if codes
        ]
        top = view["pile_top"]
        out.append("  Pile: ")
        if top:
            out.append(card_label(top, self.ascii_only), style=card_style(top))
        else:
            out.append("empty")
        mine = snap.owner_of[me]
        opening = "down" if view["down"][mine] else f"open with {view['minimums'][mine]}"
        out.append(f" ({view['pile_size']})  Stock: {view['stock_size']}  You: {opening}")
        if threes:
            out.append(f"  Red 3s: {', '.join(threes)}")
        return out

    def hand_text(self, snap: Snapshot, cards: Sequence[str]) -> Text:
        out = Text(f"Your hand ({len(snap.view['hand'])}): ", style="bold")
        for index, code in enumerate(cards):
            chosen = index in self.selected
            here = index == self.cursor
            left = ">" if here else "[" if chosen else " "
            right = "]" if chosen else "<" if here else " "
            style = card_style(code) + (" reverse" if here else "") + (" underline" if chosen else "")
            out.append(left)
            out.append(card_label(code, self.ascii_only), style=style)
            out.append(right)
        if snap.view["foot"]:
            out.append("\nFoot: ")
            out.append_text(cards_text(snap.view["foot"], self.ascii_only))
        return out

    def say(self, text: str, style: str = "") -> None:
        self.message = Text(text, style=style)
        self.query_one("#message", Static).update(self.message)

    # --- actions
    def action_cursor(self, step: int) -> None:
        self.cursor = max(0, min(self.cursor + step, len(self.available()) - 1))
        self.redraw()

    def action_select(self) -> None:
        if self.cursor in self.selected:
            self.selected.discard(self.cursor)
        elif self.cursor < len(self.available()):
            self.selected.add(self.cursor)
        self.redraw()

    def action_stage(self) -> None:
        chosen = self.selection()
        if not chosen:
            self.say("Select the cards of a group first (space), then g.")
            return
        self.staged.append(chosen)
        self.selected = set()
        self.redraw()

    def action_unstage(self) -> None:
        self.staged = []
        self.selected = set()
        self.redraw()

    def groups(self) -> list[list[str]]:
        chosen = self.selection()
        return [*self.staged, *([chosen] if chosen else [])]

    def send(self, text: str) -> None:
        """Play ``text`` at the table; show the refusal, or move on."""
        refusal = self.source.play(text)
        if refusal is not None:
            self.say(refusal, "bold red")
            return
        self.message = Text(f"You played {text}.")
        self.redraw()
        self.tick()

    def action_move(self, text: str) -> None:
        self.send(text)

    def action_meld(self) -> None:
        groups = self.groups()
        if not groups:
            self.say("Select cards (space) or stage groups (g) first, then m to meld them.")
            return
        self.send("meld " + " | ".join(" ".join(group) for group in groups))

    def action_pickup(self) -> None:
        groups = self.groups()
        if groups:
            self.send("pickup " + " | ".join(" ".join(group) for group in groups))
            return
        pickups = [offer.text for offer in self.snap.offers if offer.text.startswith("pickup")]
        if pickups:
            self.send(pickups[0])
        else:
            self.say("Select the cards that go with the top card (space), then p.")

    def action_discard(self) -> None:
        chosen = self.selection()
        cards = self.available()
        if len(chosen) > 1:
            self.say("Discard one card: select only one, or none and put the cursor on it.")
            return
        card = chosen[0] if chosen else cards[self.cursor] if cards else None
        if card is None:
            self.say("You have no card to discard.")
            return
        self.send(f"discard {card}")

    def action_lay(self) -> None:
        cards = self.available()
        if cards:
            self.send(f"lay {cards[self.cursor]}")

    def action_hint(self) -> None:
        suggestion = self.source.hint()
        if suggestion is None:
            self.say("No hint now: it is not your turn.")
            return
        self.suggested, reason = suggestion
        self.say(f"Hint: {self.suggested}. {reason} (enter plays it)", "bold cyan")

    def action_play_hint(self) -> None:
        if self.suggested is None:
            self.say("Ask for a hint first (h).")
            return
        self.send(self.suggested)

    def action_history(self) -> None:
        snap = self.snap
        lines = [history_line(snap, entry) for entry in snap.history] or ["No moves yet."]
        self.push_screen(TextScreen("History (t or escape closes)", "\n".join(lines)))

    def action_scores(self) -> None:
        snap = self.snap
        me = self.source.seat
        sides = sorted(set(snap.side_of))
        out = Text()
        out.append(
            "hand  " + "".join(f"{side_label(snap, s, me)[:16]:>18}" for s in sides) + "\n", style="bold"
        )
        running = [0] * len(sides)
        for index, hand in enumerate(snap.hands):
            for s in sides:
                running[s] += hand["scores"][s]
            out.append(
                f"{index + 1:>4}  "
                + "".join(f"{hand['scores'][s]:>10} ({running[s]:>5})" for s in sides)
                + "\n"
            )
        if not snap.hands:
            out.append("No hand is finished yet.\n")
        out.append("total " + "".join(f"{snap.totals[s]:>18}" for s in sides), style="bold")
        self.push_screen(TextScreen("Score sheet (s or escape closes)", out))

    def action_keys(self) -> None:
        doc = __doc__ or ""
        keys = doc.split("Keys:")[1].split("Moves are sent")[0].strip("\n")
        self.push_screen(TextScreen("Keys (? or escape closes)", keys))

    def action_quit(self) -> None:  # type: ignore[override]
        self.source.close()
        self.exit(0)
