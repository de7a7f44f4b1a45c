import { describe, expect, it } from "vitest";
import { cachedKey, createKeyCache } from "./cache.ts";

describe("createKeyCache", () => {
  it("trusts a found key for the positive TTL and an unknown one for the negative TTL", () => {
    let now = 0;
    const cache = createKeyCache({
      clock: { now: () => now },
      positiveTtlMs: 30_000,
      negativeTtlMs: 5_000,
      maxEntries: 10,
    });
    cache.set("found", cachedKey("found", "key_1", 2));
    cache.set("unknown", null);
    now = 4_999;
    expect(cache.get("found")).toEqual(cachedKey("found", "key_1", 2));
    expect(cache.get("unknown")).toBeNull();
    now = 5_000;
    expect(cache.get("unknown")).toBeUndefined();
    now = 29_999;
    expect(cache.get("found")).toEqual(cachedKey("found", "key_1", 2));
    now = 30_000;
    expect(cache.get("found")).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it("holds at most maxEntries, dropping the oldest", () => {
    const cache = createKeyCache({
      clock: { now: () => 0 },
      positiveTtlMs: 30_000,
      negativeTtlMs: 5_000,
      maxEntries: 2,
    });
    cache.set("a", null);
    cache.set("b", null);
    cache.set("c", cachedKey("c", "key_c", 1));
    expect(cache.size()).toBe(2);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")).toEqual(cachedKey("c", "key_c", 1));
  });
});
