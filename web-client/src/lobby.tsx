// The lobby: create a table (a preset, any option changed, the player count, each seat an invitation
// or a bot, private or listed), join by link, this browser's own tables, and the tables listed publicly.
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, ApiError, rulesQuery, type Created, type OptionInfo, type OptionValue, type PresetDetail, type PresetSummary, type TableListing, type TableSummary } from "./api";
import { Header } from "./components";
import { botChoices } from "./bots";
import { LinkField } from "./links";
import { RulesPanel } from "./rules_panel";
import { accessKey, forget, recentTables, remember, type RecentTable } from "./store";

interface SeatChoice {
  kind: "invite" | "bot";
  bot: string;
}

/** The text an option is edited as: lists as "50, 90", tables as "JK=50, 2=20". */
function toText(value: OptionValue): string {
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}=${v}`).join(", ");
  return String(value);
}

/** The option's value from its edited text, or an error sentence. */
function fromText(original: OptionValue, text: string, perHand = false): { value: OptionValue } | { error: string } {
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

function same(a: OptionValue, b: OptionValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function Lobby() {
  const [presets, setPresets] = useState<PresetSummary[]>([]);
  const [bots, setBots] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [version, setVersion] = useState<string | null>(null);

  useEffect(() => {
    // The version is the server's (its package metadata): the client has none of its own.
    api.health().then(
      (h) => setVersion(h.version),
      () => setVersion(null),
    );
    Promise.all([api.presets(), api.bots()]).then(
      ([p, b]) => {
        setPresets(p);
        setBots(b.bots);
      },
      (e: Error) => setError(e.message),
    );
  }, []);

  return (
    <div class="page lobby">
      <Header />
      <main>
        <h1 class="sr-only">Lobby</h1>
        {error ? (
          <p class="refusal" role="alert">
            {error}
          </p>
        ) : null}
        <div class="lobby-grid">
          {created ? <CreatedPanel created={created} onAnother={() => setCreated(null)} /> : presets.length ? <CreateForm presets={presets} bots={bots} onCreated={setCreated} /> : <p role="status">Loading the rules…</p>}
          <div class="lobby-side">
            <JoinPanel />
            <RecentPanel />
            <WatchPanel />
          </div>
        </div>
      </main>
      {version ? <footer class="version muted">handfoot {version}</footer> : null}
    </div>
  );
}

/** The print page of a preset with the options changed in the form (rules are no secret: they may go in the address). */
export function printHref(preset: string, options: Record<string, OptionValue>): string {
  return `/rules/print?${rulesQuery(preset, options)}`;
}

function CreateForm({ presets, bots, onCreated }: { presets: PresetSummary[]; bots: string[]; onCreated: (c: Created) => void }) {
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

function OptionField({
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
function partnersText(table: TableSummary): string[] {
  const sides = new Map<number, number[]>();
  for (const seat of table.seats) sides.set(seat.side, [...(sides.get(seat.side) ?? []), seat.seat]);
  const teams = [...sides.values()].filter((seats) => seats.length > 1);
  if (!teams.length) return ["Everyone plays for themselves."];
  const who = (s: number) => {
    const seat = table.seats[s];
    return seat?.kind === "bot" ? `Seat ${s + 1} (${seat.bot} bot)` : `Seat ${s + 1}`;
  };
  return teams.map((seats, i) => `Team ${i + 1}: ${seats.map(who).join(" and ")} are partners.`);
}

function CreatedPanel({ created, onAnother }: { created: Created; onAnother: () => void }) {
  const { table, invites } = created;
  const local = (link: string) => new URL(link).pathname + new URL(link).hash;
  const partnered = new Set(table.seats.map((s) => s.side)).size < table.seats.length;
  return (
    <section class="panel created" aria-labelledby="created-title">
      <h2 id="created-title">Your table is ready</h2>
      <p>
        {table.rules} · {table.players} players · table <code>{table.id}</code> · {table.public ? "listed in the lobby" : "private"}
      </p>
      <ul class="partners" data-testid="partners">
        {partnersText(table).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p>Send each person their own link. Whoever holds a link plays that seat, so send each one to one person only.</p>
      {invites.length > 1 ? (
        <p data-testid="waits-note">
          The first hand waits until everyone invited has opened their link. At the table, the host can start without them: bots then play their seats until they come.
        </p>
      ) : null}
      <ul class="invites">
        {table.seats.map((seat) => {
          const invite = invites.find((i) => i.seat === seat.seat);
          return (
            <li key={seat.seat}>
              <strong>Seat {seat.seat + 1}</strong>
              {partnered ? <span class={`team team-${seat.side}`}>Team {seat.side + 1}</span> : null}
              {invite ? (
                <>
                  <LinkField link={invite.link} label={`Invitation link for seat ${seat.seat + 1}`} testId={`invite-${seat.seat}`} />
                  <a class="button primary" href={`${local(invite.link)}&host=${created.host.key}`} data-testid={`play-seat-${seat.seat}`}>
                    Play this seat
                  </a>
                </>
              ) : (
                <span class="muted"> {seat.bot} bot</span>
              )}
            </li>
          );
        })}
      </ul>
      <p>
        To watch: <LinkField link={created.watch} label="Watch link" />
      </p>
      <p class="muted">
        You are this table's host: the seat you play from here (and your host link below) can hand a missing player's seat to a bot, rename seats and end the game. This browser remembers it.
      </p>
      <p>
        Host link (keep it to yourself): <a href={local(created.host.link)}>{created.host.link}</a>
      </p>
      <button type="button" onClick={onAnother}>
        Open another table
      </button>
    </section>
  );
}

/** A table id from an invitation or watch link, or from a bare id. */
function parseLink(text: string): { id: string; token: string | null } | null {
  const trimmed = text.trim();
  const match = /(?:\/(?:play|watch)\/)?([A-Za-z0-9_-]{4,})(?:#seat=([A-Za-z0-9_-]+))?\/?$/.exec(trimmed);
  if (!match?.[1]) return null;
  return { id: match[1], token: match[2] ?? null };
}

function JoinPanel() {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section class="panel" aria-labelledby="join-title">
      <h2 id="join-title">Join or watch by link</h2>
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          const link = parseLink(text);
          if (!link) {
            setProblem("Paste an invitation link (…/play/ID#seat=…), a watch link or a table id.");
            return;
          }
          location.assign(link.token ? `/play/${link.id}#seat=${link.token}` : `/watch/${link.id}`);
        }}
      >
        <label for="join-link">Invitation link or table id</label>
        <input id="join-link" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} placeholder="http://…/play/…#seat=…" />
        <button type="submit">Go</button>
        {problem ? <p class="field-error">{problem}</p> : null}
      </form>
    </section>
  );
}

