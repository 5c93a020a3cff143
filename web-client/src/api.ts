// The server's HTTP lobby and WebSocket protocol v1 (docs/protocol.md), as types and small helpers.

export const PROTOCOL = 1;

export interface PresetSummary {
  name: string;
  title: string;
  summary: string;
  players_allowed: number[];
  default_players: number;
}

export type OptionValue = string | number | boolean | number[] | Record<string, number>;

export interface OptionInfo {
  name: string;
  section: string;
  section_title: string;
  /** The plain-words group the lobby shows it in ("dealing", "melding", ...), and its title. */
  group: string;
  group_title: string;
  help: string;
  choices: string[] | null;
  /** A list gives one value per hand (book counts to go out, the going-out bonus). */
  per_hand?: boolean;
  value: OptionValue;
}

export interface PresetDetail extends PresetSummary {
  options: OptionInfo[];
}

export interface ScoreLine {
  label: string;
  count: number;
  points: number;
}

export interface HandSummary {
  scores: number[];
  went_out: number | null;
  reason: string;
  lines?: ScoreLine[][];
}

export interface SeatSummary {
  seat: number;
  kind: "human" | "bot";
  bot: string | null;
  name: string | null;
  joined: boolean;
  connected: boolean;
  /** A person's seat with no connection for the server's away time. */
  away: boolean;
  /** The bot the host handed this person's seat to, while they are away. */
  stand_in: string | null;
  side: number;
}

export interface TableSummary {
  id: string;
  created_at: string;
  rules: string;
  rules_source: string | Record<string, unknown>;
  players: number;
  seats: SeatSummary[];
  spectators: number;
  version: number;
  hand_index: number;
  hands: HandSummary[];
  totals: number[];
  to_move: number | null;
  finished: boolean;
  winner: number | null;
  /** "host" once the host ended the game. */
  ended: string | null;
  public: boolean;
  broken: string | null;
}

export interface Invite {
  seat: number;
  token: string;
  link: string;
}

export interface Created {
  table: TableSummary;
  invites: Invite[];
  watch: string;
  watch_key: string;
  host: { key: string; link: string };
  websocket: string;
}

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
  foot?: string[];
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
  /** melded only: the rank letter of the meld the cards went onto, and whether it was already there. */
  rank?: string;
  added?: boolean;
}

export interface LastMove {
  seat: number;
  version: number;
  move: string;
  events: GameEvent[];
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

export interface StateMessage {
  type: "state";
  version: number;
  table: TableSummary;
  view: View;
  legal: string[];
  last: LastMove | null;
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
  | { type: "pong" };

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

export const api = {
  presets: () => request<PresetSummary[]>("GET", "/api/presets"),
  preset: (name: string) => request<PresetDetail>("GET", `/api/presets/${encodeURIComponent(name)}`),
  bots: () => request<{ bots: string[] }>("GET", "/api/bots"),
  table: (id: string, key?: string | null) => request<TableSummary>("GET", `/api/tables/${encodeURIComponent(id)}`, undefined, key),
  tables: () => request<TableSummary[]>("GET", "/api/tables"),
  create: (body: unknown) => request<Created>("POST", "/api/tables", body),
  join: (id: string, token: string, name: string) =>
    request<{ seat: number; name: string; table: TableSummary }>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/join`,
      { token, name },
    ),
  score: (body: unknown) => request<ScoreSheetResult>("POST", "/api/score", body),
  replay: (id: string, key?: string | null) => request<ReplayListing>("GET", `/api/tables/${encodeURIComponent(id)}/replay`, undefined, key),
  replayStep: (id: string, step: number, key?: string | null) =>
    request<ReplayStep>("GET", `/api/tables/${encodeURIComponent(id)}/replay/${step}`, undefined, key),
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
export interface ReplayListing {
  table: TableSummary;
  rules: Record<string, OptionValue>;
  seating: Seating;
  steps: { step: number; hand_index: number; seat: number | null; move: string | null; hand_end: boolean }[];
}

/** How a hand ended, at the step of its last move: scores, lines, and the cards each seat still held. */
export interface HandEnd {
  hand_index: number;
  scores: number[];
  went_out: number | null;
  reason: string;
  lines: ScoreLine[][];
  cards_left: { hand: string[]; foot: string[] }[];
}

/** The public view of a finished game at one step. */
export interface ReplayStep {
  step: number;
  steps: number;
  hand_index: number;
  seat: number | null;
  move: string | null;
  events: GameEvent[];
  view: View;
  totals: number[];
  hands_done: number;
  hand_end: HandEnd | null;
}

export interface ScoreSheetResult {
  rules: string;
  players: number;
  sides: number[][];
  fields: { name: string; help: string; kind: "count" | "flag" }[];
  hands: { scores: number[]; lines: ScoreLine[][]; totals: number[] }[];
  totals: number[];
  next_minimums: number[];
  game_end: string;
  finished: boolean;
  winner: number | null;
}

/** The WebSocket address of a table on this server. */
export function socketUrl(tableId: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}
