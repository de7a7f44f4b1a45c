import { describe, expect, it } from "vitest";
import { createTtlCache } from "./ttl-cache.ts";

function createManualClock() {
  let now = 1_000_000;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe("createTtlCache", () => {
  it("serves an entry until its own TTL passes, then drops it and reports the eviction", () => {
    const clock = createManualClock();
    const evicted: [string, number][] = [];
    const cache = createTtlCache<string, number>({
      clock,
      maxEntries: 10,
      onEvict: (key, value) => evicted.push([key, value]),
    });
    cache.set("short", 1, 5_000);
    cache.set("long", 2, 30_000);
    clock.advance(4_999);
    expect(cache.get("short")).toBe(1);
    clock.advance(1);
    expect(cache.get("short")).toBeUndefined();
    expect(cache.get("long")).toBe(2);
    expect(cache.size()).toBe(1);
    expect(evicted).toEqual([["short", 1]]);
  });

  it("keeps falsy values apart from a miss", () => {
    const cache = createTtlCache<string, number | null>({ clock: createManualClock(), maxEntries: 10 });
    cache.set("none", null, 1_000);
    cache.set("zero", 0, 1_000);
    expect(cache.get("none")).toBeNull();
    expect(cache.get("zero")).toBe(0);
    expect(cache.get("absent")).toBeUndefined();
  });

  it("evicts the entry written longest ago when full; a rewrite counts as a new write", () => {
    const clock = createManualClock();
    const evicted: string[] = [];
    const cache = createTtlCache<string, string>({
      clock,
      maxEntries: 2,
      onEvict: (key) => evicted.push(key),
    });
    cache.set("a", "1", 60_000);
    cache.set("b", "2", 60_000);
    cache.set("a", "3", 60_000);
    expect(cache.size()).toBe(2);
    expect(evicted).toEqual([]);
    cache.set("c", "4", 60_000);
    expect(evicted).toEqual(["b"]);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("3");
    expect(cache.get("c")).toBe("4");
  });

  it("restarts the TTL on a rewrite", () => {
    const clock = createManualClock();
    const cache = createTtlCache<string, number>({ clock, maxEntries: 10 });
    cache.set("k", 1, 1_000);
    clock.advance(900);
    cache.set("k", 2, 1_000);
    clock.advance(900);
    expect(cache.get("k")).toBe(2);
  });

  it("deletes and clears without reporting evictions", () => {
    const evicted: string[] = [];
    const cache = createTtlCache<string, number>({
      clock: createManualClock(),
      maxEntries: 10,
      onEvict: (key) => evicted.push(key),
    });
    cache.set("a", 1, 1_000);
    cache.set("b", 2, 1_000);
    expect(cache.delete("a")).toBe(true);
    expect(cache.delete("a")).toBe(false);
    expect(cache.get("a")).toBeUndefined();
    cache.clear();
    expect(cache.size()).toBe(0);
    expect(cache.get("b")).toBeUndefined();
    expect(evicted).toEqual([]);
  });
});
