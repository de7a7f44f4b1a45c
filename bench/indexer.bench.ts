import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import {
  type ChainDeployment,
  claimDropsAbi,
  createChainClients,
  deployReferenceContracts,
  waitForSuccess,
} from "@mkt/chain";
import {
  type Abi,
  type Address,
  createPublicClient,
  decodeEventLog,
  getAddress,
  type Hex,
  http,
  keccak256,
  numberToHex,
  type PublicClient,
} from "viem";
import { type Database, migrate, openDatabase } from "../packages/server/src/db/index.ts";
import { createLogDecoder } from "../packages/server/src/indexer/decode.ts";
import { createScopeIndexer } from "../packages/server/src/indexer/engine.ts";
import type { Projection } from "../packages/server/src/indexer/projection.ts";
import { scopesOf } from "../packages/server/src/indexer/projections.ts";
import { createChainRpc } from "../packages/server/src/indexer/rpc.ts";
import { createLogger } from "../packages/server/src/logging/index.ts";
import { systemClock } from "../packages/server/src/quotas/limiter.ts";
import {
  cpuSeconds,
  cpuSecondsBetween,
  median,
  skippedSuite,
  startPostgres,
  startProcess,
} from "./harness.ts";

const CHAIN_ID = 8453;
/** Claimed logs per airdrop transaction (about 13M gas, under the dev chain's 60M block limit). */
const RECIPIENTS_PER_TX = 500;
const TARGET_POSTGRES_LOGS_PER_SECOND = 20_000;
/** The volume case's target: the durable backfill at least this share of fetch + decode alone. */
const VOLUME_TARGET_RATIO = 0.75;
const chainModule = fileURLToPath(new URL("../packages/chain/src/index.ts", import.meta.url));
/** The dev chain runs in its own process, as an RPC node would: its JSON-RPC work is not on the indexer's thread. */
const CHAIN_SCRIPT = `
const { startDevChain } = await import(${JSON.stringify(chainModule)});
const chain = await startDevChain({ chainId: ${CHAIN_ID}, port: 0, intervalMs: 0 });
process.stdout.write("dev chain on " + chain.rpcUrl + "\\n");
process.once("SIGTERM", () => chain.close().then(() => process.exit(0)));
`;

type Range = readonly [bigint, bigint];

interface Measured {
  logs: number;
  seconds: number;
}

interface IndexerRun extends Measured {
  claims: number;
  /** The block ranges the indexer wrote, one transaction each, in order. */
  ranges: Range[];
  /** eth_getLogs calls the RPC refused (answer too large) before the indexer shrank its range. */
  refused: number;
  /** CPU seconds spent during the run by this process, the dev chain's process and PostgreSQL's backends. */
  cpu: { indexer: number; chain: number | undefined; database: number | undefined };
}

