import { expect, test } from "vitest";
import { botChoices } from "./bots";

test("levels first, easy to hard, then the named bots with what they are", () => {
  const choices = botChoices(["easy", "hard", "heuristic", "ismcts", "medium", "random"]);
  expect(choices.map((c) => c.name)).toEqual(["easy", "medium", "hard", "heuristic", "ismcts", "random"]);
  expect(choices[3]?.label).toBe("heuristic: a rule-of-thumb player");
});
