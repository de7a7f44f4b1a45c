/** A change of the database's availability, as the pool saw it. */
export type AvailabilityChange =
  | { available: false; reason: string }
  | { available: true /** From the first failure to the first answer again. */; outageMs: number };

/**
 * Whether the database answers, and the moment it answers again. A query
 * failing as unavailable marks it down; any query succeeding, or the probe
 * that runs while it is down, marks it up. Waiters (`whenAvailable`) and
 * listeners (`onChange`) learn of the recovery at once, so loops that back off
 * on database failures resume as soon as the database answers, not when their
 * retry timer ends.
 */
export interface DatabaseAvailability {
  /** False from a query failing as unavailable until the database answers again. */
  available(): boolean;
  /** Resolves at once when available, else when the database answers again (never rejects). */
  whenAvailable(): Promise<void>;
  /** Told of every change (down, up); returns the unsubscribe function. */
  onChange(listener: (change: AvailabilityChange) => void): () => void;
}

/** The pool's side: what its queries report, and the probe's end. */
export interface AvailabilityTracker extends DatabaseAvailability {
  /**
   * Taken when a query starts, given back to `succeeded`: only a query started
   * after the outage began proves the database answers again (one sent before,
   * answered while the server shuts down, does not).
   */
  ticket(): number;
  /** A query failed as unavailable. */
  failed(reason: string): void;
  /** A query started with `ticket` succeeded. */
  succeeded(ticket: number): void;
  /** Stops probing; whoever waits for the recovery is released. */
  close(): void;
}

/**
 * While the database is down, a probe (`SELECT 1` on a connection of its own,
 * with its own short connect timeout) runs every `PROBE_INTERVAL_MS`, one at a
 * time: the recovery is seen within that interval (plus a connection setup)
 * even when no query is tried meanwhile. Bounded: one probe in flight, one
 * connection, stopped once the database answers or the pool is closed.
 */
export const PROBE_INTERVAL_MS = 250;

export function createAvailabilityTracker(options: {
  /** One cheap round trip on a connection outside the pool; throws when the database does not answer. */
  probe: () => Promise<void>;
  now?: () => number;
  probeIntervalMs?: number;
}): AvailabilityTracker {
  const now = options.now ?? Date.now;
  const interval = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
  const listeners = new Set<(change: AvailabilityChange) => void>();
  let downSince: number | undefined;
  /** Outages seen so far; a ticket is the count when its query started. */
  let outages = 0;
  let recovered: Promise<void> | undefined;
  let resolveRecovered: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let probing = false;
  let closed = false;

  const tell = (change: AvailabilityChange) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  };

  const scheduleProbe = () => {
    if (closed || timer || probing || downSince === undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (closed || downSince === undefined) return;
      probing = true;
      options.probe().then(
        () => {
          probing = false;
          up();
        },
        () => {
          probing = false;
          scheduleProbe();
        },
      );
    }, interval);
    timer.unref();
  };

  const up = () => {
    if (downSince === undefined) return;
    const outageMs = now() - downSince;
    downSince = undefined;
    if (timer) clearTimeout(timer);
    timer = undefined;
    const resolve = resolveRecovered;
    recovered = undefined;
    resolveRecovered = undefined;
    resolve?.();
    tell({ available: true, outageMs });
  };

  return {
    available: () => downSince === undefined,
    whenAvailable() {
      if (downSince === undefined) return Promise.resolve();
      recovered ??= new Promise<void>((resolve) => {
        resolveRecovered = resolve;
      });
      return recovered;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ticket: () => outages,
    failed(reason) {
      if (closed || downSince !== undefined) return;
      downSince = now();
      outages += 1;
      tell({ available: false, reason });
      scheduleProbe();
    },
    succeeded(ticket) {
      if (downSince !== undefined && ticket === outages) up();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      // Nothing waits forever on a closed pool: its next query fails as closed.
      resolveRecovered?.();
      listeners.clear();
    },
  };
}