function RecentPanel() {
  const [recent, setRecent] = useState<RecentTable[]>(recentTables());
  const [status, setStatus] = useState<Record<string, TableSummary | null>>({});
  useEffect(() => {
    for (const t of recent) {
      api.table(t.id, accessKey(t.id)).then(
        (s) => setStatus((old) => ({ ...old, [t.id]: s })),
        () => setStatus((old) => ({ ...old, [t.id]: null })),
      );
    }
  }, []);
  return (
    <section class="panel" aria-labelledby="recent-title" data-testid="recent">
      <h2 id="recent-title">Your tables</h2>
      <p class="muted">The tables this browser created, joined or watched (kept in this browser only).</p>
      {recent.length === 0 ? <p class="muted">None yet.</p> : null}
      <ul class="recent">
        {recent.map((t) => {
          const s = status[t.id];
          const state = s === null ? "gone" : s ? (s.finished ? "finished" : `hand ${s.hand_index + 1}`) : "";
          const watchHref = `/watch/${t.id}${t.key ? `#key=${t.key}` : t.host ? `#host=${t.host}` : ""}`;
          return (
            <li key={`${t.id}-${t.seat ?? "w"}`}>
              <span>
                <strong>{t.rules || "table"}</strong> <code>{t.id}</code> <span class="muted">{state}</span>
                {t.host ? <span class="badge host">host</span> : null}
              </span>
              {t.token ? (
                <a href={`/play/${t.id}#seat=${t.token}${t.host ? `&host=${t.host}` : ""}`}>Rejoin{t.name ? ` as ${t.name}` : ""}</a>
              ) : t.invites?.length ? (
                <details>
                  <summary>Invitation links</summary>
                  {t.invites.map((i) => (
                    <div key={i.seat}>
                      Seat {i.seat + 1}: <a href={`${new URL(i.link).pathname}${new URL(i.link).hash}${t.host ? `&host=${t.host}` : ""}`}>play</a>{" "}
                      <input readOnly value={i.link} aria-label={`Seat ${i.seat + 1} link`} />
                    </div>
                  ))}
                </details>
              ) : null}
              {s?.finished ? <a href={`/replay/${t.id}`}>Replay</a> : <a href={watchHref}>Watch</a>}
              {t.token && s && s.hands.length > 0 ? <a href={`/review/${t.id}`}>Review my play</a> : null}
              <button
                type="button"
                class="link"
                onClick={() => {
                  forget(t.id);
                  setRecent(recentTables());
                }}
              >
                Forget
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function WatchPanel() {
  const [tables, setTables] = useState<TableListing[] | null>(null);
  useEffect(() => {
    api.tables(8).then(setTables, () => setTables([]));
  }, []);
  const open = (tables ?? []).filter((t) => !t.finished);
  return (
    <section class="panel" aria-labelledby="watch-title" data-testid="public-tables">
      <h2 id="watch-title">Tables listed for anyone to watch</h2>
      {open.length === 0 ? <p class="muted">No listed game in progress. Tables are private unless their creator lists them.</p> : null}
      <ul class="recent">
        {open.map((t) => (
          <li key={t.id}>
            <span>
              <strong>{t.rules}</strong> · {t.seats.map((s) => s.name ?? (s.kind === "bot" ? `${s.bot} bot` : "open seat")).join(", ")} · hand {t.hand_index + 1}
            </span>
            <a href={`/watch/${t.id}`} onClick={() => remember({ id: t.id, rules: t.rules, when: "" })}>
              Watch
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
