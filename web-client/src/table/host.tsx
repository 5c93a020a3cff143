// The host's panel at the table: start without the invited people who have not come (bots play their
// seats), how long the table waits for people reading a hand's score, and per seat: rename, hand to a bot
// and back, and a new invitation link that voids the old one (after a confirmation saying what it does).
// Every request goes to the server (the ``host`` message); it answers with the new table, or the host
// alone with a sentence saying why not, or with the new link.
import type { HostAction as HostMessage } from "../generated/client";
import { useState } from "preact/hooks";
import type { InviteMessage, TableSummary } from "../api";
import { botChoices } from "../bots";
import { LinkField } from "../links";

/** A host's action as the server's ``host`` message has it (its ``action`` and the fields it takes). */
export type HostAction = (action: HostMessage["action"], extra?: Omit<HostMessage, "type" | "action">) => void;

/** The waits a host may choose after a hand, in seconds (0: the bots do not wait). */
export const READ_CHOICES = [0, 5, 10, 15, 30, 60, 90, 120, 300, 600];

function seconds(n: number): string {
  if (n === 0) return "do not wait";
  return n < 120 ? `${n} seconds` : `${n / 60} minutes`;
}

function defaultBot(bots: readonly string[]): string {
  return bots.includes("medium") ? "medium" : (bots[0] ?? "");
}

/** One seat in the host's panel: rename it; hand a missing player's seat to a bot, or back; give a
 * person's seat a new link (not the seat the host plays here). */
export function HostSeat({
  seat,
  label,
  bots,
  over,
  mine,
  invite,
  onAction,
}: {
  seat: TableSummary["seats"][number];
  label: string;
  bots: string[];
  over: boolean;
  /** The host plays this seat in this tab (its link cannot be renewed from here). */
  mine: boolean;
  /** The seat's new link, once the server made one. */
  invite: InviteMessage | null;
  onAction: HostAction;
}) {
  const [name, setName] = useState(seat.name ?? "");
  const [bot, setBot] = useState(defaultBot(bots));
  const [confirming, setConfirming] = useState(false);
  const person = seat.kind === "human";
  const who = seat.name ?? `seat ${seat.seat + 1}`;
  return (
    <li class="host-seat" data-seat={seat.seat}>
      <div class="who">
        {label}
        {seat.stand_in ? <span class="badge off">{seat.stand_in} bot playing</span> : person ? (seat.away ? <span class="badge off">away</span> : !seat.connected ? <span class="badge off">not connected</span> : null) : null}
      </div>
      <div class="host-controls">
        {!over ? (
          <form
            onSubmit={(ev) => {
              ev.preventDefault();
              if (name.trim()) onAction("rename", { seat: seat.seat, name: name.trim() });
            }}
          >
            <input aria-label={`New name for seat ${seat.seat + 1}`} placeholder="new name" value={name} maxLength={32} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <button type="submit">Rename</button>
          </form>
        ) : null}
        {!over && person && seat.stand_in ? (
          <button type="button" onClick={() => onAction("person", { seat: seat.seat })}>
            Hand back to {who}
          </button>
        ) : null}
        {!over && person && !seat.stand_in && !seat.connected ? (
          <span class="hand-to-bot">
            <select aria-label={`Bot for seat ${seat.seat + 1}`} value={bot} onChange={(e) => setBot((e.target as HTMLSelectElement).value)}>
              {botChoices(bots).map((b) => (
                <option key={b.name} value={b.name}>
                  {b.label}
                </option>
              ))}
            </select>
            <button type="button" onClick={() => onAction("bot", { seat: seat.seat, bot })}>
              Hand to a bot
            </button>
          </span>
        ) : null}
        {person && !mine && !confirming ? (
          <button type="button" onClick={() => setConfirming(true)} aria-label={`New link for seat ${seat.seat + 1}`}>
            New link…
          </button>
        ) : null}
      </div>
      {confirming ? (
        <div class="confirm-box" role="group" aria-label={`Replace the link of seat ${seat.seat + 1}`} data-testid="revoke-confirm">
          <p>
            Make a new invitation link for {who}? The link {seat.name ? `${who} has` : "sent for this seat"} now stops working at once
            {seat.connected ? `, and ${who} is disconnected until they open the new one` : ""}. The seat keeps its name and its cards; you send the new link.
          </p>
          <button
            type="button"
            class="danger"
            onClick={() => {
              setConfirming(false);
              onAction("invite", { seat: seat.seat });
            }}
          >
            Make a new link, void the old one
          </button>{" "}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : null}
      {invite ? (
        <div class="new-link" role="status" data-testid="new-link">
          <p>New link for {who}: the old one opens nothing now. Send this one to them.</p>
          <LinkField link={invite.link} label={`New link for seat ${seat.seat + 1}`} />
        </div>
      ) : null}
    </li>
  );
}

/** The host's panel: whom the first hand waits for (and starting without them), the wait after a hand,
 * the seats, a new link once made, and ending the game. */
export function HostPanel({
  table,
  me,
  bots,
  label,
  invite,
  problem,
  open,
  onOpen,
  onAction,
}: {
  table: TableSummary;
  me: number | null;
  bots: string[];
  label: (seat: number) => string;
  invite: InviteMessage | null;
  problem: string | null;
  open: boolean;
  onOpen: () => void;
  onAction: HostAction;
}) {
  const [startBot, setStartBot] = useState(defaultBot(bots));
  const waiting = table.waiting_for;
  const choices = READ_CHOICES.includes(table.read_seconds) ? READ_CHOICES : [...READ_CHOICES, table.read_seconds].sort((a, b) => a - b);
  return (
    <details class="panel-box host-panel" open={open} data-testid="host-panel" onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && onOpen()}>
      <summary>Host</summary>
      <p class="muted">You created this table. A missing player's seat can be played by a bot until they are back.</p>
      {waiting.length && !table.finished ? (
        <div class="host-start" data-testid="host-start">
          <p>
            The game waits for {waiting.map(label).join(", ")}. Start without them and a bot plays each empty seat until you hand it back.
          </p>
          <select aria-label="Bot for the empty seats" value={startBot} onChange={(e) => setStartBot((e.target as HTMLSelectElement).value)}>
            {botChoices(bots).map((b) => (
              <option key={b.name} value={b.name}>
                {b.label}
              </option>
            ))}
          </select>{" "}
          <button type="button" class="primary" onClick={() => onAction("start", { bot: startBot })}>
            Start now with bots
          </button>
        </div>
      ) : null}
      {!table.finished ? (
        <label class="host-pace">
          After a hand, wait for the players reading the score at most{" "}
          <select aria-label="Longest wait after a hand" value={String(table.read_seconds)} onChange={(e) => onAction("pace", { seconds: Number((e.target as HTMLSelectElement).value) })}>
            {choices.map((n) => (
              <option key={n} value={String(n)}>
                {seconds(n)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <ul class="host-seats">
        {table.seats.map((seat) => (
          <HostSeat
            key={seat.seat}
            seat={seat}
            label={label(seat.seat)}
            bots={bots}
            over={table.finished}
            mine={seat.seat === me}
            invite={invite?.seat === seat.seat ? invite : null}
            onAction={onAction}
          />
        ))}
      </ul>
      {!table.finished ? (
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (confirm("End the game now for everyone? The scores of the finished hands stand.")) onAction("end");
          }}
        >
          End the game
        </button>
      ) : null}
      {problem ? (
        <p class="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </details>
  );
}
