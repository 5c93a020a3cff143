// The tables this browser has created, joined or watched (localStorage only; nothing leaves the browser).

export interface RecentTable {
  id: string;
  rules: string;
  when: string;
  /** The seat this browser plays, with its secret token; absent for a table only watched or created. */
  seat?: number;
  token?: string;
  name?: string;
  /** Invitation links of a table created here, so they can be sent again. */
  invites?: { seat: number; link: string }[];
}

const KEY = "handfoot.recent";
const NAME_KEY = "handfoot.name";
const MAX = 20;

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
  const old = all.find((t) => t.id === entry.id && (entry.seat === undefined || t.seat === entry.seat));
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
