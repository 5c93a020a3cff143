// The lobby's panels beside the form: the table just created (its links), join by a link, this
// browser's own tables, and the tables listed for anyone to watch.
import { useEffect, useState } from "preact/hooks";
import { api, type Created, type TableListing, type TableSummary } from "../api";
import { LinkField } from "../links";
import { accessKey, forget, recentTables, remember, type RecentTable } from "../store";

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

/** The table just created: each seat's link, the watch and host links, and "Create another". */
export function CreatedPanel({ created, onAnother }: { created: Created; onAnother: () => void }) {
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

/** Join or watch a table by pasting its link. */
export function JoinPanel() {
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

/** This browser's own tables, each with its links and its state on the server. */
export function RecentPanel() {
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

/** The newest games going on that their creators listed for anyone to watch. */
export function WatchPanel() {
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
