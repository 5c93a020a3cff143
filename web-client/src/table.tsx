// The card table page: one connection to the server (table/connection.ts), the seat's own view and its
// moves. Every move is built from the seat's offers (table/offers.ts: where each card may go, the opening
// count, the pile's state, why an action is not offered), played as the offered steps, and checked by the
// server; a refused move is shown with the server's sentence, and nothing changes here but the message. The page fills the window and
// never scrolls: the other seats across the top, the stock and the pile, the melds (your side's first),
// and your hand with the move buttons at the bottom; the score sheet, history and trainer are a column
// on a wide screen and a drawer (one tap from the top bar) on a small one.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError, type HintMessage, type InviteMessage, type LastMove, type Refused, type ServerMessage, type StateMessage, type TableSummary, type Welcome } from "./api";
import { groupByRank, sortCards } from "./cards";
import { Card, Header, ScoreSheet } from "./components";
import { fourColours, remember, secretsOf, setFourColours, setSound, soundOn } from "./store";
import { connect, type Connection, type Status } from "./table/connection";
import type { ClientMessageJson, HostAction as HostMessage } from "./generated/client";
import { describeEvent, shortAction, type LogEntry } from "./table/history";
import { hintSelection, indexesOf, meldMove } from "./table/moves";
import { canAddTo, goWithPile, openingWords, pickupFor, sameCards, stepsFor, stepTo, without, type Offers, type To } from "./table/offers";
import { HostPanel } from "./table/host";
import { WaitingNotice } from "./table/pacing";
import { BadLink, HandEndDialog, JoinForm, winsText } from "./table/dialogs";
import { MeldRow, OwnerStatus } from "./table/regions";
import { PileAndStock, Seats } from "./table/seats";
import { freshCards, HISTORY_KEPT, isNew, withMove } from "./table/store";
import { RulesPanel } from "./rules_panel";
import { RuleLessonLine, tableRules, useRuleLessons } from "./rule_lessons";
import { cardsWords, listWords, meldWords, moveWords, sentenceWords } from "./table/words";

export { describeEvent } from "./table/history";
export { MeldRow, SeatCards, SidesStatus } from "./table/regions";

/** The secrets a link carries after "#": a seat token, the watch key, the host key. */
export interface LinkSecrets {
  token: string | null;
  key: string | null;
  host: string | null;
}

export function seatLabel(table: TableSummary | undefined, seat: number, me: number | null): string {
  const s = table?.seats[seat];
  let name = s?.name ?? `Seat ${seat + 1}`;
  if (s?.kind === "bot" && s.name === null) name = `${capital(s.bot ?? "bot")} bot ${seat + 1}`;
  return seat === me ? `${name} (you)` : name;
}
export { winsText };

function capital(text: string): string {
  return text.slice(0, 1).toUpperCase() + text.slice(1);
}

function plural(n: number, word: string, many?: string): string {
  return `${n} ${n === 1 ? word : (many ?? `${word}s`)}`;
}

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
type HintState = { kind: "none" } | { kind: "asking"; version: number } | { kind: "shown"; hint: HintMessage } | { kind: "refused"; message: string };
type Drawer = "history" | "scores" | "trainer" | "host" | null;

const TITLE = "Hand and Foot";

/** Cards to play as offered steps, one step per state (docs/protocol.md, "state": `offers`): ``verb``
 * steps to the places ``to`` (of ``rank``), then ``then`` (commit the staged groups, or take the pile
 * with the cards ``pickup``). */
interface Plan {
  verb: "stage" | "meld";
  codes: string[];
  to: To[];
  rank?: string;
  then?: { commit: true } | { pickup: string[] };
  started: boolean;
}
const LAST_ACTION_MS = 6000;

