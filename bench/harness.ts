import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

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
}

/**
 * Loads a server once and adds what it measured to `into` (a fresh tally when
 * none is given): several loads of one server, interleaved with loads of
 * another, add up to one result.
 */
export async function load(options: LoadOptions, into: LoadTally = new LoadTally()): Promise<LoadResult> {
  const cpuBefore = cpuSeconds(options.pid);
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
  into.add({
    requests: result.requests.total,
    // autocannon's duration is the elapsed time of the load, in seconds.
    seconds: result.duration,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuSeconds: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
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

  add(load: {
    requests: number;
    seconds: number;
    errors: number;
    non2xx: number;
    cpuSeconds: number | undefined;
  }) {
    this.requests += load.requests;
    this.seconds += load.seconds;
    this.errors += load.errors;
    this.non2xx += load.non2xx;
    this.cpuSeconds =
      this.cpuSeconds !== undefined && load.cpuSeconds !== undefined
        ? this.cpuSeconds + load.cpuSeconds
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
  }   non-2xx ${result.non2xx}`;
}

/**
 * The API server alone (`bench/api-server.ts`) in its own process, with a
 * key whose multiplier is raised to 1,000,000 so no budget refuses a request.
 */
export async function startApiServer({ logLevel }: { logLevel: string }) {
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
    },
    /listening on\s+(\S+)[\s\S]*operator\s+(\S+)/,
  );
  try {
    const baseUrl = server.match[1]!;
    const adminUrl = server.match[2]!;
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
    return { baseUrl, apiKey: key.key, pid: server.child.pid, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
