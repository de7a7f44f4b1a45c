import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChainClients, dropFactoryAbi, readChainConfig } from "@mkt/chain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { onPostgres, setupDatabase, type TestDatabase } from "./_test/database.ts";

const main = new URL("./main.ts", import.meta.url).pathname;

/** Starts the real entry point on free ports and resolves with its printed URLs. */
async function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "mkt-main-"));
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: {
      ...process.env,
      PORT: "0",
      ADMIN_PORT: "0",
      DEVNET_PORT_8453: "0",
      DEVNET_PORT_4663: "0",
      MKT_DEMO: "0",
      MKT_DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", () => {
      if (stdout.includes("admin token")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  await ready;
  const url = /listening on\s+(\S+)/.exec(stdout)?.[1];
  const admin = /operator\s+(\S+)/.exec(stdout)?.[1];
  return { child, url: url!, admin: admin!, dataDir, output: () => ({ stdout, stderr }) };
}

describe("npm start entry point", () => {
  let child: ChildProcess | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    await database?.close();
    database = undefined;
  });

  it("serves, prints the generated admin token once outside the logs, and shuts down cleanly on SIGTERM", async () => {
    database = onPostgres ? await setupDatabase() : undefined;
    const started = await start({
      DATABASE_URL: database?.url ?? "memory://",
      ADMIN_TOKEN: "",
      PUBLIC_URL: "http://mkt.test",
    });
    child = started.child;
    // The dev chain's drops point their tokenURI and contractURI at this process's metadata routes.
    const [classic] = (await readChainConfig(join(started.dataDir, "chains.json"))).chains;
    expect(
      await createChainClients(classic!).publicClient.readContract({
        address: classic!.contracts["DropFactory"]!.address,
        abi: dropFactoryAbi,
        functionName: "metadataBaseURI",
      }),
    ).toBe("http://mkt.test/classic/metadata/");
    expect((await fetch(`${started.url}/readyz`)).status).toBe(200);
    const token = /admin token\s+(\S+)/.exec(started.output().stdout)?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const keys = await fetch(`${started.admin}/admin/keys`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(keys.status).toBe(200);
    const created = await fetch(`${started.url}/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "e2e", email: "a@example.com" }),
    });
    const { key } = (await created.json()) as { key: string };
    expect(
      (await fetch(`${started.url}/market/api-key?bucket=read`, { headers: { "api-key": key } })).status,
    ).toBe(204);
    // The dev chains, their deployment and the indexer came up with the server: the runtimes are
    // listed once the indexer has read the registry's RuntimeRegistered events.
    await vi.waitFor(
      async () => {
        const runtimes = (await (
          await fetch(`${started.url}/market/runtime`, { headers: { "api-key": key } })
        ).json()) as {
          runtimes: Array<{ id: string; chainId: number; current: boolean }>;
        };
        expect(runtimes.runtimes.map((r) => [r.id, r.chainId, r.current])).toEqual([
          ["r2", 8453, true],
          ["r1", 8453, false],
        ]);
      },
      { timeout: 30_000, interval: 200 },
    );
    const predict = (await (
      await fetch(`${started.url}/predict/v9/runtime`, { headers: { "api-key": key } })
    ).json()) as {
      enabled: boolean;
      publicEnabled: boolean;
      chainId: number;
    };
    expect(predict).toMatchObject({ enabled: true, publicEnabled: true, chainId: 4663 });
    // MKT_DEMO=0: no demo releases either.
    expect(started.output().stdout).toContain("demo activity   off");
    const releases = (await (
      await fetch(`${started.url}/market/releases`, { headers: { "api-key": key } })
    ).json()) as { releases: unknown[] };
    expect(releases.releases).toEqual([]);
    await vi.waitFor(
      async () => {
        const indexer = (await (
          await fetch(`${started.admin}/admin/indexer`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { scopes: Array<{ scope: string; failure: string; nextBlock: number }> };
        expect(indexer.scopes).toHaveLength(3);
        for (const scope of indexer.scopes) {
          expect(scope.failure).toBe("");
          expect(scope.nextBlock).toBeGreaterThan(1);
        }
      },
      { timeout: 20_000, interval: 200 },
    );

    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    const { stdout } = started.output();
    const logLines = stdout.split("\n").filter((line) => line.startsWith("{"));
    expect(logLines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    // The token appears once, in the banner, and in no log line; the key in none.
    expect(stdout.split(token!).length - 1).toBe(1);
    for (const line of logLines) {
      expect(line).not.toContain(token!);
      expect(line).not.toContain(key.slice(4));
    }
  }, 90_000);

  it("refuses a bad configuration with a clear message and exit code 2", async () => {
    const bad = spawn(process.execPath, ["--import", "tsx", main], {
      env: { ...process.env, PORT: "not-a-port", PUBLIC_READS: "sometimes", LOG_FORMAT: "yaml" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    bad.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(bad, "exit");
    expect(code).toBe(2);
    expect(stderr).toContain("PORT");
    expect(stderr).toContain("PUBLIC_READS");
    expect(stderr).toMatch(/LOG_FORMAT: .*"pretty"\|"json"/);
  });
});
