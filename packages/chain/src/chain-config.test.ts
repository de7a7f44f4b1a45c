import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getAddress } from "viem";
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

/** Base as the live Classic facts describe it: the creation contract and two drops listed by address. */
const NAUGHTY_ROBOTS = "0x9a978dc37923f4eb0796531d30c1e0602d966161";
const GEO_ART = "0xa2f5371bdebd577e1a059c3ddca02b0172f1f3ee";
const listed: ChainDeployment = {
  ...valid,
  contracts: { DropFactory: { address: "0x89078ABA782D14277325484960d576f6F38B4ea8", startBlock: 100 } },
  runtimes: [],
  classicDrops: [
    { address: getAddress(NAUGHTY_ROBOTS), startBlock: 200 },
    { address: getAddress(GEO_ART), startBlock: 0 },
  ],
};

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

  it("reads listed classic drops, checksummed, and leaves the field out when the file has none or an empty list", () => {
    const lower = {
      chains: [
        {
          ...listed,
          contracts: {
            DropFactory: { address: listed.contracts["DropFactory"]!.address.toLowerCase(), startBlock: 100 },
          },
          classicDrops: [
            { address: NAUGHTY_ROBOTS, startBlock: 200 },
            { address: GEO_ART, startBlock: 0 },
          ],
        },
      ],
    };
    const parsed = parseChainConfig(JSON.stringify(lower));
    expect(parsed).toEqual({ chains: [listed] });
    expect(parsed.chains[0]!.classicDrops!.map((drop) => drop.address)).toEqual([
      "0x9A978Dc37923F4eb0796531d30C1E0602d966161",
      "0xa2f5371bDEbD577e1a059C3Ddca02B0172f1f3Ee",
    ]);
    // Only drops, no factory: the classic role exists from the list alone.
    const dropsOnly = parseChainConfig({ chains: [{ ...listed, contracts: {} }] }).chains[0]!;
    expect(dropsOnly.contracts).toEqual({});
    expect(dropsOnly.classicDrops).toHaveLength(2);
    for (const chain of [valid, { ...valid, classicDrops: [] }]) {
      expect("classicDrops" in parseChainConfig({ chains: [chain] }).chains[0]!).toBe(false);
    }
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
      "classicDrops that is not a list",
      { chains: [{ ...listed, classicDrops: { address: GEO_ART, startBlock: 0 } }] },
      "$.chains[0].classicDrops: expected an array",
    ],
    [
      "a listed drop with a bad address",
      { chains: [{ ...listed, classicDrops: [{ address: "0x9a978dc3", startBlock: 0 }] }] },
      "$.chains[0].classicDrops[0].address: expected a 0x-prefixed 20-byte address",
    ],
    [
      "a listed drop with a fractional start block",
      { chains: [{ ...listed, classicDrops: [{ address: GEO_ART, startBlock: 1.5 }] }] },
      "$.chains[0].classicDrops[0].startBlock: expected an integer >= 0",
    ],
    [
      "a listed drop without a start block",
      { chains: [{ ...listed, classicDrops: [{ address: GEO_ART }] }] },
      "$.chains[0].classicDrops[0].startBlock: expected an integer >= 0",
    ],
    [
      "a listed drop with an unknown field",
      { chains: [{ ...listed, classicDrops: [{ address: GEO_ART, startBlock: 0, token: NAUGHTY_ROBOTS }] }] },
      "$.chains[0].classicDrops[0].token: unknown field",
    ],
    [
      "a drop listed twice (in another case)",
      {
        chains: [
          {
            ...listed,
            classicDrops: [
              { address: GEO_ART, startBlock: 0 },
              { address: NAUGHTY_ROBOTS, startBlock: 0 },
              { address: getAddress(GEO_ART), startBlock: 5 },
            ],
          },
        ],
      },
      "$.chains[0].classicDrops[2]: 0xa2f5371bDEbD577e1a059C3Ddca02B0172f1f3Ee is listed twice",
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

  it("writes listed drops, and leaves an empty list out so the file reads as before", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mkt-chain-"));
    try {
      const path = join(dir, "config.json");
      await writeChainConfig(path, [listed]);
      expect(await readChainConfig(path)).toEqual({ chains: [listed] });
      await writeChainConfig(path, [{ ...valid, classicDrops: [] }]);
      const written = JSON.parse(await readFile(path, "utf8")) as { chains: object[] };
      expect(Object.keys(written.chains[0]!)).toEqual([
        "chainId",
        "rpcUrl",
        "finalityDepth",
        "genesisHash",
        "contracts",
        "runtimes",
      ]);
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
