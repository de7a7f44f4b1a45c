// The benchmark suites `npm run bench` knows, their sizes, and how a run selects and runs them.
// bench/run.ts is the command line over this module; bench/suites.test.ts checks it.
import { accountCases, benchAccounts } from "./account.bench.ts";
import { benchIndexerBackfill, benchIndexerVolume } from "./indexer.bench.ts";
import { benchIndexerTip } from "./indexer-tip.bench.ts";
import { benchRoute, routeCases } from "./routes.bench.ts";
import { scaleFromEnv, scaleSuites } from "./scale/harness.ts";
import { SCALE_SURFACES } from "./scale/surfaces.ts";
import { benchSignatures } from "./signatures.bench.ts";
import { benchSoak, type SoakOptions } from "./soak.bench.ts";
import { benchSse } from "./sse.bench.ts";

export interface SuiteResult {
  name: string;
  lines: string[];
  /** One line for the closing summary, when the suite has a headline figure. */
  summary?: string;
  met: boolean;
  /** Why the suite measured nothing (no PostgreSQL, say); absent when it ran. */
  skipped?: string;
}

/** Every size a suite runs at: the measured loads, rounds and volumes. */
export interface BenchSizes {
  /** The route suites: seconds of each load, rounds, seconds of warm-up of each server (0: none). */
  route: { durationSeconds: number; rounds: number; warmupSeconds: number };
  accounts: { durationSeconds: number; rounds: number };
  signatures: { seconds: number };
  indexer: { logs: number; rounds: number };
  indexerVolume: { logs: number; rounds: number; requireFsync: boolean };
  indexerTip: { rate: number; seconds: number; warmUpSeconds: number };
  sse: { clients: number; rounds: number };
  soak: SoakOptions;
  /** The scale suites: SCALE, seconds per route (undefined: the harness's default), warm-up seconds. */
  scale: { scale: number; seconds: number | undefined; warmupSeconds: number };
}

/**
 * The sizes of a smoke run: every suite once at its smallest size, to show it still runs and
 * prints its figures. Nothing measured at these sizes is a measurement.
 */
export const SMOKE_SIZES: BenchSizes = {
  route: { durationSeconds: 1, rounds: 1, warmupSeconds: 0 },
  accounts: { durationSeconds: 1, rounds: 1 },
  signatures: { seconds: 1 },
  indexer: { logs: 1_000, rounds: 1 },
  indexerVolume: { logs: 1_000, rounds: 1, requireFsync: false },
  indexerTip: { rate: 10, seconds: 2, warmUpSeconds: 2 },
  sse: { clients: 100, rounds: 1 },
  soak: {
    minutes: 0.1,
    sampleSeconds: 2,
    streams: 10,
    readsPerSecond: 20,
    demoRate: 10,
    chains: "in-process",
    catchUps: 1,
    catchUpSeconds: 1,
  },
  scale: { scale: 0.01, seconds: 1, warmupSeconds: 0 },
};

/** BENCH_SOAK_CHAINS: where the soak runs the dev chains (`in-process`, the default, or `process`). */
function soakChains(value: string | undefined): "in-process" | "process" {
  if (value === undefined || value === "in-process" || value === "process") return value ?? "in-process";
  throw new Error(`BENCH_SOAK_CHAINS must be in-process or process, not ${value}`);
}

/**
 * The sizes of a measuring run, from the environment: BENCH_SECONDS (the measured seconds of each
 * load), BENCH_ROUNDS (the rounds of the route and accounts suites), and each suite's own variables.
 */
export function benchSizes(env: Record<string, string | undefined>): BenchSizes {
  const seconds = env["BENCH_SECONDS"];
  const rounds = env["BENCH_ROUNDS"];
  const number = (name: string, fallback: number) => Number(env[name] ?? fallback);
  return {
    // The route suites measure shorter loads, in more rounds.
    route: { durationSeconds: Number(seconds ?? 5), rounds: Number(rounds ?? 7), warmupSeconds: 3 },
    accounts: { durationSeconds: Number(seconds ?? 10), rounds: Number(rounds ?? 3) },
    signatures: { seconds: Number(seconds ?? 2) },
    indexer: { logs: number("BENCH_INDEXER_LOGS", 100_000), rounds: number("BENCH_INDEXER_ROUNDS", 3) },
    indexerVolume: {
      logs: number("BENCH_INDEXER_VOLUME_LOGS", 1_000_000),
      rounds: number("BENCH_INDEXER_VOLUME_ROUNDS", 1),
      requireFsync: true,
    },
    indexerTip: {
      rate: number("BENCH_TIP_RATE", 10),
      seconds: number("BENCH_TIP_SECONDS", 60),
      warmUpSeconds: number("BENCH_TIP_WARMUP_SECONDS", 20),
    },
    // BENCH_SSE_CLIENTS: the clients held (default the 10,000 of the target).
    sse: { clients: number("BENCH_SSE_CLIENTS", 10_000), rounds: 5 },
    // The soak (30 minutes by default).
    soak: {
      minutes: number("BENCH_SOAK_MINUTES", 30),
      sampleSeconds: number("BENCH_SOAK_SAMPLE_SECONDS", 30),
      streams: number("BENCH_SOAK_STREAMS", 300),
      readsPerSecond: number("BENCH_SOAK_RPS", 100),
      demoRate: number("BENCH_SOAK_DEMO_RATE", 10),
      chains: soakChains(env["BENCH_SOAK_CHAINS"]),
      catchUps: number("BENCH_SOAK_CATCH_UPS", 2),
      catchUpSeconds: number("BENCH_SOAK_CATCH_UP_SECONDS", 30),
    },
    scale: {
      scale: scaleFromEnv(env),
      seconds: seconds !== undefined ? Number(seconds) : undefined,
      warmupSeconds: 1,
    },
  };
}

