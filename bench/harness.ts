import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import {
  PG_BIN,
  type PrivateCluster,
  privateClusterSkipReason,
  startPrivateCluster,
} from "../packages/server/src/_test/pg-cluster.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const BENCH_ADMIN_TOKEN = "bench-admin-token-000000000000000";

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  p50Ms: number;
  errors: number;
  non2xx: number;
  /** Requests answered during the measurement. */
  requests: number;
  /** CPU time (user + system, every thread) the server process spent per answered request, when known. */
  cpuMicrosPerRequest: number | undefined;
  /** CPU time the PostgreSQL backends serving the server spent per answered request, when measured. */
  databaseCpuMicrosPerRequest: number | undefined;
}

/** Starts a process and waits for a line matching `ready`; returns the first capture group. */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray; stop(): Promise<void> }> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (found) {
        // Stop buffering: from here on the process's output is drained and dropped.
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve(found);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`process exited with ${code}:\n${output}`)));
  });
  return {
    child,
    match,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every mainstream kernel). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, all threads) a process has used so far, from
 * /proc/<pid>/stat; undefined where there is no procfs. Read from outside,
 * so the measured servers run no measuring code.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name, which may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    return Number.isFinite(user + system) ? (user + system) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  pipelining: number;
  durationSeconds: number;
  /** The server process, to charge its CPU time to the requests it answered. */
  pid?: number | undefined;
  /** The PostgreSQL backends serving the server, to charge their CPU time to the requests too. */
  databaseCpu?: (() => Promise<Map<number, number> | undefined>) | undefined;
}

/**
 * Loads a server once and adds what it measured to `into` (a fresh tally when
 * none is given): several loads of one server, interleaved with loads of
 * another, add up to one result.
 */
export async function load(options: LoadOptions, into: LoadTally = new LoadTally()): Promise<LoadResult> {
  const cpuBefore = cpuSeconds(options.pid);
  const databaseBefore = await options.databaseCpu?.();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const tracker = autocannon(
      {
        url: options.url,
        headers: options.headers,
        connections: options.connections,
        pipelining: options.pipelining,
        duration: options.durationSeconds,
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    // A connection's first response also waited for the connection to open:
    // left out of the latencies, so short loads measure the same as long ones.
    const opened = new WeakSet<object>();
    tracker.on("response", (client, statusCode, _bytes, ms) => {
      if (!opened.has(client)) {
        opened.add(client);
        return;
      }
      if (statusCode < 300) into.latencies.record(ms);
    });
  });
  const cpuAfter = cpuSeconds(options.pid);
  const databaseAfter = await options.databaseCpu?.();
  into.add({
    requests: result.requests.total,
    // autocannon's duration is the elapsed time of the load, in seconds.
    seconds: result.duration,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuSeconds: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
    databaseCpuSeconds: cpuSecondsBetween(databaseBefore, databaseAfter),
  });
  return into.result();
}

/** The sum of one or more loads of one server. */
export class LoadTally {
  // autocannon's own percentiles are whole milliseconds; these are 10 µs buckets.
  readonly latencies = new LatencyHistogram();
  private requests = 0;
  private seconds = 0;
  private errors = 0;
  private non2xx = 0;
  private cpuSeconds: number | undefined = 0;
  private databaseCpuSeconds: number | undefined = 0;

  add(load: {
    requests: number;
    seconds: number;
    errors: number;
    non2xx: number;
    cpuSeconds: number | undefined;
    databaseCpuSeconds: number | undefined;
  }) {
    this.requests += load.requests;
    this.seconds += load.seconds;
    this.errors += load.errors;
    this.non2xx += load.non2xx;
    this.cpuSeconds =
      this.cpuSeconds !== undefined && load.cpuSeconds !== undefined
        ? this.cpuSeconds + load.cpuSeconds
        : undefined;
    this.databaseCpuSeconds =
      this.databaseCpuSeconds !== undefined && load.databaseCpuSeconds !== undefined
        ? this.databaseCpuSeconds + load.databaseCpuSeconds
        : undefined;
  }

