// First-hand rule lines: in a player's first hand at a table (the table's first hand), the first time a
// rule matters (a black 3 freezes the pile, a red 3 is laid, a side opens, the pile is taken, someone
// goes out) the table shows that rule in one line. The server says which rules a move brought up (the
// ``facts`` of each state's ``last`` move, worked out from the engine's events) and how this table plays
// each (``lessons`` of GET /api/tables/{id}/rules); this module only shows the line. Switched off or on
// in the browser (store.ts); each rule is explained once per table and tab, also across a reload.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, type RuleSheet, type StateMessage } from "./api";
import { ruleLessonsOn, setRuleLessons } from "./store";

const sheets = new Map<string, Promise<RuleSheet>>();

/** A table's rules in plain words, fetched once per page (the rules panel and the lessons share it). */
export function tableRules(tableId: string, key: string | null): Promise<RuleSheet> {
  let sheet = sheets.get(tableId);
  if (!sheet) {
    sheet = api.tableRules(tableId, key);
    sheet.catch(() => sheets.delete(tableId));
    sheets.set(tableId, sheet);
  }
  return sheet;
}

function seenKey(tableId: string): string {
  return `handfoot.lessons-seen.${tableId}`;
}

function seenFacts(tableId: string): Set<string> {
  try {
    const data: unknown = JSON.parse(sessionStorage.getItem(seenKey(tableId)) ?? "[]");
    return new Set(Array.isArray(data) ? data.filter((f): f is string => typeof f === "string") : []);
  } catch {
    return new Set();
  }
}

function rememberSeen(tableId: string, seen: Set<string>): void {
  try {
    sessionStorage.setItem(seenKey(tableId), JSON.stringify([...seen]));
  } catch {
    // private mode: remembered for this page only
  }
}

export interface Lesson {
  fact: string;
  text: string;
}

export interface RuleLessons {
  /** The line shown now, if any. */
  line: Lesson | null;
  /** Read a state message (stable: safe to call from a handler made once). */
  note: (message: StateMessage, me: number | null) => void;
  dismiss: () => void;
  switchOff: () => void;
}

/** The first-hand rule lines of a table, for the seat ``me`` passed to ``note`` (spectators get none). */
export function useRuleLessons(tableId: string, key: string | null): RuleLessons {
  const [line, setLine] = useState<Lesson | null>(null);
  const texts = useRef<Record<string, string> | null>(null);
  const waiting = useRef<string | null>(null);
  const seen = useRef<Set<string>>(seenFacts(tableId));
  const lastVersion = useRef(-1);

  useEffect(() => {
    tableRules(tableId, key).then(
      (sheet) => {
        texts.current = sheet.lessons ?? {};
        const fact = waiting.current;
        waiting.current = null;
        const text = fact ? texts.current[fact] : undefined;
        if (fact && text && ruleLessonsOn()) setLine({ fact, text });
      },
      () => {
        texts.current = {};
      },
    );
  }, [tableId]);

  const note = useCallback((message: StateMessage, me: number | null) => {
    const last = message.last;
    if (!last || last.version <= lastVersion.current) return;
    lastVersion.current = last.version;
    if (me === null || !ruleLessonsOn()) return;
    // The hand the move was played in: one that ends a hand deals the next in the same move.
    const hand = message.view.hand_index - (last.events.some((e) => e.type === "new_hand") ? 1 : 0);
    if (hand !== 0) {
      setLine(null);
      return;
    }
    // One line at a time: the move's first rule not yet explained (any other waits for its next time).
    const fact = last.facts.find((f) => !seen.current.has(f));
    if (!fact) return;
    seen.current.add(fact);
    rememberSeen(tableId, seen.current);
    if (texts.current === null) {
      waiting.current = fact;
      return;
    }
    const text = texts.current[fact];
    if (text) setLine({ fact, text });
  }, []);

  const dismiss = useCallback(() => setLine(null), []);
  const switchOff = useCallback(() => {
    setRuleLessons(false);
    setLine(null);
  }, []);
  return { line, note, dismiss, switchOff };
}

/** The rule line, with "Got it" and "Don't explain rules" (remembered in this browser). */
export function RuleLessonLine({ lessons }: { lessons: RuleLessons }) {
  const line = lessons.line;
  if (!line) return null;
  return (
    <div class="rule-lesson" role="status" data-testid="rule-lesson" data-fact={line.fact}>
      <span class="rule-lesson-text">
        <strong>Rule:</strong> {line.text}
      </span>{" "}
      <button type="button" class="link" onClick={lessons.dismiss}>
        Got it
      </button>
      <button type="button" class="link" data-testid="lessons-off" onClick={lessons.switchOff}>
        Don't explain rules
      </button>
    </div>
  );
}
