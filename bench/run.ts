// `npm run bench`: every benchmark, each reported against a baseline measured in the same run.
// `npm run bench -- <filter> …` runs only the suites whose id contains one of the filters:
// `route` (every route suite), `api-key`, `runtime`, `releases`, `claims`, `classic`, `predict`, `trust-proxy`, `indexer`, `accounts`,
// `postgres`, `signatures`, `sse`, `soak` (only when named), `scale` (the scale suites `scale:market`,
// `scale:classic`, `scale:predict`, at SCALE, default 1: bench/scale/harness.ts), or a whole id such as
// `route:runtime:trust-proxy`. A suite marked explicit (the soak, the scale suites) is left out of a run
// without filters and runs only for a filter naming it from its start (`scale`, `scale:market`, `soak`):
// `classic` or `predict` alone do not load millions of rows.
import { accountCases, benchAccounts } from "./account.bench.ts";
import { benchIndexerBackfill, benchIndexerVolume } from "./indexer.bench.ts";
import { benchIndexerTip } from "./indexer-tip.bench.ts";
import { benchRoute, routeCases } from "./routes.bench.ts";
import { scaleSuites } from "./scale/harness.ts";
import { SCALE_SURFACES } from "./scale/surfaces.ts";
import { benchSignatures } from "./signatures.bench.ts";
import { benchSoak } from "./soak.bench.ts";
import { benchSse } from "./sse.bench.ts";

// BENCH_SECONDS: the measured seconds of each load; BENCH_ROUNDS: the rounds of the route and accounts suites.
const seconds = process.env["BENCH_SECONDS"];
const rounds = process.env["BENCH_ROUNDS"];
// The route suites measure shorter loads, in more rounds.
const routeBench = { durationSeconds: Number(seconds ?? 5), rounds: Number(rounds ?? 7) };
const accountsBench = { durationSeconds: Number(seconds ?? 10), rounds: Number(rounds ?? 3) };

/** BENCH_SOAK_CHAINS: where the soak runs the dev chains (`in-process`, the default, or `process`). */
function soakChains(value: string | undefined): "in-process" | "process" {
  if (value === undefined || value === "in-process" || value === "process") return value ?? "in-process";
  throw new Error(`BENCH_SOAK_CHAINS must be in-process or process, not ${value}`);
}

interface SuiteResult {
  name: string;
  lines: string[];
  /** One line for the closing summary, when the suite has a headline figure. */
  summary?: string;
  met: boolean;
}

// `explicit`: left out of a run without filters (`npm run bench`); runs when a filter names it.
const suites: { id: string; explicit?: boolean; run(): Promise<SuiteResult> }[] = [
  ...routeCases.map((routeCase) => ({ id: routeCase.id, run: () => benchRoute(routeCase, routeBench) })),
  { id: "indexer", run: () => benchIndexerBackfill() },
  // BENCH_INDEXER_VOLUME_LOGS (default 1,000,000), BENCH_INDEXER_VOLUME_ROUNDS (default 1).
  { id: "indexer:volume", run: () => benchIndexerVolume() },
  // BENCH_TIP_RATE (default 10), BENCH_TIP_SECONDS (default 60), BENCH_TIP_WARMUP_SECONDS (default 20).
  { id: "indexer:tip", run: () => benchIndexerTip() },
  { id: "signatures", run: () => benchSignatures({ seconds: Number(seconds ?? 2) }) },
  ...accountCases.map(({ id, database }) => ({
    id,
    run: () => benchAccounts({ ...accountsBench, database }),
  })),
  // BENCH_SSE_CLIENTS: the clients held (default the 10,000 of the target).
  {
    id: "sse",
    run: () => benchSse({ clients: Number(process.env["BENCH_SSE_CLIENTS"] ?? 10_000) }),
  },
  // The soak (30 minutes by default): BENCH_SOAK_MINUTES, BENCH_SOAK_SAMPLE_SECONDS, BENCH_SOAK_STREAMS,
  // BENCH_SOAK_RPS, BENCH_SOAK_DEMO_RATE.
  {
    id: "soak",
    explicit: true,
    run: () =>
      benchSoak({
        minutes: Number(process.env["BENCH_SOAK_MINUTES"] ?? 30),
        sampleSeconds: Number(process.env["BENCH_SOAK_SAMPLE_SECONDS"] ?? 30),
        streams: Number(process.env["BENCH_SOAK_STREAMS"] ?? 300),
        readsPerSecond: Number(process.env["BENCH_SOAK_RPS"] ?? 100),
        demoRate: Number(process.env["BENCH_SOAK_DEMO_RATE"] ?? 10),
        chains: soakChains(process.env["BENCH_SOAK_CHAINS"]),
      }),
  },
  // The scale benchmark: one suite per surface of bench/scale/surfaces.ts.
  ...scaleSuites(SCALE_SURFACES, seconds !== undefined ? Number(seconds) : undefined).map((suite) => ({
    ...suite,
    explicit: true,
  })),
];

const filters = process.argv.slice(2);
const selected = suites.filter(({ id, explicit }) =>
  filters.length === 0 ? !explicit : filters.some((f) => (explicit ? id.startsWith(f) : id.includes(f))),
);
if (selected.length === 0) {
  process.stderr.write(
    `no benchmark matches ${filters.join(", ")}; known: ${suites.map((s) => s.id).join(", ")}\n`,
  );
  process.exit(2);
}

let allMet = true;
const summaries: string[] = [];
for (const suite of selected) {
  const result = await suite.run();
  process.stdout.write(`\n## ${result.name}\n${result.lines.join("\n")}\n`);
  if (result.summary) summaries.push(`${suite.id.padEnd(28)} ${result.summary}`);
  allMet &&= result.met;
}
if (summaries.length > 0) process.stdout.write(`\n## Summary\n${summaries.join("\n")}\n`);
process.stdout.write(`\n${allMet ? "all targets met" : "some targets NOT met"}\n`);
