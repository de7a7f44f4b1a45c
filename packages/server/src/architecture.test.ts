import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseOptions, type ICruiseResult } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { beforeAll, describe, expect, it } from "vitest";

// The import rules of .dependency-cruiser.cjs (run in CI as `npm run lint:deps`), checked on the
// real tree and on a small tree shaped like ours that breaks each rule once.

const root = fileURLToPath(new URL("../../../", import.meta.url));

let options: ICruiseOptions;
beforeAll(async () => {
  options = await extractDepcruiseOptions(join(root, ".dependency-cruiser.cjs"));
});

async function cruiseAt(baseDir: string, starts: string[]): Promise<ICruiseResult> {
  const { output } = await cruise(starts, { ...options, baseDir });
  if (typeof output === "string") throw new Error("dependency-cruiser answered text, expected a result");
  return output;
}

interface Breach {
  rule: string;
  from: string;
  to: string;
}

function sorted(breaches: Breach[]): Breach[] {
  const key = (b: Breach) => `${b.rule} ${b.from} ${b.to}`;
  return [...breaches].sort((a, b) => key(a).localeCompare(key(b)));
}

function violations(result: ICruiseResult): Breach[] {
  return sorted(result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to })));
}

/** Files of the miniature repository: the allowed shapes first, then one or more breaches of each rule. */
const SERVER = "packages/server/src";
const tree: Record<string, string> = {
  // Allowed: app.ts mounts the surfaces; surfaces get the shared services; modules use their own files
  // and each other's index.ts; tests of the shared layer and the test support may use the whole app.
  [`${SERVER}/app.ts`]: `import "./market/mount.ts";\nimport "./classic/mount.ts";\nimport "./identity/index.ts";`,
  [`${SERVER}/main.ts`]: `import "./app.ts";`,
  [`${SERVER}/shared-services.ts`]: `import "./identity/index.ts";\nimport "./live/index.ts";`,
  [`${SERVER}/market/mount.ts`]: `import "../shared-services.ts";\nimport "./routes.ts";`,
  [`${SERVER}/market/routes.ts`]: `import "../http/pipeline.ts";`,
  [`${SERVER}/classic/mount.ts`]: `import "../shared-services.ts";\nimport "../media/index.ts";`,
  [`${SERVER}/predict/routes.ts`]: ``,
  [`${SERVER}/platform/routes.ts`]: ``,
  [`${SERVER}/identity/index.ts`]: `export * from "./sessions.ts";`,
  [`${SERVER}/identity/sessions.ts`]: `import "./tokens.ts";\nimport "../live/index.ts";`,
  [`${SERVER}/identity/tokens.ts`]: ``,
  [`${SERVER}/live/index.ts`]: `import "./hub.ts";`,
  [`${SERVER}/live/hub.ts`]: ``,
  [`${SERVER}/media/index.ts`]: ``,
  [`${SERVER}/http/pipeline.ts`]: ``,
  [`${SERVER}/http/pipeline.test.ts`]: `import "../app.ts";\nimport "../_test/app.ts";\nimport "../market/routes.ts";`,
  [`${SERVER}/_test/app.ts`]: `import "../app.ts";`,
  [`${SERVER}/demo/index.ts`]: `import "../market/routes.ts";`,
  [`${SERVER}/e2e/flow.test.ts`]: `import "../demo/index.ts";\nimport "../predict/routes.ts";`,
  ["packages/protocol/src/index.ts"]: ``,
  ["packages/client/src/index.ts"]: `import "../../protocol/src/index.ts";`,
  ["bench/run.ts"]: `import "../packages/server/src/app.ts";\nimport "../packages/chain/src/index.ts";`,

  // Breaches.
  [`${SERVER}/classic/price.ts`]: `import "../market/routes.ts";`,
  [`${SERVER}/predict/gate.test.ts`]: `import "../platform/routes.ts";`,
  // A cycle made of type-only imports is a cycle too; it is reported once, at its first edge.
  [`${SERVER}/cache/a.ts`]: `import type { B } from "./b.ts";\nexport type A = B;`,
  [`${SERVER}/cache/b.ts`]: `import type { A } from "./a.ts";\nexport type B = A | number;`,
  [`${SERVER}/http/guard.ts`]: `import "../predict/routes.ts";\nimport "../app.ts";`,
  [`${SERVER}/quotas/limiter.ts`]: `import "../_test/app.ts";\nimport "../demo/index.ts";`,
  [`${SERVER}/market/profile.ts`]: `import "../identity/sessions.ts";`,
  [`${SERVER}/media/art.ts`]: `import "../identity/tokens.ts";`,
  ["bench/sse.ts"]: `import "../packages/server/src/live/hub.ts";`,
  ["packages/protocol/src/schemas.ts"]: `import "../../client/src/index.ts";`,
  ["packages/client/src/http.ts"]: `import "../../chain/src/index.ts";`,
  ["packages/chain/src/index.ts"]: `import "../../server/src/http/pipeline.ts";`,
  ["packages/cli/src/main.ts"]: `import "../../protocol/src/index.ts";\nimport "../../server/src/_test/app.ts";`,
};

