// `npm run bench`: every benchmark, each reported against a baseline measured in the same run.
// `npm run bench -- <filter> …` runs only the suites whose id contains one of the filters:
// `route` (every route suite), `api-key`, `runtime`, `releases`, `claims`, `classic`, `predict`, `trust-proxy`, `indexer`, `accounts`,
// `postgres`, `signatures`, `sse`, or a whole id such as `route:runtime:trust-proxy`.
import { accountCases, benchAccounts } from "./account.bench.ts";
import { benchIndexerBackfill, benchIndexerVolume } from "./indexer.bench.ts";
import { benchIndexerTip } from "./indexer-tip.bench.ts";
import { benchRoute, routeCases } from "./routes.bench.ts";
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

const suites: { id: string; run(): Promise<SuiteResult> }[] = [
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
];

const filters = process.argv.slice(2);
const selected = suites.filter(({ id }) => filters.length === 0 || filters.some((f) => id.includes(f)));
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
