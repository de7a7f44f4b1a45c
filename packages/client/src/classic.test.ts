import { describe, expect, it } from "vitest";
import { everyPageItem, exactIntegers } from "./classic.ts";

describe("exactIntegers", () => {
  it("rebuilds every integer that has a decimal-string twin, at any depth, exactly", () => {
    const text =
      '{"boxes":[{"tokenId":18446744073709551617,"tokenIdString":"18446744073709551617","rarity":2}],"page":1}';
    const parsed = JSON.parse(text);
    expect(parsed.boxes[0].tokenId).not.toBe(18446744073709551617n);
    expect(exactIntegers(parsed)).toEqual({
      boxes: [{ tokenId: 18446744073709551617n, tokenIdString: "18446744073709551617", rarity: 2 }],
      page: 1,
    });
  });
  it("leaves a field alone when its twin is not a decimal string", () => {
    expect(exactIntegers({ a: 1, aString: "x", b: "2", bString: "2" })).toEqual({
      a: 1,
      aString: "x",
      b: "2",
      bString: "2",
    });
  });
});

describe("everyPageItem", () => {
  it("follows totalPages as each page reports it", async () => {
    const pages = [
      { items: [1, 2], pagination: { page: 1, limit: 2, total: 4, totalPages: 2 } },
      // The list grew while it was walked: page 2 reports a third page.
      { items: [3, 4], pagination: { page: 2, limit: 2, total: 5, totalPages: 3 } },
      { items: [5], pagination: { page: 3, limit: 2, total: 5, totalPages: 3 } },
    ];
    const seen: number[] = [];
    const asked: number[] = [];
    for await (const item of everyPageItem(
      async (page) => {
        asked.push(page);
        return pages[page - 1]!;
      },
      (page) => page.items,
    ))
      seen.push(item);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([1, 2, 3]);
  });
  it("reads one page of an empty list", async () => {
    const asked: number[] = [];
    const seen: number[] = [];
    for await (const item of everyPageItem(
      async (page) => {
        asked.push(page);
        return { items: [] as number[], pagination: { page: 1, limit: 10, total: 0, totalPages: 0 } };
      },
      (page) => page.items,
    ))
      seen.push(item);
    expect(seen).toEqual([]);
    expect(asked).toEqual([1]);
  });
});
