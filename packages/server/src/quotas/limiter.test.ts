import { describe, expect, it } from "vitest";
import { createManualClock } from "../_test/app.ts";
import { createSlidingWindowLimiter, SLOTS, type SlidingWindowLimiter } from "./limiter.ts";
import { defaultPolicies } from "./policies.ts";

const MINUTE = 60_000;

function spend(limiter: SlidingWindowLimiter, id: string, limit: number, windowMs: number) {
  let admitted = 0;
  while (limiter.take(id, limit, windowMs).allowed) admitted += 1;
  return admitted;
}

describe("sliding window limiter", () => {
  it("admits exactly the limit, then refuses with Retry-After in whole seconds", () => {
    const clock = createManualClock();
    const limiter = createSlidingWindowLimiter({ clock });
    for (let i = 1; i <= 5; i++) {
      const decision = limiter.take("a", 5, MINUTE);
      expect(decision).toMatchObject({ allowed: true, limit: 5, remaining: 5 - i });
    }
    const refused = limiter.take("a", 5, MINUTE);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(60);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(61);
  });

  it("never admits more than the limit in any rolling window, across a minute boundary too", () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1, 0, 0, 59, 500));
    const limiter = createSlidingWindowLimiter({ clock });
    // A fixed window would admit 100 at 00:00:59.5 and 100 more at 00:01:00.0.
    expect(spend(limiter, "k", 100, MINUTE)).toBe(100);
    clock.advance(500);
    expect(spend(limiter, "k", 100, MINUTE)).toBe(0);
    // Simulate steady traffic for five minutes, one attempt every 100 ms, and
    // check every rolling 60 s window.
    const admittedAt: number[] = [];
    for (let t = 0; t < 5 * MINUTE; t += 100) {
      clock.advance(100);
      if (limiter.take("k", 100, MINUTE).allowed) admittedAt.push(clock.now());
    }
    for (let i = 0; i < admittedAt.length; i++) {
      const start = admittedAt[i]!;
      const inWindow = admittedAt.filter((t) => t >= start && t < start + MINUTE).length;
      expect(inWindow).toBeLessThanOrEqual(100);
    }
    expect(admittedAt.length).toBeGreaterThan(300);
  });

  it("frees the budget as old requests leave the window, and Retry-After is honest", () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const limiter = createSlidingWindowLimiter({ clock });
    expect(spend(limiter, "k", 10, MINUTE)).toBe(10);
    const refused = limiter.take("k", 10, MINUTE);
    clock.advance(refused.retryAfterSeconds * 1000 - 1000);
    expect(limiter.take("k", 10, MINUTE).allowed).toBe(false);
    clock.advance(1000);
    expect(limiter.take("k", 10, MINUTE).allowed).toBe(true);
  });

  it("reports reset as the time until the oldest counted request leaves", () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const limiter = createSlidingWindowLimiter({ clock });
    expect(limiter.peek("k", 10, MINUTE).resetSeconds).toBe(0);
    limiter.take("k", 10, MINUTE);
    clock.advance(30_000);
    const decision = limiter.take("k", 10, MINUTE);
    expect(decision.remaining).toBe(8);
    expect(decision.resetSeconds).toBeGreaterThanOrEqual(30);
    expect(decision.resetSeconds).toBeLessThanOrEqual(31);
  });

  it("agrees with a request-by-request model on remaining and reset, over random traffic", () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const limiter = createSlidingWindowLimiter({ clock });
    const slotMs = MINUTE / SLOTS;
    const limit = 40;
    const admittedSlots: number[] = [];
    // A deterministic pseudo-random walk: bursts, pauses shorter and longer than a slot and a window.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let step = 0; step < 3_000; step++) {
      const pause = random();
      clock.advance(
        pause < 0.6
          ? 0
          : pause < 0.9
            ? Math.floor(random() * 3 * slotMs)
            : Math.floor(random() * 1.5 * MINUTE),
      );
      const now = clock.now();
      const slot = Math.floor(now / slotMs);
      // The model: requests in the slots from `slot - SLOTS` to `slot` count in full.
      const counted = admittedSlots.filter((s) => s >= slot - SLOTS);
      const fits = counted.length < limit;
      const taking = random() < 0.8;
      const decision = taking ? limiter.take("m", limit, MINUTE) : limiter.peek("m", limit, MINUTE);
      expect(decision.allowed).toBe(fits);
      if (taking && fits) {
        admittedSlots.push(slot);
        counted.push(slot);
      }
      expect(decision.remaining).toBe(Math.max(0, limit - counted.length));
      const oldest = Math.min(...counted);
      expect(decision.resetSeconds).toBe(
        counted.length === 0 ? 0 : Math.max(1, Math.ceil(((oldest + SLOTS + 1) * slotMs - now) / 1000)),
      );
    }
  });

  it("answers allows() as peek() does, without creating a counter for an unknown id", () => {
    const clock = createManualClock();
    const limiter = createSlidingWindowLimiter({ clock });
    expect(limiter.allows("fresh", 3, MINUTE)).toBe(true);
    expect(limiter.allows("fresh", 0, MINUTE)).toBe(false);
    expect(limiter.size()).toBe(0);
    for (let i = 0; i < 3; i++) {
      expect(limiter.allows("f", 3, MINUTE)).toBe(limiter.peek("f", 3, MINUTE).allowed);
      limiter.take("f", 3, MINUTE);
    }
    expect(limiter.allows("f", 3, MINUTE)).toBe(false);
    expect(limiter.peek("f", 3, MINUTE).allowed).toBe(false);
    // The oldest slot is counted in full until the window has passed it.
    clock.advance(MINUTE + MINUTE / SLOTS);
    expect(limiter.allows("f", 3, MINUTE)).toBe(true);
    expect(limiter.peek("f", 3, MINUTE).allowed).toBe(true);
  });

  it("keeps counters apart by id and uses constant memory whatever the multiplier", () => {
    const clock = createManualClock();
    const limiter = createSlidingWindowLimiter({ clock });
    expect(spend(limiter, "big", 1_000_000, MINUTE)).toBe(1_000_000);
    expect(limiter.take("small", 1, MINUTE).allowed).toBe(true);
    expect(limiter.take("small", 1, MINUTE).allowed).toBe(false);
    expect(limiter.size()).toBe(2);
  });

  it("sweeps counters idle for a whole window", () => {
    const clock = createManualClock();
    const limiter = createSlidingWindowLimiter({ clock });
    limiter.take("a", 5, MINUTE);
    limiter.take("b", 5, 3_600_000);
    clock.advance(2 * MINUTE);
    limiter.sweep();
    expect(limiter.size()).toBe(1);
  });
});

