// "These rules": a table's rules (or the lobby's chosen preset and changes) in plain words, grouped as
// the lobby groups the options, each option that differs from the preset it extends marked with the
// preset's value, the scoring table and the opening minimums, and a link to the one-sheet print page.
// The words are the server's (rules/plain.py): this module only lays them out. It opens as an overlay
// at every size (on a phone it fills the screen and scrolls inside), never as page length.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, type RuleSheet } from "./api";
import { ruleLessonsOn, setRuleLessons } from "./store";

export interface RulesPanelProps {
  /** Fetches the sheet when the panel opens (the table's or the lobby's form's rules). */
  load: () => Promise<RuleSheet>;
  /** The print page's address; the sheet's own ``print`` when absent. */
  printHref?: string;
  /** Offer the switch for the first-hand rule lines (at a table). */
  lessonSwitch?: boolean;
  onClose: () => void;
}

/** The rules panel as a modal dialog: Escape, the close button or a click outside closes it. */
export function RulesPanel({ load, printHref, lessonSwitch, onClose }: RulesPanelProps) {
  const [sheet, setSheet] = useState<RuleSheet | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [lessons, setLessons] = useState(ruleLessonsOn());
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let stop = false;
    load().then(
      (s) => !stop && setSheet(s),
      (e: unknown) => !stop && setProblem(e instanceof ApiError ? e.message : String(e)),
    );
    return () => {
      stop = true;
    };
  }, []);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const differing = sheet ? sheet.groups.flatMap((g) => g.lines).filter((l) => l.differs) : [];
  const changed = differing.length;
  const print = printHref ?? sheet?.print;

  return (
    <div class="overlay rules-overlay" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="dialog rules-panel" role="dialog" aria-modal="true" aria-labelledby="rules-title" data-testid="rules-panel">
        <div class="rules-head">
          <h2 id="rules-title">These rules{sheet ? `: ${sheet.title}` : ""}</h2>
          <button type="button" class="rules-close" ref={closeButton} onClick={onClose} aria-label="Close the rules">
            ×
          </button>
        </div>
        {problem ? (
          <p class="refusal" role="alert">
            These rules cannot be shown: {problem}
          </p>
        ) : !sheet ? (
          <p role="status">Loading the rules…</p>
        ) : (
          <>
            <p class="rules-summary">
              {sheet.summary} <span class="muted">{sheet.players}.</span>
            </p>
            {sheet.base ? (
              <p class="muted" data-testid="rules-changed">
                {changed ? `${changed} option${changed === 1 ? "" : "s"} differ${changed === 1 ? "s" : ""} from ${sheet.base}, marked “changed” below with ${sheet.base}'s value:` : `Exactly as ${sheet.base}.`}
              </p>
            ) : null}
            {changed ? (
              <ul class="rules-changes">
                {differing.map((line) => (
                  <li key={line.name}>
                    {line.help} <strong>{line.value}</strong> <span class="muted">(was {line.base_value})</span>
                  </li>
                ))}
              </ul>
            ) : null}
            <p class="rules-actions">
              {print ? (
                <a href={print} target="_blank" rel="noopener" data-testid="rules-print">
                  Print these rules
                </a>
              ) : null}
              {lessonSwitch ? (
                <label class="lesson-switch">
                  <input
                    type="checkbox"
                    checked={lessons}
                    data-testid="lessons-switch"
                    onChange={(e) => {
                      const on = (e.target as HTMLInputElement).checked;
                      setRuleLessons(on);
                      setLessons(on);
                    }}
                  />{" "}
                  Explain each rule the first time it matters in a first hand
                </label>
              ) : null}
            </p>
            {sheet.groups.map((group) =>
              group.lines.length ? (
                <section key={group.key} class="rules-group" aria-labelledby={`rules-${group.key}`}>
                  <h3 id={`rules-${group.key}`}>{group.title}</h3>
                  <dl>
                    {group.lines.map((line) => (
                      <div key={line.name} class={`rule-line${line.differs ? " differs" : ""}`} data-option={line.name}>
                        <dt>{line.help}</dt>
                        <dd>
                          <strong>{line.value}</strong>
                          {line.differs ? (
                            <span class="changed">
                              {" "}
                              changed <span class="muted">(was {line.base_value})</span>
                            </span>
                          ) : null}
                        </dd>
                      </div>
                    ))}
                  </dl>
                </section>
              ) : null,
            )}
            <section class="rules-group" aria-labelledby="rules-scoring">
              <h3 id="rules-scoring">Scoring</h3>
              <table class="sheet rules-table">
                <tbody>
                  {sheet.scoring.map(([what, points]) => (
                    <tr key={what}>
                      <td>{what}</td>
                      <td class="num">{points}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section class="rules-group" aria-labelledby="rules-openings">
              <h3 id="rules-openings">Opening minimums</h3>
              <table class="sheet rules-table">
                <tbody>
                  {sheet.openings.map(([when, points]) => (
                    <tr key={when}>
                      <td>{when}</td>
                      <td class="num">{points}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p class="muted">{sheet.opening_note}</p>
            </section>
          </>
        )}
      </div>
    </div>
  );
}