export interface Suite {
  /** What `npm run bench -- <filter>` matches. */
  id: string;
  /** Left out of a run without filters (`npm run bench`); runs when a filter names it from its start. */
  explicit?: boolean;
  run(sizes: BenchSizes): Promise<SuiteResult>;
}

/** Every suite, in the order a run takes them. */
export const SUITES: readonly Suite[] = [
  ...routeCases.map((routeCase) => ({
    id: routeCase.id,
    run: (sizes: BenchSizes) => benchRoute(routeCase, sizes.route),
  })),
  { id: "indexer", run: (sizes) => benchIndexerBackfill(sizes.indexer) },
  { id: "indexer:volume", run: (sizes) => benchIndexerVolume(sizes.indexerVolume) },
  { id: "indexer:tip", run: (sizes) => benchIndexerTip(sizes.indexerTip) },
  { id: "signatures", run: (sizes) => benchSignatures(sizes.signatures) },
  ...accountCases.map(({ id, database }) => ({
    id,
    run: (sizes: BenchSizes) => benchAccounts({ ...sizes.accounts, database }),
  })),
  { id: "sse", run: (sizes) => benchSse(sizes.sse) },
  { id: "soak", explicit: true, run: (sizes) => benchSoak(sizes.soak) },
  // The scale benchmark: one suite per surface of bench/scale/surfaces.ts.
  ...scaleSuites(SCALE_SURFACES).map((suite) => ({ ...suite, explicit: true })),
];

/**
 * The suites a run takes. Without filters: every suite not marked explicit, or in a smoke run every
 * suite. With filters: the suites whose id contains one, an explicit suite only when a filter
 * names it from its start (`scale`, `scale:market`, `soak`).
 */
export function selectSuites(
  suites: readonly Suite[],
  filters: readonly string[],
  { smoke }: { smoke: boolean },
): Suite[] {
  if (filters.length === 0) return suites.filter(({ explicit }) => smoke || !explicit);
  return suites.filter(({ id, explicit }) =>
    filters.some((filter) => (explicit ? id.startsWith(filter) : id.includes(filter))),
  );
}

export interface RunOutcome {
  /** Suites that threw, with the first line of what they threw. */
  failed: { id: string; error: string }[];
  /** Suites that measured nothing, with the reason. */
  skipped: { id: string; reason: string }[];
  allMet: boolean;
  /**
   * 1 when a suite failed to run (and, in a smoke run, when one was skipped: a smoke run that
   * skips a suite checks nothing of it); 0 otherwise, whether or not the targets were met.
   */
  exitCode: number;
}

/**
 * Runs `selected` one after another at `sizes`, writing each suite's figures as it ends and a
 * closing summary. A suite that throws is reported and the run goes on. A smoke run judges no
 * target: it says which suites ran, failed or were skipped.
 */
export async function runSuites(
  selected: readonly Suite[],
  sizes: BenchSizes,
  { smoke, write }: { smoke: boolean; write: (text: string) => void },
): Promise<RunOutcome> {
  let allMet = true;
  const summaries: string[] = [];
  const failed: RunOutcome["failed"] = [];
  const skipped: RunOutcome["skipped"] = [];
  for (const suite of selected) {
    const started = performance.now();
    let result: SuiteResult;
    try {
      result = await suite.run(sizes);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failed.push({ id: suite.id, error: message.split("\n")[0]! });
      write(`\n## ${suite.id}: FAILED\n${message}\n`);
      summaries.push(`${suite.id.padEnd(28)} FAILED`);
      continue;
    }
    const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
    write(`\n## ${result.name}\n${result.lines.join("\n")}\n`);
    if (result.skipped !== undefined) {
      skipped.push({ id: suite.id, reason: result.skipped });
      summaries.push(`${suite.id.padEnd(28)} skipped: ${result.skipped}`);
      continue;
    }
    // A smoke run's summary says only that the suite ran: its figures are not measurements.
    if (smoke) summaries.push(`${suite.id.padEnd(28)} ran in ${took}`);
    else if (result.summary) summaries.push(`${suite.id.padEnd(28)} ${result.summary}`);
    allMet &&= result.met;
  }
  if (summaries.length > 0)
    write(
      `\n## Summary${smoke ? " (smoke run: sizes too small to measure; targets not judged)" : ""}\n${summaries.join("\n")}\n`,
    );
  const exitCode = failed.length > 0 || (smoke && skipped.length > 0) ? 1 : 0;
  if (smoke) {
    write(
      `\nsmoke run: ${selected.length - failed.length - skipped.length} of ${selected.length} suites ran${
        failed.length > 0 ? `; FAILED: ${failed.map((f) => f.id).join(", ")}` : ""
      }${skipped.length > 0 ? `; SKIPPED: ${skipped.map((s) => s.id).join(", ")}` : ""}\n`,
    );
  } else {
    write(
      `\n${allMet ? "all targets met" : "some targets NOT met"}${failed.length > 0 ? `; FAILED: ${failed.map((f) => f.id).join(", ")}` : ""}\n`,
    );
  }
  return { failed, skipped, allMet, exitCode };
}
