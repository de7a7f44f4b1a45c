import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

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

export async function load(options: LoadOptions): Promise<LoadResult> {
  // autocannon's own percentiles are whole milliseconds; these are 10 µs buckets.
  const latencies = new LatencyHistogram();
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
    tracker.on("response", (_client, statusCode, _bytes, ms) => {
      if (statusCode < 300) latencies.record(ms);
    });
  });
  const cpuAfter = cpuSeconds(options.pid);
  const requests = result.requests.total;
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: latencies.percentile(99),
    p50Ms: latencies.percentile(50),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests,
    cpuMicrosPerRequest:
      cpuBefore !== undefined && cpuAfter !== undefined && requests > 0
        ? ((cpuAfter - cpuBefore) * 1e6) / requests
        : undefined,
  };
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
