// The server's HTTP lobby and WebSocket protocol v1 (docs/protocol.md), as types and small helpers. The
// HTTP answers' types are the server's own (src/generated/answers.ts, written from
// src/handfoot/server/wire/answers.py); the messages' are checked against theirs below.

import type * as Answers from "./generated/answers";
import type * as Server from "./generated/messages";

export const PROTOCOL = 1;

/** A rule preset: name, title, summary and the player counts it seats (``GET /api/presets``). */
export type PresetSummary = Answers.PresetSummaryJson;

/** A rule option's value as JSON: a word, a number, a yes/no, a list of numbers or numbers by name. */
export type OptionValue = Answers.PresetOptionJson["value"];

/** A rule option with its section, plain-words group (the lobby shows it in: "dealing", "melding"...),
 * help, allowed words, whether a list gives one value per hand, and the preset's value. */
export type OptionInfo = Answers.PresetOptionJson;

export type PresetDetail = Answers.PresetDetailAnswer;

export type ScoreLine = Server.ScoreLineJson;

/** A finished hand: each side's score, who went out, why it ended, and each side's score lines. */
export type HandSummary = Server.HandResultJson;

/** One seat of a table's summary. ``away``: a person's seat with no connection for the server's away
 * time; ``stand_in``: the bot the host handed this person's seat to, while they are away. */
export type SeatSummary = Server.SeatSummaryJson;

/** A table's public summary (``GET /api/tables/{id}``, and the ``table`` of the state and table
 * messages). ``ended`` is "host" once the host ended the game; ``waiting_for`` the invited people the
 * first hand waits for; ``read_seconds`` the longest the table waits, after a hand, for people reading
 * its score, and ``reading`` / ``reading_left`` who still reads it and how long the table still waits. */
export type TableSummary = Server.TableJson;

/** A table as the lobby lists it: the summary without its rules' source and score lines. */
export type TableListing = Answers.TableListingJson;

export type Invite = Answers.InviteJson;

export type Created = Answers.CreatedAnswer;

export interface SeatView {
  hand_count: number;
  in_foot: boolean;
  foot_count: number;
  known: Record<string, number>;
}

export interface MeldView {
  owner: number;
  rank: string;
  cards: string[];
  wilds: number;
}

export interface BookCount {
  clean: number;
  dirty: number;
  wild: number;
}

export interface View {
  seat: number | null;
  hand_index: number;
  dealer: number;
  turn_seat: number;
  to_move: number;
  phase: "draw" | "play" | "answer" | "over" | "pick_foot";
  permission: "none" | "granted" | "refused";
  hand: string[];
  /** The seat's own unplayed Foot, only where the rules let a player see it (pick_foot_seen). */
  foot: string[];
  seats: SeatView[];
  melds: MeldView[];
  red_threes: string[][];
  down: boolean[];
  minimums: number[];
  books: BookCount[];
  pile_top: string | null;
  pile_size: number;
  pile: string[];
  stock_size: number;
  last_round_left: number;
  out_seat: number | null;
  end_reason: string;
  move_count: number;
}

export interface GameEvent {
  type: string;
  seat: number;
  cards: string[];
  amount: number;
  detail: string;
  /** melded and book: the rank letter of the meld; melded only: whether the cards went onto a meld already there. */
  rank?: string;
  added?: boolean;
}

export interface LastMove {
  seat: number;
  version: number;
  move: string;
  events: GameEvent[];
  /** The rules the move brought up (keys of the rules' one-line lessons: pile_frozen, red_three, opening, took_pile, went_out), worked out by the server from the events. */
  facts: string[];
}

export interface Seating {
  side_of: number[];
  owner_of: number[];
  sides: number[][];
}

export interface Welcome {
  type: "welcome";
  protocol: number;
  table_id: string;
  seat: number | null;
  role: "player" | "spectator";
  host: boolean;
  rules: Record<string, OptionValue>;
  seating: Seating;
  bots: string[];
  /** The table's recent moves, oldest first, each as state.last described it. */
  history: LastMove[];
}

