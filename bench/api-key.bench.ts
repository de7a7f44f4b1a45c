import { fileURLToPath } from "node:url";
import { formatRow, type LoadOptions, type LoadResult, load, median, startProcess } from "./harness.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ADMIN_TOKEN = "bench-admin-token-000000000000000";
const TARGET_RATIO = 0.7;
/** The same load shape for both servers: these connections, one request in flight on each. */
const CONNECTIONS = 64;
const PIPELINING = 1;
const WARMUP_SECONDS = 3;

type Side = "bare" | "api";

/** Both servers, freshly started, and how to load each. */
async function startServers() {
  const [bare, server] = await Promise.all([
    startProcess(["--import", "tsx", `${root}bench/bare-server.ts`], {}, /listening on (\S+)/),
    startProcess(
      ["--import", "tsx", `${root}bench/api-server.ts`],
      { PORT: "0", ADMIN_PORT: "0", ADMIN_TOKEN, LOG_LEVEL: "info", MKT_MAX_IN_FLIGHT: "100000" },
      /listening on\s+(\S+)[\s\S]*operator\s+(\S+)/,
    ),
  ]);
  const stop = () => Promise.all([server.stop(), bare.stop()]);
  try {
    const baseUrl = server.match[1]!;
    const adminUrl = server.match[2]!;
    const created = (await (
      await fetch(`${baseUrl}/keys`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ description: "benchmark", email: "bench@example.com" }),
      })
    ).json()) as { id: string; key: string };
    const patched = await fetch(`${adminUrl}/admin/keys/${created.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ multiplier: 1_000_000 }),
    });
    if (!patched.ok) throw new Error(`could not raise the multiplier: ${patched.status}`);
    const shape = { connections: CONNECTIONS, pipelining: PIPELINING };
    const targets: Record<Side, Omit<LoadOptions, "durationSeconds">> = {
      bare: { ...shape, url: bare.match[1]!, pid: bare.child.pid },
      api: {
        ...shape,
        url: `${baseUrl}/market/api-key?bucket=read`,
        headers: { "api-key": created.key },
        pid: server.child.pid,
      },
    };
    const measure = async (side: Side, seconds: number) => {
      const result = await load({ ...targets[side], durationSeconds: seconds });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${side} answered errors: ${JSON.stringify(result)}`);
      return result;
    };
    return { measure, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * GET /market/api-key?bucket=read with a high-multiplier key, against a bare
 * node:http server answering 204, each server in its own process and the
 * load generator (autocannon) in this one, measured in the same run.
 *
 * Each of the `rounds` rounds starts both servers afresh, warms both up, then
 * measures one load of each, alternating which goes first (bare-ours,
 * ours-bare, ...) so a drift in the machine's load weighs on both alike.
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
      const order: Side[] = round % 2 === 0 ? ["bare", "api"] : ["api", "bare"];
      const measured: Partial<Record<Side, LoadResult>> = {};
      for (const side of order) measured[side] = await servers.measure(side, durationSeconds);
      const { bare, api } = measured as Record<Side, LoadResult>;
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
      `${rounds} rounds, each on freshly started servers: ${WARMUP_SECONDS} s warm-up each, then ${durationSeconds} s each; ${CONNECTIONS} connections, pipelining ${PIPELINING}`,
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
