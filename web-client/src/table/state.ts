// The table's one store: every piece of the page's state (the server's messages, the selection, the
// staged plans, the notices, which panel is open, the settings) and the handler of the server's messages,
// in one hook whose value every part of the table reads from one context (`useTable`). The parts of the
// page draw it and call its actions (table/actions.ts); none keeps state of its own about the game.
import { createContext } from "preact";
import { useContext, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { MutableRef } from "preact/hooks";
import type { HintMessage, InviteMessage, LastMove, Refused, ServerMessage, StateMessage, TableSummary, Welcome } from "../api";
import { sortCards } from "../cards";
import type { ClientMessageJson } from "../generated/client";
import { useRuleLessons } from "../rule_lessons";
import { fourColours, remember, soundOn } from "../store";
import { connect, type Connection, type Status } from "./connection";
import { describeEvent, shortAction, type LogEntry } from "./history";
import { indexesOf } from "./moves";
import type { TableActions } from "./actions";
import type { Offers, To } from "./offers";
import { freshCards, HISTORY_KEPT, isNew, withMove } from "./store";
import { capital, chime, seatLabel } from "./names";

export type HintState = { kind: "none" } | { kind: "asking"; version: number } | { kind: "shown"; hint: HintMessage } | { kind: "refused"; message: string };
export type Drawer = "history" | "scores" | "trainer" | "host" | null;

/** Cards to play as offered steps, one step per state (docs/protocol.md, "state": `offers`): ``verb``
 * steps to the places ``to`` (of ``rank``), then ``then`` (commit the staged groups, or take the pile
 * with the cards ``pickup``). */
export interface Plan {
  verb: "stage" | "meld";
  codes: string[];
  to: To[];
  rank?: string;
  then?: { commit: true } | { pickup: string[] };
  started: boolean;
}

/** The secrets the page holds for the table: a seat token, the watch key, the host key. */
export interface TableKeys {
  tableId: string;
  token: string | null;
  watchKey: string | null;
  hostKey: string | null;
}

const TITLE = "Hand and Foot";
const LAST_ACTION_MS = 6000;

/** The table's state and what follows from it. */
export type TableState = ReturnType<typeof useTableStore>;
/** The table's state and the actions that change it or talk to the server (table/actions.ts). */
export type TableStore = TableState & { actions: TableActions };

const TableContext = createContext<TableStore | null>(null);
export const TableProvider = TableContext.Provider;

/** The table's store, for a part of the table page (inside `TableProvider`). */
export function useTable(): TableStore {
  const store = useContext(TableContext);
  if (!store) throw new Error("useTable is for the parts of the table page, inside its TableProvider");
  return store;
}

/** The store of one table page: opens the connection with ``keys`` and keeps what the server says. */
export function useTableStore({ tableId, token, watchKey, hostKey }: TableKeys) {
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
  const [rulesOpen, setRulesOpen] = useState(false);
  const connection = useRef<Connection | null>(null);
  const handsSeen = useRef<number | null>(null);
  const welcomeRef = useRef<Welcome | null>(null);
  const movesRef = useRef<LastMove[]>([]);
  const stateRef = useRef<StateMessage | null>(null);
  const freshRef = useRef<string[]>([]);
  const greet = useRef(false);
  const noticeTimer = useRef<number | undefined>(undefined);
  const wasMyTurn = useRef(false);
  // The actions' plan runner (table/actions.ts), called once a new state has arrived.
  const runPlans: MutableRef<() => boolean> = useRef(() => false);
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
        if (old && old.version !== message.version) window.setTimeout(() => runPlans.current(), 0);
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

  const me = welcome?.seat ?? null;
  const view = state?.view;
  const outlook = state?.outlook;
  const rules = welcome?.rules ?? {};
  const seating = welcome?.seating;
  const hand = useMemo(() => sortCards(view?.hand ?? []), [view?.hand.join(" ")]);
  const legal = state?.legal ?? [];
  // Not while the first hand waits for invited people: the server would refuse the move.
  const myTurn = me !== null && view?.to_move === me && !table?.finished && !table?.waiting_for.length;
  // The seat's offers (null unless it is to move): every move is built from them.
  const offers: Offers | null = myTurn ? (state?.offers ?? null) : null;
  const staged = offers?.staged ?? [];
  const pending = plans.current.flatMap((p) => p.codes);
  // Which hand cards are staged (G1, G2 ...), set aside for the pile, or still to be played by a plan.
  const stagedTag = new Map<number, string>();
  const tagged = indexesOf(hand, [...staged.map((g) => g.cards), pileCards, pending]) ?? [];
  tagged.forEach((indexes, gi) => indexes.forEach((i) => stagedTag.set(i, gi < staged.length ? `G${gi + 1}` : gi === staged.length ? "pile" : "…")));
  const selectedCards = selected.map((i) => hand[i]).filter((c): c is string => Boolean(c));
  const label = (s: number) => seatLabel(table ?? undefined, s, me);
  const sideNames = seating && table ? seating.sides.map((seats) => seats.map((s) => seatLabel(table, s, null)).join(" & ")) : [];
  const myOwner = me !== null && seating ? (seating.owner_of[me] ?? null) : null;
  const mySide = me !== null && seating ? (seating.side_of[me] ?? null) : null;
  const keyOf = token ?? watchKey ?? hostKey;

  // The tab says when it is your turn (and chimes, if the player left the sound on, while the tab is hidden).
  useEffect(() => {
    document.title = myTurn ? `● Your turn · ${TITLE}` : TITLE;
    if (myTurn && !wasMyTurn.current && sound && document.hidden) chime();
    wasMyTurn.current = myTurn;
  }, [myTurn, state?.version]);
  useEffect(() => () => void (document.title = TITLE), []);

  /** Send a message on the table's socket; false (nothing sent) while it is reconnecting. */
  function sendMessage(message: ClientMessageJson): boolean {
    return connection.current?.send(message) ?? false;
  }

  return {
    tableId, token, keyOf, status, welcome, state, table, refused, setRefused, error, selected, setSelected,
    pileCards, setPileCards, why, setWhy, hintPlan, setHintPlan, plans, planCount, setPlanCount, runPlans,
    stateRef, moves, notice, setNotice, endShown, setEndShown, hint, drawer, setDrawer, hostProblem, invite,
    revoked, joinProblem, sound, setSoundState, four, setFour, fresh, recent, rulesOpen, setRulesOpen,
    lessons, me, view, outlook, rules, seating, hand, legal, myTurn, offers, staged, stagedTag, selectedCards,
    label, sideNames, myOwner, mySide, sendMessage, setHint, setTable, setHostProblem, setJoinProblem,
    showNotice, connection, freshRef, setFresh,
  };
}
