import { describe, expect, test } from "vitest";
import type { LastMove } from "../api";
import { freshCards, HISTORY_KEPT, isNew, withMove } from "./store";

const move = (version: number, seat: number, type = "discarded"): LastMove => ({
  seat,
  version,
  move: "x",
  events: [{ type, seat, cards: [], amount: 2, detail: "" }],
  facts: [],
});

describe("the table's store", () => {
  test("the history takes each move once, in order, and keeps the last hundred", () => {
    let history: LastMove[] = [];
    history = withMove(history, move(1, 0));
    history = withMove(history, move(1, 0)); // the same state again (a sync)
    history = withMove(history, null);
    expect(history.map((m) => m.version)).toEqual([1]);
    expect(isNew(history, move(1, 0))).toBe(false);
    expect(isNew(history, move(2, 1))).toBe(true);
    for (let v = 2; v < 200; v++) history = withMove(history, move(v, v % 4));
    expect(history.length).toBe(HISTORY_KEPT);
    expect(history[history.length - 1]?.version).toBe(199);
  });

  test("cards just drawn are marked until the seat's next action, and never in a new hand", () => {
    const drew = move(5, 0, "drew");
    expect(freshCards(["KS"], ["KS", "9H", "2C"], drew, 0, [], false)).toEqual(["9H", "2C"]);
    // another seat's move keeps the marks
    expect(freshCards(["KS", "9H"], ["KS", "9H"], move(6, 1), 0, ["9H"], false)).toEqual(["9H"]);
    // the seat's own next action (a discard) clears them
    expect(freshCards(["KS", "9H"], ["KS"], move(7, 0), 0, ["9H"], false)).toEqual([]);
    expect(freshCards(["KS"], ["QS", "QH"], drew, 0, ["KS"], true)).toEqual([]);
    expect(freshCards(["KS"], ["KS", "QH"], drew, null, [], false)).toEqual([]);
  });
});
