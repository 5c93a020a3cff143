// The score pad for a game played with real cards. Every number on it comes from the server's
// POST /api/score, which scores with the engine (nothing is scored here).
import { useEffect, useState } from "preact/hooks";
import { api, type PresetSummary, type ScoreSheetResult } from "./api";
import { Header, Lines, ScoreSheet, signed } from "./components";

type Entry = Record<string, number | boolean>;

interface Pad {
  preset: string;
  players: number | null;
  names: string[];
  hands: Entry[][];
}

const KEY = "handfoot.scorepad";

const LABELS: Record<string, string> = {
  clean_books: "Clean books",
  dirty_books: "Dirty books",
  wild_books: "Wild books",
  melded_points: "Melded points",
  red_threes: "Red 3s",
  held_points: "Points left in hand/foot",
  exact_deals: "Exact deals",
  short_melds: "Short openings",
  went_out: "Went out",
};

function loadPad(): Pad {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "null") as Pad | null;
    if (data && typeof data.preset === "string" && Array.isArray(data.hands)) return data;
  } catch {
    // a damaged pad starts again
  }
  return { preset: "kitchen-table", players: null, names: [], hands: [] };
}

function savePad(pad: Pad): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(pad));
  } catch {
    // ignore
  }
}

export function ScorePad() {
  const [pad, setPad] = useState<Pad>(loadPad);
  const [presets, setPresets] = useState<PresetSummary[]>([]);
  const [result, setResult] = useState<ScoreSheetResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [draft, setDraft] = useState<Entry[]>([]);

  useEffect(() => {
    api.presets().then(setPresets, (e: Error) => setProblem(e.message));
  }, []);

  // Score the sheet whenever it changes (the server is the only scorer).
  useEffect(() => {
    savePad(pad);
    api.score({ preset: pad.preset, players: pad.players ?? undefined, hands: pad.hands }).then(
      (r) => {
        setResult(r);
        setProblem(null);
        setDraft((old) => (old.length === r.sides.length ? old : r.sides.map(() => ({}))));
      },
      (e: Error) => setProblem(e.message),
    );
  }, [JSON.stringify(pad)]);

  const preset = presets.find((p) => p.name === pad.preset);
  const sideNames = (result?.sides ?? []).map((seats, i) => pad.names[i] || (seats.length > 1 ? `Team ${i + 1}` : `Player ${i + 1}`));

  async function addHand(ev: Event) {
    ev.preventDefault();
    const hands = [...pad.hands, draft];
    try {
      await api.score({ preset: pad.preset, players: pad.players ?? undefined, hands });
      setPad({ ...pad, hands });
      setDraft(draft.map(() => ({})));
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  }

  function setField(side: number, name: string, value: number | boolean) {
    setDraft((old) => old.map((entry, i) => (i !== side ? entry : { ...entry, [name]: value })));
    if (name === "went_out" && value === true) {
      setDraft((old) => old.map((entry, i) => (i === side ? entry : { ...entry, went_out: false })));
    }
  }

  return (
    <div class="page scorepad">
      <Header />
      <main>
        <h1>Score pad</h1>
        <p class="muted">For a game played with real cards: enter what each side has at the end of each hand. The server scores it with the game's own rules.</p>
        <section class="panel pad-setup" aria-label="House rules">
          <label>
            House rules{" "}
            <select
              id="pad-preset"
              value={pad.preset}
              onChange={(e) => setPad({ preset: (e.target as HTMLSelectElement).value, players: null, names: pad.names, hands: [] })}
            >
              {presets.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}: {p.title}
                </option>
              ))}
            </select>
          </label>
          <label>
            Players{" "}
            <select
              id="pad-players"
              value={String(pad.players ?? result?.players ?? "")}
              onChange={(e) => setPad({ ...pad, players: Number((e.target as HTMLSelectElement).value), hands: [] })}
            >
              {(preset?.players_allowed ?? []).map((n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          {preset ? <p class="muted">{preset.summary}</p> : null}
          <button
            type="button"
            onClick={() => {
              if (confirm("Start a new score sheet? The hands entered so far are cleared.")) setPad({ ...pad, hands: [] });
            }}
          >
            New game
          </button>
        </section>

        {problem ? (
          <p class="refusal" role="alert" data-testid="pad-problem">
            {problem}
          </p>
        ) : null}

        {result ? (
          <>
            <form class="panel pad-entry" onSubmit={addHand} aria-label={`Hand ${result.hands.length + 1}`}>
              <h2>Hand {result.hands.length + 1}</h2>
              <div class="pad-sides">
                {result.sides.map((seats, side) => (
                  <fieldset key={side} class="pad-side">
                    <legend>
                      <input
                        aria-label={`Name of side ${side + 1}`}
                        value={sideNames[side]}
                        onInput={(e) => {
                          const names = [...pad.names];
                          names[side] = (e.target as HTMLInputElement).value;
                          setPad({ ...pad, names });
                        }}
                      />
                      <span class="muted"> needs {result.next_minimums[side]} to open · seats {seats.map((s) => s + 1).join(", ")}</span>
                    </legend>
                    {result.fields.map((field) => (
                      <label key={field.name} class="pad-field" title={field.help}>
                        <span>{LABELS[field.name] ?? field.name}</span>
                        {field.kind === "flag" ? (
                          <input
                            type="checkbox"
                            name={`${field.name}-${side}`}
                            checked={draft[side]?.[field.name] === true}
                            onChange={(e) => setField(side, field.name, (e.target as HTMLInputElement).checked)}
                          />
                        ) : (
                          <input
                            type="number"
                            min="0"
                            step="1"
                            inputMode="numeric"
                            name={`${field.name}-${side}`}
                            value={String(draft[side]?.[field.name] ?? "")}
                            placeholder="0"
                            onInput={(e) => {
                              const v = (e.target as HTMLInputElement).value;
                              setField(side, field.name, v === "" ? 0 : Number(v));
                            }}
                          />
                        )}
                        <small class="help">{field.help}</small>
                      </label>
                    ))}
                  </fieldset>
                ))}
              </div>
              <button type="submit" class="primary" disabled={result.finished}>
                Score hand {result.hands.length + 1}
              </button>
            </form>

            <section class="panel" aria-label="Score sheet">
              <h2>Score sheet · {result.rules}</h2>
              <ScoreSheet sides={sideNames} hands={result.hands} totals={result.totals} winner={result.winner} finished={result.finished} />
              <p data-testid="next-minimums">
                Opening minimum next hand:{" "}
                {sideNames.map((n, i) => (
                  <span key={i} class="min">
                    {n} <strong>{result.next_minimums[i]}</strong>
                  </span>
                ))}
              </p>
              {result.finished ? (
                <p class="winner-line">{result.winner === null ? "The game ends in a tie." : `${sideNames[result.winner]} win the game!`}</p>
              ) : null}
              {result.hands.map((hand, h) => (
                <details key={h} class="pad-hand" open={h === result.hands.length - 1}>
                  <summary>
                    Hand {h + 1}: {hand.scores.map((s, i) => `${sideNames[i]} ${signed(s)}`).join(" · ")}
                  </summary>
                  <div class="breakdown">
                    {hand.lines.map((lines, i) => (
                      <section key={i} class="side-score">
                        <h4>
                          {sideNames[i]} <span class="score">{signed(hand.scores[i] ?? 0)}</span>
                        </h4>
                        <Lines lines={lines} />
                      </section>
                    ))}
                  </div>
                  {h === result.hands.length - 1 ? (
                    <button type="button" class="link" onClick={() => setPad({ ...pad, hands: pad.hands.slice(0, -1) })}>
                      Remove this hand
                    </button>
                  ) : null}
                </details>
              ))}
            </section>
          </>
        ) : null}
      </main>
    </div>
  );
}
