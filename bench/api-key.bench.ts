import { fileURLToPath } from "node:url";
import {
  formatRow,
  type LoadOptions,
  type LoadResult,
  LoadTally,
  load,
  median,
  startApiServer,
  startProcess,
} from "./harness.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const TARGET_RATIO = 0.7;
/** The same load shape for both servers: these connections, one request in flight on each. */
const CONNECTIONS = 64;
const PIPELINING = 1;
const WARMUP_SECONDS = 3;
/** Each round's load of each server is cut into slices this long, the two servers taking turns. */
const SLICE_SECONDS = 1;

type Side = "bare" | "api";

/** Both servers, freshly started, and how to load each. */
async function startServers() {
  const [bare, server] = await Promise.all([
    startProcess(["--import", "tsx", `${root}bench/bare-server.ts`], {}, /listening on (\S+)/),
    startApiServer({ logLevel: "info" }),
  ]);
  const shape = { connections: CONNECTIONS, pipelining: PIPELINING };
  const targets: Record<Side, Omit<LoadOptions, "durationSeconds">> = {
    bare: { ...shape, url: bare.match[1]!, pid: bare.child.pid },
    api: {
      ...shape,
      url: `${server.baseUrl}/market/api-key?bucket=read`,
      headers: { "api-key": server.apiKey },
      pid: server.pid,
    },
  };
  const measure = async (side: Side, seconds: number, into?: LoadTally) => {
    const result = await load({ ...targets[side], durationSeconds: seconds }, into);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${side} answered errors: ${JSON.stringify(result)}`);
    return result;
  };
  return { measure, stop: () => Promise.all([server.stop(), bare.stop()]) };
}

/**
 * GET /market/api-key?bucket=read with a high-multiplier key, against a bare
 * node:http server answering 204, each server in its own process and the
 * load generator (autocannon) in this one, measured in the same run.
 *
 * Each of the `rounds` rounds starts both servers afresh, warms both up, then
 * loads each for `durationSeconds` in slices of SLICE_SECONDS, the two
 * taking turns (bare-ours, ours-bare, ...): on a shared machine whose speed
 * drifts from one second to the next (a bare server alone measures anywhere
 * from 30 to 43 µs of CPU per request here), a drift weighs on both alike.
 * The figure is the median of the per-round requests/s ratios: a round
 * disturbed by another process on a shared machine, or a server process
 * whose JIT happened to settle badly, moves it little. The CPU time each
 * server process spent per answered request is read from /proc, from outside
 * the servers. Target: median ratio of requests/s at least 0.7.
 */
export async function benchApiKeyCheck({
  durationSeconds,
  rounds,
}: {
  durationSeconds: number;
  rounds: number;
}) {
  const results: { bare: LoadResult; api: LoadResult; ratio: number; p99Ratio: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const servers = await startServers();
    try {
      // Warm both up (JIT, key cache, connection handling) before anything counts.
      await servers.measure("bare", WARMUP_SECONDS);
      await servers.measure("api", WARMUP_SECONDS);
      const tallies: Record<Side, LoadTally> = { bare: new LoadTally(), api: new LoadTally() };
      const slices = Math.max(1, Math.round(durationSeconds / SLICE_SECONDS));
      for (let slice = 0; slice < slices; slice++) {
        const order: Side[] = (round + slice) % 2 === 0 ? ["bare", "api"] : ["api", "bare"];
        for (const side of order) await servers.measure(side, SLICE_SECONDS, tallies[side]);
      }
      const bare = tallies.bare.result();
      const api = tallies.api.result();
      results.push({
        bare,
        api,
        ratio: api.requestsPerSecond / bare.requestsPerSecond,
        p99Ratio: api.p99Ms / Math.max(bare.p99Ms, 0.01),
      });
    } finally {
      await servers.stop();
    }
  }

  const ratio = median(results.map((r) => r.ratio));
  const cpu = (side: Side) => {
    const values = results.map((r) => r[side].cpuMicrosPerRequest);
    return values.every((v) => v !== undefined) ? median(values as number[]) : undefined;
  };
  const bareCpu = cpu("bare");
  const apiCpu = cpu("api");
  const met = ratio >= TARGET_RATIO;
  return {
    name: "GET /market/api-key?bucket=read vs bare node:http 204",
    lines: [
      `${rounds} rounds, each on freshly started servers: ${WARMUP_SECONDS} s warm-up each, then ${durationSeconds} s each in ${SLICE_SECONDS} s slices, taking turns; ${CONNECTIONS} connections, pipelining ${PIPELINING}`,
      ...results.flatMap((r, index) => [
        `round ${index + 1}`,
        `  ${formatRow("bare node:http (baseline)", r.bare)}`,
        `  ${formatRow("GET /market/api-key?bucket=read", r.api)}`,
        `  ratio (requests/s) ${r.ratio.toFixed(3)}   p99 ratio (api / baseline) ${r.p99Ratio.toFixed(2)}`,
      ]),
      `per-round ratios: ${results.map((r) => r.ratio.toFixed(3)).join(", ")}`,
      `median p99: baseline ${median(results.map((r) => r.bare.p99Ms)).toFixed(2)} ms, api ${median(
        results.map((r) => r.api.p99Ms),
      ).toFixed(2)} ms (median p99 ratio ${median(results.map((r) => r.p99Ratio)).toFixed(2)})`,
      bareCpu !== undefined && apiCpu !== undefined
        ? `median CPU per request: baseline ${bareCpu.toFixed(1)} µs, api ${apiCpu.toFixed(1)} µs (baseline / api ${(bareCpu / apiCpu).toFixed(3)})`
        : "CPU per request: not available (no /proc)",
      `median ratio (requests/s): ${ratio.toFixed(3)}   target >= ${TARGET_RATIO}   ${met ? "MET" : "NOT MET"}`,
    ],
    ratio,
    met,
  };
}
