// The lobby's rule options: an option's value as the form's text and back (with what was wrong), and one
// option's field.
import type { OptionInfo, OptionValue } from "../api";

/** The option's value as the text of its field ("a, b" for a list, "k=v, ..." for a table). */
export function toText(value: OptionValue): string {
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}=${v}`).join(", ");
  return String(value);
}

/** The option's value from its edited text, or an error sentence. */
export function fromText(original: OptionValue, text: string, perHand = false): { value: OptionValue } | { error: string } {
  const trimmed = text.trim();
  if (Array.isArray(original) || (perHand && trimmed.includes(","))) {
    if (!trimmed) return { value: [] };
    const parts = trimmed.split(/[,\s]+/).filter(Boolean);
    const numbers = parts.map(Number);
    if (numbers.some((n) => !Number.isInteger(n))) return { error: "write whole numbers separated by commas" };
    return { value: numbers };
  }
  if (typeof original === "object") {
    const out: Record<string, number> = {};
    for (const part of trimmed.split(",").map((p) => p.trim()).filter(Boolean)) {
      const [key, val] = part.split("=").map((s) => s.trim());
      const n = Number(val);
      if (!key || val === undefined || !Number.isInteger(n)) return { error: "write pairs like JK=50, 2=20" };
      out[key] = n;
    }
    return { value: out };
  }
  if (typeof original === "number") {
    const n = Number(trimmed);
    if (!trimmed || !Number.isInteger(n)) return { error: "write a whole number" };
    return { value: n };
  }
  return { value: text };
}

/** True when two option values are the same (lists and tables compared by content). */
export function same(a: OptionValue, b: OptionValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One option's field, with its help and what was wrong with its text. */
export function OptionField({
  option,
  text,
  error,
  changed,
  onChange,
  onReset,
}: {
  option: OptionInfo;
  text: string | undefined;
  error: string | undefined;
  changed: boolean;
  onChange: (text: string) => void;
  onReset: () => void;
}) {
  const id = `opt-${option.name}`;
  const current = text ?? toText(option.value);
  let input;
  if (option.choices) {
    input = (
      <select id={id} value={current} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {option.choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  } else if (typeof option.value === "boolean") {
    input = <input id={id} type="checkbox" checked={current === "true"} onChange={(e) => onChange(String((e.target as HTMLInputElement).checked))} />;
  } else {
    input = <input id={id} type={typeof option.value === "number" ? "number" : "text"} value={current} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />;
  }
  return (
    <div class={`option ${changed ? "changed" : ""} ${error ? "invalid" : ""}`}>
      <label for={id} class="option-help">
        {option.help}
      </label>
      {input}
      {changed || error ? (
        <button type="button" class="link" onClick={onReset}>
          reset
        </button>
      ) : null}
      <p class="help">
        <code>{option.name}</code>
      </p>
      {error ? <p class="field-error">{error}</p> : null}
    </div>
  );
}

/** Who partners whom: "Seat 1 and Seat 3 are partners (team 1)", or that everyone plays alone. */
