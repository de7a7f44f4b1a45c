import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SCALE_SURFACES } from "./scale/surfaces.ts";
import {
  type BenchSizes,
  benchSizes,
  runSuites,
  SMOKE_SIZES,
  SUITES,
  type Suite,
  type SuiteResult,
  selectSuites,
} from "./suites.ts";

const benchDir = fileURLToPath(new URL(".", import.meta.url));

describe("the smoke run", () => {
  it("takes every suite bench/run.ts knows, the explicit ones too", () => {
    const ids = SUITES.map((suite) => suite.id);
    expect(selectSuites(SUITES, [], { smoke: true }).map((suite) => suite.id)).toEqual(ids);
    // Without --smoke, the explicit suites stay out of a run without filters.
    const measured = selectSuites(SUITES, [], { smoke: false }).map((suite) => suite.id);
    expect(measured).not.toContain("soak");
    expect(measured).not.toContain("scale:market");
    expect(measured).toContain("indexer");
  });

  it("knows every suite module and every scale surface of bench/", () => {
    // A new bench/*.bench.ts must be registered in suites.ts, or no run (and no smoke run) takes it.
    const source = readFileSync(`${benchDir}suites.ts`, "utf8");
    const modules = readdirSync(benchDir).filter((name) => name.endsWith(".bench.ts"));
    expect(modules.length).toBeGreaterThan(0);
    for (const module of modules) expect(source, module).toContain(`from "./${module}"`);
    // A new bench/scale/<surface>.ts must be listed in scale/surfaces.ts (its suite is `scale:<id>`).
    const surfaces = readdirSync(`${benchDir}scale`)
      .filter((name) => name.endsWith(".ts") && !["harness.ts", "surface.ts", "surfaces.ts"].includes(name))
      .map((name) => name.slice(0, -3))
      .sort();
    expect(SCALE_SURFACES.map((surface) => surface.id).sort()).toEqual(surfaces);
    const ids = SUITES.map((suite) => suite.id);
    for (const surface of surfaces) expect(ids).toContain(`scale:${surface}`);
    for (const id of [
      "indexer",
      "indexer:volume",
      "indexer:tip",
      "signatures",
      "sse",
      "soak",
      "accounts:postgres",
    ])
      expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("runs at the smallest sizes, whatever the environment says", () => {
    expect(SMOKE_SIZES.scale.scale).toBe(0.01);
    expect(SMOKE_SIZES.route).toEqual({ durationSeconds: 1, rounds: 1, warmupSeconds: 0 });
    expect(SMOKE_SIZES.accounts).toEqual({ durationSeconds: 1, rounds: 1 });
    expect(SMOKE_SIZES.soak.minutes * 60).toBeLessThanOrEqual(10);
    expect(SMOKE_SIZES.indexerVolume.logs).toBeLessThanOrEqual(1_000);
    // The measuring sizes come from the environment; the smoke sizes are a constant.
    const full = benchSizes({ SCALE: "1", BENCH_SECONDS: "7", BENCH_INDEXER_VOLUME_LOGS: "5000" });
    expect(full.scale.scale).toBe(1);
    expect(full.route.durationSeconds).toBe(7);
    expect(full.indexerVolume.logs).toBe(5_000);
    expect(benchSizes({}).indexerVolume.logs).toBe(1_000_000);
  });
});

describe("runSuites", () => {
  const result = (over: Partial<SuiteResult> = {}): SuiteResult => ({
    name: "a suite",
    lines: ["figure 1"],
    summary: "42/s",
    met: true,
    ...over,
  });
  const suite = (id: string, run: () => Promise<SuiteResult>): Suite => ({ id, run });
  const run = async (suites: Suite[], smoke: boolean) => {
    let text = "";
    const seen: BenchSizes[] = [];
    const outcome = await runSuites(
      suites.map((s) => ({
        ...s,
        run: (sizes: BenchSizes) => {
          seen.push(sizes);
          return s.run(sizes);
        },
      })),
      SMOKE_SIZES,
      { smoke, write: (chunk) => (text += chunk) },
    );
    return { outcome, text, seen };
  };

  it("in a smoke run, prints every suite's figures and ignores targets not met", async () => {
    const { outcome, text, seen } = await run(
      [
        suite("a", async () => result({ met: false, lines: ["a's figure"] })),
        suite("b", async () => result()),
      ],
      true,
    );
    expect(outcome.exitCode).toBe(0);
    expect(text).toContain("a's figure");
    expect(text).toContain("2 of 2 suites ran");
    expect(text).not.toContain("NOT met");
    expect(text).toMatch(/^a +ran in \d+\.\d s$/m);
    expect(text).not.toContain("42/s");
    expect(seen).toEqual([SMOKE_SIZES, SMOKE_SIZES]);
  });

  it("fails when a suite throws, and still runs the others", async () => {
    const { outcome, text } = await run(
      [
        suite("broken", async () => {
          throw new Error("it decodes an event its ABI list lacks");
        }),
        suite("fine", async () => result({ lines: ["fine's figure"] })),
      ],
      true,
    );
    expect(outcome.exitCode).toBe(1);
    expect(outcome.failed).toEqual([
      { id: "broken", error: "Error: it decodes an event its ABI list lacks" },
    ]);
    expect(text).toContain("fine's figure");
    expect(text).toContain("FAILED: broken");
  });

  it("fails a smoke run that skips a suite, not a measuring run", async () => {
    const skipping = () => [suite("pg", async () => result({ skipped: "no PostgreSQL" }))];
    const smoke = await run(skipping(), true);
    expect(smoke.outcome.exitCode).toBe(1);
    expect(smoke.outcome.skipped).toEqual([{ id: "pg", reason: "no PostgreSQL" }]);
    expect(smoke.text).toContain("SKIPPED: pg");
    expect((await run(skipping(), false)).outcome.exitCode).toBe(0);
  });

  it("in a measuring run, reports targets not met without failing", async () => {
    const { outcome, text } = await run([suite("slow", async () => result({ met: false }))], false);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.allMet).toBe(false);
    expect(text).toContain("some targets NOT met");
  });
});