describe("quota policies on the limiter", () => {
  const cases = [
    ["market read", defaultPolicies.market.read, 100, MINUTE],
    ["market write", defaultPolicies.market.write, 25, MINUTE],
    ["market stream", defaultPolicies.market.stream, 10, MINUTE],
    ["classic key-gated reads", defaultPolicies.classic.read, 100, MINUTE],
    ["classic search and API-key writes", defaultPolicies.classic.search, 25, MINUTE],
    ["classic public metadata", defaultPolicies.classic.metadata, 2_000, MINUTE],
    ["classic reports", defaultPolicies.classic.report, 10, 3_600_000],
    ["prediction feed", defaultPolicies.predict.all, 100, MINUTE],
  ] as const;

  it.each(cases)(
    "%s: %i per window, multiplied by the key's multiplier",
    (_name, budget, limit, windowMs) => {
      expect(budget).toEqual({ limit, windowMs });
      const clock = createManualClock();
      const limiter = createSlidingWindowLimiter({ clock });
      expect(spend(limiter, "x1", budget.limit * 1, budget.windowMs)).toBe(limit);
      expect(spend(limiter, "x3", budget.limit * 3, budget.windowMs)).toBe(limit * 3);
      // Still exhausted just before the window has passed, free again after it.
      clock.advance(budget.windowMs - budget.windowMs / 60);
      expect(limiter.take("x1", budget.limit, budget.windowMs).allowed).toBe(false);
      clock.advance((2 * budget.windowMs) / 60);
      expect(limiter.take("x1", budget.limit, budget.windowMs).allowed).toBe(true);
    },
  );
});
