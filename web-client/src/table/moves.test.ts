import { describe, expect, test } from "vitest";
import { hintSelection, indexesOf, meldMove, received } from "./moves";

const hand = ["JK", "2C", "KS", "KH", "KD", "9S", "9H", "9D", "5C"];

describe("move text from the selection", () => {
  test("the selection is one group; wilds only are written W:", () => {
    expect(meldMove(hand, [2, 3, 4])).toBe("meld KS KH KD");
    expect(meldMove(hand, [0, 1])).toBe("meld W: JK 2C");
    expect(meldMove(hand, [])).toBeNull();
  });

  test("a hint selects a pickup's first group, or every card of a meld", () => {
    expect(hintSelection(hand, "pickup 9S 9H | KS KH KD", [["9S", "9H"], ["KS", "KH", "KD"]])).toEqual([5, 6]);
    expect(hintSelection(hand, "meld KS KH KD | 9S 9H 9D", [["KS", "KH", "KD"], ["9S", "9H", "9D"]])).toEqual([2, 3, 4, 5, 6, 7]);
    expect(hintSelection(hand, "discard QS", [["QS"]])).toBeNull();
  });

  test("cards are found in the hand once per copy; received cards are counted by copy", () => {
    expect(indexesOf(["KS", "KS", "9H"], [["KS"], ["KS", "9H"]])).toEqual([[0], [1, 2]]);
    expect(indexesOf(["KS"], [["KS", "KS"]])).toBeNull();
    expect(received(["KS", "9H"], ["KS", "KS", "9H", "5C"])).toEqual(["KS", "5C"]);
  });
});
