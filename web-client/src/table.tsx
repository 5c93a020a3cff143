// The card table: one WebSocket to the server (protocol v1), the seat's own view, and its moves.
// Every move is checked by the server; a refused move is shown with the server's sentence, and nothing
// changes here but the message. The player's hand and the move buttons are docked at the bottom of the
// window, so they are always in view during a turn; notices and refusals are shown inside the dock,
// above the hand, never over it.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import {
  api,
  ApiError,
  PROTOCOL,
  socketUrl,
  type GameEvent,
  type HintMessage,
  type LastMove,
  type MeldView,
  type Refused,
  type ServerMessage,
  type StateMessage,
  type TableSummary,
  type SeatView,
  type View,
  type Welcome,
} from "./api";
import { groupByRank, isRedThree, isWild, rankOf, rankWord, sortCards } from "./cards";
import { Card, CardBack, HandBreakdown, Header, ScoreSheet } from "./components";
import { remember, saveName, savedName, secretsOf, setSound, soundOn } from "./store";

/** The secrets a link carries after "#": a seat token, the watch key, the host key. */
export interface LinkSecrets {
  token: string | null;
  key: string | null;
  host: string | null;
}

interface Group {
  /** Indexes into the sorted hand. */
  indexes: number[];
  /** The rank the group goes onto, when chosen by clicking a meld (written "K: ..."). */
  rank?: string;
}

interface LogEntry {
  id: number;
  text: string;
  notable: boolean;
}

type Status = "connecting" | "open" | "closed" | "refused";

/** The trainer's hint: none asked, being computed, the answer, or why there is none. */
type HintState = { kind: "none" } | { kind: "asking"; version: number } | { kind: "shown"; hint: HintMessage } | { kind: "refused"; message: string };

const HISTORY_KEPT = 100;
const TITLE = "Hand and Foot";

/** The groups of a move's text ("meld KS KH | K: 2C"): each group's rank when written "R: ...". */
function groupRanks(move: string): (string | undefined)[] {
  const body = move.replace(/^\S+\s*/, "");
  return body.split("|").map((part) => /^\s*([A-Z0-9]):/.exec(part)?.[1]);
}

/** Indexes into the sorted hand for the cards of each group (each copy used once); null if a card is missing. */
function indexesOf(hand: string[], groups: string[][]): number[][] | null {
  const used = new Set<number>();
  const out: number[][] = [];
  for (const group of groups) {
    const indexes: number[] = [];
    for (const code of group) {
      const i = hand.findIndex((c, j) => c === code && !used.has(j));
      if (i < 0) return null;
      used.add(i);
      indexes.push(i);
    }
    out.push(indexes);
  }
  return out;
}

export function seatLabel(table: TableSummary | undefined, seat: number, me: number | null): string {
  const s = table?.seats[seat];
  let name = s?.name ?? `Seat ${seat + 1}`;
  if (s?.kind === "bot" && s.name === null) name = `${capital(s.bot ?? "bot")} bot ${seat + 1}`;
  return seat === me ? `${name} (you)` : name;
}

export function winsText(name: string, seats: number): string {
  return `${name} ${seats > 1 ? "win" : "wins"}`;
}

function capital(text: string): string {
  return text.slice(0, 1).toUpperCase() + text.slice(1);
}

function plural(n: number, word: string, many?: string): string {
  return `${n} ${n === 1 ? word : (many ?? `${word}s`)}`;
}

function groupText(hand: string[], group: Group): string {
  const cards = group.indexes.map((i) => hand[i]).filter((c): c is string => Boolean(c));
  const allWild = cards.every(isWild);
  if (group.rank) return `${group.rank}: ${cards.join(" ")}`;
  return allWild ? `W: ${cards.join(" ")}` : cards.join(" ");
}

/** The kind of a card as the rules' card values name it: "JK", "2", "A" ... "4", "3B", "3R". */
function kindOf(code: string): string {
  if (code === "JK") return "JK";
  const rank = rankOf(code);
  if (rank === "3") return isRedThree(code) ? "3R" : "3B";
  return rank;
}

/** The points cards count when melded, by the table's card values. */
function meldPoints(cards: string[], values: Record<string, number>): number {
  return cards.reduce((sum, c) => sum + (values[kindOf(c)] ?? 0), 0);
}

export function describeEvent(e: GameEvent, name: (seat: number) => string, blackThreeFreezes: boolean): LogEntry | null {
  const who = e.seat >= 0 ? name(e.seat) : "";
  const cards = e.cards.join(" ");
  switch (e.type) {
    case "drew":
      return { id: 0, text: `${who} drew ${plural(e.amount, "card")}.`, notable: false };
    case "took_pile": {
      const n = e.amount || e.cards.length;
      return { id: 0, text: `${who} took the discard pile (${plural(n, "card")}).`, notable: true };
    }
    case "melded":
      if (e.rank) {
        const what = rankWord(e.rank);
        return e.added
          ? { id: 0, text: `${who} added ${cards} to their ${what}.`, notable: false }
          : { id: 0, text: `${who} melded ${what}: ${cards}.`, notable: false };
      }
      return { id: 0, text: `${who} melded ${cards}.`, notable: false };
    case "discarded": {
      const black3 = e.cards.some((c) => c === "3S" || c === "3C");
      if (black3 && blackThreeFreezes)
        return { id: 0, text: `${who} discarded a black 3 (${cards}): the pile is frozen for the next player.`, notable: true };
      return { id: 0, text: `${who} discarded ${cards}.`, notable: false };
    }
    case "red_three":
      return { id: 0, text: `${who} laid down a red 3 (${cards}).`, notable: true };
    case "foot":
      return { id: 0, text: `${who} picked up their Foot.`, notable: true };
    case "picked":
      return { id: 0, text: `${who} ${e.detail === "swap" ? "swapped their Hand and Foot" : "kept their Hand"}.`, notable: false };
    case "asked":
      return { id: 0, text: `${who} asked: “May I go out?”`, notable: true };
    case "answered":
      return { id: 0, text: `${who} answered ${e.detail || (e.amount ? "yes" : "no")}.`, notable: true };
    case "went_out":
      return { id: 0, text: `${who} went out!`, notable: true };
    case "last_round":
      return { id: 0, text: "Last round: everyone else plays one more turn.", notable: true };
    case "hand_over":
      return { id: 0, text: "The hand is over.", notable: true };
    case "new_hand":
      return { id: 0, text: `Hand ${e.amount + 1} is dealt.`, notable: false };
    case "game_over":
      return { id: 0, text: "The game is over.", notable: true };
    case "turn":
      return null;
    default:
      return { id: 0, text: `${who} ${e.type.replace(/_/g, " ")} ${cards}`.trim(), notable: false };
  }
}