const rate = (m: Measured) => m.logs / m.seconds;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * Backfill throughput of the indexer: a dev chain holding at least `logs`
 * `Claimed` logs (creator airdrops on the newest runtime's ClaimDrops),
 * indexed from its start block by one runtime scope's `syncOnce()` with the
 * indexer's default settings (as the indexer service starts it), into a fresh
 * PGlite and a fresh PostgreSQL database, `rounds` times each.
 *
 * The dev chain runs in its own process, as an RPC node would (in production
 * the RPC is remote); on a small machine it still shares the cores with the
 * indexer and PostgreSQL, and its CPU time is reported with theirs.
 *
 * The baseline, measured in each round, is the part no indexer can avoid:
 * eth_getLogs over the block ranges the indexer settled on, each log decoded
 * with viem's `decodeEventLog`, no database. Beside it, the same eth_getLogs
 * calls with the answers only parsed show what the RPC itself allows.
 * Target: at least 20,000 logs/s into PostgreSQL (median of the rounds).
 */
export async function benchIndexerBackfill({ logs: wanted, rounds }: { logs: number; rounds: number }) {
  const chain = await startClaimsChain(wanted, RECIPIENTS_PER_TX);
  try {
    const { rpcUrl, chainCpu, generated, scope, addresses, decoding, client, blocks } = chain;
    const server = await startPostgres();
    const baselines: Array<Measured & { claimed: number }> = [];
    const rpcOnly: Measured[] = [];
    const pgliteRuns: IndexerRun[] = [];
    const postgresRuns: IndexerRun[] = [];
    const loads: number[] = [];
    try {
      for (let round = 0; round < rounds; round++) {
        loads.push(loadavg()[0]!);
        const pglite = await openDatabase({ kind: "pglite" });
        try {
          pgliteRuns.push(await indexScope(pglite, scope, rpcUrl, chainCpu));
        } finally {
          await pglite.close();
        }
        const ranges = pgliteRuns.at(-1)!.ranges;
        // The baseline over the ranges the indexer used.
        baselines.push(await fetchAndDecode(client, decoding, ranges));
        verify("PGlite", pgliteRuns.at(-1)!, baselines.at(-1)!);
        rpcOnly.push(await fetchOnly(rpcUrl, addresses, ranges));
        if ("skipped" in server) continue;
        const database = await server.freshDatabase();
        try {
          const db = await openDatabase({ kind: "postgres", url: database.url });
          try {
            postgresRuns.push(await indexScope(db, scope, rpcUrl, chainCpu, database.backendCpu));
          } finally {
            await db.close();
          }
        } finally {
          await database.drop();
        }
        verify("PostgreSQL", postgresRuns.at(-1)!, baselines.at(-1)!);
      }
    } finally {
      if (!("skipped" in server)) await server.dispose();
    }

    const baselineRate = median(baselines.map(rate));
    const row = (name: string, runs: Measured[], withRatio = true) => {
      const rates = runs.map(rate);
      const middle = median(rates);
      return `${name.padEnd(34)} ${fmt(middle).padStart(8)} logs/s median${
        withRatio ? `   ratio ${(middle / baselineRate).toFixed(2)}` : ""
      }   (runs: ${rates.map(fmt).join(", ")})`;
    };
    /** Median CPU seconds per 100k logs of each process, over the rounds. */
    const cpuLine = (runs: IndexerRun[], inProcess: boolean) => {
      const per100k = (pick: (run: IndexerRun) => number | undefined) => {
        const values = runs.map((run) => {
          const seconds = pick(run);
          return seconds === undefined ? undefined : (seconds * 100_000) / run.logs;
        });
        return values.every((value) => value !== undefined) ? `${median(values).toFixed(2)} s` : "n/a";
      };
      const database = inProcess
        ? " (database included)"
        : `, PostgreSQL backends ${per100k((run) => run.cpu.database)}`;
      return `${"".padEnd(36)}CPU per 100k logs: indexer ${per100k((run) => run.cpu.indexer)}${database}, dev chain ${per100k(
        (run) => run.cpu.chain,
      )}`;
    };
    const ranges = pgliteRuns[0]!.ranges;
    const postgresRate = postgresRuns.length > 0 ? median(postgresRuns.map(rate)) : undefined;
    const met = postgresRate !== undefined && postgresRate >= TARGET_POSTGRES_LOGS_PER_SECOND;
    return {
      name: "indexer backfill (ClaimDrops Claimed logs) vs eth_getLogs + decode",
      lines: [
        `logs generated: ${fmt(generated.claims)} Claimed in ${generated.transactions} airdrops of up to ${RECIPIENTS_PER_TX} (${fmt(
          generated.gasPerRecipient,
        )} gas per recipient, ${generated.seconds.toFixed(1)} s); the scope holds ${fmt(baselines[0]!.logs)} logs in ${blocks} blocks`,
        `indexer writes (default settings): ${ranges.length} transactions, ${(Number(blocks) / ranges.length).toFixed(1)} blocks and ${fmt(
          baselines[0]!.logs / ranges.length,
        )} logs each on average, after ${pgliteRuns[0]!.refused} eth_getLogs refused as too large; the baselines read these ranges, one eth_getLogs each`,
        `${rounds} rounds; 1-minute load average before each: ${loads.map((load) => load.toFixed(2)).join(", ")} (${cpus().length} cores)`,
        row("eth_getLogs + decode (baseline)", baselines, false),
        row("eth_getLogs alone (answers parsed)", rpcOnly),
        row("indexer into PGlite (in memory)", pgliteRuns),
        cpuLine(pgliteRuns, true),
        postgresRuns.length > 0
          ? row("indexer into PostgreSQL", postgresRuns)
          : `${"indexer into PostgreSQL".padEnd(34)} ${"skipped" in server ? `skipped: ${server.skipped}` : ""}`,
        ...(postgresRuns.length > 0 && !("skipped" in server)
          ? [cpuLine(postgresRuns, false), `PostgreSQL: ${server.description}`]
          : []),
        `target >= ${fmt(TARGET_POSTGRES_LOGS_PER_SECOND)} logs/s into PostgreSQL (median): ${met ? "MET" : "NOT MET"}`,
      ],
      summary: `${postgresRate === undefined ? "PostgreSQL skipped" : `${fmt(postgresRate)} logs/s into PostgreSQL`} (target >= ${fmt(TARGET_POSTGRES_LOGS_PER_SECOND)}) ${met ? "MET" : "NOT MET"}`,
      met,
    };
  } finally {
    await chain.stop();
  }
}

/**
 * Backfill at volume, durably: a dev chain holding `logs` `Claimed` logs
 * (default 1,000,000; airdrops of RECIPIENTS_PER_TX), indexed by one
 * runtime scope's `syncOnce()` with the indexer's default settings into a
 * fresh PostgreSQL database with fsync on: DATABASE_URL's server (its fsync
 * and synchronous_commit are printed and must be on), or a temporary cluster
 * the bench starts with fsync=on.
 *
 * The baseline, measured in the same round over the block ranges the indexer
 * wrote, is fetch + decode of the same logs with no database: the indexer's
 * own eth_getLogs call (`createChainRpc`) and decoder (`createLogDecoder`),
 * one range after another. Beside it, eth_getLogs with the answers only
 * parsed. Target: the indexer at least VOLUME_TARGET_RATIO of the baseline.
 */
export async function benchIndexerVolume({
  logs: wanted,
  rounds,
  requireFsync = true,
}: {
  logs: number;
  rounds: number;
  /** Refuse a server with fsync off (a smoke run, which measures nothing, runs on CI's server without it). */
  requireFsync?: boolean;
}) {
  const name = `indexer backfill at volume into PostgreSQL with fsync on vs eth_getLogs + decode`;
  const server = await startPostgres({ fsync: true });
  if ("skipped" in server) return skippedSuite(name, server.skipped);
  const chain = await startClaimsChain(wanted, RECIPIENTS_PER_TX);
  try {
    const { rpcUrl, chainCpu, generated, scope, addresses, decoding, client, blocks } = chain;
    const baselines: Array<Measured & { claimed: number }> = [];
    const rpcOnly: Measured[] = [];
    const runs: IndexerRun[] = [];
    const loads: number[] = [];
    let settings = "";
    for (let round = 0; round < rounds; round++) {
      loads.push(loadavg()[0]!);
      const database = await server.freshDatabase();
      try {
        const db = await openDatabase({ kind: "postgres", url: database.url });
        try {
          settings = await durability(db, requireFsync);
          runs.push(await indexScope(db, scope, rpcUrl, chainCpu, database.backendCpu));
        } finally {
          await db.close();
        }
      } finally {
        await database.drop();
      }
      const ranges = runs.at(-1)!.ranges;
      baselines.push(await fetchAndDecodeAsIndexer(client, decoding, ranges));
      verify("PostgreSQL", runs.at(-1)!, baselines.at(-1)!);
      rpcOnly.push(await fetchOnly(rpcUrl, addresses, ranges));
    }
    const baselineRate = median(baselines.map(rate));
    const indexerRate = median(runs.map(rate));
    const ratio = indexerRate / baselineRate;
    const met = ratio >= VOLUME_TARGET_RATIO;
    const row = (label: string, measured: Measured[], withRatio = true) => {
      const rates = measured.map(rate);
      const middle = median(rates);
      return `${label.padEnd(40)} ${fmt(middle).padStart(8)} logs/s median${
        withRatio ? `   ratio ${(middle / baselineRate).toFixed(2)}` : ""
      }   (runs: ${rates.map(fmt).join(", ")})`;
    };
    const per100k = (pick: (run: IndexerRun) => number | undefined) => {
      const values = runs.map((run) => {
        const seconds = pick(run);
        return seconds === undefined ? undefined : (seconds * 100_000) / run.logs;
      });
      return values.every((value) => value !== undefined) ? `${median(values).toFixed(2)} s` : "n/a";
    };
    const first = runs[0]!;
    return {
      name,
      lines: [
        `logs generated: ${fmt(generated.claims)} Claimed in ${generated.transactions} airdrops of up to ${RECIPIENTS_PER_TX} (${generated.seconds.toFixed(1)} s); the scope holds ${fmt(baselines[0]!.logs)} logs in ${blocks} blocks`,
        `indexer writes (default settings): ${first.ranges.length} transactions, ${fmt(first.logs / first.ranges.length)} logs each on average; ${first.seconds.toFixed(1)} s in the first round`,
        `PostgreSQL: ${server.description}; ${settings}`,
        `${rounds} round(s); 1-minute load average before each: ${loads.map((load) => load.toFixed(2)).join(", ")} (${cpus().length} cores)`,
        row("eth_getLogs + decode (baseline)", baselines, false),
        row("eth_getLogs alone (answers parsed)", rpcOnly),
        row("indexer into PostgreSQL, fsync on", runs),
        `${"".padEnd(42)}CPU per 100k logs: indexer ${per100k((run) => run.cpu.indexer)}, PostgreSQL backends ${per100k(
          (run) => run.cpu.database,
        )}, dev chain ${per100k((run) => run.cpu.chain)}`,
        `target: indexer >= ${VOLUME_TARGET_RATIO} of eth_getLogs + decode: ratio ${ratio.toFixed(2)} ${met ? "MET" : "NOT MET"}`,
      ],
      summary: `${fmt(indexerRate)} logs/s into PostgreSQL (fsync on), ${ratio.toFixed(2)} of eth_getLogs + decode (target >= ${VOLUME_TARGET_RATIO}) ${met ? "MET" : "NOT MET"}`,
      met,
    };
  } finally {
    await chain.stop();
    await server.dispose();
  }
}

/** The settings that make a commit durable; throws unless fsync is on (the measurement would not be the durable one). */
async function durability(db: Database, requireFsync: boolean): Promise<string> {
  const { rows } = await db.withConnection((connection) =>
    connection.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers') ORDER BY name",
    ),
  );
  const setting = (name: string) => rows.find((row) => row.name === name)?.setting;
  if (requireFsync && setting("fsync") !== "on")
    throw new Error("the volume backfill measures durable writes: fsync must be on");
  return rows.map((row) => `${row.name}=${row.setting}`).join(", ");
}

