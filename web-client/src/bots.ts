// The bots a person picks from (the server's list): the levels easy, medium, hard first, then the named
// bots in alphabetical order, each with a word of what it is.
const LEVELS = ["easy", "medium", "hard"];
const ABOUT: Record<string, string> = {
  easy: "easy",
  medium: "medium",
  hard: "hard",
  random: "random: plays any legal move",
  heuristic: "heuristic: a rule-of-thumb player",
  ismcts: "ismcts: searches ahead (slow, strong)",
};

export function botChoices(bots: readonly string[]): { name: string; label: string }[] {
  const ordered = [...LEVELS.filter((b) => bots.includes(b)), ...bots.filter((b) => !LEVELS.includes(b)).sort()];
  return ordered.map((name) => ({ name, label: ABOUT[name] ?? name }));
}
