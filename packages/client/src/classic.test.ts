import { describe, expect, it } from "vitest";
import { everyPageItem, everyTokenIdItem, exactIntegers } from "./classic.ts";

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

describe("everyTokenIdItem", () => {
  /** A range of token ids served as the server does: the window's first `limit` ids in the order asked. */
  const serve = (ids: bigint[], limit: number, ascending: boolean) => {
    const windows: Array<{ startTokenId?: bigint; endTokenId?: bigint }> = [];
    const read = async (window: { startTokenId?: bigint; endTokenId?: bigint }) => {
      windows.push(window);
      const inWindow = ids
        .filter((id) => (window.startTokenId ?? 0n) <= id && id <= (window.endTokenId ?? 2n ** 256n))
        .sort((a, b) => (a < b ? -1 : 1) * (ascending ? 1 : -1));
      return { items: inWindow.slice(0, limit).map((tokenId) => ({ tokenId })), limit };
    };
    return { read, windows };
  };
  const ids = [1n, 2n, 3n, 5n, 8n, 2n ** 64n + 1n, 2n ** 64n + 2n];

  it("walks a range upwards past the last token id seen, each time from page 1", async () => {
    const { read, windows } = serve(ids, 3, true);
    const seen: bigint[] = [];
    for await (const item of everyTokenIdItem(read, true)) seen.push(item.tokenId);
    expect(seen).toEqual(ids);
    expect(windows).toEqual([{}, { startTokenId: 4n }, { startTokenId: 2n ** 64n + 2n }]);
  });
  it("walks a range downwards and stops at a short page", async () => {
    const { read, windows } = serve(ids, 4, false);
    const seen: bigint[] = [];
    for await (const item of everyTokenIdItem(read, false)) seen.push(item.tokenId);
    expect(seen).toEqual([...ids].reverse());
    expect(windows).toEqual([{}, { endTokenId: 4n }]);
  });
});
