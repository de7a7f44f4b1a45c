// `npm run bench`: every benchmark, each reported against a baseline measured in the same run.
// `npm run bench -- <filter> …` runs only the suites whose id contains one of the filters:
// `route` (every route suite), `api-key`, `runtime`, `releases`, `claims`, `classic`, `predict`, `trust-proxy`, `indexer`, `accounts`,
// `postgres`, `signatures`, `sse`, `soak` (only when named), `scale` (the scale suites `scale:market`,
// `scale:classic`, `scale:predict`, at SCALE, default 1: bench/scale/harness.ts), or a whole id such as
// `route:runtime:trust-proxy`. A suite marked explicit (the soak, the scale suites) is left out of a run
// without filters and runs only for a filter naming it from its start (`scale`, `scale:market`, `soak`):
// `classic` or `predict` alone do not load millions of rows.
//
// `npm run bench -- --smoke [<filter> …]` (or BENCH_SMOKE=1): the smoke run. Every suite, explicit ones
// included (or those the filters select), once at its smallest size (bench/suites.ts SMOKE_SIZES; the
// size variables are ignored), to check that it still runs and prints its figures; no target is
// judged. It exits 1 when a suite fails or is skipped.
//
// The suites, their sizes and variables: bench/suites.ts. The exit code is 1 when a suite fails to
// run (throws), whatever the mode; targets not met are reported, not an error.
import { benchSizes, runSuites, SMOKE_SIZES, SUITES, selectSuites } from "./suites.ts";

const args = process.argv.slice(2);
const smoke = args.includes("--smoke") || process.env["BENCH_SMOKE"] === "1";
const filters = args.filter((arg) => arg !== "--smoke");
const selected = selectSuites(SUITES, filters, { smoke });
if (selected.length === 0) {
  process.stderr.write(
    `no benchmark matches ${filters.join(", ")}; known: ${SUITES.map((s) => s.id).join(", ")}\n`,
  );
  process.exit(2);
}
if (smoke) {
  process.stdout.write(`smoke run of ${selected.length} suites: ${selected.map((s) => s.id).join(", ")}\n`);
}
const started = performance.now();
const outcome = await runSuites(selected, smoke ? SMOKE_SIZES : benchSizes(process.env), {
  smoke,
  write: (text) => process.stdout.write(text),
});
process.stdout.write(`total ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
// Exits even if a suite left a handle open (a socket, a timer): the run is over.
process.exit(outcome.exitCode);
