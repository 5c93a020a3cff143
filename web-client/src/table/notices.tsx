// The dock's one message at a time, in one place (the first that applies): a refusal, why a button did
// nothing, a connection error, a notice, a rule explained; the next shows once it is gone.
import { RuleLessonLine } from "../rule_lessons";
import { capital } from "./names";
import { useTable } from "./state";
import { sentenceWords } from "./words";

/** The first message that applies, or the rule lesson of the moment. */
export function Notices() {
  const { refused, setRefused, why, setWhy, error, notice, setNotice, lessons } = useTable();
  return (
    <>
      {refused ? (
        <div class="refusal" role="alert" data-testid="refusal">
          <strong>Not allowed:</strong> {sentenceWords(refused.message)} Nothing changed.{" "}
          <button type="button" class="link" onClick={() => setRefused(null)}>
            Dismiss
          </button>
          <details>
            <summary>The rule</summary>
            Rule <code>{refused.rule}</code>; your move <code>{refused.move}</code> was not played.
          </details>
        </div>
      ) : why ? (
        <div class="refusal" role="alert" data-testid="why-not">
          <strong>Not now:</strong> {sentenceWords(why)}{" "}
          <button type="button" class="link" onClick={() => setWhy(null)}>
            Dismiss
          </button>
        </div>
      ) : error ? (
        <div class="refusal" role="alert">
          {capital(error)}
        </div>
      ) : notice ? (
        <div class="notice" role="status" data-testid="notice" onClick={() => setNotice(null)}>
          {notice}
        </div>
      ) : (
        <RuleLessonLine lessons={lessons} />
      )}
    </>
  );
}
