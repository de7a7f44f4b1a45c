import { fileURLToPath } from "node:url";
import { formatRow, load, startProcess } from "./harness.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ADMIN_TOKEN = "bench-admin-token-000000000000000";

/**
 * GET /market/api-key?bucket=read with a high-multiplier key, against a bare
 * node:http server answering 204, both in their own process on this machine,
 * measured in the same run. Target: ratio of requests/s at least 0.7.
 */
export async function benchApiKeyCheck({ durationSeconds }: { durationSeconds: number }) {
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

    const targetUrl = `${baseUrl}/market/api-key?bucket=read`;
    const headers = { "api-key": created.key };
    // Warm both up (JIT, key cache), then measure them in turn.
    await load({ url: bare.match[1]!, durationSeconds: 2 });
    await load({ url: targetUrl, headers, durationSeconds: 2 });
    const baseline = await load({ url: bare.match[1]!, durationSeconds });
    const target = await load({ url: targetUrl, headers, durationSeconds });
    if (target.non2xx > 0 || target.errors > 0)
      throw new Error(`the API answered errors: ${JSON.stringify(target)}`);
    const ratio = target.requestsPerSecond / baseline.requestsPerSecond;
    return {
      name: "GET /market/api-key?bucket=read vs bare node:http 204",
      lines: [
        formatRow("bare node:http (baseline)", baseline),
        formatRow("GET /market/api-key?bucket=read", target),
        `ratio (requests/s): ${ratio.toFixed(3)}   target >= 0.7   ${ratio >= 0.7 ? "MET" : "NOT MET"}`,
        `p99 latency ratio (api / baseline): ${(target.p99Ms / Math.max(baseline.p99Ms, 0.001)).toFixed(2)}`,
      ],
      ratio,
      met: ratio >= 0.7,
    };
  } finally {
    await server.stop();
    await bare.stop();
  }
}
