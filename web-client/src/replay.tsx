// A finished game replayed move by move: the public table at each step (what a spectator saw), the
// move that made it and what it caused. At the step that ends a hand the page also shows the cards each
// player still held: the game is over, and its record (with every deal) is already public.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, type ReplayListing, type ReplayStep } from "./api";
import { accessKey, secretsOf } from "./store";
import { sortCards } from "./cards";
import { Card, CardBack, HandBreakdown, Header, ScoreSheet } from "./components";
import { describeEvent, MeldRow, SeatCards, SidesStatus, seatLabel, winsText } from "./table";

function initialStep(): number {
  const raw = new URLSearchParams(location.search).get("step");
  const n = raw === null ? 0 : Number.parseInt(raw, 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

export function ReplayPage({ tableId }: { tableId: string }) {
  const [listing, setListing] = useState<ReplayListing | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [inPlay, setInPlay] = useState(false);
  const key = accessKey(tableId) ?? null;
  const [index, setIndex] = useState(initialStep());
  const [step, setStep] = useState<ReplayStep | null>(null);
  const cache = useRef(new Map<number, ReplayStep>());

  useEffect(() => {
    api.replay(tableId, key).then(
      (l) => {
        setListing(l);
        setIndex((i) => Math.min(i, l.steps.length - 1));
      },
      (e: Error) => {
        setInPlay(e instanceof ApiError && e.code === "not_finished");
        setProblem(e.message);
      },
    );
  }, [tableId]);

  const count = listing?.steps.length ?? 0;

  useEffect(() => {
    if (!listing) return;
    let stale = false;
    const load = (n: number): Promise<ReplayStep> => {
      const known = cache.current.get(n);
      if (known) return Promise.resolve(known);
      return api.replayStep(tableId, n, key).then((s) => {
        cache.current.set(n, s);
        return s;
      });
    };
    load(index).then(
      (s) => {
        if (!stale) setStep(s);
      },
      (e: Error) => setProblem(e.message),
    );
    if (index + 1 < count) void load(index + 1).catch(() => undefined);
    const url = new URL(location.href);
    url.searchParams.set("step", String(index));
    history.replaceState(null, "", url);
    return () => {
      stale = true;
    };
  }, [listing, index]);

  const go = (n: number) => setIndex(Math.max(0, Math.min(count - 1, n)));
  const handStarts = (listing?.steps ?? []).filter((s, i, all) => i === 0 || s.hand_index !== all[i - 1]?.hand_index || all[i - 1]?.hand_end);
  const prevHand = () => {
    const before = handStarts.map((s) => s.step).filter((s) => s < index);
    go(before.length ? (before[before.length - 1] ?? 0) : 0);
  };
  const nextHandEnd = () => {
    const ends = (listing?.steps ?? []).filter((s) => s.hand_end && s.step > index);
    go(ends[0]?.step ?? count - 1);
  };

  // The keys act on this render's step and count: the handler is replaced on every render (as the table
  // page's is) and registered once, so a key pressed as soon as a step shows is never read with the
  // previous render's values.
  const keys = useRef<(ev: KeyboardEvent) => void>(() => undefined);
  keys.current = (ev: KeyboardEvent) => {
    const target = ev.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "ArrowRight") go(index + 1);
    else if (ev.key === "ArrowLeft") go(index - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(count - 1);
    else if (ev.key === "PageDown") nextHandEnd();
    else if (ev.key === "PageUp") prevHand();
    else return;
    ev.preventDefault();
  };
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => keys.current(ev);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (problem) {
    const mine = secretsOf(tableId);
    const watchHref = mine.token ? `/play/${tableId}#seat=${mine.token}` : `/watch/${tableId}${mine.key ? `#key=${mine.key}` : mine.host ? `#host=${mine.host}` : ""}`;
    return (
      <div class="page">
        <Header />
        <main class="panel">
          <h1>{inPlay ? "This game is still being played" : "No replay"}</h1>
          <p role="alert">{inPlay ? "A game can be replayed move by move once it is over." : problem}</p>
          {inPlay ? (
            <p>
              <a class="button primary" href={watchHref} data-testid="watch-in-play">
                {mine.token ? "Back to your seat" : "Watch it being played"}
              </a>
            </p>
          ) : null}
          <p>
            <a href="/">Back to the lobby</a>
          </p>
        </main>
      </div>
    );
  }
  if (!listing || !step) {
    return (
      <div class="page">
        <Header />
        <main class="panel">
          <p role="status">Loading the game…</p>
        </main>
      </div>
    );
  }

  const { table, seating, rules } = listing;
  const view = step.view;
  const label = (s: number) => seatLabel(table, s, null);
  const sideNames = seating.sides.map((seats) => seats.map(label).join(" & "));
  const owners = Array.from(new Set([...seating.owner_of, ...view.melds.map((m) => m.owner)])).sort((a, b) => a - b);
  const ownerName = (owner: number) =>
    seating.owner_of
      .map((o, s) => (o === owner ? label(s) : null))
      .filter(Boolean)
      .join(" & ");
  const ownerSide = (owner: number) => seating.side_of[seating.owner_of.indexOf(owner)] ?? owner;
  const bookSize = Number(rules.book_size ?? 7);
  const freezes = Boolean(rules.black_three_freezes);
  const events = step.events.map((e) => describeEvent(e, label, freezes)).filter((e) => e !== null);
  const end = step.hand_end;
  const top = view.pile_top;
  const handsSoFar = table.hands.slice(0, step.hands_done);

  return (
    <div class="page table-page replay-page">
      <Header />
      <main class="felt" aria-label="Replay of a finished game" data-step={step.step} data-steps={count} data-hand={step.hand_index}>
        <section class="infobar" aria-label="Game information">
          <span>
            <strong>{table.rules}</strong> · replay · hand {step.hand_index + 1}
          </span>
          {sideNames.map((n, i) => (
            <span key={i} class="total">
              {n}: <strong>{step.totals[i] ?? 0}</strong>
            </span>
          ))}
        </section>

        <section class="replay-controls" aria-label="Step through the game">
          <button type="button" onClick={() => go(0)} disabled={index === 0} aria-keyshortcuts="Home">
            « First
          </button>
          <button type="button" onClick={() => go(index - 1)} disabled={index === 0} aria-keyshortcuts="ArrowLeft">
            ◀ Previous
          </button>
          <span class="step-count" data-testid="step-count">
            Step {step.step} of {count - 1}
          </span>
          <button type="button" class="primary" onClick={() => go(index + 1)} disabled={index >= count - 1} aria-keyshortcuts="ArrowRight">
            Next ▶
          </button>
          <button type="button" onClick={() => go(count - 1)} disabled={index >= count - 1} aria-keyshortcuts="End">
            Last »
          </button>
          <button type="button" class="link" onClick={nextHandEnd} disabled={index >= count - 1} aria-keyshortcuts="PageDown">
            To the hand's end
          </button>
          <input
            type="range"
            min={0}
            max={count - 1}
            value={index}
            aria-label="Step"
            onInput={(e) => go(Number((e.target as HTMLInputElement).value))}
          />
          <span class="muted keys">Keys: ← → step · Home/End first/last · PgUp/PgDn hand</span>
        </section>

        <section class="turn replay-event" aria-live="polite" data-testid="replay-event">
          {step.move === null || step.seat === null ? (
            <strong>The deal of hand 1. {label(view.to_move)} plays first.</strong>
          ) : (
            <>
              <strong>
                {label(step.seat)}: <code data-testid="replay-move">{step.move}</code>
              </strong>
              <ul class="events">
                {events.map((e, i) => (
                  <li key={i} class={e.notable ? "notable" : ""}>
                    {e.text}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>

        <section class="opponents" aria-label="Players">
          {seating.owner_of.map((_, s) => {
            const sv = view.seats[s];
            if (!sv) return null;
            return (
              <div key={s} class={`opponent ${view.to_move === s && view.phase !== "over" ? "to-move" : ""}`} data-seat={s}>
                <div class="who">{label(s)}</div>
                <SeatCards seat={sv} />
              </div>
            );
          })}
        </section>

        <section class="center" aria-label="Stock and discard pile">
          <div class="stock">
            <div class="stack">
              <CardBack label={`stock: ${view.stock_size} cards`} />
            </div>
            <div class="caption">Stock {view.stock_size}</div>
          </div>
          <div class="pile">
            <div class="stack">{top ? <Card code={top} label={`discard pile top: ${top}`} /> : <span class="card empty">empty</span>}</div>
            <div class="caption" data-testid="replay-pile">
              Discard pile {view.pile_size}
            </div>
          </div>
          <SidesStatus view={view} owners={owners} ownerName={ownerName} ownerSide={ownerSide} />
        </section>

        <section class="melds-area" aria-label="Melds">
          {owners.map((owner) => (
            <MeldRow
                owner={owner}
              key={owner}
              title={`${ownerName(owner)}: melds`}
              melds={view.melds.filter((m) => m.owner === owner)}
              bookSize={bookSize}
              books={view.books[owner]}
              mine={false}
              canAddTo={() => false}
              onAdd={() => undefined}
            />
          ))}
        </section>

        {end ? (
          <section class="panel hand-end" aria-labelledby="replay-end-title" data-testid="replay-hand-end">
            <h2 id="replay-end-title">
              Hand {end.hand_index + 1} is over
              {end.went_out !== null ? ` — ${label(end.went_out)} went out` : end.reason === "stock_out" ? " — the stock ran out" : ""}
            </h2>
            <h3>Cards still held</h3>
            <div class="cards-left">
              {end.cards_left.map((left, s) => (
                <div key={s} class="left-seat" data-seat={s}>
                  <div class="who">{label(s)}</div>
                  <div class="left-row">
                    <span class="muted">Hand:</span>
                    {left.hand.length ? sortCards(left.hand).map((c, i) => <Card key={i} code={c} small />) : <span class="muted"> none</span>}
                  </div>
                  {left.foot.length ? (
                    <div class="left-row">
                      <span class="muted">Foot, never picked up:</span>
                      {sortCards(left.foot).map((c, i) => (
                        <Card key={i} code={c} small />
                      ))}
                    </div>
                  ) : null}
                </div>
              ))}
            </div>
            <HandBreakdown sides={sideNames} hand={{ scores: end.scores, went_out: end.went_out, reason: end.reason, lines: end.lines }} />
            {step.step === count - 1 ? (
              <p class="winner-line" data-testid="replay-winner">
                {table.winner === null ? "The game ends in a tie." : `${winsText(sideNames[table.winner] ?? "?", seating.sides[table.winner]?.length ?? 1)} the game.`}
              </p>
            ) : null}
          </section>
        ) : null}

        <aside class="side-panels">
          <details class="panel-box" open>
            <summary>Score sheet</summary>
            <ScoreSheet sides={sideNames} hands={handsSoFar} totals={step.totals} winner={table.winner} finished={step.step === count - 1} />
            <p>
              <button type="button" class="link" onClick={() => void api.downloadRecord(tableId, key)}>
                Download the game record
              </button>
            </p>
          </details>
        </aside>
      </main>
    </div>
  );
}