/** A short chime (no sound file: the page loads nothing from elsewhere). */
function chime(): void {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 740;
    gain.gain.setValueAtTime(0.18, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.6);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.6);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio here: the tab title still says it is your turn.
  }
}

function BadLink({ title, message }: { title: string; message: string }) {
  return (
    <div class="page">
      <Header />
      <main class="panel bad-link" data-testid="bad-link">
        <h1>{title}</h1>
        <p role="alert">{message}</p>
        <p>
          Ask whoever sent you the link for a new one, or open a table of your own.{" "}
          <a href="/">Go to the lobby</a>
        </p>
      </main>
    </div>
  );
}

export function TablePage({ tableId, link, play }: { tableId: string; link: LinkSecrets; play: boolean }) {
  const known = secretsOf(tableId);
  // A /play link without its secret (typed, or cut short) falls back to the seat this browser remembers.
  const token = link.token ?? (play ? (known.token ?? null) : null);
  const host = link.host ?? known.host ?? null;
  const key = link.key ?? known.key ?? null;
  const [summary, setSummary] = useState<TableSummary | null>(null);
  const [loadError, setLoadError] = useState<ApiError | Error | null>(null);

  useEffect(() => {
    api.table(tableId, token ?? key ?? host).then(setSummary, (e: Error) => setLoadError(e));
  }, [tableId]);

  if (loadError) {
    const code = loadError instanceof ApiError ? loadError.code : "";
    const title = code === "private" ? "This link does not open this table" : code === "no_table" ? "There is no such table" : "The table cannot be opened";
    return <BadLink title={title} message={capital(loadError.message)} />;
  }
  if (play && !token) {
    return <BadLink title="This invitation link is cut short" message="An invitation link ends with #seat= and its secret; this one has none, and this browser holds no seat at this table." />;
  }
  if (!summary) {
    return (
      <div class="page">
        <Header />
        <main class="panel">
          <p role="status">Opening the table…</p>
        </main>
      </div>
    );
  }
  return <Table tableId={tableId} token={token} watchKey={key} hostKey={host} />;
}

function JoinForm({ summary, onJoin, problem }: { summary: TableSummary; onJoin: (name: string) => void; problem: string | null }) {
  const [value, setValue] = useState(savedName());
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="join-title">
      <div class="dialog join">
        <h2 id="join-title">Join the table</h2>
        <p>
          {summary.rules} · {plural(summary.players, "player")} · {summary.seats.filter((s) => s.kind === "human" && s.joined).length} joined so far
        </p>
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            const clean = value.trim();
            if (!clean) return;
            saveName(clean);
            onJoin(clean);
          }}
        >
          <label for="join-name">Your name at this table</label>
          <input id="join-name" value={value} maxLength={32} required autoFocus onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
          <button type="submit" class="primary">
            Sit down
          </button>
        </form>
        {problem ? <p class="field-error">{problem}</p> : null}
        <p class="muted">No account needed: your link holds your seat's secret, and this browser remembers it. Keep the link to come back from another device.</p>
      </div>
    </div>
  );
}

