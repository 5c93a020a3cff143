import { describe, expect, test } from "vitest";
import { canAddTo, goWithPile, openingWords, pickupFor, sameCards, stepsFor, stepTo, without, type Offers } from "./offers";

const step = (id: number, move: string, cards: string[]) => ({ id, move, cards });
// Queens on the table: the server offers each queen (not one per kind) and the two onto them.
const offers: Offers = {
  cards: [
    { card: "2C", held: 1, places: [{ to: "meld", rank: "Q", steps: [step(174, "meld Q: 2C", ["2C"])] }] },
    { card: "QD", held: 1, places: [{ to: "meld", rank: "Q", steps: [step(172, "meld QD", ["QD"])] }, { to: "discard", rank: "", steps: [step(12, "discard QD", ["QD"])] }] },
    { card: "QC", held: 1, places: [{ to: "meld", rank: "Q", steps: [step(172, "meld QC", ["QC"])] }] },
    { card: "KS", held: 2, places: [{ to: "new", rank: "K", steps: [step(52, "stage KS KS 2C", ["KS", "KS", "2C"])] }] },
    { card: "5H", held: 1, places: [{ to: "pile", rank: "5", steps: [step(3, "pickup 5H 5D", ["5H", "5D"])] }] },
    { card: "5D", held: 1, places: [{ to: "pile", rank: "5", steps: [step(3, "pickup 5H 5D", ["5H", "5D"])] }] },
  ],
  staged: [],
  opening: { minimum: 50, points: 30, needed: 20, with_top: false },
  pile: { may: true, takes: [step(3, "pickup 5H 5D", ["5H", "5D"])], refusal: null, frozen: false },
  commit: null,
  cancel: null,
  why_not: { draw: null, pile: null, meld: null, discard: null, go_out: "To go out you still need one book." },
};

describe("reading the offers", () => {
  test("any card of a rank, and the wild, may go onto the meld the server offers for each", () => {
    expect(canAddTo(offers, ["QC"], "Q")).toBe(true);
    expect(canAddTo(offers, ["QD", "QC", "2C"], "Q")).toBe(true);
    expect(canAddTo(offers, ["QC", "KS"], "Q")).toBe(false);
    expect(canAddTo(offers, [], "Q")).toBe(false);
    expect(canAddTo(null, ["QC"], "Q")).toBe(false);
  });

  test("the step playing selected cards only is found, the most cards first", () => {
    expect(stepsFor(offers, ["KS", "KS", "2C"], "stage", ["new"]).map((s) => s.move)).toEqual(["stage KS KS 2C"]);
    expect(stepsFor(offers, ["KS", "2C"], "stage", ["new"])).toEqual([]);
    expect(stepsFor(offers, ["QC", "QD"], "meld", ["meld"], "Q").map((s) => s.move)).toEqual(["meld QC", "meld QD"]);
  });

  test("the pile is taken with the pickup naming exactly the selected naturals", () => {
    expect(goWithPile(offers, ["5D", "5H"])).toBe(true);
    expect(goWithPile(offers, ["5D", "QC"])).toBe(false);
    expect(pickupFor(offers, ["5D", "5H"])?.move).toBe("pickup 5H 5D");
    expect(pickupFor(offers, ["5D"])).toBeNull();
    expect(pickupFor(offers, [])?.move).toBe("pickup 5H 5D");
    expect(stepTo(offers, "QD", "discard")?.move).toBe("discard QD");
  });

  test("the opening count is the server's, in words", () => {
    expect(openingWords(offers.opening!)).toEqual({ points: "30 points", need: "to open you need 50: 20 more", enough: false });
    expect(openingWords({ minimum: 50, points: 60, needed: 0, with_top: true }).need).toBe("to open you need 50: enough");
  });

  test("cards are compared copy by copy", () => {
    expect(sameCards(["KS", "KS"], ["KS", "KS"])).toBe(true);
    expect(sameCards(["KS", "KH"], ["KS", "KS"])).toBe(false);
    expect(without(["KS", "KS", "2C"], ["KS"])).toEqual(["KS", "2C"]);
  });
});