  result(): LoadResult {
    return {
      requestsPerSecond: this.seconds > 0 ? this.requests / this.seconds : 0,
      p99Ms: this.latencies.percentile(99),
      p50Ms: this.latencies.percentile(50),
      errors: this.errors,
      non2xx: this.non2xx,
      requests: this.requests,
      cpuMicrosPerRequest:
        this.cpuSeconds !== undefined && this.requests > 0
          ? (this.cpuSeconds * 1e6) / this.requests
          : undefined,
      databaseCpuMicrosPerRequest:
        this.databaseCpuSeconds !== undefined && this.requests > 0
          ? (this.databaseCpuSeconds * 1e6) / this.requests
          : undefined,
    };
  }
}

/** Response times in 10 µs buckets up to 10 s (the last bucket holds anything slower). */
class LatencyHistogram {
  private readonly buckets = new Uint32Array(1_000_001);
  private count = 0;
  record(ms: number) {
    this.buckets[Math.min(Math.round(ms * 100), this.buckets.length - 1)]! += 1;
    this.count += 1;
  }
  /** The smallest recorded value at or below which `percent` of the values lie, in ms. */
  percentile(percent: number): number {
    const rank = Math.ceil((percent / 100) * this.count);
    let seen = 0;
    for (let bucket = 0; bucket < this.buckets.length; bucket++) {
      seen += this.buckets[bucket]!;
      if (seen >= rank && seen > 0) return bucket / 100;
    }
    return 0;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function formatRow(name: string, result: LoadResult) {
  const cpu =
    result.cpuMicrosPerRequest === undefined ? "n/a" : `${result.cpuMicrosPerRequest.toFixed(1)} µs`;
  return `${name.padEnd(34)} ${result.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${result.p50Ms
    .toFixed(2)
    .padStart(6)} ms   p99 ${result.p99Ms.toFixed(2).padStart(6)} ms   cpu/req ${cpu.padStart(8)}   errors ${
    result.errors
  }   non-2xx ${result.non2xx}${
    result.databaseCpuMicrosPerRequest === undefined
      ? ""
      : `   PostgreSQL cpu/req ${result.databaseCpuMicrosPerRequest.toFixed(1)} µs`
  }`;
}

/**
 * The API server alone (`bench/api-server.ts`) in its own process, with a
 * key whose multiplier is raised to 1,000,000 so no budget refuses a request:
 * on in-memory PGlite, or on the PostgreSQL database `databaseUrl` (migrated
 * by the server as it starts); `trustProxy` is its TRUST_PROXY (unset when
 * undefined, whatever this process's environment says).
 */
export async function startApiServer({
  logLevel,
  databaseUrl,
  trustProxy,
  env = {},
}: {
  logLevel: string;
  databaseUrl?: string | undefined;
  trustProxy?: string | undefined;
  /** More environment of the server process (configuration variables, `BENCH_SEED_CLAIMS`). */
  env?: Record<string, string>;
}) {
  // BENCH_SERVER_NODE_ARGS adds Node flags to the server process (`--cpu-prof --cpu-prof-dir=…` to profile it).
  const nodeArgs = (process.env["BENCH_SERVER_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
  const server = await startProcess(
    [...nodeArgs, "--import", "tsx", `${root}bench/api-server.ts`],
    {
      PORT: "0",
      ADMIN_PORT: "0",
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      LOG_LEVEL: logLevel,
      MKT_MAX_IN_FLIGHT: "100000",
      DATABASE_URL: databaseUrl ?? "memory://",
      TRUST_PROXY: trustProxy ?? "",
      ...env,
    },
    /(?:floor (\S+)\s+)?listening on\s+(\S+)[\s\S]*operator\s+(\S+)/,
  );
  try {
    const floorUrl = server.match[1];
    const baseUrl = server.match[2]!;
    const adminUrl = server.match[3]!;
    const created = await fetch(`${baseUrl}/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "benchmark", email: "bench@example.com" }),
    });
    if (!created.ok) throw new Error(`could not create a key: ${created.status}`);
    const key = (await created.json()) as { id: string; key: string };
    const patched = await fetch(`${adminUrl}/admin/keys/${key.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ multiplier: 1_000_000 }),
    });
    if (!patched.ok) throw new Error(`could not raise the multiplier: ${patched.status}`);
    return { baseUrl, floorUrl, apiKey: key.key, pid: server.child.pid, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** One HTTP answer as it went over the wire: status, headers in their order and spelling, body. */
export interface RecordedAnswer {
  status: number;
  /** [name, value, name, value, …], as received. */
  headers: string[];
  body: Buffer;
}

/** Sends one GET and records the answer as received. */
export function recordAnswer(url: string, headers: Record<string, string>): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on("error", reject);
  });
}

/** Headers Node's HTTP server writes on every answer by itself, for the API server and the bare one alike. */
const WRITTEN_BY_NODE = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** The headers of an answer as a server would send them: those Node writes itself left out. */
function ownHeaders(answer: RecordedAnswer): string[] {
  const own: string[] = [];
  for (let i = 0; i < answer.headers.length; i += 2) {
    if (!WRITTEN_BY_NODE.has(answer.headers[i]!.toLowerCase()))
      own.push(answer.headers[i]!, answer.headers[i + 1]!);
  }
  return own;
}

/** The answer without its Date value, which changes every second. */
function comparable(answer: RecordedAnswer) {
  const headers = answer.headers.map((value, i) =>
    i % 2 === 1 && answer.headers[i - 1]!.toLowerCase() === "date" ? "(date)" : value,
  );
  return JSON.stringify({ status: answer.status, headers, body: answer.body.toString("base64") });
}

/**
 * A bare `node:http` server (`bench/bare-server.ts`) in its own process that
 * answers every request with `answer`: the same status, headers and body,
 * checked byte for byte (but the date) by one request before it is used.
 */
export async function startBareServer(answer: RecordedAnswer, checkHeaders: Record<string, string>) {
  const keepAlive = answer.headers.find(
    (_, i) => i % 2 === 1 && answer.headers[i - 1]!.toLowerCase() === "keep-alive",
  );
  const replay = JSON.stringify({
    status: answer.status,
    headers: ownHeaders(answer),
    body: answer.body.toString("base64"),
  });
  // In a file: a large answer does not fit one command-line argument.
  const replayFile = join(mkdtempSync(join(tmpdir(), "mkt-bench-")), "answer.json");
  writeFileSync(replayFile, replay);
  const bare = await startProcess(
    ["--import", "tsx", `${root}bench/bare-server.ts`, replayFile, keepAlive ?? ""],
    {},
    /listening on (\S+)/,
  );
  const url = bare.match[1]!;
  try {
    await expectReplay("bare", url, answer, checkHeaders);
  } catch (error) {
    await bare.stop();
    throw error;
  }
  return { url, pid: bare.child.pid, stop: bare.stop };
}

/**
 * Arms the framework floor of an API server started with BENCH_FLOOR=1
 * (`floor-server.ts`): it answers `answer` from then on, checked byte for
 * byte (but the date) by one request, like the bare server.
 */
export async function armFloorServer(
  floorUrl: string,
  answer: RecordedAnswer,
  checkHeaders: Record<string, string>,
) {
  const armed = await fetch(`${floorUrl}/__bench/answer`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      status: answer.status,
      headers: ownHeaders(answer),
      body: answer.body.toString("base64"),
    }),
  });
  if (armed.status !== 204) throw new Error(`could not arm the floor server: ${armed.status}`);
  await expectReplay("floor", `${floorUrl}/`, answer, checkHeaders);
}

