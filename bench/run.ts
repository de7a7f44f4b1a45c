// `npm run bench`: every benchmark, each reported against a baseline measured in the same run.
import { benchAccounts } from "./account.bench.ts";
import { benchApiKeyCheck } from "./api-key.bench.ts";
import { benchIndexerBackfill } from "./indexer.bench.ts";

const durationSeconds = Number(process.env["BENCH_SECONDS"] ?? 10);
const suites = [
  () => benchApiKeyCheck({ durationSeconds }),
  () => benchIndexerBackfill(),
  () => benchAccounts({ durationSeconds, rounds: 3 }),
];

let allMet = true;
for (const suite of suites) {
  const result = await suite();
  process.stdout.write(`\n## ${result.name}\n${result.lines.join("\n")}\n`);
  allMet &&= result.met;
}
process.stdout.write(`\n${allMet ? "all targets met" : "some targets NOT met"}\n`);
