// What this browser remembers (localStorage only; nothing leaves the browser): the tables it created,
// joined or watched, with the secrets of their links, so reopening a table brings you back to your seat;
// your name; whether turn sounds are on.

export interface RecentTable {
  id: string;
  rules: string;
  when: string;
  /** The seat this browser plays, with its secret token; absent for a table only watched or created. */
  seat?: number;
  token?: string;
  name?: string;
  /** The table's watch key (a private table is watched only with it). */
  key?: string;
  /** The table's host key: this browser created the table. */
  host?: string;
  /** Invitation links of a table created here, so they can be sent again. */
  invites?: { seat: number; link: string }[];
  /** The watch link of a table created here. */
  watch?: string;
}

const KEY = "handfoot.recent";
const NAME_KEY = "handfoot.name";
const SOUND_KEY = "handfoot.sound";
const MAX = 30;

export function recentTables(): RecentTable[] {
  try {
    const data: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(data) ? (data as RecentTable[]).filter((t) => typeof t.id === "string") : [];
  } catch {
    return [];
  }
}

/** Remember a table (merged with what is already known of it), most recent first. */
export function remember(entry: RecentTable): void {
  const all = recentTables();
  const old = all.find((t) => t.id === entry.id && (entry.seat === undefined || t.seat === entry.seat || t.seat === undefined));
  const merged = { ...old, ...entry, when: new Date().toISOString() };
  const rest = all.filter((t) => t !== old);
  try {
    localStorage.setItem(KEY, JSON.stringify([merged, ...rest].slice(0, MAX)));
  } catch {
    // Storage may be full or disabled; the list is a convenience only.
  }
}

export function forget(id: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(recentTables().filter((t) => t.id !== id)));
  } catch {
    // ignore
  }
}

/** Every secret this browser holds for a table: its seat (token and name), the watch key, the host key. */
export function secretsOf(id: string): { token?: string; seat?: number; name?: string; key?: string; host?: string } {
  const out: { token?: string; seat?: number; name?: string; key?: string; host?: string } = {};
  for (const t of recentTables().filter((r) => r.id === id)) {
    if (t.token && !out.token) {
      out.token = t.token;
      if (t.seat !== undefined) out.seat = t.seat;
      if (t.name) out.name = t.name;
    }
    if (t.key && !out.key) out.key = t.key;
    if (t.host && !out.host) out.host = t.host;
  }
  return out;
}

/** The secret to show the server for a table (any one of its links opens it). */
export function accessKey(id: string): string | undefined {
  const s = secretsOf(id);
  return s.token ?? s.key ?? s.host;
}

export function savedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

export function saveName(name: string): void {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // ignore
  }
}

export function soundOn(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

export function setSound(on: boolean): void {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // ignore
  }
}

const FOUR_KEY = "handfoot.four-colours";

/** Whether cards are shown in four colours (spades black, hearts red, diamonds blue, clubs green). */
export function fourColours(): boolean {
  try {
    return localStorage.getItem(FOUR_KEY) === "on";
  } catch {
    return false;
  }
}

export function setFourColours(on: boolean): void {
  try {
    localStorage.setItem(FOUR_KEY, on ? "on" : "off");
  } catch {
    // private mode: the choice holds for this page only
  }
}

const LESSONS_KEY = "handfoot.rule-lessons";

/** Whether the table explains a rule in one line the first time it matters in a first hand. */
export function ruleLessonsOn(): boolean {
  try {
    return localStorage.getItem(LESSONS_KEY) !== "off";
  } catch {
    return true;
  }
}

export function setRuleLessons(on: boolean): void {
  try {
    localStorage.setItem(LESSONS_KEY, on ? "on" : "off");
  } catch {
    // private mode: the choice holds for this page only
  }
}
