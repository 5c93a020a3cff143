// "How did I play?": a seat's review of a finished hand, asked of the server and read here. It lists the
// same items as ``handfoot review``, in the same words: the mistakes, each with what it changed and what
// was better, what it cost (with its 95% interval and the deals it rests on), and a link to that
// position in the replay. Seats and hands are counted from 0 there and here.
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

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

// The parts of a turn, named as ``handfoot review`` names them (``review_cmd.KIND_WORDS``).
const KIND_WORDS: Record<string, string> = { draw: "the draw", play: "lay-down and discard", answer: "the answer", foot: "the Foot" };

/** The cost as ``DecisionReview.cost_words`` says it on the command line. */
export function costWords(d: ReviewedDecision): string {
  const mark = d.costly ? ", costly" : "";
  return `about ${plural(Math.round(d.cost), "point")} (95%: ${Math.round(d.low)} to ${Math.round(d.high)}, ${plural(d.worlds, "deal")}${mark})`;
}

/** The review's first line as ``HandReview.summary`` prints it (seats and hands counted from 0, as in the record). */
export function summary(r: NonNullable<ReviewJob["review"]>): string {
  const costly = r.decisions.filter((d) => d.costly);
  const lost = Math.round(costly.reduce((sum, d) => sum + Math.max(d.cost, 0), 0));
  const tail = costly.length ? ` (about ${plural(lost, "point")})` : "";
  return `Seat ${r.seat}, hand ${r.hand}: ${plural(r.decisions.length, "decision")} judged, ${plural(r.mistakes, "mistake")}, ${costly.length} costly${tail}.`;
}

export function DecisionItem({ tableId, d }: { tableId: string; d: ReviewedDecision }) {
  return (
    <li class={`review-decision${d.costly ? " costly" : ""}`}>
      <p class="review-sentence">{d.sentence}</p>
      <p class="muted">
        Step {d.step}, {KIND_WORDS[d.kind] ?? d.kind}: {costWords(d)} · <a href={`/replay/${tableId}?step=${d.step}`}>see this position in the replay</a>
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
  const mistakes = review ? review.decisions.filter((d) => d.mistake) : [];
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
            Seat {job.seat}, hand {job.hand}: judging your decisions… <progress max={job.total || 1} value={job.done} /> {job.done} of {job.total || "?"}
          </p>
        ) : null}
        {review ? (
          <section aria-label="Your review">
            <p role="status">
              {summary(review)} Each decision is judged on {review.worlds} or more deals of the cards you could not see, played on by the same bots.
            </p>
            {mistakes.length === 0 ? (
              <p>No decision cost points beyond the noise of the estimate.</p>
            ) : (
              <ol class="review-list">
                {mistakes.map((d) => (
                  <DecisionItem key={`${d.index}-${d.part}-${d.kind}`} tableId={tableId} d={d} />
                ))}
              </ol>
            )}
          </section>
        ) : null}
      </main>
    </div>
  );
}
