// `npm run bench`: every benchmark, each reported against a baseline measured in the same run.
// `npm run bench -- <filter> …` runs only the suites whose id contains one of the filters:
// `route` (every route suite), `api-key`, `runtime`, `releases`, `claims`, `classic`, `predict`, `trust-proxy`, `indexer`, `accounts`,
// `postgres`, `signatures`, `sse`, `scale` (the scale suites `scale:market`, `scale:classic`,
// `scale:predict`, at SCALE, default 1: bench/scale/harness.ts), or a whole id such as
// `route:runtime:trust-proxy`. A scale suite runs only for a filter naming it from its start
// (`scale`, `scale:market`): `classic` or `predict` alone do not load millions of rows.
import { accountCases, benchAccounts } from "./account.bench.ts";
import { benchIndexerBackfill } from "./indexer.bench.ts";
import { benchRoute, routeCases } from "./routes.bench.ts";
import { scaleSuites } from "./scale/harness.ts";
import { SCALE_SURFACES } from "./scale/surfaces.ts";
import { benchSignatures } from "./signatures.bench.ts";
import { benchSse } from "./sse.bench.ts";

// BENCH_SECONDS: the measured seconds of each load; BENCH_ROUNDS: the rounds of the route and accounts suites.
const seconds = process.env["BENCH_SECONDS"];
const rounds = process.env["BENCH_ROUNDS"];
// The route suites measure shorter loads, in more rounds.
const routeBench = { durationSeconds: Number(seconds ?? 5), rounds: Number(rounds ?? 7) };
const accountsBench = { durationSeconds: Number(seconds ?? 10), rounds: Number(rounds ?? 3) };

interface SuiteResult {
  name: string;
  lines: string[];
  /** One line for the closing summary, when the suite has a headline figure. */
  summary?: string;
  met: boolean;
}

const suites: { id: string; run(): Promise<SuiteResult>; explicit?: boolean }[] = [
  ...routeCases.map((routeCase) => ({ id: routeCase.id, run: () => benchRoute(routeCase, routeBench) })),
  { id: "indexer", run: () => benchIndexerBackfill() },
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
  // The scale benchmark: one suite per surface of bench/scale/surfaces.ts.
  ...scaleSuites(SCALE_SURFACES, seconds !== undefined ? Number(seconds) : undefined).map((suite) => ({
    ...suite,
    explicit: true,
  })),
];

const filters = process.argv.slice(2);
const selected = suites.filter(
  ({ id, explicit }) =>
    filters.length === 0 || filters.some((f) => (explicit ? id.startsWith(f) : id.includes(f))),
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