/** A seat's position in sentences, from the engine's outlook (docs/protocol.md, "state"): what going
 * out still needs, whether the pile may be taken (and why not), a last turn, an empty stock, and the
 * hand's card values. */
export type Outlook = Server.OutlookJson;

export interface StateMessage {
  type: "state";
  version: number;
  table: TableSummary;
  view: View;
  legal: string[];
  last: LastMove | null;
  outlook: Outlook;
}

export interface Refused {
  type: "refused";
  rule: string;
  message: string;
  version: number;
  move: string;
}

/** A trainer hint, sent only to the seat that asked (docs/protocol.md, "hint"). */
export interface HintMessage {
  type: "hint";
  version: number;
  seat: number;
  move: string;
  reason: string;
  /** The cards of each group the move names (one card for a discard; none for draw, ask, yes, no). */
  groups: string[][];
}

export type ServerMessage =
  | Welcome
  | StateMessage
  | Refused
  | HintMessage
  | { type: "table"; table: TableSummary }
  | { type: "error"; code: string; message: string }
  | { type: "pong" }
  | InviteMessage;

/** A seat's new invitation link, sent to the host who asked for it only (the seat's old link opens nothing). */
export interface InviteMessage {
  type: "invite";
  seat: number;
  token: string;
  link: string;
}

/** An HTTP error answered by the server, with its code and sentence. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One judged decision of a hand review (the server's ``DecisionReview.to_json``). */
export type ReviewedDecision = Answers.ReviewedDecisionJson;

/** A seat's review of a hand, being worked out or finished (``GET /api/tables/{id}/review``). */
export type ReviewJob = Answers.ReviewAnswer;

/** One option of a rule sheet in plain words; ``base_value`` is the extended preset's value when it differs. */
export type RuleLine = Answers.RuleLineJson;

/** A rule set in plain words, grouped as the lobby groups the options (``rules.plain.sheet_json``):
 * ``GET /api/rules``, or ``GET /api/tables/{id}/rules``, a table's, with each rule fact's one-line
 * ``lessons`` and the address of its print page. */
export type RuleSheet = Answers.RuleSheetAnswer & Partial<Pick<Answers.TableRulesAnswer, "lessons" | "print">>;

/** The query naming a preset and the options changed from it (rules are no secret: they may go in an address). */
export function rulesQuery(preset: string, options: Record<string, OptionValue>): string {
  const query = new URLSearchParams({ extends: preset });
  if (Object.keys(options).length) query.set("options", JSON.stringify(options));
  return query.toString();
}

/** The header a private table's secret (seat token, watch key or host key) is sent in. */
const KEY_HEADER = "X-Handfoot-Key";

async function request<T>(method: string, path: string, body?: unknown, key?: string | null): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (key) headers[KEY_HEADER] = key;
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...headers, "Content-Type": "application/json" };
  }
  const response = await fetch(path, init);
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(response.status, error?.code ?? "http", error?.message ?? response.statusText);
  }
  return data as T;
}

/** GET /api/health: the protocol the server speaks and the handfoot version it runs (its package metadata). */
export type Health = Answers.HealthAnswer;

