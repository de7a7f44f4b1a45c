import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  p50Ms: number;
  errors: number;
  non2xx: number;
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

export async function load(options: {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections ?? 64,
    duration: options.durationSeconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function formatRow(name: string, result: LoadResult) {
  return `${name.padEnd(34)} ${result.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${result.p50Ms
    .toFixed(2)
    .padStart(
      6,
    )} ms   p99 ${result.p99Ms.toFixed(2).padStart(6)} ms   errors ${result.errors}   non-2xx ${result.non2xx}`;
}
