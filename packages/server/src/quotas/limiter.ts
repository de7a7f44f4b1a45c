/**
 * A sliding-window limiter, one per replica, shared by every surface.
 *
 * Each counter keeps SLOTS sub-windows of window/SLOTS and counts a request in
 * the slot it arrives in. A request is admitted when the slots overlapping
 * the last full window (SLOTS + 1 of them, counting the partly expired
 * oldest one in full) hold fewer than `limit` requests. Counting the oldest
 * slot in full makes the rule conservative: no rolling window of the stated
 * length ever admits more than `limit`, so there is no fixed-window boundary
 * at which a client spends twice its budget. The price is that a request can
 * be refused up to one slot (window/SLOTS) early. Memory per counter is
 * constant whatever the limit, so a high multiplier costs nothing.
 *
 * Node runs one request handler at a time, so check-and-increment is atomic:
 * a burst of concurrent requests never overspends.
 */
export const SLOTS = 60;

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest request counted in the window leaves it (0 when none is counted). */
  resetSeconds: number;
  /** Whole seconds to wait before retrying, for `Retry-After`; at least 1 when refused. */
  retryAfterSeconds: number;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

interface Counter {
  windowMs: number;
  /** Index of the newest slot, in slot units since the epoch. */
  head: number;
  counts: Uint32Array;
  total: number;
  /** The oldest slot in the window holding a request, or -1 when the window is empty. */
  oldest: number;
}

export interface SlidingWindowLimiter {
  /** Reserves one request under `id` if the budget allows it. */
  take(id: string, limit: number, windowMs: number): LimitDecision;
  /** Reads the state without reserving. */
  peek(id: string, limit: number, windowMs: number): LimitDecision;
  /** Whether one more request fits under `id`, without reserving and without building a decision. */
  allows(id: string, limit: number, windowMs: number): boolean;
  /** Drops idle counters; called periodically. */
  sweep(): void;
  /** How many counters it holds. */
  size(): number;
}

export function createSlidingWindowLimiter({
  clock = systemClock,
}: {
  clock?: Clock;
} = {}): SlidingWindowLimiter {
  const counters = new Map<string, Counter>();
  const ring = SLOTS + 1;

  const advance = (counter: Counter, slot: number) => {
    if (slot <= counter.head) return;
    const steps = Math.min(slot - counter.head, ring);
    for (let step = 1; step <= steps; step++) {
      const index = (counter.head + step) % ring;
      counter.total -= counter.counts[index]!;
      counter.counts[index] = 0;
    }
    counter.head = slot;
    if (counter.total === 0) counter.oldest = -1;
    else if (counter.oldest < slot - SLOTS) {
      // The oldest request left: the next one is the first non-empty slot after it
      // (each slot is passed over at most once per window, so this is O(1) amortised).
      let oldest = slot - SLOTS;
      while (counter.counts[oldest % ring] === 0) oldest += 1;
      counter.oldest = oldest;
    }
  };

  /** Reads the budget state; a slot s leaves the window when the current slot passes s + SLOTS. */
  const decide = (
    counter: Counter,
    limit: number,
    slotMs: number,
    now: number,
    allowed: boolean,
  ): LimitDecision => {
    const remaining = Math.max(0, limit - counter.total);
    // The oldest counted request gives the reset.
    const resetSeconds =
      counter.oldest < 0 ? 0 : Math.max(1, Math.ceil(((counter.oldest + SLOTS + 1) * slotMs - now) / 1000));
    if (allowed) return { allowed, limit, remaining, resetSeconds, retryAfterSeconds: 0 };
    // Refused: find how many of the oldest slots must leave before one more request fits.
    let admitAt = now;
    let excess = counter.total - limit + 1;
    for (let age = SLOTS; age >= 0 && excess > 0; age--) {
      const slot = counter.head - age;
      excess -= counter.counts[slot % ring]!;
      if (excess <= 0) admitAt = (slot + SLOTS + 1) * slotMs;
    }
    return {
      allowed,
      limit,
      remaining,
      resetSeconds,
      retryAfterSeconds: Math.max(1, Math.ceil((admitAt - now) / 1000)),
    };
  };

  /** The counter of `id` for this window, moved up to `slot` (created when new or when the window changed). */
  const counterAt = (id: string, windowMs: number, slot: number): Counter => {
    let counter = counters.get(id);
    if (counter === undefined || counter.windowMs !== windowMs) {
      counter = { windowMs, head: slot, counts: new Uint32Array(ring), total: 0, oldest: -1 };
      counters.set(id, counter);
    }
    advance(counter, slot);
    return counter;
  };

  return {
    take(id, limit, windowMs) {
      const now = clock.now();
      const slotMs = windowMs / SLOTS;
      const slot = Math.floor(now / slotMs);
      const counter = counterAt(id, windowMs, slot);
      if (counter.total >= limit) return decide(counter, limit, slotMs, now, false);
      counter.counts[slot % ring]! += 1;
      counter.total += 1;
      if (counter.oldest < 0) counter.oldest = slot;
      return decide(counter, limit, slotMs, now, true);
    },
    peek(id, limit, windowMs) {
      // Peeking never creates a counter: an unknown id has its whole budget.
      if (!counters.has(id))
        return { allowed: limit > 0, limit, remaining: limit, resetSeconds: 0, retryAfterSeconds: 0 };
      const now = clock.now();
      const slotMs = windowMs / SLOTS;
      const counter = counterAt(id, windowMs, Math.floor(now / slotMs));
      return decide(counter, limit, slotMs, now, counter.total < limit);
    },
    allows(id, limit, windowMs) {
      // The usual case on the hot path: a client with no failed attempts has no counter at all.
      if (!counters.has(id)) return limit > 0;
      const now = clock.now();
      const slotMs = windowMs / SLOTS;
      return counterAt(id, windowMs, Math.floor(now / slotMs)).total < limit;
    },
    sweep() {
      const now = clock.now();
      for (const [id, counter] of counters) {
        const slot = Math.floor(now / (counter.windowMs / SLOTS));
        if (slot - counter.head > SLOTS) counters.delete(id);
      }
    },
    size: () => counters.size,
  };
}
