import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { chromiumSkipReason, launchChromium } from "../_test/chromium.ts";
import { addressOf, insertGame, setHead } from "../_test/classic-packs.ts";
import { marketDeployment, seedRuntimes } from "../_test/market.ts";
import { installInNewProject, packSdk, REPO_ROOT, runCommand } from "../_test/sdk-package.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";

/** A classic game the fixture does not hold. */
const MISSING_GAME = addressOf(0xdead);

/**
 * What an integrator's code does with the packed SDK, the same in Node and in
 * the browser: creates a key, reads the market's runtimes and the classic
 * games, meets an error, and waits for the live stream's `ready` event.
 */
const EXERCISE = `import { createMktClient, MktApiError } from "@mkt/client";

export async function exercise(baseUrl) {
  const { key } = await createMktClient({ baseUrl }).keys.create({ description: "packed SDK", email: "sdk@example.com" });
  const mkt = createMktClient({ baseUrl, apiKey: key });
  const runtimes = await mkt.market.runtime.list();
  const { games } = await mkt.classic.games.list({ limit: 5 });
  const missing = await mkt.classic.games.get("${MISSING_GAME}").then(
    () => "found",
    (error) => ({ isMktApiError: error instanceof MktApiError, status: error.status, code: error.code }),
  );
  const ready = await new Promise((resolve, reject) => {
    const live = mkt.market.live.subscribe({
      onEvent: (event) => {
        if (event.event !== "ready") return;
        live.close();
        resolve(event.data);
      },
      onResync: () => {},
      onError: reject,
    });
    live.done.catch(reject);
  });
  return {
    key: key.startsWith("mkt_"),
    runtimes: runtimes.map((runtime) => [runtime.id, runtime.current]),
    games: games.map((game) => game.nftName),
    missing,
    ready: ready.resumed,
  };
}
`;

/** What `EXERCISE` answers against the test's server. */
const EXPECTED = {
  key: true,
  runtimes: [
    ["r2", true],
    ["r1", false],
  ],
  games: ["Beta", "Alpha"],
  missing: { isMktApiError: true, status: 404, code: "GAME_NOT_FOUND" },
  ready: false,
};

/** The first `js` code block of the package README's "Quick start" section. */
async function readmeQuickStart(): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, "packages/client/README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("Quick start"));
  const code = section?.match(/```js\n([\s\S]*?)```/)?.[1];
  if (!code) throw new Error("packages/client/README.md has no js block under ## Quick start");
  return code;
}

/**
 * The SDK as an integrator gets it: `npm pack` of @mkt/protocol and
 * @mkt/client, installed from the tarballs into an empty project outside the
 * workspace, called from plain Node and from a browser bundle against a live
 * server.
 */
