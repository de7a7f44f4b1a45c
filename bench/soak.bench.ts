import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { type ClientRequest, request as httpRequest } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { freeLoopbackPort } from "../packages/server/src/_test/ports.ts";
import { skippedSuite, startPostgres, startProcess } from "./harness.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const SOAK_ADMIN_TOKEN = "soak-admin-token-0000000000000000";
const EVENT_LINE = /^event:/gm;

export interface SoakOptions {
  /** How long the load runs (BENCH_SOAK_MINUTES, default 30). */
  minutes: number;
  /** Seconds between samples (BENCH_SOAK_SAMPLE_SECONDS, default 30). */
  sampleSeconds: number;
  /** Server-sent event clients held open for the whole run (BENCH_SOAK_STREAMS, default 300). */
  streams: number;
  /** Steady read requests per second over several routes (BENCH_SOAK_RPS, default 100). */
  readsPerSecond: number;
  /** The demo's rate (MKT_DEMO_RATE of the server, default 10). */
  demoRate: number;
  /**
   * Where the dev chains run (BENCH_SOAK_CHAINS): `in-process` as `npm start` runs them (default),
   * or `process`: in a process of their own (bench/soak-chains.ts) with their demo simulator, the
   * server following them through MKT_CONFIG, so each process's resident memory is sampled apart.
   * The server's own demo (releases, the classic creator flow) needs in-process chains and is off then.
   */
  chains: "in-process" | "process";
  /**
   * Times the indexer is held off during the run (BENCH_SOAK_CATCH_UPS, default 2), each for
   * `catchUpSeconds` (BENCH_SOAK_CATCH_UP_SECONDS, default 30), through the operator's writer
   * hand-off (`POST /admin/indexer/handoff`: with one replica, no other takes it): it then catches up
   * the blocks mined meanwhile, as after a database outage or a failover, reading their headers in
   * large JSON-RPC batches.
   */
  catchUps: number;
  catchUpSeconds: number;
}

interface Sample {
  atSeconds: number;
  rssMiB: number;
  heapMiB: number;
  openFds: number;
  loopP99Ms: number;
  dbConnections: number;
  /** The machine's one-minute load average when sampled. */
  load: number;
  /** Resident memory of the chains' process, when they run in one of their own (NaN otherwise). */
  chainsRssMiB: number;
  /** The server's threads (/proc/<pid>/status), and the chains' process's when it has its own (NaN otherwise). */
  threads: number;
  chainsThreads: number;
  /** The most threads seen since the previous sample (polled every 100 ms: EDR's idle threads live 10 s). */
  threadsPeak: number;
  chainsThreadsPeak: number;
}

/**
 * What is sampled, how each third of the run is summed up (`level`: the median, or for the heap,
 * which saws between collections, its lowest point: what survived them), and the change per
 * minute under which a third counts as flat.
 */
const SERIES = [
  { key: "rssMiB", label: "resident memory", unit: "MiB", level: "median", flatPerMinute: 2 },
  { key: "heapMiB", label: "V8 heap after GC", unit: "MiB", level: "min", flatPerMinute: 1 },
  { key: "openFds", label: "open file descriptors", unit: "", level: "median", flatPerMinute: 1 },
  { key: "loopP99Ms", label: "event-loop delay p99", unit: "ms", level: "median", flatPerMinute: 1 },
  { key: "dbConnections", label: "database connections", unit: "", level: "median", flatPerMinute: 0.5 },
  { key: "chainsRssMiB", label: "chains' resident memory", unit: "MiB", level: "median", flatPerMinute: 2 },
  { key: "threads", label: "threads", unit: "", level: "median", flatPerMinute: 1 },
  { key: "chainsThreads", label: "chains' threads", unit: "", level: "median", flatPerMinute: 1 },
  { key: "threadsPeak", label: "threads, peak", unit: "", level: "median", flatPerMinute: 1 },
  { key: "chainsThreadsPeak", label: "chains' threads, peak", unit: "", level: "median", flatPerMinute: 1 },
] as const satisfies readonly {
  key: keyof Sample;
  label: string;
  unit: string;
  level: "median" | "min";
  flatPerMinute: number;
}[];

/** A number field of a process's /proc/<pid>/status (the server runs no measuring code for these). */
function procStatus(pid: number, field: "VmRSS" | "Threads"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : Number.NaN;
}

