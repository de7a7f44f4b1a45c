import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChainDeployment } from "./chain-config.ts";
import { ChainConfigError, parseChainConfig, readChainConfig, writeChainConfig } from "./chain-config.ts";

const valid: ChainDeployment = {
  chainId: 8453,
  rpcUrl: "https://base.example/rpc",
  finalityDepth: 12,
  genesisHash: `0x${"ab".repeat(32)}`,
  contracts: { DropFactory: { address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", startBlock: 100 } },
  runtimes: [
    {
      id: "r2",
      version: 2,
      contracts: { ClaimDrops: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" },
      startBlock: 120,
    },
  ],
};

function problemOf(input: unknown): string {
  try {
    parseChainConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ChainConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the config to be rejected");
}

describe("parseChainConfig", () => {
  it("accepts a valid file and normalises addresses to checksum form", () => {
    const lower = {
      chains: [
        {
          ...valid,
          contracts: {
            DropFactory: { address: valid.contracts["DropFactory"]!.address.toLowerCase(), startBlock: 100 },
          },
        },
      ],
    };
    expect(parseChainConfig(JSON.stringify(lower))).toEqual({ chains: [valid] });
  });

  it.each([
    ["not json", "{", "at $: not JSON"],
    ["missing chains", {}, "at $.chains: expected an array"],
    [
      "a bad address",
      { chains: [{ ...valid, contracts: { DropFactory: { address: "0x123", startBlock: 1 } } }] },
      "$.chains[0].contracts.DropFactory.address",
    ],
    [
      "a negative start block",
      { chains: [{ ...valid, runtimes: [{ ...valid.runtimes[0], startBlock: -1 }] }] },
      "$.chains[0].runtimes[0].startBlock",
    ],
    [
      "a non-URL rpcUrl",
      { chains: [{ ...valid, rpcUrl: "localhost:8545" }] },
      "$.chains[0].rpcUrl: expected an http(s) or ws(s) URL",
    ],
    [
      "a misspelt field",
      { chains: [{ ...valid, finalitydepth: 3 }] },
      "$.chains[0].finalitydepth: unknown field",
    ],
    ["a short genesis hash", { chains: [{ ...valid, genesisHash: "0x12" }] }, "$.chains[0].genesisHash"],
    [
      "a runtime id with a slash",
      { chains: [{ ...valid, runtimes: [{ ...valid.runtimes[0], id: "a/b" }] }] },
      "$.chains[0].runtimes[0].id",
    ],
    ["a duplicate chain", { chains: [valid, valid] }, "chain 8453 appears twice"],
    [
      "a duplicate runtime",
      { chains: [{ ...valid, runtimes: [valid.runtimes[0], valid.runtimes[0]] }] },
      "duplicate runtime id r2",
    ],
    [
      "a chain id of 0",
      { chains: [{ ...valid, chainId: 0 }] },
      "$.chains[0].chainId: expected an integer >= 1",
    ],
  ])("rejects %s with the field's path", (_, input, expected) => {
    expect(problemOf(input)).toContain(expected);
  });
});

describe("writeChainConfig", () => {
  it("writes a file that reads back to the same deployments", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mkt-chain-"));
    try {
      const path = join(dir, "nested", "config.json");
      await writeChainConfig(path, [valid]);
      expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ chains: [valid] });
      expect(await readChainConfig(path)).toEqual({ chains: [valid] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses to write an invalid deployment", async () => {
    await expect(
      writeChainConfig("/nonexistent/never.json", [{ ...valid, finalityDepth: -1 }]),
    ).rejects.toThrow(ChainConfigError);
  });
});
