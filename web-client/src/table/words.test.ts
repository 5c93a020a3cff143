import { describe, expect, test } from "vitest";
import { cardsWords, cardWords, moveWords, sentenceWords } from "./words";

describe("cards in words", () => {
  test("single cards and groups", () => {
    expect(cardWords("KS")).toBe("the king of spades");
    expect(cardWords("JK")).toBe("a joker");
    expect(cardsWords(["TH", "TC", "TC"])).toBe("three tens");
    expect(cardsWords(["KS", "KH", "JK"])).toBe("two kings and a joker");
    expect(cardsWords(["AS", "8H", "KD"])).toBe("an ace, an eight and a king");
  });

  test("codes inside a sentence become words, other words stay", () => {
    expect(sentenceWords("Discard KS: a single king")).toBe("Discard the king of spades: a single king");
    expect(sentenceWords("melded tens: TH TC TC.")).toBe("melded tens: three tens.");
    expect(sentenceWords("THE AS")).toBe("THE the ace of spades");
  });

  test("moves as sentences", () => {
    expect(moveWords("pickup 9C 9C | QS QC 2D 2C")).toBe("Take the pile with two nines, and meld two queens and two twos");
    expect(moveWords("meld K: 2C")).toBe("Add the two of clubs to your kings");
    expect(moveWords("discard 5H")).toBe("Discard the five of hearts");
    expect(moveWords("draw")).toBe("Draw from the stock");
    expect(moveWords("end")).toBe("End your turn holding your last card");
  });
});
