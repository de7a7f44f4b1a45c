import { defineConfig } from "vitest/config";
import { SkipReasonReporter } from "./packages/server/src/_test/skip-reporter.ts";

export default defineConfig({
  // The workspace packages resolve to their sources through the paths of tsconfig.base.json, never
  // to a build in their dist/ (which only `npm pack` needs).
  resolve: { tsconfigPaths: true },
  test: {
    // bench/ holds the tests of the benchmark runner (which suites a smoke run takes).
    include: ["packages/*/src/**/*.test.ts", "bench/**/*.test.ts"],
    globalSetup: ["packages/server/src/_test/global-setup.ts"],
    // The default report, then every skipped test with the reason it was skipped.
    reporters: ["default", new SkipReasonReporter()],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 10_000,
  },
});