/** Throws unless one request to `url` is answered with `answer`'s bytes (but the date). */
async function expectReplay(
  server: string,
  url: string,
  answer: RecordedAnswer,
  headers: Record<string, string>,
) {
  const replayed = await recordAnswer(url, headers);
  if (comparable(replayed) !== comparable(answer))
    throw new Error(`the ${server} server's answer differs:\n${comparable(replayed)}\n${comparable(answer)}`);
}

/** CPU seconds each process has used so far; undefined when any of them cannot be read. */
export function cpuSecondsByPid(pids: Iterable<number>): Map<number, number> | undefined {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    const used = cpuSeconds(pid);
    if (used === undefined) return undefined;
    seconds.set(pid, used);
  }
  return seconds;
}

/** CPU seconds the processes of `after` spent since `before`; a process absent from `before` counts from its start. */
export function cpuSecondsBetween(
  before: Map<number, number> | undefined,
  after: Map<number, number> | undefined,
): number | undefined {
  if (!before || !after) return undefined;
  let total = 0;
  for (const [pid, used] of after) total += used - (before.get(pid) ?? 0);
  return total;
}

/** A database of its own for one measurement, in the run's PostgreSQL server. */
export interface BenchDatabase {
  url: string;
  /**
   * CPU seconds each PostgreSQL backend connected to this database has used
   * so far, from /proc; undefined when the server runs on another machine.
   */
  backendCpu(): Promise<Map<number, number> | undefined>;
  drop(): Promise<void>;
}

