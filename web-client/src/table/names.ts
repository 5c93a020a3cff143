// Small words and sounds of the table page: a seat's label, a capital letter, a count with its noun, the
// chime of a turn come.
import type { TableSummary } from "../api";

/** The seat's name as the table shows it ("Ann (you)", "Careful bot 3", "Seat 2"). */
export function seatLabel(table: TableSummary | undefined, seat: number, me: number | null): string {
  const s = table?.seats[seat];
  let name = s?.name ?? `Seat ${seat + 1}`;
  if (s?.kind === "bot" && s.name === null) name = `${capital(s.bot ?? "bot")} bot ${seat + 1}`;
  return seat === me ? `${name} (you)` : name;
}

/** ``text`` with its first letter a capital. */
export function capital(text: string): string {
  return text.slice(0, 1).toUpperCase() + text.slice(1);
}

/** ``n`` and the word, in the plural unless ``n`` is 1 ("1 card", "3 cards"). */
export function plural(n: number, word: string, many?: string): string {
  return `${n} ${n === 1 ? word : (many ?? `${word}s`)}`;
}

/** A short chime (nothing where the browser plays no sound). */
export function chime(): void {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 740;
    gain.gain.setValueAtTime(0.18, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.6);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.6);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio here: the tab title still says it is your turn.
  }
}