function Table({ tableId, token, watchKey, hostKey }: { tableId: string; token: string | null; watchKey: string | null; hostKey: string | null }) {
  const [status, setStatus] = useState<Status>("connecting");
  const [welcome, setWelcome] = useState<Welcome | null>(null);
  const [state, setState] = useState<StateMessage | null>(null);
  const [table, setTable] = useState<TableSummary | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [groups, setGroups] = useState<Group[]>([]);
  const [moves, setMoves] = useState<LastMove[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [endShown, setEndShown] = useState<number | null>(null);
  const [hint, setHint] = useState<HintState>({ kind: "none" });
  const [trainerOpen, setTrainerOpen] = useState(false);
  const [hostProblem, setHostProblem] = useState<string | null>(null);
  const [joinProblem, setJoinProblem] = useState<string | null>(null);
  const [sound, setSoundState] = useState(soundOn());
  const socket = useRef<WebSocket | null>(null);
  const handsSeen = useRef<number | null>(null);
  const welcomeRef = useRef<Welcome | null>(null);
  const greet = useRef(false);
  const noticeTimer = useRef<number | undefined>(undefined);
  const dock = useRef<HTMLElement | null>(null);
  const wasMyTurn = useRef(false);

  useEffect(() => {
    let stopped = false;
    let retry = 500;
    let timer: number | undefined;
    const connect = () => {
      setStatus("connecting");
      const ws = new WebSocket(socketUrl(tableId));
      socket.current = ws;
      ws.onopen = () => {
        retry = 500;
        const hello: Record<string, unknown> = { type: "hello", protocol: PROTOCOL };
        if (token) hello.token = token;
        else if (watchKey) hello.key = watchKey;
        if (hostKey) hello.host = hostKey;
        ws.send(JSON.stringify(hello));
      };
      ws.onmessage = (ev: MessageEvent<string>) => {
        const message = JSON.parse(ev.data) as ServerMessage;
        handle(message);
      };
      ws.onclose = (ev) => {
        if (stopped) return;
        if (ev.code >= 4400 && ev.code < 4500) {
          setStatus("refused");
          return;
        }
        setStatus("closed");
        timer = window.setTimeout(connect, retry);
        retry = Math.min(retry * 2, 8000);
      };
    };
    connect();
    return () => {
      stopped = true;
      if (timer !== undefined) window.clearTimeout(timer);
      socket.current?.close();
    };
  }, [tableId, token]);

  // The page leaves room at its bottom for the dock, whatever its height.
  useEffect(() => {
    const el = dock.current;
    if (!el) return;
    const set = () => document.documentElement.style.setProperty("--dock-h", `${el.offsetHeight}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => observer.disconnect();
  });

  function showNotice(text: string) {
    setNotice(text);
    window.clearTimeout(noticeTimer.current);
    noticeTimer.current = window.setTimeout(() => setNotice(null), 9000);
  }

  function handle(message: ServerMessage) {
    switch (message.type) {
      case "welcome":
        welcomeRef.current = message;
        setWelcome(message);
        setStatus("open");
        setMoves(message.history.slice(-HISTORY_KEPT));
        greet.current = true;
        remember({
          id: tableId,
          rules: String(message.rules.name ?? ""),
          when: "",
          ...(token && message.seat !== null ? { seat: message.seat, token } : {}),
          ...(watchKey ? { key: watchKey } : {}),
          ...(hostKey && message.host ? { host: hostKey } : {}),
        });
        break;
      case "state": {
        setState((old) => {
          if (!old || old.view.hand.join() !== message.view.hand.join() || old.view.hand_index !== message.view.hand_index) {
            setSelected([]);
            setGroups([]);
          }
          return message;
        });
        setTable(message.table);
        setRefused((r) => (r && r.version < message.version ? null : r));
        setHint((h) => (h.kind === "refused" ? { kind: "none" } : h));
        setStatus("open");
        const w = welcomeRef.current;
        const me = w?.seat ?? null;
        const last = message.last;
        if (last) {
          setMoves((old) => {
            if (old.some((m) => m.version >= last.version)) return old;
            if (!greet.current) {
              const freezes = Boolean(w?.rules.black_three_freezes);
              const notable = last.events
                .map((e) => describeEvent(e, (s) => seatLabel(message.table, s, me), freezes))
                .filter((e): e is LogEntry => e !== null && e.notable);
              if (notable.length) showNotice(notable.map((e) => e.text).join(" "));
            }
            return [...old, last].slice(-HISTORY_KEPT);
          });
        }
        if (greet.current) {
          greet.current = false;
          const mine = me !== null ? message.table.seats[me] : undefined;
          if (mine?.name) {
            remember({ id: tableId, rules: message.table.rules, when: "", seat: me ?? 0, ...(token ? { token } : {}), name: mine.name });
            const turn = message.view.to_move;
            const turnText = message.table.finished
              ? "the game is over"
              : turn === me
                ? "it's your turn"
                : `${seatLabel(message.table, turn, me)} is to play`;
            showNotice(`Welcome back, ${mine.name}: ${turnText}.`);
          }
        }
        const count = message.table.hands.length;
        if (handsSeen.current !== null && count > handsSeen.current) setEndShown(count - 1);
        handsSeen.current = count;
        break;
      }
      case "table":
        setTable(message.table);
        break;
      case "refused":
        setRefused(message);
        break;
      case "hint":
        setHint({ kind: "shown", hint: message });
        break;
      case "error":
        if (message.code === "no_hint") setHint({ kind: "refused", message: message.message });
        else if (message.code === "host" || message.code === "not_host") setHostProblem(capital(message.message) + ".");
        else setError(message.message);
        break;
      case "pong":
        break;
    }
  }

  function askHint() {
    if (!state || !socket.current || socket.current.readyState !== WebSocket.OPEN) return;
    setTrainerOpen(true);
    setHint({ kind: "asking", version: state.version });
    socket.current.send(JSON.stringify({ type: "hint", version: state.version }));
  }

  /** Select the hint's cards: a pickup's first group selected and its other groups staged; a meld's
   * groups staged (with their ranks); a discard's card selected. */
  function selectHint(h: HintMessage) {
    const found = indexesOf(hand, h.groups);
    if (!found) return;
    const ranks = groupRanks(h.move);
    const action = h.move.split(" ")[0];
    if (action === "pickup") {
      setSelected(found[0] ?? []);
      setGroups(found.slice(1).map((indexes) => ({ indexes })));
    } else if (action === "meld") {
      setSelected([]);
      setGroups(found.map((indexes, i) => ({ indexes, ...(ranks[i] ? { rank: ranks[i] } : {}) })));
    } else {
      setGroups([]);
      setSelected(found[0] ?? []);
    }
  }

  function sendMessage(message: Record<string, unknown>) {
    if (!socket.current || socket.current.readyState !== WebSocket.OPEN) return;
    socket.current.send(JSON.stringify(message));
  }

  function send(move: string) {
    if (!state) return;
    setRefused(null);
    sendMessage({ type: "move", version: state.version, move });
  }

  function hostAction(action: string, extra: Record<string, unknown> = {}) {
    setHostProblem(null);
    sendMessage({ type: "host", action, ...extra });
  }

  async function join(name: string) {
    if (!token) return;
    try {
      const joined = await api.join(tableId, token, name);
      setJoinProblem(null);
      setTable(joined.table); // the modal closes now, not when the server's next table notice comes
      remember({ id: tableId, rules: table?.rules ?? "", when: "", seat: welcome?.seat ?? 0, token, name });
    } catch (e) {
      setJoinProblem(e instanceof Error ? e.message : String(e));
    }
  }

  const me = welcome?.seat ?? null;
  const view = state?.view;
  const rules = welcome?.rules ?? {};
  const seating = welcome?.seating;
  const hand = useMemo(() => sortCards(view?.hand ?? []), [view?.hand.join(" ")]);
  const legal = state?.legal ?? [];
  const myTurn = me !== null && view?.to_move === me && !table?.finished;
  const staged = new Map<number, string>();
  groups.forEach((g, gi) => g.indexes.forEach((i) => staged.set(i, `G${gi + 1}`)));
  const selectedCards = selected.map((i) => hand[i]).filter((c): c is string => Boolean(c));
  const label = (s: number) => seatLabel(table ?? undefined, s, me);
  const sideNames = (seating?.sides ?? []).map((seats) => seats.map((s) => seatLabel(table ?? undefined, s, null)).join(" & "));
  const myOwner = me !== null && seating ? (seating.owner_of[me] ?? null) : null;
  const mySide = me !== null && seating ? (seating.side_of[me] ?? null) : null;
  const myName = me !== null ? (table?.seats[me]?.name ?? null) : null;

  // The tab says when it is your turn (and chimes, if the player left the sound on, while the tab is hidden).
  useEffect(() => {
    document.title = myTurn ? `● Your turn · ${TITLE}` : TITLE;
    if (myTurn && !wasMyTurn.current && sound && document.hidden) chime();
    wasMyTurn.current = myTurn;
  }, [myTurn, state?.version]);
  useEffect(() => () => void (document.title = TITLE), []);

  function toggle(index: number) {
    setSelected((old) => (old.includes(index) ? old.filter((i) => i !== index) : [...old, index]));
  }

  function stageGroup(rank?: string) {
    if (!selected.length) return;
    setGroups((old) => [...old, { indexes: [...selected], ...(rank ? { rank } : {}) }]);
    setSelected([]);
  }

  function allGroups(extraRank?: string): string[] {
    const out = groups.map((g) => groupText(hand, g));
    if (selected.length) out.push(groupText(hand, { indexes: selected, ...(extraRank ? { rank: extraRank } : {}) }));
    return out;
  }

  function meld() {
    const parts = allGroups();
    if (parts.length) send(`meld ${parts.join(" | ")}`);
  }

  function addToMeld(rank: string) {
    if (!selected.length) return;
    const parts = allGroups(rank);
    send(`meld ${parts.join(" | ")}`);
  }

  /** True if every selected card may go onto the meld of ``rank`` (each is a legal single-card meld there). */
  function canAddTo(rank: string): boolean {
    if (!myTurn || view?.phase !== "play" || !selectedCards.length) return false;
    return selectedCards.every((c) => (isWild(c) ? legal.includes(`meld ${rank}: ${c}`) : rankOf(c) === rank && legal.includes(`meld ${c}`)));
  }

  function pickup() {
    const first = selected.length ? groupText(hand, { indexes: selected }) : "";
    const rest = groups.map((g) => groupText(hand, g));
    send(`pickup ${[first, ...rest].filter(Boolean).join(" | ")}`.trim());
  }

  function discard() {
    const card = selectedCards[0];
    if (selectedCards.length === 1 && card) send(`discard ${card}`);
  }

  function clear() {
    setSelected([]);
    setGroups([]);
  }

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const target = ev.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const key = ev.key.toLowerCase();
      if (key === "escape") {
        clear();
        setEndShown(null);
      } else if (!myTurn) return;
      else if (key === "d" && legal.includes("draw")) send("draw");
      else if (key === "m") meld();
      else if (key === "g") stageGroup();
      else if (key === "x") discard();
      else if (key === "p") pickup();
      else if (key === "h") askHint();
      else return;
      ev.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  if (status === "refused" && !state) {
    return <BadLink title="This link does not open a seat here" message={error ? capital(error) : "The server refused this connection."} />;
  }
  if (!view || !seating || !table) {
    return (
      <div class="page">
        <Header />
        <main class="panel">
          <p role="status">Connecting to the table…</p>
        </main>
      </div>
    );
  }

  const bookSize = Number(rules.book_size ?? 7);
  const cardValues = (rules.card_values ?? {}) as Record<string, number>;
  const owners = Array.from(new Set([...seating.owner_of, ...view.melds.map((m) => m.owner)])).sort((a, b) => a - b);
  const ownerName = (owner: number) =>
    seating.owner_of
      .map((o, s) => (o === owner ? label(s) : null))
      .filter(Boolean)
      .join(" & ");
  const ownerSide = (owner: number) => seating.side_of[seating.owner_of.indexOf(owner)] ?? owner;
  const players = seating.owner_of.length;
  // The other seats in the order they play after you (from seat 1 for a spectator).
  const order = me === null ? seating.owner_of.map((_, s) => s) : Array.from({ length: players - 1 }, (_, k) => (me + k + 1) % players);
  const nextSeat = me === null ? null : (me + 1) % players;
  // The legal list holds single moves only: an opening made by taking the pile (several groups) is
  // not in it, so the pile may be tried whenever it is there; the server decides.
  const canPickup = legal.some((m) => m.startsWith("pickup")) || (view.phase === "draw" && view.pile_size > 0);
  const layRedThree = myTurn ? legal.find((m) => m.startsWith("lay ")) : undefined;
  const top = view.pile_top;
  const frozen = Boolean(rules.black_three_freezes) && (top === "3S" || top === "3C");
  const turnName = label(view.to_move);
  const lastHand = endShown !== null ? table.hands[endShown] : undefined;
  const shownHint = hint.kind === "shown" && hint.hint.version === state?.version ? hint.hint : null;
  const stagedCards = groups.flatMap((g) => g.indexes.map((i) => hand[i]).filter((c): c is string => Boolean(c)));
  const pointsCards = [...stagedCards, ...selectedCards];
  const down = myOwner !== null && Boolean(view.down[myOwner]);
  const minimum = myOwner !== null ? (view.minimums[myOwner] ?? 0) : 0;
  const withTop = view.phase === "draw" && top && selectedCards.length > 0 ? [top] : [];
  const points = meldPoints([...pointsCards, ...withTop], cardValues);
  const log = moves
    .flatMap((m) => m.events.map((e) => describeEvent(e, label, Boolean(rules.black_three_freezes))))
    .filter((e): e is LogEntry => e !== null)
    .map((e, i) => ({ ...e, id: i }))
    .reverse();
  const ended = table.ended === "host";
  const awayName = (s: number) => table.seats[s]?.name ?? `seat ${s + 1}`;

  return (
    <div class="page table-page">
      <Header>
        <button
          type="button"
          class="sound"
          aria-pressed={sound ? "true" : "false"}
          title="A chime when your turn comes while this tab is in the background"
          onClick={() => {
            setSound(!sound);
            setSoundState(!sound);
          }}
        >
          {sound ? "Sound: on" : "Sound: off"}
        </button>
        <span class={`conn ${status}`} role="status">
          {status === "open" ? "connected" : status === "connecting" ? "connecting…" : status === "closed" ? "reconnecting…" : "refused"}
        </span>
      </Header>
      <main class="felt" aria-label="Card table" data-version={state?.version} data-phase={view.phase} data-my-turn={myTurn ? "yes" : "no"} data-hands={table.hands.length} data-finished={table.finished ? "yes" : "no"}>
        <section class="infobar" aria-label="Hand information" data-testid="score">
          <span>
            <strong>{table.rules}</strong> · hand {view.hand_index + 1}
          </span>
          {me === null ? <span class="badge">watching</span> : null}
          {welcome?.host ? <span class="badge host">host</span> : null}
          {sideNames.map((n, i) => (
            <span key={i} class={`total ${i === mySide ? "mine" : ""}`}>
              {n}: <strong>{table.totals[i] ?? 0}</strong>
            </span>
          ))}
        </section>

        <section class="opponents" aria-label="Other players, in the order they play">
          {order.map((s, k) => {
            const sv = view.seats[s];
            const seat = table.seats[s];
            if (!sv || !seat) return null;
            const partner = mySide !== null && seating.side_of[s] === mySide;
            return (
              <div key={s} class={`opponent ${view.to_move === s ? "to-move" : ""} ${partner ? "partner" : ""}`} data-seat={s} data-order={k}>
                <div class="who">
                  {label(s)}
                  {view.to_move === s && !table.finished ? <span class="badge turn-badge">playing</span> : null}
                  {s === nextSeat ? (
                    <span class="badge next" title={rules.black_three_freezes ? "A black 3 you discard freezes the pile for this player" : "Plays after you"}>
                      next after you
                    </span>
                  ) : null}
                  {partner ? <span class="badge">partner</span> : null}
                  {seat.stand_in ? <span class="badge off">{seat.stand_in} bot plays for them</span> : null}
                  {seat.away ? <span class="badge off">away</span> : seat.kind === "human" && seat.joined && !seat.connected ? <span class="badge off">left</span> : null}
                  {seat.kind === "human" && !seat.joined ? <span class="badge off">not here yet</span> : null}
                </div>
                <SeatCards seat={sv} />
              </div>
            );
          })}
        </section>

        <section class="center" aria-label="Stock and discard pile">
          <div class="stock">
            <div class="stack">
              <CardBack label={`stock: ${view.stock_size} cards`} />
            </div>
            <div class="caption">Stock {view.stock_size}</div>
          </div>
          <div class={`pile ${frozen ? "frozen" : ""}`}>
            <div class="stack">{top ? <Card code={top} label={`discard pile top: ${top}`} /> : <span class="card empty">empty</span>}</div>
            <div class="caption" data-testid="pile">
              Discard pile {view.pile_size}
              {frozen ? <span class="badge frozen">frozen: black 3</span> : null}
            </div>
          </div>
          <SidesStatus view={view} owners={owners} ownerName={ownerName} ownerSide={ownerSide} mine={myOwner} />
        </section>

        <section class="melds-area" aria-label="Melds">
          {owners
            .slice()
            .sort((a, b) => (a === myOwner ? -1 : b === myOwner ? 1 : a - b))
            .map((owner) => (
              <MeldRow
                key={owner}
                title={owner === myOwner ? `Your ${seating.sides[mySide ?? 0]?.length && (seating.sides[mySide ?? 0]?.length ?? 0) > 1 && rules.meld_owner === "side" ? "side's" : ""} melds` : `${ownerName(owner)}: melds`}
                melds={view.melds.filter((m) => m.owner === owner)}
                bookSize={bookSize}
                books={view.books[owner]}
                mine={owner === myOwner}
                canAddTo={canAddTo}
                onAdd={addToMeld}
              />
            ))}
        </section>

        <aside class="side-panels">
          {welcome?.host ? (
            <details class="panel-box host-panel" open data-testid="host-panel">
              <summary>Host</summary>
              <p class="muted">You created this table. A missing player's seat can be played by a bot until they are back.</p>
              <ul class="host-seats">
                {table.seats.map((seat) => (
                  <HostSeat
                    key={seat.seat}
                    seat={seat}
                    label={label(seat.seat)}
                    bots={welcome.bots}
                    over={table.finished}
                    onAction={hostAction}
                  />
                ))}
              </ul>
              {!table.finished ? (
                <button
                  type="button"
                  class="danger"
                  onClick={() => {
                    if (confirm("End the game now for everyone? The scores of the finished hands stand.")) hostAction("end");
                  }}
                >
                  End the game
                </button>
              ) : null}
              {hostProblem ? (
                <p class="field-error" role="alert">
                  {hostProblem}
                </p>
              ) : null}
            </details>
          ) : null}
          <details class="panel-box" open>
            <summary>Score sheet</summary>
            <ScoreSheet sides={sideNames} hands={table.hands} totals={table.totals} winner={table.winner} finished={table.finished} />
            {table.hands.length ? (
              <button type="button" class="link" onClick={() => setEndShown(table.hands.length - 1)}>
                Last hand's breakdown
              </button>
            ) : null}
            {table.finished ? (
              <p>
                <a href={`/replay/${tableId}`}>Replay the game move by move</a> ·{" "}
                <button type="button" class="link" onClick={() => void api.downloadRecord(tableId, token ?? watchKey ?? hostKey)}>
                  Download the game record
                </button>
              </p>
            ) : null}
          </details>
          <details class="panel-box" open>
            <summary>What happened</summary>
            <ol class="log" aria-live="off" data-testid="log">
              {log.map((e) => (
                <li key={e.id} class={e.notable ? "notable" : ""}>
                  {e.text}
                </li>
              ))}
              {log.length === 0 ? <li class="muted">Nothing yet.</li> : null}
            </ol>
          </details>
          <details class="panel-box" open={trainerOpen} onToggle={(e) => setTrainerOpen((e.currentTarget as HTMLDetailsElement).open)}>
            <summary>Trainer</summary>
            <div class="hint-box" data-testid="trainer">
              {me === null ? (
                <p class="muted">Hints are for the players; spectators get none.</p>
              ) : (
                <>
                  <button type="button" class="action" disabled={!myTurn || hint.kind === "asking"} onClick={askHint} aria-keyshortcuts="H">
                    {hint.kind === "asking" ? "Thinking…" : "Hint"}
                  </button>
                  {!myTurn ? <span class="muted"> Hints are given on your turn.</span> : null}
                  {shownHint ? (
                    <div class="hint" data-testid="hint" aria-live="polite">
                      <p>
                        Suggested: <code data-testid="hint-move">{shownHint.move}</code>
                      </p>
                      <p data-testid="hint-reason">{shownHint.reason}.</p>
                      {shownHint.groups.length ? (
                        <button type="button" class="link" onClick={() => selectHint(shownHint)}>
                          Select these cards
                        </button>
                      ) : null}
                    </div>
                  ) : null}
                  {hint.kind === "refused" ? <p class="muted" data-testid="hint-refused">{hint.message}</p> : null}
                </>
              )}
            </div>
            <p class="keys muted">Keys: Tab to a card, Space to select · D draw · P take pile · G add group · M meld · X discard · H hint · Esc clear</p>
            {myTurn ? (
              <>
                <p>Moves the rules allow now ({legal.length}; melds of several groups are allowed too):</p>
                <ul class="legal" data-testid="legal">
                  {legal.map((m) => (
                    <li key={m}>
                      <code>{m}</code>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </details>
        </aside>

        <section class={`dock ${myTurn ? "my-turn" : ""}`} ref={dock} aria-label={me === null ? "Turn" : "Your cards and moves"} data-testid="dock">
          <div class="turn" aria-live="polite" data-testid="turn">
            {table.finished ? (
              <strong>
                {ended ? "The host ended the game" : "Game over"}:{" "}
                {table.winner === null ? (ended && !table.hands.length ? "no hand was finished" : "a tie") : winsText(sideNames[table.winner] ?? "?", seating.sides[table.winner]?.length ?? 1)}.
              </strong>
            ) : myTurn ? (
              <strong class="your-turn">
                Your turn: {view.phase === "draw" ? "draw two, or take the pile" : view.phase === "answer" ? "your partner asks “May I go out?”" : view.phase === "pick_foot" ? "keep this Hand or swap it for the other pile" : "meld, then discard"}
              </strong>
            ) : (
              <span>
                {turnName} is {view.phase === "draw" ? "to draw" : view.phase === "answer" ? "to answer" : "playing"}…
                {me !== null && table.seats[view.to_move]?.away ? ` (${awayName(view.to_move)} is away${welcome?.host ? ": you can hand the seat to a bot" : ""})` : ""}
              </span>
            )}
          </div>
          {notice ? (
            <div class="notice" role="status" data-testid="notice" onClick={() => setNotice(null)}>
              {notice}
            </div>
          ) : null}
          {refused ? (
            <div class="refusal" role="alert" data-testid="refusal">
              <strong>Not allowed:</strong> {refused.message} Nothing changed.{" "}
              <button type="button" class="link" onClick={() => setRefused(null)}>
                Dismiss
              </button>
              <details>
                <summary>The rule</summary>
                Rule <code>{refused.rule}</code>; your move <code>{refused.move}</code> was not played.
              </details>
            </div>
          ) : null}
          {error ? (
            <div class="refusal" role="alert">
              {capital(error)}
            </div>
          ) : null}
          {me !== null ? (
            <>
              <div class="me-head">
                <h2>
                  Your {view.seats[me]?.in_foot ? "Foot" : "Hand"} <span class="muted">({plural(hand.length, "card")})</span>
                </h2>
                <span class={`foot ${view.seats[me]?.in_foot ? "in" : ""}`} data-testid="my-foot">
                  {view.seats[me]?.in_foot ? "You are in your Foot" : `Your Foot: ${view.seats[me]?.foot_count ?? 0} cards waiting`}
                </span>
                {view.foot && view.foot.length ? (
                  <span class="muted" data-testid="seen-foot">
                    (seen: {view.foot.join(" ")})
                  </span>
                ) : null}
                <GoOutNeeds rules={rules} books={view.books[myOwner ?? 0]} seating={seating} me={me} view={view} />
                {table.seats[me]?.stand_in ? <span class="badge off">a {table.seats[me]?.stand_in} bot plays your seat until the host hands it back</span> : null}
              </div>
              {pointsCards.length ? (
                <div class="points" data-testid="meld-points">
                  {groups.length ? `${plural(groups.length, "group")} staged${selectedCards.length ? " + selected" : ""}` : "Selected"}
                  {withTop.length ? " with the pile's top card" : ""}: <strong>{points} points</strong>
                  {!down ? (
                    <span class={points >= minimum ? "enough" : "short"}>
                      {" "}
                      · to open you need {minimum}
                      {points >= minimum ? ": enough" : `: ${minimum - points} more`}
                    </span>
                  ) : null}
                </div>
              ) : null}
              {groups.length ? (
                <div class="groups" aria-label="Groups to meld together">
                  {groups.map((g, i) => (
                    <span class="group-chip" key={i} data-testid="staged-group">
                      <span class="group-name">G{i + 1}{g.rank ? ` → ${rankWord(g.rank)}` : ""}</span>
                      {g.indexes.map((ix) => (hand[ix] ? <Card key={ix} code={hand[ix] ?? ""} small /> : null))}
                      <button type="button" class="link" aria-label={`Remove group ${i + 1}`} onClick={() => setGroups((old) => old.filter((_, j) => j !== i))}>
                        ×
                      </button>
                    </span>
                  ))}
                </div>
              ) : null}
              <div class="hand" role="group" aria-label="Your hand: select cards" data-testid="hand">
                {groupByRank(hand).map((g) => (
                  <div class="rank-group" key={g.rank + g.cards[0]?.index}>
                    {g.cards.map(({ code, index }) => (
                      <Card key={index} code={code} selected={selected.includes(index)} staged={staged.get(index)} onClick={() => toggle(index)} />
                    ))}
                  </div>
                ))}
                {hand.length === 0 ? <p class="muted">No cards.</p> : null}
              </div>
              <div class="actions" role="toolbar" aria-label="Moves" data-testid="actions">
                <button type="button" class="action" disabled={!myTurn || !legal.includes("draw")} onClick={() => send("draw")} aria-keyshortcuts="D">
                  Draw
                </button>
                <button type="button" class="action" disabled={!myTurn || !canPickup} onClick={pickup} aria-keyshortcuts="P" title="Select the naturals that go with the top card first">
                  Take the pile
                </button>
                <button type="button" class="action" disabled={!myTurn || !(view.phase === "play" || (view.phase === "draw" && canPickup)) || !selected.length} onClick={() => stageGroup()} aria-keyshortcuts="G">
                  Add group
                </button>
                <button type="button" class="action primary" disabled={!myTurn || view.phase !== "play" || (!selected.length && !groups.length)} onClick={meld} aria-keyshortcuts="M">
                  Meld{groups.length + (selected.length ? 1 : 0) > 1 ? ` ${groups.length + (selected.length ? 1 : 0)} groups` : ""}
                </button>
                <button type="button" class="action" disabled={!myTurn || view.phase !== "play" || selectedCards.length !== 1} onClick={discard} aria-keyshortcuts="X">
                  Discard
                </button>
                {legal.includes("keep") ? (
                  <button type="button" class="action primary" onClick={() => send("keep")}>
                    Keep this Hand
                  </button>
                ) : null}
                {legal.includes("swap") ? (
                  <button type="button" class="action" onClick={() => send("swap")}>
                    Swap: the other pile is my Hand
                  </button>
                ) : null}
                {layRedThree ? (
                <button type="button" class="action" onClick={() => send(layRedThree)} title="Red 3s are laid down when you choose, and never discarded">
                  Lay down a red 3
                </button>
              ) : null}
              {legal.includes("ask") ? (
                  <button type="button" class="action" onClick={() => send("ask")}>
                    Ask partner: May I go out?
                  </button>
                ) : null}
                {legal.includes("yes") ? (
                  <button type="button" class="action primary" onClick={() => send("yes")}>
                    Yes, go out
                  </button>
                ) : null}
                {legal.includes("no") ? (
                  <button type="button" class="action" onClick={() => send("no")}>
                    No, not yet
                  </button>
                ) : null}
                <button type="button" class="action subtle" disabled={!selected.length && !groups.length} onClick={clear}>
                  Clear
                </button>
              </div>
            </>
          ) : null}
        </section>

        {me !== null && table && token && !myName && !table.seats[me]?.name ? <JoinForm summary={table} onJoin={(n) => void join(n)} problem={joinProblem} /> : null}

        {lastHand && endShown !== null ? (
          <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="hand-end-title">
            <div class="dialog">
              <h2 id="hand-end-title">
                Hand {endShown + 1} is over
                {lastHand.went_out !== null ? ` — ${label(lastHand.went_out)} went out` : lastHand.reason === "stock_out" ? " — the stock ran out" : ""}
              </h2>
              <HandBreakdown sides={sideNames} hand={lastHand} />
              <h3>Score sheet</h3>
              <ScoreSheet sides={sideNames} hands={table.hands} totals={table.totals} winner={table.winner} finished={table.finished} />
              {table.finished ? (
                <>
                  <p class="winner-line" data-testid="winner">
                    {table.winner === null ? "The game ends in a tie." : `${winsText(sideNames[table.winner] ?? "?", seating.sides[table.winner]?.length ?? 1)} the game!`}
                  </p>
                  <p>
                    <a href={`/replay/${tableId}`}>Replay the game move by move</a>
                  </p>
                </>
              ) : null}
              <button type="button" class="primary" autoFocus onClick={() => setEndShown(null)}>
                {table.finished ? "Close" : "Next hand"}
              </button>
            </div>
          </div>
        ) : null}
      </main>
    </div>
  );
}

/** One seat in the host's panel: rename it; hand a missing player's seat to a bot, or back. */
function HostSeat({
  seat,
  label,
  bots,
  over,
  onAction,
}: {
  seat: TableSummary["seats"][number];
  label: string;
  bots: string[];
  over: boolean;
  onAction: (action: string, extra?: Record<string, unknown>) => void;
}) {
  const [name, setName] = useState(seat.name ?? "");
  const [bot, setBot] = useState(bots.includes("medium") ? "medium" : (bots[0] ?? ""));
  const person = seat.kind === "human";
  return (
    <li class="host-seat" data-seat={seat.seat}>
      <div class="who">
        {label}
        {seat.stand_in ? <span class="badge off">{seat.stand_in} bot playing</span> : person ? (seat.away ? <span class="badge off">away</span> : !seat.connected ? <span class="badge off">not connected</span> : null) : null}
      </div>
      {!over ? (
        <div class="host-controls">
          <form
            onSubmit={(ev) => {
              ev.preventDefault();
              if (name.trim()) onAction("rename", { seat: seat.seat, name: name.trim() });
            }}
          >
            <input aria-label={`New name for seat ${seat.seat + 1}`} placeholder="new name" value={name} maxLength={32} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <button type="submit">Rename</button>
          </form>
          {person && seat.stand_in ? (
            <button type="button" onClick={() => onAction("person", { seat: seat.seat })}>
              Hand back to {seat.name ?? `seat ${seat.seat + 1}`}
            </button>
          ) : null}
          {person && !seat.stand_in && !seat.connected ? (
            <span class="hand-to-bot">
              <select aria-label={`Bot for seat ${seat.seat + 1}`} value={bot} onChange={(e) => setBot((e.target as HTMLSelectElement).value)}>
                {bots.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </select>
              <button type="button" onClick={() => onAction("bot", { seat: seat.seat, bot })}>
                Hand to a bot
              </button>
            </span>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** A meld's cards as laid: naturals first, then wilds (a closed book shows a natural on top). */
function meldOrder(cards: string[]): string[] {
  const sorted = sortCards(cards);
  return [...sorted.filter((c) => !isWild(c)), ...sorted.filter(isWild)];
}

/** Another player's cards as the table sees them: backs for the Hand, counts, whether in the Foot. */
export function SeatCards({ seat }: { seat: SeatView }) {
  return (
    <>
      <div class="fan" aria-hidden="true">
        {Array.from({ length: Math.min(seat.hand_count, 12) }, (_, i) => (
          <CardBack key={i} small />
        ))}
      </div>
      <div class="counts">
        <span>
          {seat.hand_count} in {seat.in_foot ? "Foot" : "Hand"}
        </span>
        <span class={seat.in_foot ? "foot in" : "foot"}>{seat.in_foot ? "in their Foot" : `Foot: ${seat.foot_count} waiting`}</span>
      </div>
    </>
  );
}

/** Each meld owner's opening minimum, whether it is down, and its side's laid red 3s (shown once per side). */
export function SidesStatus({
  view,
  owners,
  ownerName,
  ownerSide,
  mine,
}: {
  view: View;
  owners: number[];
  ownerName: (owner: number) => string;
  ownerSide: (owner: number) => number;
  mine?: number | null;
}) {
  return (
    <div class="sides-status">
      {owners.map((owner) => (
        <div key={owner} class={`side-status ${owner === mine ? "mine" : ""}`}>
          <div class="who">{ownerName(owner)}</div>
          <div>
            Opening minimum <strong>{view.minimums[owner] ?? "?"}</strong>:{" "}
            {view.down[owner] ? <span class="down yes">down</span> : <span class="down no">not down yet</span>}
          </div>
          {(view.red_threes[ownerSide(owner)]?.length ?? 0) > 0 && owners.indexOf(owner) === owners.findIndex((o) => ownerSide(o) === ownerSide(owner)) ? (
            <div class="red3s" aria-label="Red threes laid down">
              {view.red_threes[ownerSide(owner)]?.map((c, i) => <Card key={i} code={c} small />)}
            </div>
          ) : null}
        </div>
      ))}
    </div>
  );
}

export function MeldRow({
  title,
  melds,
  bookSize,
  books,
  mine,
  canAddTo,
  onAdd,
}: {
  title: string;
  melds: MeldView[];
  bookSize: number;
  books: { clean: number; dirty: number; wild: number } | undefined;
  mine: boolean;
  /** Whether the selected cards may go onto the meld of a rank (only your own melds are asked). */
  canAddTo: (rank: string) => boolean;
  onAdd: (rank: string) => void;
}) {
  return (
    <div class={`meld-row ${mine ? "mine" : ""}`}>
      <h3>
        {title}{" "}
        <span class="book-count">
          books: {books?.clean ?? 0} clean, {books?.dirty ?? 0} dirty{books?.wild ? `, ${books.wild} wild` : ""}
        </span>
      </h3>
      <div class="melds">
        {melds.length === 0 ? <p class="muted">No melds yet.</p> : null}
        {melds.map((m, i) => {
          const book = m.cards.length >= bookSize;
          const clean = m.wilds === 0;
          const kind = book ? (m.rank === "W" ? "wild book" : clean ? "clean book" : "dirty book") : plural(m.cards.length, "card");
          const addable = mine && canAddTo(m.rank);
          const body = (
            <>
              <div class="meld-cards">
                {(book ? meldOrder(m.cards).slice(0, 1) : meldOrder(m.cards)).map((c, j) => (
                  <Card key={j} code={c} small />
                ))}
              </div>
              <div class="meld-label">
                {rankWord(m.rank)} · {book ? <strong class={clean ? "clean-tag" : "dirty-tag"}>{kind} ({m.cards.length})</strong> : kind}
                {!book && m.wilds ? ` · ${plural(m.wilds, "wild")}` : ""}
              </div>
            </>
          );
          return addable ? (
            <button
              type="button"
              key={i}
              class={`meld addable ${book ? "book" : ""} ${book ? (clean ? "clean" : "dirty") : ""}`}
              data-rank={m.rank}
              aria-label={`Add the selected cards to your ${rankWord(m.rank)}`}
              onClick={() => onAdd(m.rank)}
            >
              {body}
              <span class="add">+ add to {rankWord(m.rank)}</span>
            </button>
          ) : (
            <div key={i} class={`meld ${book ? "book" : ""} ${book ? (clean ? "clean" : "dirty") : ""}`} data-rank={m.rank} aria-label={`${rankWord(m.rank)}: ${kind}`}>
              {body}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** An option's value in one hand: a number, or a list with one value per hand (the last holds on). */
function forHand(value: unknown, handIndex: number): number {
  if (Array.isArray(value)) return Number(value[Math.min(handIndex, value.length - 1)] ?? 0);
  return Number(value ?? 0);
}

function GoOutNeeds({
  rules,
  books,
  seating,
  me,
  view,
}: {
  rules: Record<string, unknown>;
  books: { clean: number; dirty: number; wild: number } | undefined;
  seating: { side_of: number[]; sides: number[][] };
  me: number;
  view: StateMessage["view"];
}) {
  const b = books ?? { clean: 0, dirty: 0, wild: 0 };
  const needs: string[] = [];
  const total = b.clean + b.dirty + b.wild;
  const anyBooks = forHand(rules.go_out_books, view.hand_index);
  const clean = forHand(rules.go_out_clean, view.hand_index);
  const dirty = forHand(rules.go_out_dirty, view.hand_index);
  const wild = forHand(rules.go_out_wild, view.hand_index);
  if (clean > b.clean) needs.push(`${clean - b.clean} more clean book${clean - b.clean > 1 ? "s" : ""}`);
  if (dirty > b.dirty) needs.push(`${dirty - b.dirty} more dirty book${dirty - b.dirty > 1 ? "s" : ""}`);
  if (wild > b.wild) needs.push(`${wild - b.wild} more wild book${wild - b.wild > 1 ? "s" : ""}`);
  if (anyBooks > total) needs.push(`${anyBooks - total} more book${anyBooks - total > 1 ? "s" : ""}`);
  if (!view.seats[me]?.in_foot) needs.push("to play into your Foot");
  if (rules.all_feet_to_go_out) {
    const side = seating.sides[seating.side_of[me] ?? 0] ?? [];
    const waiting = side.filter((s) => s !== me && !view.seats[s]?.in_foot).length;
    if (waiting) needs.push("your partner in their Foot");
  }
  const partners = (seating.sides[seating.side_of[me] ?? 0] ?? []).length > 1;
  if (partners && rules.permission === "required") needs.push("your partner's yes to “May I go out?”");
  return (
    <span class="needs" data-testid="needs">
      To go out: {needs.length ? needs.join(", ") : "nothing more — you may go out"}
    </span>
  );
}
