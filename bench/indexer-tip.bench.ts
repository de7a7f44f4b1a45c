import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freeLoopbackPort } from "../packages/server/src/_test/ports.ts";
import { cpuSeconds, skippedSuite, startPostgres, startProcess } from "./harness.ts";

const MAIN = fileURLToPath(new URL("../packages/server/src/main.ts", import.meta.url));
const TARGET_P99_LAG_BLOCKS = 2;

interface ScopeSamples {
  scope: string;
  chainId: number;
  /** Blocks the scope stays behind by design (a scope that indexes only final blocks). */
  depth: number;
  lags: number[];
}

/**
 * Tip lag under load: `npm start` (dev chains, the demo at `rate` times its
 * usual rate, the indexer) on a fresh PostgreSQL database with fsync on
 * (DATABASE_URL's server or a temporary cluster), warmed up for `warmUpSeconds`,
 * then sampled every `sampleMs` for `seconds`: each chain's newest block
 * (eth_blockNumber) and, right after, every scope's last indexed block (its
 * head row). A scope's lag is the chain's block minus its indexed block, less
 * its finality depth for a scope that indexes only final blocks (its target is
 * that far behind by design). Target: p99 under 2 blocks for every scope.
 */
export async function benchIndexerTip({
  rate,
  seconds,
  warmUpSeconds,
  sampleMs = 100,
}: {
  rate: number;
  seconds: number;
  warmUpSeconds: number;
  sampleMs?: number;
}) {
  const name = `indexer tip lag: npm start on PostgreSQL, demo at ${rate} times its rate`;
  const server = await startPostgres({ fsync: true });
  if ("skipped" in server) return skippedSuite(name, server.skipped);
  const database = await server.freshDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), "mkt-bench-tip-"));
  try {
    const ports = { public: await freeLoopbackPort(), admin: await freeLoopbackPort() };
    const chainPorts = { 8453: await freeLoopbackPort(), 4663: await freeLoopbackPort() };
    const app = await startProcess(
      ["--import", "tsx", MAIN],
      {
        DATABASE_URL: database.url,
        MKT_DATA_DIR: dataDir,
        MKT_DEMO: "1",
        MKT_DEMO_RATE: String(rate),
        PORT: String(ports.public),
        ADMIN_PORT: String(ports.admin),
        DEVNET_PORT_8453: String(chainPorts[8453]),
        DEVNET_PORT_4663: String(chainPorts[4663]),
        LOG_LEVEL: "warn",
      },
      /mkt is running/,
    );
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const deployments = (
        JSON.parse(readFileSync(join(dataDir, "chains.json"), "utf8")) as {
          chains: Array<{ chainId: number; rpcUrl: string; finalityDepth?: number }>;
        }
      ).chains;
      const rpcOf = new Map(deployments.map((chain) => [chain.chainId, chain.rpcUrl]));
      const depthOf = new Map(deployments.map((chain) => [chain.chainId, chain.finalityDepth ?? 0]));
      const latest = async (chainId: number) => {
        const response = await fetch(rpcOf.get(chainId)!, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
        });
        return Number(((await response.json()) as { result: string }).result);
      };
      const sample = async () => {
        const heads = new Map(
          await Promise.all(
            deployments.map(async (chain) => [chain.chainId, await latest(chain.chainId)] as const),
          ),
        );
        const { rows } = await client.query<{ scope: string; chain_id: number; next_block: string }>(
          "SELECT scope, chain_id, next_block FROM indexer_heads ORDER BY scope",
        );
        return { heads, rows };
      };
      // Scopes that index only final blocks are named by their generation (chains/roles.ts scopeIds).
      const depth = (scope: string, chainId: number) =>
        scope.includes(":predict:") ? depthOf.get(chainId)! : 0;

      await new Promise((resolve) => setTimeout(resolve, warmUpSeconds * 1000));
      const first = await sample();
      const scopes = new Map<string, ScopeSamples>();
      const loads = [loadavg()[0]!];
      const cpuBefore = cpuSeconds(app.child.pid);
      const started = performance.now();
      while (performance.now() - started < seconds * 1000) {
        const tick = performance.now();
        const { heads, rows } = await sample();
        for (const row of rows) {
          const entry = scopes.get(row.scope) ?? {
            scope: row.scope,
            chainId: row.chain_id,
            depth: depth(row.scope, row.chain_id),
            lags: [],
          };
          const indexed = Number(row.next_block) - 1;
          entry.lags.push(Math.max(0, heads.get(row.chain_id)! - indexed - entry.depth));
          scopes.set(row.scope, entry);
        }
        const wait = sampleMs - (performance.now() - tick);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const elapsed = (performance.now() - started) / 1000;
      const last = await sample();
      loads.push(loadavg()[0]!);
      const cpuAfter = cpuSeconds(app.child.pid);
      const percentile = (sorted: number[], p: number) =>
        sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
      let met = true;
      const rows = [...scopes.values()].map((entry) => {
        const sorted = [...entry.lags].sort((a, b) => a - b);
        const p99 = percentile(sorted, 99);
        met &&= p99 < TARGET_P99_LAG_BLOCKS;
        return `${entry.scope.padEnd(62)} p50 ${percentile(sorted, 50)}  p99 ${p99}  max ${sorted.at(-1)} blocks${
          entry.depth > 0 ? ` (beyond its finality depth of ${entry.depth})` : ""
        }  (${sorted.length} samples)`;
      });
      const blocksPerSecond = deployments
        .map(
          (chain) =>
            `chain ${chain.chainId} ${((last.heads.get(chain.chainId)! - first.heads.get(chain.chainId)!) / elapsed).toFixed(1)} blocks/s`,
        )
        .join(", ");
      const worst = Math.max(
        ...[...scopes.values()].map((entry) =>
          percentile(
            [...entry.lags].sort((a, b) => a - b),
            99,
          ),
        ),
      );
      return {
        name,
        lines: [
          `${elapsed.toFixed(0)} s sampled every ${sampleMs} ms after ${warmUpSeconds} s of warm-up; ${blocksPerSecond}`,
          `PostgreSQL: ${server.description}`,
          `1-minute load average at start and end: ${loads.map((load) => load.toFixed(2)).join(", ")} (${cpus().length} cores); the process used ${
            cpuBefore === undefined || cpuAfter === undefined
              ? "n/a"
              : `${(((cpuAfter - cpuBefore) / elapsed) * 100).toFixed(0)} % of a core`
          } (dev chains, demo, indexer, API)`,
          ...rows,
          `target: every scope's p99 lag < ${TARGET_P99_LAG_BLOCKS} blocks: ${met ? "MET" : "NOT MET"}`,
        ],
        summary: `worst scope p99 lag ${worst} blocks at demo rate ${rate} (target < ${TARGET_P99_LAG_BLOCKS}) ${met ? "MET" : "NOT MET"}`,
        met,
      };
    } finally {
      await client.end();
      await app.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
    await server.dispose();
  }
}
