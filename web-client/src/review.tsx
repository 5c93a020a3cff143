// "How did I play?": a seat's review of a finished hand, asked of the server and read here. Each
// decision that differs from the strong bot's says what it cost (with its 95% interval and the worlds
// it rests on), why in plain words, and links to that position in the replay (once the game is over).
import { useEffect, useState } from "preact/hooks";
import { api, type ReviewJob, type ReviewedDecision } from "./api";
import { secretsOf } from "./store";
import { Header } from "./components";

const POLL_MS = 1000;

function askedHand(): number | undefined {
  const raw = new URLSearchParams(location.search).get("hand");
  const n = raw === null ? Number.NaN : Number.parseInt(raw, 10);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function points(n: number): string {
  return `${Math.round(n)}`;
}

export function DecisionItem({ tableId, d }: { tableId: string; d: ReviewedDecision }) {
  return (
    <li class={`review-decision${d.costly ? " costly" : ""}`}>
      <p class="review-sentence">{d.sentence}</p>
      <p class="muted">
        You played <code>{d.played}</code>; the bot: <code>{d.bot}</code>. Cost {points(d.cost)} points (95%: {points(d.low)} to {points(d.high)}, {d.worlds} worlds)
        {d.costly ? <strong> costly</strong> : null} · <a href={`/replay/${tableId}?step=${d.step}`}>see this position</a>
      </p>
    </li>
  );
}

export function ReviewPage({ tableId }: { tableId: string }) {
  const token = secretsOf(tableId).token;
  const [job, setJob] = useState<ReviewJob | null>(null);
  const [problem, setProblem] = useState<string | null>(token ? null : "This browser holds no seat at this table: a review is for the seat that played, from its own link.");

  useEffect(() => {
    if (!token) return;
    let stop = false;
    let timer: number | undefined;
    const poll = (hand: number) =>
      api.review(tableId, token, hand).then(
        (j) => {
          if (stop) return;
          setJob(j);
          if (j.state === "running") timer = window.setTimeout(() => void poll(hand), POLL_MS);
          else if (j.state === "failed") setProblem(j.error ?? "The review could not be worked out.");
        },
        (e: Error) => setProblem(e.message),
      );
    api.askReview(tableId, token, askedHand()).then(
      (j) => {
        setJob(j);
        void poll(j.hand);
      },
      (e: Error) => setProblem(e.message),
    );
    return () => {
      stop = true;
      window.clearTimeout(timer);
    };
  }, [tableId, token]);

  const review = job?.review ?? null;
  const differ = review ? review.decisions.filter((d) => d.played !== d.bot) : [];
  return (
    <div class="page review">
      <Header />
      <main class="panel">
        <h1>How did I play?</h1>
        {problem ? (
          <p class="refusal" role="alert">
            {problem}
          </p>
        ) : null}
        {job && !review && !problem ? (
          <p role="status">
            Hand {job.hand + 1}, seat {job.seat + 1}: judging your decisions… <progress max={job.total || 1} value={job.done} /> {job.done} of {job.total || "?"}
          </p>
        ) : null}
        {review ? (
          <section aria-label="Your review">
            <p role="status">
              Hand {review.hand + 1}, seat {review.seat + 1}: {review.decisions.length} decisions, {differ.length} unlike the bot's, {review.costly} costly
              {review.costly ? ` (about ${points(review.lost)} points)` : ""}. Each is judged on {review.worlds} deals of the cards you could not see, played on by the same bots.
            </p>
            {differ.length === 0 ? <p>Every decision was the bot's own.</p> : null}
            <ol class="review-list">
              {differ.map((d) => (
                <DecisionItem key={d.index} tableId={tableId} d={d} />
              ))}
            </ol>
            <p class="muted">The replay opens once the game is over.</p>
          </section>
        ) : null}
      </main>
    </div>
  );
}
