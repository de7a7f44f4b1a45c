import type { PredictMarketsPage } from "@mkt/protocol";
import { describe, expect, it } from "vitest";
import { createTransport } from "./http.ts";
import { predictMarketsApi } from "./predict-markets.ts";

const block = { number: "10", hash: `0x${"ab".repeat(32)}`, timestamp: "2026-11-25T12:00:00.000Z" };
const market = (id: number) => ({
  address: `0x${id.toString(16).padStart(40, "0")}`,
  marketId: String(id),
  chainId: 4663,
  creator: `0x${"aa".repeat(20)}`,
  question: `Q${id}`,
  outcomes: [
    { side: "yes", index: 0 },
    { side: "no", index: 1 },
  ],
  state: "open",
  paused: false,
  outcome: null,
  feeBps: 0,
  totalSeed: "1",
  backingWeth: "1",
  pool: { yes: "1", no: "1" },
  prices: { yes: 5000, no: 5000 },
  feesAccrued: "0",
  liquidityCollected: false,
  volumeWeth: "0",
  trades: 0,
  createdBlock: "1",
  createdAt: block.timestamp,
  resolvedBlock: null,
  resolvedAt: null,
  updatedBlock: "1",
});

describe("predictMarketsApi", () => {
  it("iterates until nextCursor is null, never stopping at a short page", async () => {
    // A server may answer fewer markets than asked and still have more: only null ends the walk.
    const pages: Record<string, PredictMarketsPage> = {
      "": { markets: [market(9), market(8)], nextCursor: "8", block } as PredictMarketsPage,
      "8": { markets: [market(7)], nextCursor: "7", block } as PredictMarketsPage,
      "7": { markets: [], nextCursor: "5", block } as PredictMarketsPage,
      "5": { markets: [market(4)], nextCursor: null, block } as PredictMarketsPage,
    };
    const asked: string[] = [];
    const fetch = (async (url: URL | string) => {
      const query = new URL(String(url)).searchParams;
      expect(new URL(String(url)).pathname).toBe("/predict/v9/markets");
      asked.push(`${query.get("cursor") ?? ""}/${query.get("limit")}`);
      return new Response(JSON.stringify(pages[query.get("cursor") ?? ""]), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }) as typeof globalThis.fetch;
    const api = predictMarketsApi(createTransport({ baseUrl: "http://mkt.test", apiKey: "k", fetch }));
    const ids: string[] = [];
    for await (const m of api.iterate({ limit: 2 })) ids.push(m.marketId);
    expect(ids).toEqual(["9", "8", "7", "4"]);
    expect(asked).toEqual(["/2", "8/2", "7/2", "5/2"]);
  });
});
