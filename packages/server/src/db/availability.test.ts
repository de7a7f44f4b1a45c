import { describe, expect, it } from "vitest";
import { type AvailabilityChange, createAvailabilityTracker } from "./availability.ts";

/** A probe the test answers: each call waits until the test settles it. */
function controlledProbe() {
  const calls: Array<{ answer: () => void; refuse: () => void }> = [];
  let announce: (() => void) | undefined;
  return {
    calls,
    probe: () =>
      new Promise<void>((resolve, reject) => {
        calls.push({ answer: resolve, refuse: () => reject(new Error("connection refused")) });
        announce?.();
      }),
    /** Resolves once the probe has been called `n` times. */
    called: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (calls.length >= n) resolve();
        };
        announce = check;
        check();
      }),
  };
}

describe("database availability", () => {
  it("is marked down by a failure, probes while down, and wakes every waiter and listener when the probe answers", async () => {
    const probe = controlledProbe();
    let now = 0;
    const tracker = createAvailabilityTracker({ probe: probe.probe, now: () => now, probeIntervalMs: 1 });
    const changes: AvailabilityChange[] = [];
    tracker.onChange((change) => changes.push(change));
    expect(tracker.available()).toBe(true);
    await tracker.whenAvailable();

    tracker.failed("connection refused");
    tracker.failed("connection refused again");
    expect(tracker.available()).toBe(false);
    let woken = false;
    const waiting = tracker.whenAvailable().then(() => {
      woken = true;
    });
    // A refused probe is followed by another, one at a time.
    await probe.called(1);
    probe.calls[0]!.refuse();
    await probe.called(2);
    expect({ woken, available: tracker.available(), probes: probe.calls.length }).toEqual({
      woken: false,
      available: false,
      probes: 2,
    });
    now = 1_500;
    probe.calls[1]!.answer();
    await waiting;
    expect(tracker.available()).toBe(true);
    expect(changes).toEqual([
      { available: false, reason: "connection refused" },
      { available: true, outageMs: 1_500 },
    ]);
    tracker.close();
  });

  it("is marked up by a query started during the outage that succeeds, before the probe answers", async () => {
    const probe = controlledProbe();
    const tracker = createAvailabilityTracker({ probe: probe.probe, probeIntervalMs: 1 });
    const before = tracker.ticket();
    tracker.failed("connection refused");
    const waiting = tracker.whenAvailable();
    // A query sent before the outage began, answered since, proves nothing.
    tracker.succeeded(before);
    expect(tracker.available()).toBe(false);
    tracker.succeeded(tracker.ticket());
    await waiting;
    expect(tracker.available()).toBe(true);
    // The probe in flight, if any, answering later changes nothing.
    for (const call of probe.calls) call.answer();
    expect(tracker.available()).toBe(true);
    tracker.close();
  });
});
