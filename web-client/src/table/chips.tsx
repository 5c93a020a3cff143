// Melds as stacks, at every size (as Board Game Arena shows a canasta table): one small stack per meld with
// its face (the rank, or a run's span), its card count, its wilds and, once it is a book, a clean or dirty
// mark, so every seat's melds fit on the table during a turn. Tapping a stack shows that meld's cards;
// with cards selected that may go onto it (the engine's offers say so), the stack takes them instead, in
// one tap.
import { useEffect, useRef, useState } from "preact/hooks";
import type { MeldView } from "../api";
import { Card } from "../components";
import { meldWords } from "./words";

/** The media query under which the page is phone-sized (upright or sideways). */
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

/** What a stack shows on its face: the rank of a meld of one rank ("K", "10", "wild"). A meld of
 * another shape (a run of one suit, under a house rule that allows runs) gives its own face here. */
export function meldFace(meld: MeldView): string {
  return chipRank(meld.rank);
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

/** The clean or dirty mark of a book ("clean", "dirty"); null while the meld is not a book. A book of
 * wilds is clean. */
export function bookMark(meld: MeldView, bookSize: number): "clean" | "dirty" | null {
  if (meld.cards.length < bookSize) return null;
  return meld.wilds === 0 || meld.rank === "W" ? "clean" : "dirty";
}

/** One meld owner's melds as stacks; a tap shows a stack's cards (or adds the selection to it). */
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
          const mark = bookMark(m, bookSize);
          const addable = mine && canAddTo(m.rank);
          const kind = meldKind(m, bookSize);
          const wilds = m.wilds && m.rank !== "W" ? `, ${m.wilds} wild` : "";
          const wildCount = m.wilds && m.rank !== "W" ? m.wilds : 0;
          // The name starts with what the stack shows, in its order ("Q 4 1: queens, 4 cards, 1 wild"),
          // then says it in words.
          const shows = [meldFace(m), String(m.cards.length), ...(wildCount ? [String(wildCount)] : []), ...(mark ? [mark] : [])].join(" ");
          const words = `${shows}: ${meldWords(m.rank)}, ${kind}${wilds}`;
          return (
            <button
              type="button"
              key={`${m.rank}-${m.cards.length}`}
              class={`meld chip ${mark ? `book ${mark}` : ""} ${addable ? "addable" : ""} ${open === m.rank ? "open" : ""} ${grown.has(m.rank) ? "meld-in" : ""}`}
              data-rank={m.rank}
              aria-expanded={addable ? undefined : open === m.rank}
              aria-label={addable ? `${shows}: add the selected cards to your ${meldWords(m.rank)}` : `${words}: show the cards`}
              title={addable ? `Add the selected cards to your ${meldWords(m.rank)}` : `${meldWords(m.rank)}: ${kind}${wilds}`}
              onClick={() => (addable ? onAdd(m.rank) : setOpen(open === m.rank ? null : m.rank))}
            >
              <span class="chip-rank">{meldFace(m)}</span> <span class="chip-count">{m.cards.length}</span>
              {wildCount ? <> <span class="chip-wilds">{wildCount}</span></> : null}
              {mark ? <> <span class={`chip-book ${mark}`}>{mark}</span></> : null}
              {addable ? <span class="chip-add">+</span> : null}
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