export const api = {
  health: () => request<Health>("GET", "/api/health"),
  presets: () => request<PresetSummary[]>("GET", "/api/presets"),
  preset: (name: string) => request<PresetDetail>("GET", `/api/presets/${encodeURIComponent(name)}`),
  bots: () => request<Answers.BotsAnswer>("GET", "/api/bots"),
  table: (id: string, key?: string | null) => request<TableSummary>("GET", `/api/tables/${encodeURIComponent(id)}`, undefined, key),
  /** The newest listed tables whose game goes on (the lobby's short summaries). */
  tables: (limit: number) => request<TableListing[]>("GET", `/api/tables?playing=true&limit=${limit}`),
  create: (body: unknown) => request<Created>("POST", "/api/tables", body),
  join: (id: string, token: string, name: string) =>
    request<Answers.JoinedAnswer>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/join`,
      { token, name },
    ),
  /** A table's rules in plain words, with the one-line explanation of each rule fact. */
  tableRules: (id: string, key?: string | null) => request<Answers.TableRulesAnswer>("GET", `/api/tables/${encodeURIComponent(id)}/rules`, undefined, key),
  /** A preset with the options changed in the lobby's form, in plain words. */
  rules: (preset: string, options: Record<string, OptionValue>) => request<Answers.RuleSheetAnswer>("GET", `/api/rules?${rulesQuery(preset, options)}`),
  score: (body: unknown) => request<Answers.ScoreAnswer>("POST", "/api/score", body),
  replay: (id: string, key?: string | null) => request<ReplayListing>("GET", `/api/tables/${encodeURIComponent(id)}/replay`, undefined, key),
  replayStep: (id: string, step: number, key?: string | null) =>
    request<ReplayStep>("GET", `/api/tables/${encodeURIComponent(id)}/replay/${step}`, undefined, key),
  askReview: (id: string, token: string, hand?: number) =>
    request<ReviewJob>("POST", `/api/tables/${encodeURIComponent(id)}/review`, hand === undefined ? {} : { hand }, token),
  review: (id: string, token: string, hand?: number) =>
    request<ReviewJob>("GET", `/api/tables/${encodeURIComponent(id)}/review${hand === undefined ? "" : `?hand=${hand}`}`, undefined, token),
  /** A finished game's record as a file: fetched with the table's key, then saved by the browser. */
  async downloadRecord(id: string, key?: string | null): Promise<void> {
    const headers: Record<string, string> = key ? { [KEY_HEADER]: key } : {};
    const response = await fetch(`/api/tables/${encodeURIComponent(id)}/record`, { headers });
    if (!response.ok) throw new ApiError(response.status, "http", response.statusText);
    const url = URL.createObjectURL(await response.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = `handfoot-${id}.json`;
    a.click();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};

/** A finished game's steps: step 0 is the first deal, step n the position after move n. */
export type ReplayListing = Answers.ReplayAnswer;

/** How a hand ended, at the step of its last move: scores, lines, and the cards each seat still held. */
export type HandEnd = Answers.HandEndJson;

/** The public view of a finished game at one step. */
export type ReplayStep = Answers.ReplayStepAnswer;

/** A paper game's sheet scored by the server (``POST /api/score``). */
export type ScoreSheetResult = Answers.ScoreAnswer;

/** The WebSocket address of a table on this server. */
export function socketUrl(tableId: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}

/** True when two types are the same (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The client's types of the server's messages are the server's own (src/generated/messages.ts, written
 * from src/handfoot/server/wire/messages.py): this fails to compile when they differ. The rules are typed
 * here in more detail than the server's models give. */
export const SERVER_TYPES_MATCH: [
  Same<View, Server.ViewJson>,
  Same<SeatView, Server.SeatViewJson>,
  Same<MeldView, Server.MeldViewJson>,
  Same<BookCount, Server.BookCountJson>,
  Same<GameEvent, Server.EventJson>,
  Same<LastMove, Server.LastMoveJson>,
  Same<Seating, Server.SeatingJson>,
  Same<Omit<Welcome, "rules">, Omit<Server.WelcomeMessage, "rules">>,
  Same<StateMessage, Server.StateMessage>,
  Same<Extract<ServerMessage, { type: "table" }>, Server.TableMessage>,
  Same<Refused, Server.RefusedMessage>,
  Same<HintMessage, Server.HintMessage>,
  Same<Extract<ServerMessage, { type: "error" }>, Server.ErrorMessage>,
  Same<Extract<ServerMessage, { type: "pong" }>, Server.PongMessage>,
  Same<InviteMessage, Server.InviteMessage>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
