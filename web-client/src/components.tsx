// Small pieces shared by the pages: a playing card, a card back, the page header, the score sheet.
import type { ComponentChildren } from "preact";
import type { HandSummary, ScoreLine } from "./api";
import { cardName, isRed, isWild, rankLabel, SUIT_SYMBOL, suitOf } from "./cards";

export function Header({ children }: { children?: ComponentChildren }) {
  return (
    <header class="topbar">
      <a class="brand" href="/" aria-label="Hand and Foot: the lobby">
        <span class="brand-suit" aria-hidden="true">♥♠</span> <span class="brand-name">Hand and Foot</span>
      </a>
      <nav aria-label="Pages">
        <a href="/">Lobby</a>
        <a href="/scorepad">Score pad</a>
      </nav>
      {children}
    </header>
  );
}

export interface CardProps {
  code: string;
  small?: boolean;
  selected?: boolean;
  staged?: string | undefined;
  /** Just received (drawn, or taken with the pile): marked until the player's next action. */
  fresh?: boolean;
  onClick?: () => void;
  label?: string;
}

/** A card face; a button when it can be clicked (selected cards are raised and outlined). */
export function Card({ code, small, selected, staged, fresh, onClick, label }: CardProps) {
  const suit = suitOf(code);
  const classes = [
    "card",
    isRed(code) ? "red" : "black",
    code === "JK" ? "joker" : "",
    isWild(code) ? "wild" : "",
    small ? "small" : "",
    selected ? "selected" : "",
    staged ? "staged" : "",
    fresh ? "fresh" : "",
    suit ? `suit-${suit}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const face = (
    <>
      <span class="corner" aria-hidden="true">
        {code === "JK" ? (
          <span class="rank joker-word">JOKER</span>
        ) : (
          <>
            <span class="rank">{rankLabel(code)}</span>
            <span class="suit">{SUIT_SYMBOL[suit]}</span>
          </>
        )}
      </span>
      <span class="pip" aria-hidden="true">
        {code === "JK" ? "★" : SUIT_SYMBOL[suit]}
      </span>
      {staged ? <span class="staged-tag" aria-hidden="true">{staged}</span> : null}
    </>
  );
  // A card button's name starts with what it shows ("A♥ ace of hearts"), as speech control expects.
  const name = label ?? `${code === "JK" ? "Joker:" : `${rankLabel(code)}${SUIT_SYMBOL[suit] ?? ""}`} ${cardName(code)}`;
  if (onClick) {
    return (
      <button
        type="button"
        class={classes}
        data-card={code}
        aria-pressed={selected ? "true" : "false"}
        aria-label={staged ? `${name} (in group ${staged})` : fresh ? `${name} (new)` : name}
        onClick={onClick}
        disabled={Boolean(staged)}
      >
        {face}
      </button>
    );
  }
  return (
    <span class={classes} data-card={code} role="img" aria-label={name}>
      {face}
    </span>
  );
}

export function CardBack({ small, label }: { small?: boolean; label?: string }) {
  return <span class={`card back${small ? " small" : ""}`} role="img" aria-label={label ?? "face-down card"} />;
}

/** A side's score lines; an item worth nothing under these rules is left out (it only adds noise). */
export function Lines({ lines }: { lines: ScoreLine[] }) {
  return (
    <table class="lines">
      <tbody>
        {lines.filter((line) => line.points !== 0).map((line) => (
          <tr key={line.label}>
            <td>{line.label}</td>
            <td class="num">{line.count ? `× ${line.count}` : ""}</td>
            <td class={`num ${line.points < 0 ? "neg" : "pos"}`}>{signed(line.points)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function signed(points: number): string {
  return points > 0 ? `+${points}` : String(points);
}

/** The running score sheet, like the paper one: a row per hand, a column per side, totals below. */
export function ScoreSheet({
  sides,
  hands,
  totals,
  winner,
  finished,
}: {
  sides: string[];
  hands: { scores: number[] }[];
  totals: number[];
  winner?: number | null;
  finished?: boolean;
}) {
  return (
    <table class="sheet" aria-label="Score sheet">
      <thead>
        <tr>
          <th scope="col">Hand</th>
          {sides.map((name, i) => (
            <th scope="col" key={i} class={finished && winner === i ? "winner" : ""}>
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {hands.map((hand, h) => (
          <tr key={h}>
            <th scope="row">{h + 1}</th>
            {hand.scores.map((s, i) => (
              <td class="num" key={i}>
                {s}
              </td>
            ))}
          </tr>
        ))}
        {hands.length === 0 ? (
          <tr>
            <td colSpan={sides.length + 1} class="muted">
              No hand finished yet.
            </td>
          </tr>
        ) : null}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          {totals.map((t, i) => (
            <td class="num total" key={i}>
              {t}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
}

/** Each side's breakdown of one finished hand. */
export function HandBreakdown({ sides, hand }: { sides: string[]; hand: HandSummary }) {
  return (
    <div class="breakdown">
      {sides.map((name, i) => (
        <section class="side-score" key={i} aria-label={`${name}: ${hand.scores[i] ?? 0} points`}>
          <h4>
            {name} <span class="score">{signed(hand.scores[i] ?? 0)}</span>
          </h4>
          {hand.lines?.[i] ? <Lines lines={hand.lines[i]} /> : null}
        </section>
      ))}
    </div>
  );
}
