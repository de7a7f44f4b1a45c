// `node --import tsx bench/idle.ts`: the CPU and memory an idle `npm start` uses.
//
// Starts the real entry point (packages/server/src/main.ts, as `npm start` does: PGlite on disk, the
// two dev chains mining a block a second, the indexer following them) with MKT_DEMO=0 and again
// with MKT_DEMO=1, sends no request, lets it settle, then reads the process's CPU time (utime +
// stime of /proc/<pid>/stat, all threads) over a window and its resident memory. The threads are
// also reported by name, so the dev chains' native threads (EDR) show apart from the JavaScript
// thread. Arguments pick the runs: `demo-off`, `demo-on` (both by default) and `chains-only`, a
// process running only the dev chains (no database, server or indexer): the chains' own share.
//
// IDLE_SECONDS (default 60): the measured window; IDLE_WARMUP_SECONDS (default 30): the settling
// time after the start banner (contract deployment, the indexer catching up, the demo's first steps).
// Linux only (/proc).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const seconds = Number(process.env["IDLE_SECONDS"] ?? 60);
const warmupSeconds = Number(process.env["IDLE_WARMUP_SECONDS"] ?? 30);
/** Kernel clock ticks per second (`getconf CLK_TCK`; 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;
const main = new URL("../packages/server/src/main.ts", import.meta.url).pathname;
const chainsOnly = new URL("./idle-chains.ts", import.meta.url).pathname;

interface ThreadTimes {
  name: string;
  ticks: number;
}

/** utime + stime of the process, and of each of its threads by id. */
function cpuTicks(pid: number): { total: number; threads: Map<string, ThreadTimes> } {
  const parse = (stat: string) => {
    // The name is in parentheses and may hold spaces; the fields after it are space-separated.
    const close = stat.lastIndexOf(")");
    const name = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat
      .slice(close + 2)
      .split(" ")
      .map((field) => Number(field));
    // Fields 14 and 15 of proc(5) (utime, stime) are 11 and 12 after the name.
    return { name, ticks: (fields[11] ?? 0) + (fields[12] ?? 0) };
  };
  const threads = new Map<string, ThreadTimes>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(tid, parse(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return { total: parse(readFileSync(`/proc/${pid}/stat`, "utf8")).ticks, threads };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

/** Thread names with a number in them (`libuv-worker`, `tokio-runtime-w`…) grouped by their stem. */
const threadGroup = (name: string) => name.replace(/[-_ ]?\d+$/, "");

interface Measurement {
  label: string;
  cpuPercent: number;
  rssMiB: number;
  byThread: Array<{ group: string; threads: number; cpuPercent: number }>;
}

async function measure(label: string, script: string, env: Record<string, string>): Promise<Measurement> {
  const dataDir = mkdtempSync(join(tmpdir(), "mkt-idle-"));
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: {
      ...process.env,
      PORT: "0",
      ADMIN_PORT: "0",
      DEVNET_PORT_8453: "0",
      DEVNET_PORT_4663: "0",
      MKT_DATA_DIR: dataDir,
      LOG_FORMAT: "json",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    let stdout = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes("admin token") || stdout.includes("chains running")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`${label}: exited ${code} before it was ready`)));
    });
    child.stdout.resume();
    await sleep(warmupSeconds * 1000);
    const pid = child.pid!;
    const before = cpuTicks(pid);
    const rss: number[] = [];
    for (let elapsed = 0; elapsed < seconds; elapsed += 5) {
      await sleep(Math.min(5, seconds - elapsed) * 1000);
      rss.push(rssMiB(pid));
    }
    const after = cpuTicks(pid);
    const percent = (ticks: number) => (ticks / TICKS_PER_SECOND / seconds) * 100;
    const groups = new Map<string, { threads: number; ticks: number }>();
    for (const [tid, thread] of after.threads) {
      const group = threadGroup(thread.name);
      const entry = groups.get(group) ?? { threads: 0, ticks: 0 };
      entry.threads += 1;
      entry.ticks += thread.ticks - (before.threads.get(tid)?.ticks ?? 0);
      groups.set(group, entry);
    }
    return {
      label,
      cpuPercent: percent(after.total - before.total),
      rssMiB: rss.reduce((sum, value) => sum + value, 0) / rss.length,
      byThread: [...groups]
        .map(([group, entry]) => ({ group, threads: entry.threads, cpuPercent: percent(entry.ticks) }))
        .filter((entry) => entry.cpuPercent > 0)
        .sort((a, b) => b.cpuPercent - a.cpuPercent),
    };
  } finally {
    child.kill("SIGINT");
    await once(child, "exit");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const runs: Array<[string, string, string, Record<string, string>]> = [
  ["demo-off", "npm start, MKT_DEMO=0", main, { MKT_DEMO: "0" }],
  ["demo-on", "npm start, MKT_DEMO=1", main, { MKT_DEMO: "1" }],
  ["chains-only", "dev chains alone", chainsOnly, {}],
];
// Arguments pick the runs by id; without any, both `npm start` runs.
const picked = process.argv.slice(2);
const selected = runs.filter(([id]) => (picked.length === 0 ? id !== "chains-only" : picked.includes(id)));
console.log(
  `idle for ${seconds} s after ${warmupSeconds} s of warm-up; ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}; node ${process.version}`,
);
for (const [, label, script, env] of selected) {
  const result = await measure(label, script, env);
  console.log(
    `\n${result.label}: ${result.cpuPercent.toFixed(2)}% of one core, RSS ${result.rssMiB.toFixed(0)} MiB`,
  );
  for (const thread of result.byThread)
    console.log(`  ${thread.group.padEnd(18)} ×${thread.threads}  ${thread.cpuPercent.toFixed(2)}%`);
}
