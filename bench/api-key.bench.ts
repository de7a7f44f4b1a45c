import { fileURLToPath } from "node:url";
import { formatRow, type LoadOptions, type LoadResult, load, median, startProcess } from "./harness.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ADMIN_TOKEN = "bench-admin-token-000000000000000";
const TARGET_RATIO = 0.7;
/** The same load shape for both servers: these connections, one request in flight on each. */
const CONNECTIONS = 64;
const PIPELINING = 1;
const WARMUP_SECONDS = 3;

/**
 * GET /market/api-key?bucket=read with a high-multiplier key, against a bare
 * node:http server answering 204, each server in its own process and the
 * load generator (autocannon) in this one, measured in the same run.
 *
 * Both servers are warmed up, then measured in `rounds` rounds of one load
 * each, alternating which goes first (bare-ours, ours-bare, ...) so a drift
 * in the machine's load weighs on both alike. The figure is the median of the
 * per-round requests/s ratios: one round disturbed by another process on a
 * shared machine moves it little. The CPU time each server process spent per
 * answered request is read from /proc, from outside the servers.
 * Target: median ratio of requests/s at least 0.7.
 */
export async function benchApiKeyCheck({
  durationSeconds,
  rounds,
}: {
  durationSeconds: number;
  rounds: number;
}) {
  const bare = await startProcess(
    ["--import", "tsx", `${root}bench/bare-server.ts`],
    {},
    /listening on (\S+)/,
  );
  const server = await startProcess(
    ["--import", "tsx", `${root}bench/api-server.ts`],
    {
      PORT: "0",
      ADMIN_PORT: "0",
      ADMIN_TOKEN,
      LOG_LEVEL: "info",
      MKT_MAX_IN_FLIGHT: "100000",
    },
    /listening on\s+(\S+)[\s\S]*operator\s+(\S+)/,
  );
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
    const targets: Record<"bare" | "api", Omit<LoadOptions, "durationSeconds">> = {
      bare: { ...shape, url: bare.match[1]!, pid: bare.child.pid },
      api: {
        ...shape,
        url: `${baseUrl}/market/api-key?bucket=read`,
        headers: { "api-key": created.key },
        pid: server.child.pid,
      },
    };
    const measure = async (name: "bare" | "api", seconds: number) => {
      const result = await load({ ...targets[name], durationSeconds: seconds });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${name} answered errors: ${JSON.stringify(result)}`);
      return result;
    };

    // Warm both up (JIT, key cache, connection handling) before anything counts.
    await measure("bare", WARMUP_SECONDS);
    await measure("api", WARMUP_SECONDS);

    const results: { bare: LoadResult; api: LoadResult; ratio: number; p99Ratio: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (["bare", "api"] as const) : (["api", "bare"] as const);
      const measured: Partial<Record<"bare" | "api", LoadResult>> = {};
      for (const name of order) measured[name] = await measure(name, durationSeconds);
      const { bare: baseline, api } = measured as Record<"bare" | "api", LoadResult>;
      results.push({
        bare: baseline,
        api,
        ratio: api.requestsPerSecond / baseline.requestsPerSecond,
        p99Ratio: api.p99Ms / Math.max(baseline.p99Ms, 0.01),
      });
    }

    const ratio = median(results.map((r) => r.ratio));
    const cpu = (side: "bare" | "api") => {
      const values = results.map((r) => r[side].cpuMicrosPerRequest);
      return values.every((v) => v !== undefined) ? median(values as number[]) : undefined;
    };
    const bareCpu = cpu("bare");
    const apiCpu = cpu("api");
    const met = ratio >= TARGET_RATIO;
    return {
      name: "GET /market/api-key?bucket=read vs bare node:http 204",
      lines: [
        `${rounds} rounds of ${durationSeconds} s per server, ${CONNECTIONS} connections, pipelining ${PIPELINING}, after ${WARMUP_SECONDS} s warm-up each`,
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
  } finally {
    await server.stop();
    await bare.stop();
  }
}