describe("the packed SDK outside the workspace", () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  let project: string;

  beforeAll(async () => {
    t = await setupApp({ deployments: [marketDeployment()] });
    await seedRuntimes(t.db, marketDeployment());
    await insertGame(t.db, { drop: addressOf(0xa1), token: addressOf(0xa2), gameId: "1", nftName: "Alpha" });
    await insertGame(t.db, {
      drop: addressOf(0xb1),
      token: addressOf(0xb2),
      gameId: "2",
      nftName: "Beta",
      createdBlock: 2,
    });
    await setHead(t.db, 3);
    await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
    ({ publicUrl: baseUrl } = await t.app.listen());

    dir = await mkdtemp(join(tmpdir(), "mkt-sdk-package-"));
    const tarballs = await packSdk(dir);
    expect(tarballs.map((path) => path.slice(dir.length + 1))).toEqual([
      "mkt-protocol-0.1.0.tgz",
      "mkt-client-0.1.0.tgz",
    ]);
    project = join(dir, "project");
    await mkdir(project);
    await installInNewProject(project, tarballs);
    await writeFile(join(project, "exercise.mjs"), EXERCISE);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ships only the built JavaScript and declarations, with registry dependencies", async () => {
    const manifest = JSON.parse(
      await readFile(join(project, "node_modules/@mkt/client/package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(manifest["exports"]).toEqual({ ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } });
    // Registry dependencies only (no workspace link), as the workspace manifest declares them.
    const source = JSON.parse(
      await readFile(join(REPO_ROOT, "packages/client/package.json"), "utf8"),
    ) as Record<string, Record<string, string>>;
    expect(manifest["dependencies"]).toEqual(source["dependencies"]);
    expect(Object.keys(manifest["dependencies"] as object).sort()).toEqual([
      "@mkt/protocol",
      "eventsource-parser",
      "zod",
    ]);
    expect((manifest["dependencies"] as Record<string, string>)["@mkt/protocol"]).toBe("0.1.0");
    expect(manifest["peerDependencies"]).toEqual({ viem: source["peerDependencies"]?.["viem"] });
    // Each tarball holds its manifest, its README and its build: JavaScript and declarations only.
    for (const tarball of ["mkt-protocol-0.1.0.tgz", "mkt-client-0.1.0.tgz"]) {
      const { stdout } = await runCommand("tar", ["-tzf", join(dir, tarball)], { cwd: dir });
      const files = stdout.trim().split("\n");
      const unexpected = files.filter(
        (file) =>
          !/^package\/(?:dist\/(?:[\w-]+\/)*[\w-]+\.(?:js|d\.ts)|package\.json|README\.md)$/.test(file),
      );
      expect({ tarball, unexpected }).toEqual({ tarball, unexpected: [] });
      for (const file of ["package/dist/index.js", "package/dist/index.d.ts", "package/README.md"])
        expect(files).toContain(file);
    }
  });

  it("runs the README's quick start and the integrator's calls under plain node", async () => {
    await writeFile(join(project, "quick-start.mjs"), await readmeQuickStart());
    const quickStart = await runCommand(process.execPath, ["quick-start.mjs"], {
      cwd: project,
      env: { MKT_URL: baseUrl },
    });
    expect(quickStart.stdout).toBe("current runtime: r2\nclassic games: Beta, Alpha\n");

    await writeFile(
      join(project, "main.mjs"),
      `import { exercise } from "./exercise.mjs";\nconsole.log(JSON.stringify(await exercise(process.argv[2])));\n`,
    );
    const { stdout } = await runCommand(process.execPath, ["main.mjs", baseUrl], { cwd: project });
    expect(JSON.parse(stdout)).toEqual(EXPECTED);
  });

  it("types a TypeScript consumer through the packed declarations", async () => {
    await writeFile(
      join(project, "consumer.ts"),
      `import { createMktClient, MktApiError, type MarketRuntime, type MktClient } from "@mkt/client";

const mkt: MktClient = createMktClient({ baseUrl: "http://127.0.0.1:8080", apiKey: "mkt_…" });
const runtimes: MarketRuntime[] = await mkt.market.runtime.list();
const names: string[] = (await mkt.classic.games.list()).games.map((game) => game.nftName);
const tokenId: bigint | undefined = (await mkt.classic.packs.range({ contractAddress: "0x…" })).boosterBoxes[0]?.tokenId;
// @ts-expect-error a runtime has no such field: the declarations were found, the type is not any
runtimes[0]?.nope;
const code: string = new MktApiError({ status: 404, surface: "market", body: {} }).code;
console.log(names, tokenId, code);
`,
    );
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          lib: ["ES2023", "DOM"],
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    const tsc = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    const { stdout } = await runCommand(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project });
    expect(stdout).toBe("");
  });

  it("runs bundled for the browser in headless Chromium, calling the server from another origin", async (ctx) => {
    const skipReason = chromiumSkipReason();
    if (skipReason) ctx.skip(skipReason);
    const browser = await launchChromium();
    await writeFile(
      join(project, "page.mjs"),
      `import { exercise } from "./exercise.mjs";
const api = new URL(location.href).searchParams.get("api");
window.mktResult = exercise(api).then((value) => ({ value }), (error) => ({ error: String(error?.stack ?? error) }));
`,
    );
    const bundle = await build({
      absWorkingDir: project,
      entryPoints: ["page.mjs"],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "chrome120",
      write: false,
      logLevel: "silent",
    });
    // esbuild refuses a Node built-in for the browser platform; the run below proves the rest.
    const script = bundle.outputFiles[0]?.text ?? "";

    const pages: Server = createServer((request, response) => {
      if (request.url?.startsWith("/sdk.js")) {
        response.writeHead(200, { "content-type": "text/javascript" }).end(script);
        return;
      }
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(`<!doctype html><title>SDK</title><script src="/sdk.js"></script>`);
    });
    await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
    try {
      const page = await browser.newPage();
      const { port } = pages.address() as AddressInfo;
      // The page's origin (another port) is not the API's: every call is a CORS request.
      await page.goto(`http://127.0.0.1:${port}/?api=${encodeURIComponent(baseUrl)}`);
      const result = await page.evaluate("window.mktResult");
      expect(result).toEqual({ value: EXPECTED });
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => pages.close(() => resolve()));
    }
  });
});
