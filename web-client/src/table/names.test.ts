import { describe, expect, test } from "vitest";
import type { TableSummary } from "../api";
import { capital, plural, seatLabel } from "./names";

const seat = (seat: number, kind: "human" | "bot", name: string | null, bot: string | null = null) => ({ seat, kind, bot, name, joined: true, connected: true, away: false, stand_in: null, side: seat % 2 });
const table = { seats: [seat(0, "human", "Ann"), seat(1, "bot", null, "careful"), seat(2, "human", null)] } as unknown as TableSummary;

describe("the table's names", () => {
  test("a seat is its player's name, its bot's kind and number, or its number", () => {
    expect(seatLabel(table, 0, null)).toBe("Ann");
    expect(seatLabel(table, 0, 0)).toBe("Ann (you)");
    expect(seatLabel(table, 1, 0)).toBe("Careful bot 2");
    expect(seatLabel(table, 2, 0)).toBe("Seat 3");
    expect(seatLabel(undefined, 3, 3)).toBe("Seat 4 (you)");
  });

  test("counts and capitals", () => {
    expect(plural(1, "card")).toBe("1 card");
    expect(plural(3, "card")).toBe("3 cards");
    expect(plural(2, "group")).toBe("2 groups");
    expect(capital("the pile is frozen")).toBe("The pile is frozen");
  });
});