const expected: Breach[] = [
  { rule: "chain-imports-no-server", from: "packages/chain/src/index.ts", to: `${SERVER}/http/pipeline.ts` },
  { rule: "cli-imports-only-protocol", from: "packages/cli/src/main.ts", to: `${SERVER}/_test/app.ts` },
  {
    rule: "client-imports-only-protocol",
    from: "packages/client/src/http.ts",
    to: "packages/chain/src/index.ts",
  },
  { rule: "no-circular", from: `${SERVER}/cache/a.ts`, to: `${SERVER}/cache/b.ts` },
  {
    rule: "protocol-imports-no-workspace-package",
    from: "packages/protocol/src/schemas.ts",
    to: "packages/client/src/index.ts",
  },
  { rule: "shared-below-surfaces", from: `${SERVER}/http/guard.ts`, to: `${SERVER}/app.ts` },
  { rule: "shared-below-surfaces", from: `${SERVER}/http/guard.ts`, to: `${SERVER}/predict/routes.ts` },
  { rule: "shared-below-surfaces", from: `${SERVER}/quotas/limiter.ts`, to: `${SERVER}/_test/app.ts` },
  { rule: "shared-below-surfaces", from: `${SERVER}/quotas/limiter.ts`, to: `${SERVER}/demo/index.ts` },
  { rule: "shared-module-public-surface", from: "bench/sse.ts", to: `${SERVER}/live/hub.ts` },
  {
    rule: "shared-module-public-surface",
    from: `${SERVER}/market/profile.ts`,
    to: `${SERVER}/identity/sessions.ts`,
  },
  {
    rule: "shared-module-public-surface",
    from: `${SERVER}/media/art.ts`,
    to: `${SERVER}/identity/tokens.ts`,
  },
  { rule: "surfaces-are-independent", from: `${SERVER}/classic/price.ts`, to: `${SERVER}/market/routes.ts` },
  {
    rule: "surfaces-are-independent",
    from: `${SERVER}/predict/gate.test.ts`,
    to: `${SERVER}/platform/routes.ts`,
  },
];

describe("import rules (.dependency-cruiser.cjs)", () => {
  it("holds on the repository", async () => {
    const result = await cruiseAt(root, ["packages", "bench"]);
    expect(violations(result)).toEqual([]);
    // Workspace packages resolve to their sources under packages/, so the package rules see them.
    const client = result.modules.find((m) => m.source === "packages/client/src/index.ts");
    const protocol = client?.dependencies.find((d) => d.module === "@mkt/protocol");
    expect(protocol?.resolved).toBe("packages/protocol/src/index.ts");
    expect(result.modules.filter((m) => m.couldNotResolve).map((m) => m.source)).toEqual([]);
  });

  it("catches a breach of every rule, with the rule's name, and nothing else", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mkt-architecture-"));
    try {
      for (const [path, text] of Object.entries(tree)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), `${text}\nexport {};\n`);
      }
      const result = await cruiseAt(dir, ["packages", "bench"]);
      expect(violations(result)).toEqual(sorted(expected));
      // Every rule of the configuration is exercised above, so a new rule needs a case here.
      const ruleNames = (options.ruleSet?.forbidden ?? []).map((rule) => rule.name);
      expect(new Set(ruleNames)).toEqual(new Set(expected.map((v) => v.rule)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
