// The lobby's form that creates a table: a preset, any option changed, the player count, each seat an
// invitation or a bot, private or listed; the print page and the rules of the choice.
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, ApiError, rulesQuery, type Created, type OptionInfo, type OptionValue, type PresetDetail, type PresetSummary } from "../api";
import { botChoices } from "../bots";
import { RulesPanel } from "../rules_panel";
import { remember } from "../store";
import { fromText, OptionField, same } from "./options";

interface SeatChoice {
  kind: "invite" | "bot";
  bot: string;
}

/** The text an option is edited as: lists as "50, 90", tables as "JK=50, 2=20". */

/** The print page of a preset with the options changed in the form (rules are no secret: they may go in the address). */
export function printHref(preset: string, options: Record<string, OptionValue>): string {
  return `/rules/print?${rulesQuery(preset, options)}`;
}

/** The form that creates a table; ``onCreated`` gets the server's answer. */
export function CreateForm({ presets, bots, onCreated }: { presets: PresetSummary[]; bots: string[]; onCreated: (c: Created) => void }) {
  const [presetName, setPresetName] = useState(presets[0]?.name ?? "");
  const [detail, setDetail] = useState<PresetDetail | null>(null);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [players, setPlayers] = useState(4);
  const [seats, setSeats] = useState<SeatChoice[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [teams, setTeams] = useState<number[][] | null>(null);
  const [busy, setBusy] = useState(false);
  const [listed, setListed] = useState(false);
  const [rulesOpen, setRulesOpen] = useState(false);
  const defaultBot = bots.includes("medium") ? "medium" : (bots[0] ?? "");

  useEffect(() => {
    api.preset(presetName).then((d) => {
      setDetail(d);
      setEdits({});
      setPlayers(d.default_players);
    }, (e: Error) => setRefusal(e.message));
  }, [presetName]);

  useEffect(() => {
    setSeats((old) => Array.from({ length: players }, (_, i) => old[i] ?? { kind: "invite", bot: defaultBot }));
  }, [players, defaultBot]);

  // The options that differ from the preset, or the first edit that is not a value.
  const parsed = useMemo(() => {
    const options: Record<string, OptionValue> = {};
    const errors: Record<string, string> = {};
    for (const option of detail?.options ?? []) {
      const text = edits[option.name];
      if (text === undefined) continue;
      const result = fromText(option.value, text, option.per_hand ?? false);
      if ("error" in result) errors[option.name] = result.error;
      else if (!same(result.value, option.value)) options[option.name] = result.value;
    }
    return { options, errors };
  }, [detail, edits]);

  const allowed = (() => {
    const value = parsed.options.players_allowed ?? detail?.players_allowed ?? [];
    return Array.isArray(value) ? value : [];
  })();

  // Ask the server whether this combination of rules and players is allowed, and how the teams sit.
  useEffect(() => {
    if (!detail || Object.keys(parsed.errors).length) return;
    const timer = window.setTimeout(() => {
      api.score({ preset: detail.name, options: parsed.options, players, hands: [] }).then(
        (r) => {
          setTeams(r.sides);
          setRefusal(null);
        },
        (e: Error) => {
          setTeams(null);
          setRefusal(e.message);
        },
      );
    }, 200);
    return () => window.clearTimeout(timer);
  }, [detail, JSON.stringify(parsed.options), players]);

  async function create(ev: Event) {
    ev.preventDefault();
    if (!detail) return;
    setBusy(true);
    try {
      const result = await api.create({
        preset: detail.name,
        options: parsed.options,
        players,
        seats: seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "invite" })),
        public: listed,
        // The first hand waits until everyone invited has opened their link (the host can start without them).
        wait_for_players: true,
      });
      remember({
        id: result.table.id,
        rules: result.table.rules,
        when: "",
        invites: result.invites.map((i) => ({ seat: i.seat, link: i.link })),
        key: result.watch_key,
        host: result.host.key,
        watch: result.watch,
      });
      onCreated(result);
    } catch (e) {
      setRefusal(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  const sections = useMemo(() => {
    const out: { title: string; options: OptionInfo[] }[] = [];
    for (const option of detail?.options ?? []) {
      const last = out[out.length - 1];
      if (last && last.title === option.group_title) last.options.push(option);
      else out.push({ title: option.group_title, options: [option] });
    }
    return out;
  }, [detail]);

  const teamOf = (seat: number) => teams?.findIndex((t) => t.includes(seat)) ?? -1;
  const changed = Object.keys(parsed.options).length;

  return (
    <form class="panel create" onSubmit={create} aria-labelledby="create-title">
      <h2 id="create-title">Open a table</h2>
      <fieldset class="presets">
        <legend>House rules to start from</legend>
        {presets.map((p) => (
          <label key={p.name} class={`preset ${p.name === presetName ? "chosen" : ""}`}>
            <input type="radio" name="preset" value={p.name} checked={p.name === presetName} onChange={() => setPresetName(p.name)} />
            <span class="preset-name">{p.name}</span>
            <span class="preset-title">{p.title}</span>
            <span class="muted">{p.summary}</span>
          </label>
        ))}
      </fieldset>

      <details class="options">
        <summary>
          Change any rule{changed ? ` (${changed} changed)` : ""}
        </summary>
        {sections.map((section) => (
          <fieldset key={section.title} class="option-section">
            <legend>{section.title}</legend>
            {section.options.map((option) => (
              <OptionField
                key={option.name}
                option={option}
                text={edits[option.name]}
                error={parsed.errors[option.name]}
                changed={option.name in parsed.options}
                onChange={(text) => setEdits((old) => ({ ...old, [option.name]: text }))}
                onReset={() =>
                  setEdits((old) => {
                    const next = { ...old };
                    delete next[option.name];
                    return next;
                  })
                }
              />
            ))}
          </fieldset>
        ))}
      </details>
      <p class="print-rules">
        <button type="button" class="link" aria-haspopup="dialog" aria-expanded={rulesOpen} data-testid="lobby-rules" onClick={() => setRulesOpen(true)}>
          These rules
        </button>{" "}
        ·{" "}
        <a href={printHref(presetName, parsed.options)} target="_blank" rel="noopener">
          Print these rules
        </a>{" "}
        <span class="muted">(one sheet, in plain words{changed ? `, ${changed} changed option${changed === 1 ? "" : "s"} marked` : ""})</span>
      </p>

      {rulesOpen ? <RulesPanel load={() => api.rules(presetName, parsed.options)} printHref={printHref(presetName, parsed.options)} onClose={() => setRulesOpen(false)} /> : null}

      <fieldset class="seats">
        <legend>Players and seats</legend>
        <label>
          Players{" "}
          <select value={String(players)} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))} id="players">
            {(allowed.length ? allowed : [players]).map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class="link"
          onClick={() => setSeats((old) => old.map((s, i) => (i === 0 ? { ...s, kind: "invite" } : { kind: "bot", bot: s.bot || defaultBot })))}
        >
          Play alone: bots in every other seat
        </button>
        <ol class="seat-list">
          {seats.map((seat, i) => (
            <li key={i} class="seat-row">
              <span class="seat-name">
                Seat {i + 1}
                {teamOf(i) >= 0 && (teams?.length ?? 0) < players ? <span class={`team team-${teamOf(i)}`}>Team {teamOf(i) + 1}</span> : null}
                {i === 0 ? <span class="muted"> (usually you)</span> : null}
              </span>
              <select
                aria-label={`Seat ${i + 1}`}
                data-seat={i}
                value={seat.kind === "bot" ? `bot:${seat.bot}` : "invite"}
                onChange={(e) => {
                  const v = (e.target as HTMLSelectElement).value;
                  setSeats((old) => old.map((s, j) => (j !== i ? s : v === "invite" ? { ...s, kind: "invite" } : { kind: "bot", bot: v.slice(4) })));
                }}
              >
                <option value="invite">A person: invitation link</option>
                {botChoices(bots).map((b) => (
                  <option key={b.name} value={`bot:${b.name}`}>
                    Bot: {b.label}
                  </option>
                ))}
              </select>
            </li>
          ))}
        </ol>
        {teams && teams.length === players ? <p class="muted">Everyone plays for themselves at {players}.</p> : null}
      </fieldset>

      <fieldset class="privacy">
        <legend>Who can see the table</legend>
        <label>
          <input type="checkbox" checked={listed} onChange={(e) => setListed((e.target as HTMLInputElement).checked)} data-testid="public" /> List it in the lobby, so anyone on this server can watch
        </label>
        <p class="muted">
          {listed ? "Listed: anyone who opens this server sees the table and can watch it." : "Private: only the people you send a link to can see it."}
        </p>
      </fieldset>

      {refusal ? (
        <p class="refusal" role="alert" data-testid="create-refusal">
          {refusal}
        </p>
      ) : null}
      <button type="submit" class="primary big" disabled={busy || !detail || Object.keys(parsed.errors).length > 0 || Boolean(refusal)}>
        Create the table
      </button>
    </form>
  );
}

