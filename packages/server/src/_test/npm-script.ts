import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { dirname } from "node:path";

/** The repository's root, where `npm start` and `npm run chain` run. */
export const REPO = new URL("../../../../", import.meta.url).pathname;

export interface NpmScript {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** The first match of `pattern` in its output, waiting for it (rejects if the process exits first). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** SIGTERM to its process group (npm and the node it runs), SIGKILL after `graceMs`; resolves on exit. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `npm run <script> --silent` in the repository, as an operator types it, with `env` over this
 * process's environment and the `node` running the test first on PATH. It runs in its own process
 * group so `stop` reaches the node process npm starts, not only npm.
 */
export function runNpmScript(script: string, env: Record<string, string | undefined>): NpmScript {
  const environment: Record<string, string | undefined> = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`,
    ...env,
  };
  for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name];
  const child = spawn("npm", ["run", script, "--silent"], {
    cwd: REPO,
    detached: true,
    env: environment,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = once(child, "exit");
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = pattern.exec(output);
          if (!found) return;
          listeners.delete(check);
          resolve(found);
        };
        listeners.add(check);
        check();
        void exited.then(() => {
          if (!listeners.has(check)) return;
          listeners.delete(check);
          reject(
            new Error(
              `npm run ${script} exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output}`,
            ),
          );
        });
      }),
    async stop(graceMs = 20_000) {
      if (!running()) return;
      process.kill(-child.pid!, "SIGTERM");
      const timer = setTimeout(() => {
        if (running()) process.kill(-child.pid!, "SIGKILL");
      }, graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