/**
 * A dev chain in its own process with the reference contracts and at least
 * `wanted` `Claimed` logs (airdrops of `recipientsPerTx`), and what reading
 * its newest runtime scope takes; viem's paths warmed up on its first blocks.
 */
async function startClaimsChain(wanted: number, recipientsPerTx: number) {
  const chain = await startProcess(
    ["--import", "tsx", "--input-type=module", "-e", CHAIN_SCRIPT],
    {},
    /dev chain on (\S+)/,
  );
  try {
    const rpcUrl = chain.match[1]!;
    const deployment = await deployReferenceContracts({ rpcUrl, chainId: CHAIN_ID, finalityDepth: 2 });
    const generated = await generateClaims(deployment, wanted, recipientsPerTx);
    const scope = scopesOf([deployment])
      .filter((candidate) => candidate.generation === "runtime")
      .at(-1)!;
    // What the indexer reads: the registry, and every ClaimDrops it registered (the runtimes),
    // each with the contract kind whose ABI (the projection's `abis`) decodes its logs.
    const contracts = new Map<string, string>([
      ...scope.contracts.map((contract) => [contract.address.toLowerCase(), contract.kind] as const),
      ...deployment.runtimes.map(
        (runtime) => [runtime.contracts["ClaimDrops"]!.toLowerCase(), CLAIMS_KIND] as const,
      ),
    ]);
    const addresses = [...contracts.keys()] as Address[];
    const decoding = { scope, contracts };
    // A written range may hold up to 20k logs (about 14 MB of JSON): above viem's default answer limit.
    // One retry: the client's kept-alive socket sits idle while the indexer runs (PGlite in this
    // process holds its event loop), and the chain's server may close it as a request goes out.
    const client = createPublicClient({
      transport: http(rpcUrl, { retryCount: 1, maxResponseBodySize: 256 * 1024 * 1024 }),
    }) as PublicClient;
    const head = await client.getBlockNumber({ cacheTime: 0 });
    // Warm up viem's request, formatting and decoding paths on the first blocks.
    const warmUp: Range[] = [[scope.startBlock, scope.startBlock + 3n < head ? scope.startBlock + 3n : head]];
    for (let round = 0; round < 3; round++) await fetchAndDecode(client, decoding, warmUp);
    return {
      rpcUrl,
      decoding,
      chainCpu: () => cpuSeconds(chain.child.pid),
      generated,
      scope,
      addresses,
      client,
      blocks: head - scope.startBlock + 1n,
      stop: () => chain.stop(),
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

/** Migrates a fresh database and times one scope's `syncOnce()` from its start block to the chain head. */
async function indexScope(
  db: Database,
  scope: Projection,
  rpcUrl: string,
  chainCpu: () => number | undefined,
  databaseCpu: () => Promise<Map<number, number> | undefined> = async () => undefined,
): Promise<IndexerRun> {
  await migrate(db);
  const ranges: Range[] = [];
  let next = scope.startBlock;
  // The indexer's own log lines tell how often the RPC refused a range.
  let refused = 0;
  const destination = {
    write(line: string) {
      if (line.includes("provider refused the log range")) refused += 1;
    },
  };
  const indexer = createScopeIndexer({
    db,
    logger: createLogger({ level: "info", destination }),
    clock: systemClock,
    scope,
    rpcUrl,
    onProgress: (progress) => {
      ranges.push([next, next + BigInt(progress.blocks) - 1n]);
      next += BigInt(progress.blocks);
    },
  });
  const cpuBefore = { indexer: process.cpuUsage(), chain: chainCpu(), database: await databaseCpu() };
  const started = performance.now();
  try {
    await indexer.syncOnce();
  } finally {
    await indexer.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const indexerCpu = process.cpuUsage(cpuBefore.indexer);
  const chainAfter = chainCpu();
  const databaseAfter = await databaseCpu();
  // Each applied log is recorded once: a claim in market_claims, any other log in chain_events.
  const { rows } = await db.withConnection((connection) =>
    connection.query<{ events: string; claims: string }>(
      `SELECT (SELECT count(*) FROM chain_events WHERE scope = $1) AS events,
              (SELECT count(*) FROM market_claims WHERE scope = $1) AS claims`,
      [scope.id],
    ),
  );
  const claims = Number(rows[0]?.claims ?? 0);
  return {
    logs: Number(rows[0]?.events ?? 0) + claims,
    claims,
    seconds,
    ranges,
    refused,
    cpu: {
      indexer: (indexerCpu.user + indexerCpu.system) / 1e6,
      chain:
        chainAfter === undefined || cpuBefore.chain === undefined ? undefined : chainAfter - cpuBefore.chain,
      database: cpuSecondsBetween(cpuBefore.database, databaseAfter),
    },
  };
}

/** The indexer must have recorded every log of the scope and projected every claim, no more. */
function verify(name: string, run: IndexerRun, chain: { logs: number; claimed: number }) {
  if (run.logs !== chain.logs || run.claims !== chain.claimed) {
    throw new Error(
      `${name}: the indexer recorded ${run.logs} logs and ${run.claims} claims; the chain has ${chain.logs} and ${chain.claimed}`,
    );
  }
}

/** Sends creator airdrops of `recipientsPerTx` distinct deterministic owners until `wanted` Claimed logs exist. */
async function generateClaims(deployment: ChainDeployment, wanted: number, recipientsPerTx: number) {
  const started = performance.now();
  const clients = createChainClients({ rpcUrl: deployment.rpcUrl, chainId: CHAIN_ID, pollingIntervalMs: 5 });
  const creator = clients.wallet(3);
  const address = deployment.runtimes.at(-1)!.contracts["ClaimDrops"]!;
  const dropId = 2n ** 128n + 1n;
  await waitForSuccess(
    clients.publicClient,
    await creator.writeContract({
      address,
      abi: claimDropsAbi,
      functionName: "createDrop",
      args: [dropId, 0n, 0n],
    }),
  );
  let claims = 0;
  let transactions = 0;
  let gas: bigint | undefined;
  let gasPerRecipient = 0;
  while (claims < wanted) {
    const count = Math.min(recipientsPerTx, wanted - claims);
    const owners = Array.from({ length: count }, (_, i) => ownerAt(claims + i));
    const quantities = owners.map((_, i) => BigInt(((claims + i) % 5) + 1));
    const args = [dropId, owners, quantities] as const;
    // Gas is estimated once, with a margin; the other batches have the same shape (fresh owners, fresh slots).
    if (gas === undefined) {
      const estimate = await clients.publicClient.estimateContractGas({
        address,
        abi: claimDropsAbi,
        functionName: "airdrop",
        args,
        account: creator.account,
      });
      gas = (estimate * 6n) / 5n;
    }
    const receipt = await waitForSuccess(
      clients.publicClient,
      await creator.writeContract({ address, abi: claimDropsAbi, functionName: "airdrop", args, gas }),
    );
    if (transactions === 0) gasPerRecipient = Number(receipt.gasUsed) / count;
    claims += count;
    transactions += 1;
  }
  return { claims, transactions, gasPerRecipient, seconds: (performance.now() - started) / 1000 };
}

/** A distinct, spread-out owner address per index. */
function ownerAt(index: number): Address {
  return getAddress(keccak256(numberToHex(index + 1, { size: 32 })).slice(0, 42) as Hex);
}

/** The contract kind of a registered ClaimDrops in the runtime projection (market-projection.ts `creates`). */
const CLAIMS_KIND = "claims";

/** The scope read and each contract address (lowercase) it reads, with its kind. */
interface ScopeDecoding {
  scope: Projection;
  contracts: ReadonlyMap<string, string>;
}

/**
 * The ABI of each address, taken from the projection's `abis` (by contract kind), the list the
 * indexer decodes with: a contract of a kind the projection lacks is an error here, not a crash
 * further on.
 */
function abiByAddress({ scope, contracts }: ScopeDecoding): Map<string, Abi> {
  return new Map(
    [...contracts].map(([address, kind]) => {
      const abi = scope.abis[kind];
      if (!abi)
        throw new Error(`the scope ${scope.id} has no ABI for the contract kind ${kind} (${address})`);
      return [address, abi] as const;
    }),
  );
}

/**
 * The baseline: eth_getLogs over each range, each log decoded with viem's `decodeEventLog` and the
 * ABI of its contract's kind. A log that ABI does not describe is skipped, as the indexer skips it.
 */
async function fetchAndDecode(client: PublicClient, decoding: ScopeDecoding, ranges: readonly Range[]) {
  const abis = abiByAddress(decoding);
  const addresses = [...abis.keys()] as Address[];
  const started = performance.now();
  let logs = 0;
  let claimed = 0;
  for (const [fromBlock, toBlock] of ranges) {
    const raw = await client.getLogs({ address: addresses, fromBlock, toBlock });
    for (const log of raw) {
      let eventName: string | undefined;
      try {
        ({ eventName } = decodeEventLog({
          abi: abis.get(log.address.toLowerCase())!,
          data: log.data,
          topics: log.topics as [Hex, ...Hex[]],
        }));
      } catch {
        // A log this ABI does not describe: not part of the projection.
        continue;
      }
      logs += 1;
      if (eventName === "Claimed") claimed += 1;
    }
  }
  return { logs, claimed, seconds: (performance.now() - started) / 1000 };
}

/**
 * Fetch + decode as the indexer does both, without a database: its eth_getLogs
 * call (raw logs, no viem formatting) and its decoder over each contract kind's ABI, over each range.
 */
async function fetchAndDecodeAsIndexer(
  client: PublicClient,
  decoding: ScopeDecoding,
  ranges: readonly Range[],
) {
  const rpc = createChainRpc({ rpcUrl: "", client });
  const decoders = new Map(
    [...abiByAddress(decoding)].map(([address, abi]) => [address, createLogDecoder(abi)]),
  );
  const addresses = [...decoders.keys()] as Address[];
  const started = performance.now();
  let logs = 0;
  let claimed = 0;
  for (const [fromBlock, toBlock] of ranges) {
    for (const raw of await rpc.getLogs(addresses, fromBlock, toBlock)) {
      const decoded = decoders.get(raw.address.toLowerCase())?.(raw.data, raw.topics);
      if (!decoded) continue;
      logs += 1;
      if (decoded.eventName === "Claimed") claimed += 1;
    }
  }
  return { logs, claimed, seconds: (performance.now() - started) / 1000 };
}

/** The RPC alone: the same eth_getLogs calls, each answer parsed, nothing decoded. */
async function fetchOnly(rpcUrl: string, addresses: readonly Address[], ranges: readonly Range[]) {
  const started = performance.now();
  let logs = 0;
  for (const [fromBlock, toBlock] of ranges) {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_getLogs",
        params: [{ address: addresses, fromBlock: numberToHex(fromBlock), toBlock: numberToHex(toBlock) }],
      }),
    });
    const answer = (await response.json()) as { result?: unknown[] };
    logs += answer.result?.length ?? 0;
  }
  return { logs, seconds: (performance.now() - started) / 1000 };
}
