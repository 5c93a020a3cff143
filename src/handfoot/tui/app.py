"""The terminal game (Textual): one table, seen from the player's seat, played with the keyboard.

The screen (it fits 80x24, and a line breaks only between its parts, never inside a word or a card):
the table's state, every seat (partners marked) and the melds of every side, the pile and stock, the
player's hand with a cursor, the groups staged for a meld or a pickup, as many of the last moves as the
free lines hold (in words: who drew, melded which cards, discarded what), what the table said, and the
keys. At the end of a hand its score, item by item for each side, stays until a key is pressed. Keys:

    ←/→    move the cursor            space  select a card
    g      stage the selection, toward an opening
    u      take the staged groups back
    m      meld the selection, or lay what is staged
    d      draw                       p      take the pile
           (p takes it with the selected naturals and the staged groups)
    x      discard the card under the cursor
    l      lay the red 3 under the cursor
    a      ask "May I go out?"        y / n  answer yes / no
    k / w  keep / swap (pick the Foot)
    e      end the turn holding the last card (told no, where the
           house rule lets a player ask holding it)
    h      hint (enter plays it)      t      history
    s      score sheet                ?      keys
    q      quit

Moves are built from the seat's offers (``engine.offers``: where each card may go, the opening count,
the pile's state and why an action is not offered), never from a rule of the app's own: a key whose
action is not offered says the engine's sentence why, and a selection is played as the offered steps
that take exactly its cards. A move the rules refuse changes nothing and the refusal is shown in the
table's own sentence (the one the browser shows). ``ascii`` draws cards as ``KS`` instead of ``K♠``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from handfoot.tui.cards import card_label, card_style, cards_text
from handfoot.tui.source import Snapshot, TableSource
from handfoot.tui.words import flow, hand_breakdown, history_lines, rows_needed, short_name

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
    return "+".join(short_name(snapshot.names[s]) for s, sd in enumerate(snapshot.side_of) if sd == side)


REASONS = {
    "stock_empty": "The stock ran out.",
    "last_round": "The last round is played.",
}


def hand_over_text(snapshot: Snapshot, index: int, me: int) -> Text:
    """Finished hand ``index`` in words: who went out (or why it ended), its score item by item for
    each side, and the totals after it."""
    hand = snapshot.hands[index]
    sides = sorted(set(snapshot.side_of))
    went = hand.get("went_out")
    if isinstance(went, int) and 0 <= went < len(snapshot.names):
        name = short_name(snapshot.names[went])
        why = f"{name} went out."
    else:
        why = REASONS.get(str(hand.get("reason")), "The hand ended.")
    out = Text(why + "\n\n")
    out.append_text(hand_breakdown(hand, [side_label(snapshot, s, me) for s in sides]))
    totals = [0] * len(sides)
    for done in snapshot.hands[: index + 1]:
        for s in sides:
            totals[s] += done["scores"][s]
    out.append("\n" + f"{'total':28}" + "".join(f"{t:>{max(10, min(16, 44 // len(sides)))}}" for t in totals))
    return out


def _within(cards: Sequence[str], codes: Sequence[str]) -> bool:
    """True if every card of ``cards`` is among ``codes``, copies counted."""
    left = list(codes)
    for card in cards:
        if card not in left:
            return False
        left.remove(card)
    return True


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


class HandOverScreen(TextScreen):
    """The end of a hand (``hand_over_text``) over the table: it stays until a key is pressed, and the
    table waits (no bot moves) while it is shown."""

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)


class PlayApp(App[int]):
    """The terminal game at ``source`` (module docstring). ``bot_delay``: seconds between the bots'
    moves (0: they play at once)."""

    TITLE = "handfoot"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 2; background: $primary-background; }
    #table { height: auto; max-height: 10; }
    #hand { height: auto; min-height: 2; border-top: solid $secondary; }
    #staged { height: auto; max-height: 2; }
    #log { height: 1fr; min-height: 2; color: $text-muted; }
    #message { height: auto; max-height: 3; }
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
        Binding("e", "move('end')", "end turn", show=False),
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
        """Let the table move on (a bot's move, a message from the server) and redraw if it did; the
        table waits while the end of a hand is shown."""
        if isinstance(self.screen, HandOverScreen):
            return
        changed = False
        for _ in range(1 if self.bot_delay > 0 else 10_000):
            hands = len(self.snap.hands)
            if not self.source.step():
                break
            changed = True
            self.snap = self.source.snapshot()
            if len(self.snap.hands) > hands:  # a hand ended: show it before anything moves on
                break
        if changed:
            self.redraw()

    # --- what the player holds and has chosen
    @property
    def places(self) -> dict[str, Any] | None:
        """The seat's offers now (``engine.offers`` as JSON), or None when it is not to move."""
        return self.snap.places

    @property
    def staged(self) -> list[list[str]]:
        """The groups staged at the table (the engine keeps them), one list of codes per group."""
        places = self.places
        return [list(group["cards"]) for group in places["staged"]] if places else []

    def available(self) -> list[str]:
        """The hand without the staged cards, in the hand's order."""
        left = list(self.snap.view["hand"])
        for group in self.staged:
            for code in group:
                if code in left:
                    left.remove(code)
        return left

    def selection(self) -> list[str]:
        cards = self.available()
        return [cards[i] for i in sorted(self.selected) if i < len(cards)]

    def reselect(self, codes: Sequence[str]) -> None:
        """Select ``codes`` (each copy once) in the hand as it is now."""
        cards = self.available()
        chosen: set[int] = set()
        for code in codes:
            index = next((i for i, c in enumerate(cards) if c == code and i not in chosen), None)
            if index is not None:
                chosen.add(index)
        self.selected = chosen

    def reset_choice(self) -> None:
        self.selected = set()
        self.suggested = None

    # --- drawing
    def redraw(self) -> None:
        snap = self.snap = self.source.snapshot()
        if snap.version != self.seen_version:
            self.seen_version = snap.version
            self.reset_choice()
        if len(snap.hands) > self.seen_hands:
            me = self.source.seat
            for index in range(self.seen_hands, len(snap.hands)):
                self.push_screen(
                    HandOverScreen(
                        f"Hand {index + 1} is over (any key goes on)", hand_over_text(snap, index, me)
                    )
                )
            self.seen_hands = len(snap.hands)
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
        opening = self.opening_text()
        if opening:
            staged.append(opening, style="bold" if opening.endswith("enough") else "")
        self.query_one("#staged", Static).update(staged if self.staged else Text(""))
        self.fill_log()
        self.query_one("#message", Static).update(self.message)
        self.call_after_refresh(self.fill_log)

    def fill_log(self) -> None:
        """The history's last lines, as many as the log's free rows hold (wrapped at spaces)."""
        log = self.query_one("#log", Static)
        rows, width = max(log.size.height, 2), max(log.size.width, 20)
        lines = history_lines(self.snap.names, self.snap.history[-60:], self.ascii_only)
        shown: list[str] = []
        for line in reversed(lines):
            rows -= rows_needed(line, width)
            if rows < 0:
                break
            shown.insert(0, line)
        log.update("\n".join(shown))

    def status_text(self, snap: Snapshot) -> Text:
        view = snap.view
        me = self.source.seat
        sides = sorted(set(snap.side_of))
        totals = "  ".join(f"{side_label(snap, s, me)}: {snap.totals[s]}" for s in sides)
        if snap.finished:
            winner = "a tie" if snap.winner is None else f"{side_label(snap, snap.winner, me)} won"
            turn = f"game over: {winner}"
        elif view["to_move"] == me:
            turn = f"your turn: {PHASES.get(view['phase'], view['phase'])}"
        else:
            turn = f"{short_name(snap.names[view['to_move']])} to move"
        parts = [f" {snap.rules_name}", f"hand {view['hand_index'] + 1}", totals, turn]
        return flow([Text(part, style="bold") for part in parts], self.width(), " ", f" {self.dot} ")

    def width(self) -> int:
        """The screen's width in cells, less one (a line is never cut at the last column)."""
        return max(self.size.width - 1, 40)

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
            label = side_label(snap, owner, me) if by_side else short_name(snap.names[owner])
            parts = [Text(f"  {label}:", style="bold")]
            for meld in [m for m in view["melds"] if m["owner"] == owner]:
                count = len(meld["cards"])
                rank = RANK_NAMES.get(meld["rank"], meld["rank"])
                times = "x" if self.ascii_only else "×"
                part = Text(f"{rank}{times}{count}", style="bold")
                if meld["wilds"]:
                    part.append(f"({meld['wilds']}w)", style="yellow")
                part.append(("*" if self.ascii_only else "★") if count >= 7 else "")
                parts.append(part)
            books = view["books"][owner]
            parts.append(Text(f"books: {books['clean']} clean, {books['dirty']} dirty", style="dim"))
            out.append_text(flow(parts, self.width(), "    ", " "))
            out.append("\n")
        threes = [
            f"{side_label(snap, side, me)}: {len(codes)}"
            for side, codes in enumerate(view["red_threes"])
            if codes
        ]
        top = view["pile_top"]
        pile = Text("  Pile: ")
        if top:
            pile.append(card_label(top, self.ascii_only), style=card_style(top))
        else:
            pile.append("empty")
        pile.append(f" ({view['pile_size']})")
        mine = snap.owner_of[me]
        opening = "down" if view["down"][mine] else f"open with {view['minimums'][mine]}"
        parts = [pile, Text(f"Stock: {view['stock_size']}"), Text(f"You: {opening}")]
        if threes:
            parts.append(Text(f"Red 3s {', '.join(threes)}"))
        out.append_text(flow(parts, self.width(), "  "))
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
        if not self.selection():
            self.say("Select the cards of a group first (space), then g.")
            return
        self.play_selection("stage")

    def action_unstage(self) -> None:
        places = self.places
        if places is None or places["cancel"] is None:
            self.say("Nothing is staged.")
            return
        self.send(places["cancel"]["move"])

    def why_not(self, action: str) -> str | None:
        """The engine's sentence for why ``action`` (draw, pile, meld, discard) is not offered now."""
        places = self.places
        if places is None:
            return "It is not your turn." if not self.snap.finished else "The game is over."
        why = places["why_not"][action]
        return str(why) if why is not None else None

    def steps_for(self, codes: Sequence[str], verb: str, places: Sequence[str]) -> list[dict[str, Any]]:
        """The offered steps of ``verb`` (``stage``, ``meld``, ``pickup``) to one of ``places`` that play
        cards of ``codes`` only (each copy once), the most cards first."""
        offers = self.places
        if offers is None:
            return []
        found: dict[str, dict[str, Any]] = {}
        for card in offers["cards"]:
            if card["card"] not in codes:
                continue
            for place in card["places"]:
                if place["to"] not in places:
                    continue
                for step in place["steps"]:
                    if step["move"].split(" ", 1)[0] == verb and _within(step["cards"], codes):
                        found.setdefault(step["move"], step)
        return sorted(found.values(), key=lambda step: -len(step["cards"]))

    def placed(self, code: str, targets: Sequence[str]) -> bool:
        """True if the offers give card ``code`` a place among ``targets``."""
        places = self.places
        for card in places["cards"] if places else []:
            if card["card"] == code:
                return any(place["to"] in targets for place in card["places"])
        return False

    def play_selection(self, verb: str) -> bool:
        """Play the selection as offered ``verb`` steps (``stage``: staged groups; ``meld``: groups laid
        or added to the side's melds), each taking selected cards only, until none is left: True when
        every card was played. A card with no such place, or a selection no offered step begins with, is
        sent whole as one move, for the table to judge and refuse in its own words (nothing is played in
        part)."""
        wanted = self.selection()
        targets = ("new", "staged", "pile") if verb == "stage" else ("new", "meld")
        offered = self.steps_for(wanted, verb, targets)
        if not offered or not all(self.placed(code, targets) for code in wanted):
            refusal = self.source.play(f"{verb} {' '.join(wanted)}")
            if refusal is not None:
                self.say(refusal, "bold red")
                return False
            self.message = Text("Played." if verb == "meld" else "Staged.")
            self.redraw()
            self.tick()
            return True
        played = 0
        while wanted:
            steps = self.steps_for(wanted, verb, targets)
            if not steps:
                break
            step = steps[0]
            refusal = self.source.play(step["move"])
            if refusal is not None:
                self.say(refusal, "bold red")
                return False
            played += 1
            self.snap = self.source.snapshot()
            self.seen_version = self.snap.version
            for code in step["cards"]:
                wanted.remove(code)
            self.reselect(wanted)
        if wanted:
            why = self.why_not("meld") if verb == "meld" else None
            if played:
                rest = " ".join(card_label(code, self.ascii_only) for code in wanted)
                self.say(f"Played what the table offers for these cards; {rest} cannot go with them.")
            elif why is not None:
                self.say(why, "bold red")
            else:
                what = "staged" if verb == "stage" else "melded"
                self.say(f"These cards cannot be {what} together now.")
            self.redraw()
            return False
        self.message = Text("Played." if verb == "meld" else "Staged.")
        self.redraw()
        self.tick()
        return True

    def opening_text(self) -> str:
        """The opening count in words, from the offers: "30 points; to open you need 50: 20 more"."""
        places = self.places
        opening = places["opening"] if places else None
        if not opening:
            return ""
        need = opening["needed"]
        more = "enough" if need == 0 else f"{need} more"
        return f"{opening['points']} points; to open you need {opening['minimum']}: {more}"

    def send(self, text: str) -> None:
        """Play ``text`` at the table; show the refusal, or move on."""
        refusal = self.source.play(text)
        if refusal is not None:
            self.say(refusal, "bold red")
            return
        mine = history_lines(self.snap.names, self.source.snapshot().history[-1:], self.ascii_only)
        self.message = Text(mine[0] if mine and mine[0].startswith("You ") else "Played.")
        self.redraw()
        self.tick()

    def action_move(self, text: str) -> None:
        if text == "draw":
            why = self.why_not("draw")
            if why is not None:
                self.say(why, "bold red")
                return
        self.send(text)

    def action_meld(self) -> None:
        why = self.why_not("meld")
        if why is not None and not self.staged:
            self.say(why, "bold red")
            return
        places = self.places
        opening = places is not None and places["opening"] is not None
        if self.selection():
            # a side not down opens by staging its groups and committing them; a side down lays them
            if not self.play_selection("stage" if opening else "meld") or not opening:
                return
            places = self.places
        if not self.staged:
            self.say("Select cards (space) first, then m to meld them.")
            return
        if places is not None and places["commit"] is not None:
            self.send(places["commit"]["move"])
            return
        opening_text = self.opening_text()
        if opening_text:
            self.say(f"Not yet: the staged groups count {opening_text}.")
        else:
            self.say(why or "The staged groups cannot be laid now.")

    def action_pickup(self) -> None:
        places = self.places
        if places is None or not places["pile"]["may"]:
            self.say(self.why_not("pile") or "The pile cannot be taken now.", "bold red")
            return
        chosen = self.selection()
        takes = places["pile"]["takes"]
        if not chosen:
            if takes:
                self.send(takes[0]["move"])
            else:
                self.say("Stage the groups of your opening first (g), then p with the naturals for the top.")
            return
        steps = self.steps_for(chosen, "pickup", ("pile",))
        exact = [step for step in steps if len(step["cards"]) == len(chosen)]
        if exact:
            self.send(exact[0]["move"])
        else:
            self.say("Select only the naturals that go with the top card (stage the other groups with g).")

    def action_discard(self) -> None:
        why = self.why_not("discard")
        if why is not None:
            self.say(why, "bold red")
            return
        chosen = self.selection()
        cards = self.available()
        if len(chosen) > 1:
            self.say("Discard one card: select only one, or none and put the cursor on it.")
            return
        card = chosen[0] if chosen else cards[self.cursor] if cards else None
        if card is None:
            self.say("You have no card to discard.")
            return
        self.send(self.step_to(card, "discard") or f"discard {card}")

    def step_to(self, code: str, to: str) -> str | None:
        """The move text of the offered step that puts ``code`` at place ``to`` (discard, lay), or None."""
        places = self.places
        for card in places["cards"] if places else []:
            if card["card"] == code:
                for place in card["places"]:
                    if place["to"] == to:
                        return str(place["steps"][0]["move"])
        return None

    def action_lay(self) -> None:
        cards = self.available()
        if cards:
            code = cards[self.cursor]
            self.send(self.step_to(code, "lay") or f"lay {code}")

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
        lines = history_lines(snap.names, snap.history, self.ascii_only) or ["No moves yet."]
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
        for index in range(len(snap.hands)):
            out.append(f"\n\nHand {index + 1}: ", style="bold")
            out.append_text(hand_over_text(snap, index, me))
        self.push_screen(TextScreen("Score sheet (s or escape closes)", out))

    def action_keys(self) -> None:
        doc = __doc__ or ""
        keys = doc.split("Keys:")[1].split("Moves are built")[0].strip("\n")
        self.push_screen(TextScreen("Keys (? or escape closes)", keys))

    def action_quit(self) -> None:  # type: ignore[override]
        self.source.close()
        self.exit(0)
