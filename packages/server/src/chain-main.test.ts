import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readChainConfig } from "@mkt/chain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { onPostgres, setupDatabase, type TestDatabase } from "./_test/database.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const chainMain = fileURLToPath(new URL("./chain-main.ts", import.meta.url));
const serverMain = fileURLToPath(new URL("./main.ts", import.meta.url));
const cliMain = join(root, "packages", "cli", "src", "main.ts");
const ADMIN_TOKEN = "chain-test-admin-token-0123456789";

/** A child process of the checkout with its output collected; `until` waits for a line of its stdout. */
function run(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: root,
    env: { ...process.env, LOG_FORMAT: "json", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => {
    output.stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output.stderr += chunk;
  });
  const until = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output.stdout);
        if (match) {
          child.stdout.off("data", check);
          resolve(match);
        }
      };
      child.stdout.on("data", check);
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${output.stderr}${output.stdout}`)));
      check();
    });
  return { child, output, until };
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}

const devChainEnv = (dataDir: string) => ({
  DEVNET_PORT_8453: "0",
  DEVNET_PORT_4663: "0",
  MKT_DEMO: "0",
  MKT_DATA_DIR: dataDir,
});

describe("the standalone dev chain (npm run chain, mkt chain)", () => {
  const children: ChildProcess[] = [];
  let database: TestDatabase | undefined;
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    await database?.close();
    database = undefined;
  });

  it("runs the dev chains with the reference contracts, writes chains.json, a replica follows it through MKT_CONFIG, and both stop cleanly", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mkt-chain-"));
    const chain = run([chainMain], devChainEnv(dataDir));
    children.push(chain.child);
    const [, configPath] = await chain.until(/chain config\s+(\S+)\n/);
    await chain.until(/replicas\s+MKT_CONFIG=\S+ ETH_USD_PRICE=3000 npm start\n/);
    expect(configPath).toBe(join(dataDir, "chains.json"));
    const { chains } = await readChainConfig(configPath!);
    expect(chains.map((described) => described.chainId)).toEqual([8453, 4663]);
    for (const described of chains) {
      // The banner names the same RPC URL the file does.
      expect(chain.output.stdout).toContain(`chain ${described.chainId}      dev chain ${described.rpcUrl}`);
      expect(await rpc(described.rpcUrl, "eth_chainId")).toBe(`0x${described.chainId.toString(16)}`);
      expect(Object.keys(described.contracts).length).toBeGreaterThan(0);
      for (const [name, contract] of Object.entries(described.contracts)) {
        const code = (await rpc(described.rpcUrl, "eth_getCode", [contract.address, "latest"])) as string;
        expect({ name, deployed: code.length > 2 }).toEqual({ name, deployed: true });
      }
    }
    expect(Object.keys(chains[0]!.contracts)).toEqual(expect.arrayContaining(["DropFactory"]));
    expect(Object.keys(chains[1]!.contracts)).toEqual(expect.arrayContaining(["MarketFactory"]));

    // A replica started with MKT_CONFIG follows those chains, and says loudly it has no ETH/USD price.
    database = onPostgres ? await setupDatabase() : undefined;
    const replica = run([serverMain], {
      DATABASE_URL: database?.url ?? "memory://",
      PORT: "0",
      ADMIN_PORT: "0",
      ADMIN_TOKEN,
      MKT_CONFIG: configPath!,
      MKT_DATA_DIR: mkdtempSync(join(tmpdir(), "mkt-replica-")),
    });
    children.push(replica.child);
    const [, admin] = await replica.until(/operator\s+(\S+)/);
    await replica.until(/admin token/);
    expect(replica.output.stdout).toContain(
      "ETH/USD price   NONE: priced classic routes answer 503 PRICE_UNAVAILABLE",
    );
    // The warning goes through the logger (its own stream), possibly after the banner.
    await vi.waitFor(
      () =>
        expect(replica.output.stdout).toMatch(
          /"level":40,[^\n]*no ETH\/USD price source[^\n]*ETH_USD_PRICE_URL/,
        ),
      { timeout: 5_000, interval: 50 },
    );
    const indexer = async () =>
      (await (
        await fetch(`${admin}/admin/indexer`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).json()) as {
        scopes: Array<{ scope: string; chainId: number; nextBlock: number; failure: string }>;
      };
    await vi.waitFor(
      async () => {
        const { scopes } = await indexer();
        expect(new Set(scopes.map((scope) => scope.chainId))).toEqual(new Set([8453, 4663]));
        for (const scope of scopes) expect(scope.failure).toBe("");
      },
      { timeout: 30_000, interval: 200 },
    );
    // The scopes advance with the chain: a block mined on the standalone chain is indexed.
    const classic = chains[0]!;
    await rpc(classic.rpcUrl, "evm_mine");
    const mined = Number(BigInt((await rpc(classic.rpcUrl, "eth_blockNumber")) as string));
    await vi.waitFor(
      async () => {
        const { scopes } = await indexer();
        const onClassicChain = scopes.filter((scope) => scope.chainId === 8453);
        expect(onClassicChain.length).toBeGreaterThan(0);
        for (const scope of onClassicChain) expect(scope.nextBlock).toBeGreaterThan(mined);
      },
      { timeout: 30_000, interval: 200 },
    );

    replica.child.kill("SIGTERM");
    expect((await once(replica.child, "exit"))[0]).toBe(0);
    chain.child.kill("SIGINT");
    expect((await once(chain.child, "exit"))[0]).toBe(0);
    expect(chain.output.stdout).toMatch(/"msg":"stopped"/);
    // The chain's ports are free again: nothing answers there.
    await expect(rpc(classic.rpcUrl, "eth_chainId")).rejects.toThrow();
  }, 120_000);

  it("mkt chain --json prints where the chains are, once they run, and stops on SIGINT", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mkt-chain-cli-"));
    const cli = run([cliMain, "chain", "--json"], devChainEnv(dataDir));
    children.push(cli.child);
    await cli.until(/\n}\n/);
    const announced = JSON.parse(cli.output.stdout) as {
      config: string;
      chains: { chainId: number; rpcUrl: string }[];
    };
    expect(announced.config).toBe(join(dataDir, "chains.json"));
    const { chains } = await readChainConfig(announced.config);
    expect(announced.chains).toEqual(chains.map(({ chainId, rpcUrl }) => ({ chainId, rpcUrl })));
    for (const { chainId, rpcUrl } of announced.chains)
      expect(await rpc(rpcUrl, "eth_chainId")).toBe(`0x${chainId.toString(16)}`);
    // The banner and the logs went to standard error: standard output holds the one document.
    expect(cli.output.stderr).toContain("mkt dev chains are running");
    cli.child.kill("SIGINT");
    expect((await once(cli.child, "exit"))[0]).toBe(0);
    await expect(rpc(announced.chains[0]!.rpcUrl, "eth_chainId")).rejects.toThrow();
  }, 90_000);

  it("refuses RPC_URL_* and MKT_CONFIG: it only ever starts dev chains", async () => {
    const refused = run([chainMain], {
      ...devChainEnv(mkdtempSync(join(tmpdir(), "mkt-chain-bad-"))),
      RPC_URL_8453: "https://rpc.example/key",
      MKT_CONFIG: "/etc/chains.json",
    });
    children.push(refused.child);
    const [code] = await once(refused.child, "exit");
    expect(code).toBe(2);
    expect(refused.output.stderr).toContain("RPC_URL_8453 and MKT_CONFIG are set");
  });
});