export type BenchPostgres =
  | { description: string; freshDatabase(): Promise<BenchDatabase>; dispose(): Promise<void> }
  | { skipped: string };

/**
 * A suite's result when it could measure nothing (no PostgreSQL, say): the run reports it as
 * skipped with `reason` and judges no target of it.
 */
export const skippedSuite = (name: string, reason: string) => ({
  name,
  lines: [`skipped: ${reason}`],
  met: true,
  skipped: reason,
});

/**
 * The PostgreSQL server of a suite, where each measurement gets a fresh
 * database: DATABASE_URL's server when it names PostgreSQL, else a temporary
 * PostgreSQL 15 cluster started as CI starts one (.ci/run), else skipped.
 */
export async function startPostgres({
  fsync = false,
}: {
  /** The temporary cluster's `fsync` (off unless a suite measures durable writes); DATABASE_URL's server keeps its own. */
  fsync?: boolean;
} = {}): Promise<BenchPostgres> {
  const configured = process.env["DATABASE_URL"];
  if (configured && /^postgres(ql)?:\/\//.test(configured)) {
    return {
      description: "a fresh database in DATABASE_URL's server, dropped after",
      freshDatabase: () => freshDatabaseIn(configured),
      async dispose() {},
    };
  }
  if (!existsSync(`${PG_BIN}/postgres`)) {
    return { skipped: `DATABASE_URL is not a PostgreSQL URL and ${PG_BIN}/postgres is not installed` };
  }
  return temporaryCluster(fsync);
}

async function freshDatabaseIn(serverUrl: string): Promise<BenchDatabase> {
  const name = `mkt_bench_${Math.random().toString(36).slice(2, 10)}`;
  // One connection to the server's own database, kept for the database's life: it creates,
  // watches and drops the bench database without being one of its backends.
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async backendCpu() {
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = $1",
        [name],
      );
      return cpuSecondsByPid(rows.map((row) => row.pid));
    },
    async drop() {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

async function temporaryCluster(fsync: boolean): Promise<BenchPostgres> {
  const unavailable = privateClusterSkipReason();
  if (unavailable) return { skipped: unavailable };
  let cluster: PrivateCluster;
  try {
    cluster = await startPrivateCluster({ fsync });
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { skipped: `could not start a temporary PostgreSQL 15 cluster: ${message}` };
  }
  return {
    description: `temporary PostgreSQL 15 cluster on 127.0.0.1:${cluster.port} (fsync=${fsync ? "on" : "off"}, otherwise defaults), a fresh database per measurement, removed after`,
    freshDatabase: () => freshDatabaseIn(cluster.url),
    dispose: () => cluster.dispose(),
  };
}
