// `npm run bench`: every benchmark, each reported against a baseline measured in the same run.
// `npm run bench -- api-key` (or `indexer`, `accounts`) runs only the suites whose id contains an argument.
import { benchAccounts } from "./account.bench.ts";
import { benchApiKeyCheck } from "./api-key.bench.ts";
import { benchIndexerBackfill } from "./indexer.bench.ts";

const durationSeconds = Number(process.env["BENCH_SECONDS"] ?? 10);
// The API-key benchmark measures shorter loads, in more rounds (BENCH_ROUNDS).
const apiKeyBench = {
  durationSeconds: Number(process.env["BENCH_SECONDS"] ?? 5),
  rounds: Number(process.env["BENCH_ROUNDS"] ?? 7),
};
const suites = [
  { id: "api-key", run: () => benchApiKeyCheck(apiKeyBench) },
  { id: "indexer", run: () => benchIndexerBackfill() },
  { id: "accounts", run: () => benchAccounts({ durationSeconds, rounds: 3 }) },
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
for (const suite of selected) {
  const result = await suite.run();
  process.stdout.write(`\n## ${result.name}\n${result.lines.join("\n")}\n`);
  allMet &&= result.met;
}
process.stdout.write(`\n${allMet ? "all targets met" : "some targets NOT met"}\n`);
