import { describe, expect, it } from "vitest";
import { createDependencyLog } from "./dependency-log.ts";
import { createLogger } from "./index.ts";

/** A logger whose lines are kept, parsed, without their time and pid. */
function collected() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: "info",
    destination: {
      write: (chunk: string) => {
        const { time: _time, pid: _pid, ...line } = JSON.parse(chunk) as Record<string, unknown>;
        lines.push(line);
      },
    },
  });
  return { logger, lines };
}

describe("dependency log", () => {
  it("logs the first failure at once, one summary per interval with its count, and the recovery with the outage's duration", () => {
    const { logger, lines } = collected();
    let now = 1_000;
    const log = createDependencyLog({ logger, now: () => now, intervalMs: 10_000 });
    // 5,000 refusals over 25 s: one every 5 ms.
    for (let i = 0; i < 5_000; i++) {
      log.failed("database", i === 4_999 ? "connection refused (last)" : "connection refused");
      now += 5;
    }
    log.recovered("database");
    expect(lines).toEqual([
      { level: 40, msg: "dependency unavailable", dependency: "database", reason: "connection refused" },
      // At 10 s: the 2,000 failures since the first line (2,001 failures in all so far).
      {
        level: 40,
        msg: "dependency still unavailable",
        dependency: "database",
        reason: "connection refused",
        failures: 2_000,
        outageMs: 10_000,
      },
      {
        level: 40,
        msg: "dependency still unavailable",
        dependency: "database",
        reason: "connection refused",
        failures: 2_000,
        outageMs: 20_000,
      },
      {
        level: 30,
        msg: "dependency recovered",
        dependency: "database",
        outageMs: 25_000,
        failures: 5_000,
        lastReason: "connection refused (last)",
      },
    ]);
  });

  it("starts a new outage when a dependency whose recovery nobody reports has not failed for six intervals", () => {
    const { logger, lines } = collected();
    let now = 0;
    const log = createDependencyLog({ logger, now: () => now, intervalMs: 10_000 });
    log.failed("PROJECTION_STALE", "stale");
    // A failure every 30 s (the indexer's capped retry wait): one outage, a summary each time.
    now = 30_000;
    log.failed("PROJECTION_STALE", "stale");
    now = 60_000;
    log.failed("PROJECTION_STALE", "stale");
    // Quiet for an hour: the next failure is a new outage, logged as such.
    now = 3_660_000;
    log.failed("PROJECTION_STALE", "stale again");
    expect(lines.map(({ msg, failures, outageMs }) => ({ msg, failures, outageMs }))).toEqual([
      { msg: "dependency unavailable", failures: undefined, outageMs: undefined },
      { msg: "dependency still unavailable", failures: 1, outageMs: 30_000 },
      { msg: "dependency still unavailable", failures: 1, outageMs: 60_000 },
      { msg: "dependency unavailable", failures: undefined, outageMs: undefined },
    ]);
    expect(log.failing()).toEqual([{ dependency: "PROJECTION_STALE", since: 3_660_000, failures: 1 }]);
  });

  it("throttles each dependency on its own, and a recovery of one that never failed logs nothing", () => {
    const { logger, lines } = collected();
    let now = 0;
    const log = createDependencyLog({ logger, now: () => now, intervalMs: 10_000 });
    log.recovered("database");
    log.failed("database", "down");
    log.failed("rpc 8453", "fetch failed");
    log.failed("database", "down");
    log.failed("rpc 8453", "fetch failed");
    expect(log.failing()).toEqual([
      { dependency: "database", since: 0, failures: 2 },
      { dependency: "rpc 8453", since: 0, failures: 2 },
    ]);
    now = 3_000;
    log.recovered("rpc 8453");
    // A new outage after a recovery is logged at once again.
    log.failed("rpc 8453", "fetch failed again");
    expect(lines.map(({ msg, dependency, failures }) => ({ msg, dependency, failures }))).toEqual([
      { msg: "dependency unavailable", dependency: "database", failures: undefined },
      { msg: "dependency unavailable", dependency: "rpc 8453", failures: undefined },
      { msg: "dependency recovered", dependency: "rpc 8453", failures: 2 },
      { msg: "dependency unavailable", dependency: "rpc 8453", failures: undefined },
    ]);
  });
});
