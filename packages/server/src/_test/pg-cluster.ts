import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freeLoopbackPort } from "./ports.ts";

const run = promisify(execFile);

/** Debian's PostgreSQL 15 binaries, as CI (`.ci/run`) installs them. */
export const PG_BIN = process.env["MKT_PG_BIN"] ?? "/usr/lib/postgresql/15/bin";

/**
 * A PostgreSQL cluster of one test's own, on a free loopback port, that the
 * test may stop, crash and restart: never the shared server `DATABASE_URL`
 * names. As root, initdb and postgres run as the `postgres` user (they refuse
 * to run as root), like `.ci/run`.
 */
export interface PrivateCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the maintenance database. */
  url: string;
  port: number;
  /** A new empty database on the cluster; answers its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server: `fast` (clients are told, open transactions roll back, a checkpoint is
   * written) or `immediate` (every process is killed at once, like a crash; the next start
   * replays the WAL).
   */
  stop(mode: "fast" | "immediate"): Promise<void>;
  /** Starts the stopped server on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server and removes its data directory. */
  dispose(): Promise<void>;
}

/**
 * Why a private cluster cannot start on this machine, or undefined when it
 * can. Under CI (`CI=true`) the binaries must be there: the caller fails
 * instead of skipping.
 */
export function privateClusterSkipReason(): string | undefined {
  if (process.env["CI"] === "true") return undefined;
  if (!existsSync(join(PG_BIN, "pg_ctl")))
    return `needs PostgreSQL 15's server binaries in ${PG_BIN} (apt-get install postgresql-15), to run a private cluster it may restart`;
  if (process.getuid?.() === 0 && !hasPostgresUser())
    return "running as root without a postgres user to run initdb and postgres as";
  return undefined;
}

function hasPostgresUser(): boolean {
  try {
    execFileSync("id", ["postgres"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Initialises and starts a private cluster, with stock settings but for
 * `fsync`: off unless asked (a crash of the server process, not of the
 * machine, loses nothing committed; synchronous commit stays on, so a commit
 * is acknowledged only once its WAL is written). The benchmarks that measure
 * durable writes ask for it on.
 */
export async function startPrivateCluster({
  fsync = false,
}: {
  fsync?: boolean;
} = {}): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), "mkt-test-pg-"));
  const data = join(dir, "data");
  const port = await freeLoopbackPort();
  const asRoot = process.getuid?.() === 0;
  const shell = async (command: string) => {
    if (asRoot) await run("su", ["postgres", "-s", "/bin/bash", "-c", command]);
    else await run("/bin/bash", ["-c", command]);
  };
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${fsync ? "on" : "off"} -c max_connections=100`;
  const pgCtl = (args: string) => shell(`${PG_BIN}/pg_ctl -D ${data} ${args}`);
  const start = () => pgCtl(`-l ${dir}/log -w -t 60 -o "${options}" start >/dev/null`);
  let running = false;
  try {
    if (asRoot) await run("chown", ["postgres", dir]);
    await shell(`${PG_BIN}/initdb -D ${data} -U postgres -A trust --no-sync >/dev/null`);
    await start();
    running = true;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase(name) {
      const pg = (await import("pg")).default;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop(mode) {
      await pgCtl(`-m ${mode} -w -t 60 stop >/dev/null`);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async dispose() {
      try {
        if (running) await pgCtl("-m immediate -w -t 60 stop >/dev/null");
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
