// Melds on a phone: each meld a small chip with its rank and size (a book's border says clean or dirty),
// so a side's melds fit on one or two lines. Tapping a chip shows that meld's cards; with cards selected
// that may go onto it (the server's legal list says so), the chip adds them instead, in one tap.
import { useEffect, useRef, useState } from "preact/hooks";
import type { MeldView } from "../api";
import { Card } from "../components";
import { meldWords } from "./words";

/** The media query under which melds are shown as chips: a phone, upright or sideways. */
export const COMPACT_QUERY = "(max-width: 600px), (max-height: 500px)";

/** True while the window is phone-sized (``COMPACT_QUERY``), following changes (a phone turned). */
export function useCompact(): boolean {
  const query = typeof window !== "undefined" && window.matchMedia ? window.matchMedia(COMPACT_QUERY) : null;
  const [compact, setCompact] = useState(Boolean(query?.matches));
  useEffect(() => {
    if (!query) return;
    const changed = () => setCompact(query.matches);
    query.addEventListener("change", changed);
    changed();
    return () => query.removeEventListener("change", changed);
  }, []);
  return compact;
}

/** A meld's rank as a chip shows it: "K", "10", "wild". */
export function chipRank(rank: string): string {
  return rank === "T" ? "10" : rank === "W" ? "wild" : rank;
}

/** What a meld is, in words: "clean book", "dirty book", "wild book", or its card count. */
export function meldKind(meld: MeldView, bookSize: number): string {
  if (meld.cards.length < bookSize) return `${meld.cards.length} ${meld.cards.length === 1 ? "card" : "cards"}`;
  return meld.rank === "W" ? "wild book" : meld.wilds === 0 ? "clean book" : "dirty book";
}

/** The melds whose size changed since the last render (or that are new after the first): they get a
 * short animation. Keyed by rank, for one owner's melds. */
export function useGrown(melds: readonly MeldView[]): Set<string> {
  const sizes = useRef<Map<string, number> | null>(null);
  const grown = new Set<string>();
  const before = sizes.current;
  if (before) for (const m of melds) if (before.get(m.rank) !== m.cards.length) grown.add(m.rank);
  useEffect(() => {
    sizes.current = new Map(melds.map((m) => [m.rank, m.cards.length]));
  });
  return grown;
}

export function MeldChips({
  melds,
  bookSize,
  mine,
  canAddTo,
  onAdd,
  order,
}: {
  melds: MeldView[];
  bookSize: number;
  mine: boolean;
  canAddTo: (rank: string) => boolean;
  onAdd: (rank: string) => void;
  /** A meld's cards as laid out (naturals first). */
  order: (cards: string[]) => string[];
}) {
  const [open, setOpen] = useState<string | null>(null);
  const grown = useGrown(melds);
  const shown = melds.find((m) => m.rank === open) ?? null;
  return (
    <>
      <div class="melds chips">
        {melds.length === 0 ? <p class="muted">No melds yet.</p> : null}
        {melds.map((m) => {
          const book = m.cards.length >= bookSize;
          const addable = mine && canAddTo(m.rank);
          const kind = meldKind(m, bookSize);
          const words = `${meldWords(m.rank)}: ${kind}${!book && m.wilds ? `, ${m.wilds} wild` : ""}`;
          return (
            <button
              type="button"
              key={`${m.rank}-${m.cards.length}`}
              class={`meld chip ${book ? `book ${m.wilds === 0 || m.rank === "W" ? "clean" : "dirty"}` : ""} ${addable ? "addable" : ""} ${open === m.rank ? "open" : ""} ${grown.has(m.rank) ? "meld-in" : ""}`}
              data-rank={m.rank}
              aria-expanded={addable ? undefined : open === m.rank}
              aria-label={addable ? `Add the selected cards to your ${meldWords(m.rank)}` : `${words}: show the cards`}
              onClick={() => (addable ? onAdd(m.rank) : setOpen(open === m.rank ? null : m.rank))}
            >
              {addable ? <span class="chip-add">+</span> : null}
              <span class="chip-rank">{chipRank(m.rank)}</span>
              <span class="chip-count">{m.cards.length}</span>
              {m.wilds && !book ? <span class="chip-wilds">★{m.wilds}</span> : null}
            </button>
          );
        })}
      </div>
      {shown ? (
        <div class="meld-open" data-testid="meld-open" role="group" aria-label={`The ${meldWords(shown.rank)}`}>
          <div class="meld-cards">
            {order(shown.cards).map((c, j) => (
              <Card key={j} code={c} small />
            ))}
          </div>
          <span class="meld-label">
            {meldWords(shown.rank)} · {meldKind(shown, bookSize)}
            {shown.cards.length < bookSize && shown.wilds ? ` · ${shown.wilds} wild` : ""}
          </span>
          <button type="button" class="link" onClick={() => setOpen(null)} aria-label="Hide the cards">
            ×
          </button>
        </div>
      ) : null}
    </>
  );
}
