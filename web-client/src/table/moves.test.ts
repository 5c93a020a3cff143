import { describe, expect, test } from "vitest";
import { addToMove, canAddTo, discardMove, hintSelection, meldMove, pickupMove, pileGroupIndex, pointsOf, received } from "./moves";

const hand = ["JK", "2C", "KS", "KH", "KD", "9S", "9H", "9D", "5C"];

describe("move building", () => {
  test("a meld joins the staged groups and the selection, wilds only written W:", () => {
    expect(meldMove(hand, [{ indexes: [2, 3, 4] }], [5, 6, 7])).toBe("meld KS KH KD | 9S 9H 9D");
    expect(meldMove(hand, [], [0, 1])).toBe("meld W: JK 2C");
    expect(meldMove(hand, [], [])).toBeNull();
  });

  test("taking the pile puts the group for the top card first, in whatever order it was built", () => {
    const nines = { indexes: [5, 6] };
    const kings = { indexes: [2, 3, 4] };
    // the pair for a 9 on top staged first, the kings selected after
    expect(pickupMove(hand, [nines], [2, 3, 4], "9C")).toBe("pickup 9S 9H | KS KH KD");
    // the kings staged first, the pair selected after
    expect(pickupMove(hand, [kings], [5, 6], "9C")).toBe("pickup 9S 9H | KS KH KD");
    expect(pileGroupIndex(hand, [kings, nines], "9C")).toBe(1);
    expect(pickupMove(hand, [], [], "9C")).toBe("pickup");
  });

  test("adding to a meld writes its rank; a discard is one card", () => {
    expect(addToMove(hand, [], [1], "K")).toBe("meld K: 2C");
    expect(addToMove(hand, [], [], "K")).toBeNull();
    expect(discardMove(hand, [8])).toBe("discard 5C");
    expect(discardMove(hand, [7, 8])).toBeNull();
  });

  test("a meld is offered for the selection only when the legal list has each card going there", () => {
    const legal = ["meld KS", "meld KH", "meld K: 2C", "discard 5C"];
    expect(canAddTo(["KS", "2C"], "K", legal)).toBe(true);
    expect(canAddTo(["KS", "KD"], "K", legal)).toBe(false);
    expect(canAddTo(["2C"], "9", legal)).toBe(false);
    expect(canAddTo([], "K", legal)).toBe(false);
  });

  test("a hint selects a pickup's first group and stages the rest; a meld's groups are staged with ranks", () => {
    expect(hintSelection(hand, "pickup 9S 9H | KS KH KD", [["9S", "9H"], ["KS", "KH", "KD"]])).toEqual({ selected: [5, 6], staged: [{ indexes: [2, 3, 4] }] });
    expect(hintSelection(hand, "meld K: 2C", [["2C"]])).toEqual({ selected: [], staged: [{ indexes: [1], rank: "K" }] });
    expect(hintSelection(hand, "discard QS", [["QS"]])).toBeNull();
  });

  test("points come from the card values the server sent; received cards are counted by copy", () => {
    expect(pointsOf(["KS", "JK", "3H", "3S"], { K: 10, JK: 50, "3R": 100, "3B": 5 })).toBe(165);
    expect(received(["KS", "9H"], ["KS", "KS", "9H", "5C"])).toEqual(["KS", "5C"]);
  });
});