/** Resident memory of a process (VmRSS is in kB). */
const residentMiB = (pid: number) => procStatus(pid, "VmRSS") / 1024;

const openFds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

/** A process's thread count. */
const threadCount = (pid: number) => procStatus(pid, "Threads");

/**
 * A process's threads by name (`/proc/<pid>/task/<tid>/comm`, trailing digits dropped), most first:
 * `tokio-runtime-w` are the dev chains' (Hardhat's EDR, native code), `libuv-worker` Node's thread
 * pool, `V8Worker` the garbage collector's helpers.
 */
export function threadsByName(pid: number): string {
  const counts = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim().replace(/\d+$/, "");
    } catch {
      continue; // the thread ended meanwhile
    }
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${count} ${name}`)
    .join(", ");
}

const levelOf = (values: readonly number[], level: "median" | "min") => {
  const sorted = [...values].sort((a, b) => a - b);
  return level === "min" ? sorted[0]! : sorted[Math.floor((sorted.length - 1) / 2)]!;
};

/**
 * Growth that levels off: the run is cut in thirds, each summed up by its level; the rise from
 * the middle third to the last is at most half the rise from the first to the middle, or no more
 * than the series' flat change over a third's minutes.
 */
export function levelsOff(
  samples: readonly Sample[],
  key: keyof Sample,
  level: "median" | "min",
  flatPerMinute: number,
) {
  const third = Math.max(1, Math.floor(samples.length / 3));
  const levelIn = (from: number, to: number) =>
    levelOf(
      samples.slice(from, to).map((sample) => sample[key]),
      level,
    );
  const levels = [
    levelIn(0, third),
    levelIn(third, samples.length - third),
    levelIn(samples.length - third, samples.length),
  ] as const;
  const thirdMinutes = (samples.at(-1)!.atSeconds - samples[0]!.atSeconds) / 60 / 3;
  const early = levels[1] - levels[0];
  const late = levels[2] - levels[1];
  return { levels, ok: late <= flatPerMinute * thirdMinutes || late <= early / 2 };
}

/**
 * Holds the indexer off every scope for `seconds` (the operator's hand-off on a lone replica: no
 * other takes the lock), then waits for it to take the lock again and reach the chains' heads.
 * Says how long the catch-up took after the hold-off.
 */
async function catchUp(adminUrl: string, seconds: number): Promise<string> {
  const headers = { authorization: `Bearer ${SOAK_ADMIN_TOKEN}`, "content-type": "application/json" };
  const handOff = await fetch(`${adminUrl}/admin/indexer/handoff`, {
    method: "POST",
    headers,
    body: JSON.stringify({ holdOffSeconds: seconds }),
  });
  if (!handOff.ok) throw new Error(`hand-off: ${handOff.status} ${await handOff.text()}`);
  const { handOffs } = (await handOff.json()) as {
    handOffs: { released: boolean; holdOffUntil: number | null }[];
  };
  const until = Math.max(...handOffs.map((each) => each.holdOffUntil ?? 0));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));
  const resumed = performance.now();
  const resumedAt = Date.now();
  for (;;) {
    const answer = await fetch(`${adminUrl}/admin/indexer`, { headers });
    const { scopes } = (await answer.json()) as {
      scopes: {
        nextBlock: number;
        targetBlock: number;
        observedAt: number;
        writer: { thisReplica: boolean };
      }[];
    };
    // Caught up: the writer again, with a head observed since the hold-off ended, indexed to it.
    const caughtUp = (scope: (typeof scopes)[number]) =>
      scope.writer.thisReplica && scope.observedAt >= resumedAt && scope.nextBlock > scope.targetBlock;
    if (scopes.every(caughtUp))
      return `${handOffs.filter((each) => each.released).length} scopes held off ${seconds} s, caught up ${((performance.now() - resumed) / 1000).toFixed(1)} s after`;
    if (performance.now() - resumed > 300_000) throw new Error("not caught up within 5 minutes");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The soak: the whole system as `npm start` runs it (dev chains, the demo at ten times its rate,
 * the indexer), on PostgreSQL, under steady read load (autocannon at a modest fixed rate over
 * several routes) and a few hundred server-sent event streams held open, for `minutes`. Every
 * `sampleSeconds` it records the server's resident memory and open file descriptors (from
 * /proc), its event-loop delay p99 (its `/metrics`, over the interval since the previous sample)
 * and the database's connections (pg_stat_activity). It prints every sample, the first and last,
 * and per series whether its growth levels off.
 */
export async function benchSoak(options: SoakOptions) {
  const name = `soak: ${options.minutes} min, demo at ${options.demoRate}×, ${options.readsPerSecond} reads/s, ${options.streams} streams${options.chains === "process" ? ", chains in their own process" : ""}`;
  const lines: string[] = [];
  const postgres = await startPostgres();
  if ("skipped" in postgres) return skippedSuite(name, postgres.skipped);
  const database = await postgres.freshDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), "mkt-soak-"));
  const [port, adminPort, devnet8453, devnet4663] = [
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
  ];
  const observer = new pg.Client({ connectionString: database.url });
  const clients: ClientRequest[] = [];
  let server: Awaited<ReturnType<typeof startProcess>> | undefined;
  let chains: Awaited<ReturnType<typeof startProcess>> | undefined;
  let peakTimer: ReturnType<typeof setInterval> | undefined;
  try {
    lines.push(`database: ${postgres.description}`);
    const devnets = { DEVNET_PORT_8453: String(devnet8453), DEVNET_PORT_4663: String(devnet4663) };
    if (options.chains === "process") {
      chains = await startProcess(
        ["--import", "tsx", `${root}bench/soak-chains.ts`],
        {
          ...devnets,
          MKT_DATA_DIR: join(dataDir, "chains"),
          // The drops' metadata links name the server.
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          MKT_DEMO: "1",
          MKT_DEMO_RATE: String(options.demoRate),
          LOG_LEVEL: "warn",
          LOG_FORMAT: "json",
        },
        /chain config (\S+)/,
      );
    }
    server = await startProcess(
      ["--import", "tsx", `${root}packages/server/src/main.ts`],
      {
        DATABASE_URL: database.url,
        MKT_DATA_DIR: dataDir,
        PORT: String(port),
        ADMIN_PORT: String(adminPort),
        ADMIN_TOKEN: SOAK_ADMIN_TOKEN,
        ...(chains ? { MKT_CONFIG: chains.match[1]!, ETH_USD_PRICE: "3000" } : devnets),
        MKT_DEMO: "1",
        MKT_DEMO_RATE: String(options.demoRate),
        LOG_LEVEL: "warn",
        LOG_FORMAT: "json",
        // Every stream comes from this one loopback client with one key.
        MKT_MAX_STREAMS_PER_KEY: String(options.streams + 10),
        MKT_MAX_STREAMS_PER_CLIENT: String(options.streams + 10),
      },
      /listening on\s+(\S+)[\s\S]*operator\s+(\S+)/,
    );
    const pid = server.child.pid!;
    const baseUrl = server.match[1]!;
    const adminUrl = server.match[2]!;
    await observer.connect();
    const dbName = new URL(database.url).pathname.slice(1);

    const created = await fetch(`${baseUrl}/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "soak", email: "bench@example.com" }),
    });
    if (!created.ok) throw new Error(`could not create a key: ${created.status}`);
    const key = (await created.json()) as { id: string; key: string };
    const raised = await fetch(`${adminUrl}/admin/keys/${key.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${SOAK_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ multiplier: 1_000_000 }),
    });
    if (!raised.ok) throw new Error(`could not raise the multiplier: ${raised.status}`);
    const headers = { "api-key": key.key };

    // The indexer has caught up once the prediction feed answers (it is fresh).
    for (let waited = 0; ; waited += 500) {
      const status = (await fetch(`${baseUrl}/predict/v9/markets`, { headers })).status;
      if (status === 200) break;
      if (waited > 120_000) throw new Error(`the prediction feed did not become fresh: ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    // The streams: two thirds on the market's live updates, one third on the prediction feed's.
    let events = 0;
    let dropped = 0;
    const open = (path: string) =>
      new Promise<void>((resolve, reject) => {
        const request = httpRequest(`${baseUrl}${path}`, {
          agent: false,
          headers: { ...headers, accept: "text/event-stream" },
        });
        request.on("response", (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`${path}: ${response.statusCode}`));
            response.resume();
            return;
          }
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            // Counts the events' name lines; their content is not read.
            events += chunk.match(EVENT_LINE)?.length ?? 0;
          });
          response.on("close", () => {
            if (!request.destroyed) dropped++;
          });
          resolve();
        });
        request.on("error", (error) => {
          if (!request.destroyed) reject(error);
        });
        request.end();
        clients.push(request);
      });
    for (let i = 0; i < options.streams; i++) await open(i % 3 === 2 ? "/predict/v9/stream" : "/market/live");

    // The most threads since the previous sample: EDR's blocking threads end 10 s after their last use.
    const peaks = { server: 0, chains: 0 };
    const pollPeaks = () => {
      peaks.server = Math.max(peaks.server, threadCount(pid));
      if (chains) peaks.chains = Math.max(peaks.chains, threadCount(chains.child.pid!));
    };
    peakTimer = setInterval(pollPeaks, 100);
    const takePeaks = () => {
      pollPeaks();
      const taken = { ...peaks };
      peaks.server = 0;
      peaks.chains = 0;
      return taken;
    };

    const sample = async (startedAt: number): Promise<Sample> => {
      const metrics = await (
        await fetch(`${adminUrl}/metrics`, { headers: { authorization: `Bearer ${SOAK_ADMIN_TOKEN}` } })
      ).text();
      const p99 = /^mkt_event_loop_delay_seconds\{quantile="0\.99"\} (\S+)$/m.exec(metrics);
      const heap = /^nodejs_heap_used_bytes (\S+)$/m.exec(metrics);
      const { rows } = await observer.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [dbName],
      );
      const peak = takePeaks();
      return {
        atSeconds: Math.round((performance.now() - startedAt) / 1000),
        rssMiB: residentMiB(pid),
        heapMiB: heap ? Number(heap[1]) / 1024 / 1024 : Number.NaN,
        openFds: openFds(pid),
        loopP99Ms: p99 ? Number(p99[1]) * 1000 : Number.NaN,
        dbConnections: rows[0]!.n,
        load: loadavg()[0]!,
        chainsRssMiB: chains ? residentMiB(chains.child.pid!) : Number.NaN,
        threads: threadCount(pid),
        chainsThreads: chains ? threadCount(chains.child.pid!) : Number.NaN,
        threadsPeak: peak.server,
        chainsThreadsPeak: chains ? peak.chains : Number.NaN,
      };
    };
    const format = (s: Sample) =>
      `${String(s.atSeconds).padStart(6)} s   RSS ${s.rssMiB.toFixed(0).padStart(5)} MiB   heap ${s.heapMiB.toFixed(0).padStart(4)} MiB   fds ${String(s.openFds).padStart(5)}   loop p99 ${s.loopP99Ms.toFixed(1).padStart(6)} ms   db connections ${String(s.dbConnections).padStart(3)}   threads ${String(s.threads).padStart(4)} (peak ${String(s.threadsPeak).padStart(4)})${chains ? `   chains RSS ${s.chainsRssMiB.toFixed(0).padStart(5)} MiB   chains threads ${String(s.chainsThreads).padStart(4)} (peak ${String(s.chainsThreadsPeak).padStart(4)})` : ""}   load ${s.load.toFixed(2)}`;

    // Steady reads at a fixed rate over several routes, for the whole run.
    const routes = [
      "/market/runtime",
      "/market/releases",
      "/market/discovery",
      "/classic/games",
      "/classic/featured",
      "/predict/v9/markets",
      "/predict/v9/runtime",
      "/market/api-key?bucket=read",
    ];
    const startedAt = performance.now();
    // A first window for the loop-delay histogram to start from.
    await sample(startedAt);
    const samples: Sample[] = [await sample(startedAt)];
    const threadsAtStart = threadsByName(pid);
    const chainsThreadsAtStart = chains ? threadsByName(chains.child.pid!) : undefined;
    process.stderr.write(`soak ${format(samples[0]!)}\n`);
    const reads = new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        {
          url: baseUrl,
          connections: 8,
          overallRate: options.readsPerSecond,
          duration: options.minutes * 60,
          requests: routes.map((path) => ({ method: "GET", path, headers })),
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
    // The catch-ups: the indexer held off for a while, evenly spread over the run.
    const catchUps: string[] = [];
    const catchUpTimers = Array.from({ length: options.catchUps }, (_, i) =>
      setTimeout(
        () => {
          const at = Math.round((performance.now() - startedAt) / 1000);
          catchUp(adminUrl, options.catchUpSeconds).then(
            (took) => catchUps.push(`catch-up ${i + 1} at ${at} s: ${took}`),
            (error: unknown) => catchUps.push(`catch-up ${i + 1} at ${at} s failed: ${String(error)}`),
          );
        },
        ((i + 1) * options.minutes * 60_000) / (options.catchUps + 1),
      ),
    );
    let failedSamples = 0;
    const timer = setInterval(() => {
      sample(startedAt).then(
        (taken) => {
          samples.push(taken);
          process.stderr.write(`soak ${format(taken)}\n`);
        },
        (error: unknown) => {
          failedSamples += 1;
          process.stderr.write(`soak: a sample failed: ${error instanceof Error ? error.message : error}\n`);
        },
      );
    }, options.sampleSeconds * 1000);
    const result = await reads;
    clearInterval(timer);
    for (const pending of catchUpTimers) clearTimeout(pending);
    // The end, unless the last sample was just taken.
    const closing = await sample(startedAt);
    if (closing.atSeconds - samples.at(-1)!.atSeconds >= options.sampleSeconds / 2) samples.push(closing);

    const unavailable = result.statusCodeStats?.["503"]?.count ?? 0;
    const codes = Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, { count }]) => `${count ?? 0} × ${code}`)
      .join(", ");
    lines.push(
      `reads: ${result.requests.total} in ${result.duration.toFixed(0)} s (${(result.requests.total / result.duration).toFixed(0)}/s), p99 ${result.latency.p99} ms, errors ${result.errors + result.timeouts}, non-2xx ${result.non2xx} (${codes || "none"})`,
      `streams: ${options.streams - dropped} of ${options.streams} open at the end (${dropped} closed by the server), ${events} events received`,
      "samples:",
      ...samples.map((s) => `  ${format(s)}`),
      `start: ${format(samples[0]!)}`,
      `end:   ${format(samples.at(-1)!)}`,
      `server's threads at the start: ${threadsAtStart}`,
      `server's threads at the end:   ${threadsByName(pid)}`,
    );
    if (chains)
      lines.push(
        `chains' threads at the start: ${chainsThreadsAtStart}`,
        `chains' threads at the end:   ${threadsByName(chains.child.pid!)}`,
      );
    lines.push(...catchUps);
    if (catchUps.length < options.catchUps)
      lines.push(`${options.catchUps - catchUps.length} catch-ups did not finish within the run`);
    if (failedSamples > 0) lines.push(`${failedSamples} samples failed (see above)`);
    // A 503 is an answer by contract while the indexer is held off (a stale prediction feed), nothing else.
    let met =
      result.errors + result.timeouts === 0 &&
      result.non2xx - (options.catchUps > 0 ? unavailable : 0) === 0 &&
      dropped === 0;
    for (const series of SERIES) {
      if (series.key.startsWith("chains") && !chains) continue;
      const verdict = levelsOff(samples, series.key, series.level, series.flatPerMinute);
      met &&= verdict.ok;
      lines.push(
        `${series.label.padEnd(22)} ${series.level} by thirds ${verdict.levels.map((value) => value.toFixed(1)).join(" → ")} ${series.unit}: ${verdict.ok ? "no growth that does not level off" : "GROWS WITHOUT LEVELLING OFF"}`,
      );
    }
    const start = samples[0]!;
    const end = samples.at(-1)!;
    return {
      name,
      lines,
      summary: `RSS ${start.rssMiB.toFixed(0)}→${end.rssMiB.toFixed(0)} MiB, fds ${start.openFds}→${end.openFds}, loop p99 ${start.loopP99Ms.toFixed(1)}→${end.loopP99Ms.toFixed(1)} ms, db ${start.dbConnections}→${end.dbConnections}: ${met ? "levels off" : "GROWS"}`,
      met,
    };
  } finally {
    clearInterval(peakTimer);
    for (const request of clients) request.destroy();
    await server?.stop();
    await chains?.stop();
    await observer.end().catch(() => {});
    await database.drop();
    await postgres.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
