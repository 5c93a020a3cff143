// The server's HTTP lobby and WebSocket protocol v1 (docs/protocol.md), as types and small helpers. The
// HTTP answers' types are the server's own (src/generated/answers.ts, written from
// src/handfoot/server/wire/answers.py), and so are the messages' (src/generated/messages.ts).

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

// The messages' types are the server's own (src/generated/messages.ts, written from
// src/handfoot/server/wire/messages.py), under the names the client uses.
export type SeatView = Server.SeatViewJson;
export type MeldView = Server.MeldViewJson;
export type BookCount = Server.BookCountJson;
/** A seat's view of the hand in play; ``foot`` is the seat's own unplayed Foot, only where the rules let a
 * player see it (pick_foot_seen). */
export type View = Server.ViewJson;
/** An engine event; melded and book events of a history entry also carry the meld's ``rank``, melded ones
 * whether the cards went onto a meld already there (``added``). */
export type GameEvent = Server.EventJson;
/** A move's public history entry; ``facts`` are the rules the move brought up (keys of the rules'
 * one-line lessons: pile_frozen, red_three, opening, took_pile, went_out), worked out by the server. */
export type LastMove = Server.LastMoveJson;
export type Seating = Server.SeatingJson;
/** The first message of a connection; its ``history`` holds the table's recent moves, oldest first. The
 * rules are typed here in more detail than the server's model gives. */
export type Welcome = Omit<Server.WelcomeMessage, "rules"> & { rules: Record<string, OptionValue> };

/** A seat's position in sentences, from the engine's outlook (docs/protocol.md, "state"): what going
 * out still needs, whether the pile may be taken (and why not), a last turn, an empty stock, and the
 * hand's card values. */
export type Outlook = Server.OutlookJson;

export type StateMessage = Server.StateMessage;
export type Refused = Server.RefusedMessage;
/** A trainer hint, sent only to the seat that asked (docs/protocol.md, "hint"); ``groups`` holds the cards
 * of each group the move names (one card for a discard; none for draw, ask, yes, no). */
export type HintMessage = Server.HintMessage;
/** A seat's new invitation link, sent to the host who asked for it only (the seat's old link opens nothing). */
export type InviteMessage = Server.InviteMessage;
export type ServerMessage = Welcome | Exclude<Server.ServerMessageJson, Server.WelcomeMessage>;

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

