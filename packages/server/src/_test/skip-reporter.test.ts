import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestModule } from "vitest/node";
import { POSTGRES_ONLY } from "./database.ts";
import { skippedTestLines } from "./skip-reporter.ts";

/** A module as the reporter sees it, with tests in the given states. */
function moduleOf(
  relativeModuleId: string,
  tests: Array<{ fullName: string; state: string; note?: string; mode?: string }>,
): TestModule {
  const cases = tests.map((test) => ({
    fullName: test.fullName,
    options: { mode: test.mode ?? (test.state === "skipped" ? "skip" : "run") },
    result: () => ({ state: test.state, note: test.note, errors: undefined }),
    state: test.state,
  }));
  return {
    relativeModuleId,
    children: {
      *allTests(state?: string) {
        for (const test of cases) if (state === undefined || test.state === state) yield test;
      },
    },
  } as unknown as TestModule;
}

describe("the skipped-tests report", () => {
  it("lists every skipped test with its file and its reason, and nothing else", () => {
    const lines = skippedTestLines([
      moduleOf("packages/server/src/db/database.test.ts", [
        { fullName: "database (PGlite) > opens", state: "passed" },
        { fullName: `several processes (skipped: ${POSTGRES_ONLY}) > race`, state: "skipped" },
      ]),
      moduleOf("packages/server/src/a.test.ts", [
        { fullName: "needs a chain", state: "skipped", note: "no RPC configured" },
        { fullName: "later", state: "skipped", mode: "todo" },
      ]),
    ]);
    expect(lines).toEqual([
      `↓ packages/server/src/db/database.test.ts > several processes (skipped: ${POSTGRES_ONLY}) > race`,
      "↓ packages/server/src/a.test.ts > needs a chain — no RPC configured",
      "↓ packages/server/src/a.test.ts > later — todo",
    ]);
  });

  it("leaves out the tests the run's name filter excluded", () => {
    const module = moduleOf("packages/server/src/a.test.ts", [
      { fullName: "first", state: "skipped" },
      { fullName: "second (skipped: why)", state: "skipped" },
    ]);
    expect(skippedTestLines([module], /second/)).toEqual([
      "↓ packages/server/src/a.test.ts > second (skipped: why)",
    ]);
  });

  it("every test file skips through postgresOnly or ctx.skip(reason), never a bare skip", () => {
    const root = join(import.meta.dirname, "../../..");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (file) => file.endsWith(".test.ts") && file.includes("/src/") && !file.includes("node_modules"),
    );
    expect(files.length).toBeGreaterThan(50);
    const bare = /\b(?:describe|it|test)\.(?:skip|skipIf|runIf|todo)\b|\.skip\(\s*\)/;
    const offenders = files.flatMap((file) =>
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .flatMap((line, index) =>
          bare.test(line) && !line.includes("bare.test")
            ? [`${relative(root, join(root, file))}:${index + 1}`]
            : [],
        ),
    );
    expect(offenders).toEqual([]);
  });
});
