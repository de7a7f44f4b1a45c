import { describe, expect, it } from "vitest";
import type { Database } from "../db/index.ts";
import {
  createPredictFreshness,
  DEFAULT_FRESHNESS_BOUNDS,
  type FeedHead,
  freshnessOf,
  HEAD_REFRESH_MS,
  headTimesOf,
  staleReasonOf,
} from "./freshness.ts";

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const head = (overrides: Partial<FeedHead> = {}): FeedHead => ({
  nextBlock: 101n,
  blockHash: `0x${"ab".repeat(32)}`,
  blockTime: new Date(now - 10_000),
  observedHead: 102n,
  observedAt: new Date(now - 1_000),
  ...overrides,
});
/** A clock that moves only when told. */
const manualClock = (start: number) => {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
};
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

describe("staleReasonOf", () => {
  it("gives the reason the freshness document reports, on each side of every bound", () => {
    const heads: (FeedHead | undefined)[] = [
      undefined,
      head(),
      head({ nextBlock: 0n }),
      head({ blockHash: null }),
      head({ blockTime: null }),
      head({ observedAt: null }),
      head({ observedHead: null }),
      head({ observedAt: new Date(now - 30_000) }),
      head({ observedAt: new Date(now - 30_001) }),
      head({ blockTime: new Date(now - 120_000) }),
      head({ blockTime: new Date(now - 120_001) }),
      head({ observedHead: 162n }),
      head({ observedHead: 163n }),
      // Several bounds passed at once: the first in the documented order wins.
      head({ observedAt: new Date(now - 60_000), blockTime: new Date(now - 200_000), observedHead: 500n }),
      head({ blockTime: new Date(now - 200_000), observedHead: 500n }),
    ];
    const reasons = heads.map((value) => staleReasonOf(headTimesOf(value), now, 2, DEFAULT_FRESHNESS_BOUNDS));
    expect(reasons).toEqual(heads.map((value) => at(value).reason));
    expect(reasons).toEqual([
      "NOT_INDEXED",
      null,
      "NOT_INDEXED",
      "NOT_INDEXED",
      "NOT_INDEXED",
      "NOT_OBSERVED",
      "TOO_FAR_BEHIND",
      null,
      "NOT_OBSERVED",
      null,
      "BLOCK_TOO_OLD",
      null,
      "TOO_FAR_BEHIND",
      "NOT_OBSERVED",
      "BLOCK_TOO_OLD",
    ]);
  });
});

describe("createPredictFreshness", () => {
  const row = (observedAt: number) => ({
    next_block: "101",
    block_hash: `0x${"ab".repeat(32)}`,
    block_time: new Date(observedAt - 9_000),
    observed_head: "102",
    observed_at: new Date(observedAt),
  });

  it("judges staleness against the clock on every call, reading the head row at most once per refresh", async () => {
    const clock = manualClock(now);
    let observedAt = now;
    let reads = 0;
    const db = {
      withConnection: async <T>(use: (connection: { query: () => Promise<{ rows: unknown[] }> }) => T) =>
        use({
          query: async () => {
            reads += 1;
            return { rows: [row(observedAt)] };
          },
        }),
    } as unknown as Database;
    const freshness = createPredictFreshness({
      db,
      clock,
      scope: "predict-4663",
      finalityDepth: 2,
      revision: { value: 0 },
    });
    const first = freshness.staleReason();
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBeNull();
    // Within the refresh: synchronous, no read, and the same verdict as the document.
    clock.advance(HEAD_REFRESH_MS - 1);
    expect(freshness.staleReason()).toBeNull();
    expect(freshness.current()).toMatchObject({ stale: false, reason: null });
    expect(reads).toBe(1);
    // The indexer stopped observing: once the copy is refreshed, the bound is passed.
    observedAt = now - 31_000;
    clock.advance(1);
    expect(await freshness.staleReason()).toBe("NOT_OBSERVED");
    expect(freshness.current()).toMatchObject({ stale: true, reason: "NOT_OBSERVED" });
    expect(reads).toBe(2);
  });

  it("is never fresh without a prediction chain", () => {
    const freshness = createPredictFreshness({
      db: {} as Database,
      clock: manualClock(now),
      scope: undefined,
      finalityDepth: 2,
      revision: { value: 0 },
    });
    expect(freshness.staleReason()).toBe("NOT_INDEXED");
    expect(freshness.current()).toMatchObject({ stale: true, reason: "NOT_INDEXED" });
  });
});
