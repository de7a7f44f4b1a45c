import type { Reporter, TestCase, TestModule, Vitest } from "vitest/node";

/** One line per test the code skipped: where it is, its full name, and why (its skip note, if any). */
export function skippedTestLines(modules: readonly TestModule[], filtered?: RegExp): string[] {
  const lines: string[] = [];
  for (const module of modules)
    for (const test of module.children.allTests("skipped")) {
      // A test the run's own name filter left out was not skipped by the code: not worth a line.
      if (filtered && !filtered.test(test.fullName)) continue;
      lines.push(`↓ ${module.relativeModuleId} > ${test.fullName}${reasonOf(test)}`);
    }
  return lines;
}

function reasonOf(test: TestCase): string {
  const result = test.result();
  if (result.state === "skipped" && result.note) return ` — ${result.note}`;
  if (test.options.mode === "todo") return " — todo";
  return "";
}

/**
 * Prints every skipped test with its reason at the end of a run, whatever the
 * main reporter shows (the default one prints only counts). Tests that run on
 * PostgreSQL only carry the reason in their name (`postgresOnly` in
 * `_test/database.ts`); a test skipped with `ctx.skip(note)` shows its note.
 */
export class SkipReasonReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: readonly TestModule[]) {
    const pattern = this.vitest?.config.testNamePattern;
    const lines = skippedTestLines(modules, pattern);
    if (lines.length === 0) return;
    const log = (line: string) => (this.vitest ? this.vitest.logger.log(line) : console.log(line));
    log(`\nSkipped tests (${lines.length}):`);
    for (const line of lines) log(`  ${line}`);
  }
}
