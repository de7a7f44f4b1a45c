import { describe, expect, it } from "vitest";
import { createSessionCache } from "./session-cache.ts";
import type { Session } from "./sessions.ts";

const session = (id: string): Session => ({
  id,
  kind: "account",
  accountId: "acct_1",
  wallet: "0x0000000000000000000000000000000000000001",
  origin: "http://localhost:8080",
  inviteId: null,
  createdAt: 0,
  expiresAt: 1_000_000,
});

describe("createSessionCache", () => {
  it("forgets revoked sessions by id, and only those", () => {
    const cache = createSessionCache({ clock: { now: () => 0 }, ttlMs: 30_000, maxEntries: 10 });
    cache.remember("hash-a", session("ses_a"));
    cache.remember("hash-b", session("ses_b"));
    cache.forget(["ses_a", "ses_unknown"]);
    expect(cache.get("hash-a")).toBeUndefined();
    expect(cache.get("hash-b")?.id).toBe("ses_b");
    expect(cache.size()).toBe(1);
  });

  it("trusts an entry for the TTL only", () => {
    let now = 0;
    const cache = createSessionCache({ clock: { now: () => now }, ttlMs: 30_000, maxEntries: 10 });
    cache.remember("hash-a", session("ses_a"));
    now = 29_999;
    expect(cache.get("hash-a")?.id).toBe("ses_a");
    now = 30_000;
    expect(cache.get("hash-a")).toBeUndefined();
  });

  it("drops the id index with an entry evicted by the size bound, so a later revocation cannot reach another entry", () => {
    const cache = createSessionCache({ clock: { now: () => 0 }, ttlMs: 30_000, maxEntries: 1 });
    cache.remember("hash-a", session("ses_a"));
    cache.remember("hash-b", session("ses_b"));
    expect(cache.get("hash-a")).toBeUndefined();
    // A stale index entry for ses_a would point at whatever the hash holds next.
    cache.remember("hash-a", session("ses_c"));
    cache.forget(["ses_a"]);
    expect(cache.get("hash-a")?.id).toBe("ses_c");
  });
});