function Table({ tableId, token, watchKey, hostKey }: { tableId: string; token: string | null; watchKey: string | null; hostKey: string | null }) {
  const [status, setStatus] = useState<Status>("connecting");
  const [welcome, setWelcome] = useState<Welcome | null>(null);
  const [state, setState] = useState<StateMessage | null>(null);
  const [table, setTable] = useState<TableSummary | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  // The naturals set aside to go with the pile's top card (the pickup takes them when the pile is taken).
  const [pileCards, setPileCards] = useState<string[]>([]);
  // A sentence of the engine's (or the opening count) saying why a button did nothing: shown like a refusal.
  const [why, setWhy] = useState<string | null>(null);
  // The hint whose cards "Select these cards" chose: the move buttons send its move while they are selected.
  const [hintPlan, setHintPlan] = useState<{ move: string; cards: string[] } | null>(null);
  const plans = useRef<Plan[]>([]);
  const [planCount, setPlanCount] = useState(0);
  const [moves, setMoves] = useState<LastMove[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [endShown, setEndShown] = useState<number | null>(null);
  const [hint, setHint] = useState<HintState>({ kind: "none" });
  const [drawer, setDrawer] = useState<Drawer>(null);
  const [hostProblem, setHostProblem] = useState<string | null>(null);
  const [invite, setInvite] = useState<InviteMessage | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const [joinProblem, setJoinProblem] = useState<string | null>(null);
  const [sound, setSoundState] = useState(soundOn());
  const [four, setFour] = useState(fourColours());
  const [fresh, setFresh] = useState<string[]>([]);
  const [recent, setRecent] = useState<Record<number, { text: string; at: number }>>({});
  const connection = useRef<Connection | null>(null);
  const handsSeen = useRef<number | null>(null);
  const welcomeRef = useRef<Welcome | null>(null);
  const movesRef = useRef<LastMove[]>([]);
  const stateRef = useRef<StateMessage | null>(null);
  const freshRef = useRef<string[]>([]);
  const greet = useRef(false);
  const noticeTimer = useRef<number | undefined>(undefined);
  const wasMyTurn = useRef(false);
  const [rulesOpen, setRulesOpen] = useState(false);
  const lessons = useRuleLessons(tableId, token ?? watchKey ?? hostKey);

  useEffect(() => {
    const conn = connect(tableId, { token, watchKey, hostKey }, handle, setStatus);
    connection.current = conn;
    return () => conn.close();
  }, [tableId, token]);

  // Each seat's latest action fades from its place after a few seconds.
  useEffect(() => {
    const times = Object.values(recent).map((r) => r.at);
    if (!times.length) return;
    const wait = Math.max(200, Math.min(...times) + LAST_ACTION_MS - Date.now());
    const timer = window.setTimeout(() => {
      const now = Date.now();
      setRecent((old) => Object.fromEntries(Object.entries(old).filter(([, r]) => now - r.at < LAST_ACTION_MS)));
    }, wait);
    return () => window.clearTimeout(timer);
  }, [recent]);

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
        movesRef.current = message.history.slice(-HISTORY_KEPT);
        setMoves(movesRef.current);
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
        const old = stateRef.current;
        const w = welcomeRef.current;
        const me = w?.seat ?? null;
        const newHand = !old || old.view.hand_index !== message.view.hand_index;
        lessons.note(message, me);
        if (!old || old.view.hand.join() !== message.view.hand.join() || newHand) {
          setSelected([]);
          if (newHand || message.view.to_move !== me) setPileCards([]);
          setHintPlan(null);
        }
        if (message.view.to_move !== me || newHand) {
          plans.current = [];
          setPlanCount(0);
        }
        freshRef.current = freshCards(old?.view.hand ?? message.view.hand, message.view.hand, old ? message.last : null, me, freshRef.current, newHand && Boolean(old));
        setFresh(freshRef.current);
        stateRef.current = message;
        setState(message);
        if (old && old.version !== message.version) window.setTimeout(() => runPlans(), 0);
        setTable(message.table);
        setRefused((r) => (r && r.version < message.version ? null : r));
        setHint((h) => (h.kind === "refused" ? { kind: "none" } : h));
        setStatus("open");
        const last = message.last;
        if (isNew(movesRef.current, last)) {
          if (!greet.current) {
            const freezes = Boolean(w?.rules.black_three_freezes);
            const notable = last.events
              .map((e) => describeEvent(e, (s) => seatLabel(message.table, s, me), freezes))
              .filter((e): e is LogEntry => e !== null && e.notable);
            if (notable.length) showNotice(notable.map((e) => e.text).join(" "));
            const short = shortAction(last);
            if (short && last.seat !== me) setRecent((r) => ({ ...r, [last.seat]: { text: short, at: Date.now() } }));
          }
          movesRef.current = withMove(movesRef.current, last);
          setMoves(movesRef.current);
        }
        if (greet.current) {
          greet.current = false;
          const mine = me !== null ? message.table.seats[me] : undefined;
          if (mine?.name) {
            remember({ id: tableId, rules: message.table.rules, when: "", seat: me ?? 0, ...(token ? { token } : {}), name: mine.name });
            const turn = message.view.to_move;
            const turnText = message.table.finished
              ? "the game is over"
              : message.table.waiting_for.length
                ? "the game starts when everyone invited is here"
                : turn === me
                  ? "it's your turn"
                  : `${seatLabel(message.table, turn, me)} is to play`;
            showNotice(`Welcome back, ${mine.name}: ${turnText}.`);
          }
        }
        const count = message.table.hands.length;
        if (handsSeen.current !== null && count > handsSeen.current) setEndShown(count - 1);
        else if (handsSeen.current !== null && message.table.finished && !old?.table.finished) setEndShown(Math.max(0, count - 1));
        handsSeen.current = count;
        break;
      }
      case "table":
        setTable(message.table);
        break;
      case "refused":
        setRefused(message);
        plans.current = [];
        setPlanCount(0);
        break;
      case "hint":
        setHint({ kind: "shown", hint: message });
        break;
      case "error":
        if (message.code === "revoked") {
          // The host gave this seat a new link: this one opens nothing now, so stop trying it.
          setRevoked(message.message);
          connection.current?.close();
        } else if (message.code === "no_hint") setHint({ kind: "refused", message: message.message });
        else if (message.code === "host" || message.code === "not_host") setHostProblem(capital(message.message) + ".");
        else setError(message.message);
        break;
      case "invite":
        setInvite(message);
        setDrawer("host");
        break;
      case "pong":
        break;
    }
  }

  /** Send a message on the table's socket; false (nothing sent) while it is reconnecting. */
  function sendMessage(message: ClientMessageJson): boolean {
    return connection.current?.send(message) ?? false;
  }

  function send(move: string | null) {
    const state = stateRef.current;
    if (!state || !move) return;
    setRefused(null);
    setWhy(null);
    freshRef.current = [];
    setFresh([]);
    if (!sendMessage({ type: "move", version: state.version, move })) {
      showNotice("Not connected to the table right now (reconnecting…): that move was not sent. Nothing changed; try again once it says connected.");
    }
  }

  function askHint() {
    if (!state) return;
    setDrawer((d) => d ?? "trainer");
    setHint({ kind: "asking", version: state.version });
    sendMessage({ type: "hint", version: state.version });
  }

  /** Close the score dialog of a finished hand and tell the server this person is ready to go on. */
  function closeEnd() {
    if (endShown !== null) sendMessage({ type: "ready", hand: endShown });
    setEndShown(null);
  }

  function hostAction(action: HostMessage["action"], extra: Omit<HostMessage, "type" | "action"> = {}) {
    setHostProblem(null);
    sendMessage({ type: "host", action, ...extra });
  }

  async function join(name: string) {
    if (!token) return;
    try {
      const joined = await api.join(tableId, token, name);
      setJoinProblem(null);
      setTable(joined.table); // the dialog closes now, not when the server's next table notice comes
      remember({ id: tableId, rules: table?.rules ?? "", when: "", seat: welcome?.seat ?? 0, token, name });
    } catch (e) {
      setJoinProblem(e instanceof Error ? e.message : String(e));
    }
  }

  const me = welcome?.seat ?? null;
  const view = state?.view;
  const outlook = state?.outlook;
  const rules = welcome?.rules ?? {};
  const seating = welcome?.seating;
  const hand = useMemo(() => sortCards(view?.hand ?? []), [view?.hand.join(" ")]);
  const legal = state?.legal ?? [];
  // Not while the first hand waits for invited people: the server would refuse the move.
  const myTurn = me !== null && view?.to_move === me && !table?.finished && !table?.waiting_for.length;
  // The seat's offers (null unless it is to move): every move below is built from them.
  const offers: Offers | null = myTurn ? (state?.offers ?? null) : null;
  const staged = offers?.staged ?? [];
  const pending = plans.current.flatMap((p) => p.codes);
  // Which hand cards are staged (G1, G2 ...), set aside for the pile, or still to be played by a plan.
  const stagedTag = new Map<number, string>();
  const tagged = indexesOf(hand, [...staged.map((g) => g.cards), pileCards, pending]) ?? [];
  tagged.forEach((indexes, gi) => indexes.forEach((i) => stagedTag.set(i, gi < staged.length ? `G${gi + 1}` : gi === staged.length ? "pile" : "…")));
  const selectedCards = selected.map((i) => hand[i]).filter((c): c is string => Boolean(c));
  const label = (s: number) => seatLabel(table ?? undefined, s, me);

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

  /** Play the next step of the first plan from the offers now, or what follows it; false when no plan is
   * under way. A plan whose cards no offered step plays sends them as one move for the server to judge
   * (and refuse in its own words), or says why. */
  function runPlans(): boolean {
    const now = stateRef.current;
    const plan = plans.current[0];
    if (!plan || !now?.offers) return false;
    const next = () => {
      plans.current = plans.current.slice(1);
      setPlanCount(plans.current.length);
    };
    if (plan.codes.length) {
      const step = stepsFor(now.offers, plan.codes, plan.verb, plan.to, plan.rank)[0];
      if (!step) {
        next();
        plans.current = [];
        setPlanCount(0);
        if (plan.started) setWhy(`${capital(cardsWords(plan.codes))}: the table offers no place for ${plan.codes.length > 1 ? "these cards" : "this card"} now.`);
        else send(plan.rank ? `meld ${plan.rank}: ${plan.codes.join(" ")}` : `${plan.verb} ${plan.codes.join(" ")}`);
        return true;
      }
      plan.codes = without(plan.codes, step.cards);
      plan.started = true;
      setPlanCount(plans.current.length);
      send(step.move);
      return true;
    }
    next();
    const then = plan.then;
    if (then && "commit" in then) {
      if (now.offers.commit) send(now.offers.commit.move);
      else setWhy(openingWhy(now.offers));
      return true;
    }
    if (then && "pickup" in then) {
      const step = pickupFor(now.offers, then.pickup);
      send(step ? step.move : `pickup ${then.pickup.join(" ")}`);
      return true;
    }
    return runPlans();
  }

  /** Queue a plan (cards to play as offered steps) and start it unless one is under way. A card the
   * offers have no such place for, or a selection no offered step begins with, sends the whole selection
   * as one move, for the server to judge whole and refuse in its own words (nothing is played in part,
   * and the selection stays). */
  function play(plan: Omit<Plan, "started">) {
    const running = plans.current.length > 0;
    const placed = (code: string) => (offers?.cards.find((c) => c.card === code)?.places ?? []).some((p) => plan.to.includes(p.to) && (plan.rank === undefined || p.rank === plan.rank));
    const startable = running || stepsFor(offers, plan.codes, plan.verb, plan.to, plan.rank).length > 0 || !plan.codes.length;
    if (!running && (!startable || plan.codes.some((code) => !placed(code)))) {
      return send(plan.verb === "meld" && !plan.rank ? meldMove(hand, selected) : `${plan.verb} ${plan.rank ? `${plan.rank}: ` : ""}${plan.codes.join(" ")}`);
    }
    plans.current = [...plans.current, { ...plan, started: false }];
    setPlanCount(plans.current.length);
    setSelected([]);
    setHintPlan(null);
    if (!running) runPlans();
  }

  /** Why the staged groups cannot be laid yet, from the engine's opening count or its sentence. */
  function openingWhy(o: Offers): string {
    if (o.opening) {
      const words = openingWords(o.opening);
      return `The staged groups count ${words.points}; ${words.need}.`;
    }
    return o.why_not.meld ?? "The staged groups cannot be laid now.";
  }

  function draw() {
    if (offers?.why_not.draw) return setWhy(offers.why_not.draw);
    send("draw");
  }

  function stageGroup() {
    if (!selected.length || !offers) return;
    if (view?.phase === "draw" && !pileCards.length && goWithPile(offers, selectedCards) && !stepsFor(offers, selectedCards, "stage", ["new", "staged", "pile"]).length) {
      // naturals for the top card that no step stages: the pickup takes them with the pile
      setPileCards(selectedCards);
      setSelected([]);
      return;
    }
    play({ verb: "stage", codes: selectedCards, to: ["new", "staged", "pile"] });
  }

  function clear() {
    setSelected([]);
    setPileCards([]);
    setHintPlan(null);
    setWhy(null);
    plans.current = [];
    setPlanCount(0);
    if (offers?.cancel) send(offers.cancel.move);
  }

  const hinted = (cards: readonly string[]) => (hintPlan && sameCards(cards, hintPlan.cards) ? hintPlan.move : null);
  function meld() {
    if (!offers) return;
    const hintMove = hinted(selectedCards);
    if (hintMove && hintMove.startsWith("meld")) return send(hintMove);
    if (offers.why_not.meld !== null && !staged.length && !plans.current.length) {
      if (selectedCards.length && view?.phase === "play") return send(meldMove(hand, selected));
      return setWhy(offers.why_not.meld);
    }
    if (offers.opening) {
      if (selectedCards.length) {
        const alone = stepsFor(offers, selectedCards, "meld", ["new"]).find((s) => sameCards(s.cards, selectedCards));
        if (alone && !staged.length && !plans.current.length) return send(alone.move);
        return play({ verb: "stage", codes: selectedCards, to: ["new", "staged"], then: { commit: true } });
      }
      if (plans.current.length) return play({ verb: "stage", codes: [], to: [], then: { commit: true } });
      if (offers.commit) return send(offers.commit.move);
      return setWhy(staged.length ? openingWhy(offers) : "Select the cards of a group first, then Meld.");
    }
    if (selectedCards.length) play({ verb: "meld", codes: selectedCards, to: ["new", "meld"] });
  }
  function pickup() {
    if (!offers) return;
    if (!offers.pile.may) return setWhy(offers.pile.refusal ?? "The pile cannot be taken now.");
    const hintMove = hinted(selectedCards);
    if (hintMove && hintMove.startsWith("pickup")) return send(hintMove);
    const withPile = goWithPile(offers, selectedCards) ? selectedCards : [];
    const others = withPile.length ? [] : selectedCards;
    const cards = [...pileCards, ...withPile];
    if (others.length) return play({ verb: "stage", codes: others, to: ["new", "staged"], then: { pickup: cards } });
    if (plans.current.length) return play({ verb: "stage", codes: [], to: [], then: { pickup: cards } });
    const step = pickupFor(offers, cards);
    if (step) return send(step.move);
    if (cards.length) return send(`pickup ${cards.join(" ")}`);
    setWhy("Select the naturals that go with the top card, then Take the pile.");
  }
  function discard() {
    const code = selectedCards[0];
    if (!offers || selectedCards.length !== 1 || !code) return;
    const hintMove = hinted(selectedCards);
    if (hintMove && hintMove.startsWith("discard")) return send(hintMove);
    if (offers.why_not.discard !== null) return setWhy(offers.why_not.discard);
    send(stepTo(offers, code, "discard")?.move ?? `discard ${code}`);
  }
  const addTo = (rank: string) => play({ verb: "meld", codes: selectedCards, to: ["meld"], rank });
  const canAdd = (rank: string) => myTurn && canAddTo(offers, selectedCards, rank);

  // Keys are read from a ref, so a burst of keys between renders acts on the latest state (none dropped).
  const keys = useRef<(ev: KeyboardEvent) => void>(() => undefined);
  keys.current = (ev: KeyboardEvent) => {
    const target = ev.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key === "escape") {
      clear();
      closeEnd();
      setDrawer(null);
    } else if (!myTurn) return;
    else if (key === "d") draw();
    else if (key === "m") meld();
    else if (key === "g") stageGroup();
    else if (key === "x") discard();
    else if (key === "p") pickup();
    else if (key === "h") askHint();
    else return;
    ev.preventDefault();
  };
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => keys.current(ev);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (revoked) {
    return <BadLink title="The host replaced this link" message={`${capital(revoked)}.`} />;
  }
  if (status === "refused" && !state) {
    return <BadLink title="This link does not open a seat here" message={error ? capital(error) : "The server refused this connection."} />;
  }
  if (!view || !seating || !table || !outlook) {
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
  const sideNames = seating.sides.map((seats) => seats.map((s) => seatLabel(table, s, null)).join(" & "));
  const myOwner = me !== null ? (seating.owner_of[me] ?? null) : null;
  const mySide = me !== null ? (seating.side_of[me] ?? null) : null;
  const myName = me !== null ? (table.seats[me]?.name ?? null) : null;
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
  const nextSeat = (view.to_move + 1) % players;
  // Whether the pile may be taken now is the engine's (offers.pile), as is why not.
  const canPickup = Boolean(offers?.pile.may);
  const canStage = Boolean(offers?.cards.some((c) => c.places.some((p) => p.steps.some((s) => s.move.startsWith("stage ")))));
  // split_draw: the engine lists "draw 7H" (the pile's top card and one stock card fewer) when it is legal
  const splitDraw = legal.find((m) => m.startsWith("draw ")) ?? null;
  const layRedThree = myTurn ? legal.find((m) => m.startsWith("lay ")) : undefined;
  const lastHand = endShown !== null ? table.hands[endShown] : undefined;
  const shownHint = hint.kind === "shown" && hint.hint.version === state?.version ? hint.hint : null;
  const opening = offers?.opening ?? null;
  const openingText = opening ? openingWords(opening) : null;
  const stagingShown = staged.length > 0 || selectedCards.length > 0 || pileCards.length > 0 || planCount > 0;
  const stagedPlans = plans.current.filter((p) => p.verb === "stage" && p.codes.length).length;
  const meldGroups = staged.length + stagedPlans + (selected.length ? 1 : 0);
  // The melds on the table the whole selection may go onto (each card offered there).
  const targets = offers && selectedCards.length ? [...new Set(view.melds.filter((m) => m.owner === myOwner).map((m) => m.rank))].filter((r) => canAddTo(offers, selectedCards, r)) : [];
  const log = moves
    .flatMap((m) => m.events.map((e) => describeEvent(e, label, Boolean(rules.black_three_freezes))))
    .filter((e): e is LogEntry => e !== null)
    .map((e, i) => ({ ...e, id: i }))
    .reverse();
  const ended = table.ended === "host";
  const outName = view.out_seat !== null ? label(view.out_seat) : null;
  const lastRound = view.last_round_left > 0 && view.phase !== "over";
  const lastTurnText = !lastRound
    ? null
    : outlook.last_turn
      ? `${outName ? `${outName} went out` : "The last card was played"}: this is your last turn${myTurn ? "" : " (still to come)"}.`
      : me === null || view.out_seat === me
        ? `${outName ? `${outName} went out` : "The last card was played"}: everyone else plays one last turn.`
        : `${outName ? `${outName} went out` : "The last card was played"}: you have played your last turn.`;
  const freshLeft = [...fresh];
  const isFresh = (code: string) => {
    const i = freshLeft.indexOf(code);
    if (i < 0) return false;
    freshLeft.splice(i, 1);
    return true;
  };
  const phaseText =
    view.phase === "draw" ? "draw two, or take the pile" : view.phase === "answer" ? "your partner asks “May I go out?”" : view.phase === "pick_foot" ? "keep this Hand or swap it for the other pile" : "meld, then discard";

  return (
    <div class={`page table-page ${four ? "four-colour" : ""}`}>
      <Header>
        <span class="tools">
          <button type="button" class="tool drawer-only" aria-expanded={drawer === "history"} onClick={() => setDrawer(drawer === "history" ? null : "history")}>
            History
          </button>
          <button type="button" class="tool drawer-only" aria-expanded={drawer === "scores"} onClick={() => setDrawer(drawer === "scores" ? null : "scores")}>
            Scores
          </button>
          <button type="button" class="tool drawer-only" aria-expanded={drawer === "trainer"} onClick={() => setDrawer(drawer === "trainer" ? null : "trainer")}>
            Trainer
          </button>
          <button type="button" class="tool" aria-haspopup="dialog" aria-expanded={rulesOpen} onClick={() => setRulesOpen(true)}>
            Rules
          </button>
          {welcome?.host ? (
            <button type="button" class="tool" aria-expanded={drawer === "host"} onClick={() => setDrawer(drawer === "host" ? null : "host")}>
              Host
            </button>
          ) : null}
          <button
            type="button"
            class="tool wide-only"
            aria-pressed={four ? "true" : "false"}
            title="Four colours: spades black, hearts red, diamonds blue, clubs green"
            onClick={() => {
              setFourColours(!four);
              setFour(!four);
            }}
          >
            {four ? "4 colours" : "2 colours"}
          </button>
          <button
            type="button"
            class="tool sound wide-only"
            aria-pressed={sound ? "true" : "false"}
            title="A chime when your turn comes while this tab is in the background"
            onClick={() => {
              setSound(!sound);
              setSoundState(!sound);
            }}
          >
            {sound ? "Sound: on" : "Sound: off"}
          </button>
        </span>
        <span class={`conn ${status}`} role="status">
          {status === "open" ? "connected" : status === "connecting" ? "connecting…" : status === "closed" ? "reconnecting…" : "refused"}
        </span>
      </Header>
      <main class="felt" aria-label="Card table" data-version={state?.version} data-phase={view.phase} data-my-turn={myTurn ? "yes" : "no"} data-hands={table.hands.length} data-finished={table.finished ? "yes" : "no"}>
        <section class={`dock ${myTurn ? "my-turn" : ""}`} aria-label={me === null ? "Turn" : "Your cards and moves"} data-testid="dock">
          <div class="turn" aria-live="polite" data-testid="turn">
            {table.finished ? (
              <strong>
                {ended ? "The host ended the game" : "Game over"}:{" "}
                {table.winner === null ? (ended && !table.hands.length ? "no hand was finished" : "a tie") : winsText(sideNames[table.winner] ?? "?", seating.sides[table.winner]?.length ?? 1)}.
              </strong>
            ) : table.waiting_for.length ? (
              <span>
                Not begun yet: {view.to_move === me ? "you play" : `${label(view.to_move)} plays`} first
              </span>
            ) : myTurn ? (
              <strong class="your-turn">Your turn: {phaseText}</strong>
            ) : (
              <span>
                {label(view.to_move)} is {view.phase === "draw" ? "to draw" : view.phase === "answer" ? "answering “May I go out?”" : "playing"}…
                {me !== null && table.seats[view.to_move]?.away ? ` (${table.seats[view.to_move]?.name ?? "they"} ${welcome?.host ? "is away: you can hand the seat to a bot" : "is away"})` : ""}
              </span>
            )}
            {!table.finished ? <span class="next-up"> · next: {label(nextSeat)}</span> : null}
          </div>
          <WaitingNotice table={table} label={label} host={Boolean(welcome?.host)} onStart={() => hostAction("start")} />
          {lastTurnText ? (
            <div class="last-turn" role="status" data-testid="last-turn">
              {lastTurnText}
            </div>
          ) : null}
          {/* One message at a time, in one place (the first that applies): a refusal, why a button did
              nothing, a connection error, a notice, a rule explained; the next shows once it is gone. */}
          {refused ? (
            <div class="refusal" role="alert" data-testid="refusal">
              <strong>Not allowed:</strong> {sentenceWords(refused.message)} Nothing changed.{" "}
              <button type="button" class="link" onClick={() => setRefused(null)}>
                Dismiss
              </button>
              <details>
                <summary>The rule</summary>
                Rule <code>{refused.rule}</code>; your move <code>{refused.move}</code> was not played.
              </details>
            </div>
          ) : why ? (
            <div class="refusal" role="alert" data-testid="why-not">
              <strong>Not now:</strong> {sentenceWords(why)}{" "}
              <button type="button" class="link" onClick={() => setWhy(null)}>
                Dismiss
              </button>
            </div>
          ) : error ? (
            <div class="refusal" role="alert">
              {capital(error)}
            </div>
          ) : notice ? (
            <div class="notice" role="status" data-testid="notice" onClick={() => setNotice(null)}>
              {notice}
            </div>
          ) : (
            <RuleLessonLine lessons={lessons} />
          )}
          {me !== null ? (
            <>
              <div class="me-head">
                <h2>
                  Your {view.seats[me]?.in_foot ? "Foot" : "Hand"} <span class="muted">({plural(hand.length, "card")})</span>
                </h2>
                <span class={`foot ${view.seats[me]?.in_foot ? "in" : ""}`} data-testid="my-foot">
                  {view.seats[me]?.in_foot ? "You are in your Foot" : `Foot: ${view.seats[me]?.foot_count ?? 0} waiting`}
                </span>
                {view.foot && view.foot.length ? (
                  <span class="muted" data-testid="seen-foot">
                    (seen: {cardsWords(view.foot)})
                  </span>
                ) : null}
                <span class={`needs ${outlook.may_go_out ? "ready" : ""}`} data-testid="needs">
                  {outlook.going_out}
                </span>
                {table.seats[me]?.stand_in ? <span class="badge off">a {table.seats[me]?.stand_in} bot plays your seat until the host hands it back</span> : null}
              </div>
              {stagingShown && (openingText || selectedCards.length) ? (
                <div class="points" data-testid="meld-points">
                  {openingText ? (
                    <>
                      {staged.length ? (
                        <>
                          {plural(staged.length, "group")} staged{opening?.with_top ? " with the pile's top card" : ""}: <strong>{openingText.points}</strong>
                        </>
                      ) : (
                        <>Selected: {cardsWords(selectedCards)}</>
                      )}
                      {" · "}
                      <span class={openingText.enough ? "enough" : "still"} data-testid="points-needed">
                        {openingText.need}
                      </span>
                    </>
                  ) : (
                    <>
                      Selected: {cardsWords(selectedCards)}
                      {targets.length ? ` · onto your ${listWords(targets.map(meldWords))}` : ""}
                    </>
                  )}
                </div>
              ) : null}
              {staged.length || pileCards.length ? (
                <div class="groups" aria-label="Groups staged together">
                  {pileCards.length ? (
                    <span class="group-chip with-pile" data-testid="staged-group">
                      <span class="group-name">with the pile's top card</span>
                      {pileCards.map((code, ix) => (
                        <Card key={ix} code={code} small />
                      ))}
                      <button type="button" class="link" aria-label="Put the cards for the pile back" onClick={() => setPileCards([])}>
                        ×
                      </button>
                    </span>
                  ) : null}
                  {staged.map((g, i) => (
                    <span class={`group-chip ${g.with_pile ? "with-pile" : ""}`} key={i} data-testid="staged-group">
                      <span class="group-name">
                        G{i + 1} · {meldWords(g.rank)}
                        {g.with_pile ? " · with the pile's top card" : ""}
                      </span>
                      {g.cards.map((code, ix) => (
                        <Card key={ix} code={code} small />
                      ))}
                    </span>
                  ))}
                </div>
              ) : null}
              <div class="hand" role="group" aria-label="Your hand: select cards" data-testid="hand">
                {groupByRank(hand).map((g) => (
                  <div class="rank-group" key={g.rank + g.cards[0]?.index}>
                    {g.cards.map(({ code, index }) => (
                      <Card key={index} code={code} selected={selected.includes(index)} staged={stagedTag.get(index)} fresh={isFresh(code)} onClick={stagedTag.has(index) ? undefined : () => toggle(index)} />
                    ))}
                  </div>
                ))}
                {hand.length === 0 ? <p class="muted">No cards.</p> : null}
              </div>
              <div class="actions" role="toolbar" aria-label="Moves" data-testid="actions">
                <button type="button" class="action" disabled={!myTurn || !legal.includes("draw")} onClick={draw} aria-keyshortcuts="D" title={offers?.why_not.draw ?? "Draw from the stock"}>
                  Draw
                </button>
                {splitDraw ? (
                  <button type="button" class="action" disabled={!myTurn} onClick={() => send(splitDraw)} title="The pile's top card and one card fewer from the stock">
                    Draw {splitDraw.slice(5)} and one
                  </button>
                ) : null}
                <button type="button" class="action" disabled={!myTurn || !canPickup} onClick={pickup} aria-keyshortcuts="P" title={offers?.pile.refusal ?? outlook.pile_refusal ?? "Select the naturals that go with the top card first"} data-testid="take-pile">
                  Take the pile
                </button>
                <button type="button" class="action" disabled={!myTurn || !(canStage || (canPickup && view.phase === "draw")) || !selected.length} onClick={stageGroup} aria-keyshortcuts="G" title={canStage ? "Set the selection aside toward an opening" : (offers?.why_not.meld ?? "Nothing to stage now")}>
                  Add group
                </button>
                <button type="button" class="action primary" disabled={!myTurn || view.phase !== "play" || (!selected.length && !staged.length && !planCount)} onClick={meld} aria-keyshortcuts="M" title={offers?.why_not.meld ?? "Lay the selection (or the staged groups)"}>
                  Meld{meldGroups > 1 ? ` ${meldGroups} groups` : ""}
                </button>
                <button type="button" class="action" disabled={!myTurn || view.phase !== "play" || selectedCards.length !== 1} onClick={discard} aria-keyshortcuts="X" title={offers?.why_not.discard ?? "Discard the selected card"}>
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
                {legal.includes("end") ? (
                  <button type="button" class="action primary" onClick={() => send("end")} title={offers?.why_not.discard ?? "End your turn holding your last card"}>
                    End my turn, keeping my card
                  </button>
                ) : null}
                <button type="button" class="action subtle" disabled={!selected.length && !staged.length && !pileCards.length && !planCount} onClick={clear} title={offers?.cancel ? "Clear the selection and take the staged groups back" : "Clear the selection"}>
                  Clear
                </button>
              </div>
            </>
          ) : null}
        </section>

        <Seats
          table={table}
          view={view}
          sideOf={seating.side_of}
          order={order}
          me={me}
          mySide={mySide}
          sideNames={sideNames}
          label={label}
          recent={recent}
          blackThreeFreezes={Boolean(rules.black_three_freezes)}
          host={Boolean(welcome?.host)}
        />

        <PileAndStock view={view} outlook={outlook} me={me} />

        <section class="melds-area" aria-label="Melds" tabIndex={0}>
          {owners
            .slice()
            .sort((a, b) => (a === myOwner ? -1 : b === myOwner ? 1 : a - b))
            .map((owner) => (
              <MeldRow
                owner={owner}
                key={owner}
                title={owner === myOwner ? `Your ${(seating.sides[mySide ?? 0]?.length ?? 0) > 1 && rules.meld_owner === "side" ? "side's " : ""}melds` : ownerName(owner)}
                melds={view.melds.filter((m) => m.owner === owner)}
                bookSize={bookSize}
                books={view.books[owner]}
                mine={owner === myOwner}
                canAddTo={canAdd}
                onAdd={addTo}
                status={<OwnerStatus minimum={view.minimums[owner]} down={Boolean(view.down[owner])} redThrees={owners.find((o) => ownerSide(o) === ownerSide(owner)) === owner ? (view.red_threes[ownerSide(owner)] ?? []) : []} />}
              />
            ))}
        </section>

        {drawer ? <div class="drawer-backdrop" onClick={() => setDrawer(null)} /> : null}
        <aside class={`side-panels ${drawer ? "open" : ""}`} data-show={drawer ?? ""} aria-label="Score sheet, history and trainer">
          <button type="button" class="link drawer-close drawer-only" onClick={() => setDrawer(null)}>
            Close ✕
          </button>
          {welcome?.host ? (
            <HostPanel
              table={table}
              me={me}
              bots={welcome.bots}
              label={label}
              invite={invite}
              problem={hostProblem}
              open={drawer === "host"}
              onOpen={() => setDrawer("host")}
              onAction={hostAction}
            />
          ) : null}
          <section class="panel-box panel-settings drawer-only" aria-label="Settings">
            <button type="button" aria-pressed={four ? "true" : "false"} onClick={() => (setFourColours(!four), setFour(!four))}>
              {four ? "Four-colour deck: on" : "Four-colour deck: off"}
            </button>{" "}
            <button type="button" aria-pressed={sound ? "true" : "false"} onClick={() => (setSound(!sound), setSoundState(!sound))}>
              {sound ? "Sound: on" : "Sound: off"}
            </button>
          </section>
          <section class="panel-box panel-scores" aria-label="Score sheet">
            <h2 class="panel-title">Score sheet</h2>
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
          </section>
          <section class="panel-box panel-history" aria-label="What happened">
            <h2 class="panel-title">What happened</h2>
            <ol class="log" aria-live="off" data-testid="log" tabIndex={0} aria-label="The last moves, newest first">
              {log.map((e) => (
                <li key={e.id} class={e.notable ? "notable" : ""}>
                  {e.text}
                </li>
              ))}
              {log.length === 0 ? <li class="muted">Nothing yet.</li> : null}
            </ol>
          </section>
          <details class="panel-box panel-trainer" open={drawer === "trainer" || hint.kind !== "none"} onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && drawer !== null && setDrawer("trainer")}>
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
                        Suggested: <strong>{moveWords(shownHint.move)}</strong> <code data-testid="hint-move">{shownHint.move}</code>
                      </p>
                      <p data-testid="hint-reason">{sentenceWords(shownHint.reason)}.</p>
                      {shownHint.groups.length ? (
                        <button
                          type="button"
                          class="link"
                          onClick={() => {
                            const chosen = hintSelection(hand, shownHint.move, shownHint.groups);
                            if (!chosen) return;
                            setSelected(chosen);
                            setHintPlan({ move: shownHint.move, cards: chosen.map((i) => hand[i] ?? "") });
                            setDrawer(null);
                          }}
                        >
                          Select these cards
                        </button>
                      ) : null}
                    </div>
                  ) : null}
                  {hint.kind === "refused" ? (
                    <p class="muted" data-testid="hint-refused">
                      {hint.message}
                    </p>
                  ) : null}
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
                      {moveWords(m)} <code>{m}</code>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </details>
        </aside>

        {rulesOpen ? <RulesPanel load={() => tableRules(tableId, token ?? watchKey ?? hostKey)} lessonSwitch={me !== null} onClose={() => setRulesOpen(false)} /> : null}

        {me !== null && token && !myName && !table.seats[me]?.name ? <JoinForm summary={table} onJoin={(n) => void join(n)} problem={joinProblem} /> : null}

        {endShown !== null && (lastHand || table.finished) ? (
          <HandEndDialog
            tableId={tableId}
            table={table}
            hand={endShown}
            lastHand={lastHand}
            sideNames={sideNames}
            sideSizes={seating.sides.map((seats) => seats.length)}
            label={label}
            me={me}
            reviewable={token !== null}
            onClose={closeEnd}
          />
        ) : null}
      </main>
    </div>
  );
}
