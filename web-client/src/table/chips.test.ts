import { describe, expect, test } from "vitest";
import type { MeldView } from "../api";
import { bookMark, chipRank, meldFace, meldKind } from "./chips";

const meld = (rank: string, cards: string[], wilds: number): MeldView => ({ owner: 0, rank, cards, wilds });

describe("meld chips", () => {
  test("a chip names the rank as a player reads it", () => {
    expect(chipRank("T")).toBe("10");
    expect(chipRank("W")).toBe("wild");
    expect(chipRank("K")).toBe("K");
  });
  test("a meld is its card count until it is a book, then clean, dirty or wild", () => {
    expect(meldKind(meld("K", ["KS"], 0), 7)).toBe("1 card");
    expect(meldKind(meld("K", ["KS", "KH", "2C"], 1), 7)).toBe("3 cards");
    expect(meldKind(meld("K", Array(7).fill("KS"), 0), 7)).toBe("clean book");
    expect(meldKind(meld("K", [...Array(6).fill("KS"), "JK"], 1), 7)).toBe("dirty book");
    expect(meldKind(meld("W", Array(7).fill("JK"), 7), 7)).toBe("wild book");
  });
  test("a stack's face is its rank; a book's mark is clean or dirty, none before it is a book", () => {
    expect(meldFace(meld("T", ["TS", "TH", "TD"], 0))).toBe("10");
    expect(bookMark(meld("K", Array(6).fill("KS"), 0), 7)).toBeNull();
    expect(bookMark(meld("K", Array(7).fill("KS"), 0), 7)).toBe("clean");
    expect(bookMark(meld("K", [...Array(6).fill("KS"), "2C"], 1), 7)).toBe("dirty");
    expect(bookMark(meld("W", Array(7).fill("JK"), 7), 7)).toBe("clean");
  });
});
