import { describe, expect, it } from "vitest";
import { DEFAULT_FRESHNESS_BOUNDS, type FeedHead, freshnessOf } from "./freshness.ts";

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const head = (overrides: Partial<FeedHead> = {}): FeedHead => ({
  nextBlock: 101n,
  blockHash: `0x${"ab".repeat(32)}`,
  blockTime: new Date(now - 10_000),
  observedHead: 102n,
  observedAt: new Date(now - 1_000),
  ...overrides,
});
const at = (value: FeedHead | undefined) => freshnessOf(value, now, 2, DEFAULT_FRESHNESS_BOUNDS);

describe("freshnessOf", () => {
  it("describes a fresh head: block 100, its hash and time, the lag, the documented bounds", () => {
    expect(at(head())).toEqual({
      block: { number: "100", hash: `0x${"ab".repeat(32)}`, timestamp: new Date(now - 10_000).toISOString() },
      observedHead: "102",
      observedAt: new Date(now - 1_000).toISOString(),
      lagBlocks: 2,
      blockAgeSeconds: 10,
      stale: false,
      reason: null,
      bounds: { maxObservationAgeSeconds: 30, maxBlockAgeSeconds: 120, maxLagBlocks: 60 },
    });
  });

  it("is stale exactly past each bound", () => {
    expect(at(undefined)).toMatchObject({ stale: true, reason: "NOT_INDEXED", block: null });
    expect(at(head({ blockTime: null }))).toMatchObject({ stale: true, reason: "NOT_INDEXED" });
    expect(at(head({ observedAt: new Date(now - 30_000) })).stale).toBe(false);
    expect(at(head({ observedAt: new Date(now - 30_001) }))).toMatchObject({ reason: "NOT_OBSERVED" });
    expect(at(head({ blockTime: new Date(now - 120_000) })).stale).toBe(false);
    expect(at(head({ blockTime: new Date(now - 120_001) }))).toMatchObject({ reason: "BLOCK_TOO_OLD" });
    // 60 blocks beyond the finality depth of 2 are allowed, 61 are not.
    expect(at(head({ observedHead: 162n })).stale).toBe(false);
    expect(at(head({ observedHead: 163n }))).toMatchObject({ reason: "TOO_FAR_BEHIND", lagBlocks: 63 });
  });
});
