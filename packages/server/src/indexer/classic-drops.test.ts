import { liveBoosterDropAbi } from "@mkt/chain";
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  HttpRequestError,
  RpcRequestError,
} from "viem";
import { describe, expect, it } from "vitest";
import { createDropDescriptions, describeDrop } from "./classic-drops.ts";
import type { ReadContract } from "./projection.ts";

const dropAt = (n: number) => `0xd${n.toString(16).padStart(39, "0")}`;
const tokenOf = (drop: string) => `0x7${drop.slice(3)}`;

/** What a view of the stub chain answers: a value, or an error thrown at the caller. */
type Answer = unknown | { error: Error };

/**
 * A chain of drops as their views answer (`owner` overridable per drop), counting the calls; the
 * token of drop `0xd…` is `0x7…` with the same digits.
 */
function stubChain(answers: Record<string, Partial<Record<string, Answer>>> = {}) {
  const calls: string[] = [];
  const read = async ({ address, functionName }: { address: string; functionName: string }) => {
    calls.push(`${address}.${functionName}`);
    const isToken = address.startsWith("0x7");
    const drop = isToken ? `0xd${address.slice(3)}` : address;
    const n = BigInt(`0x${drop.slice(3)}`);
    const own = answers[address]?.[functionName];
    if (own !== undefined) {
      if (typeof own === "object" && own !== null && "error" in own) throw own.error;
      return own;
    }
    const views: Record<string, unknown> = isToken
      ? { name: `Tickets ${n}`, symbol: `T${n}` }
      : {
          name: `Booster ${n}`,
          symbol: `B${n}`,
          boosterTokenAddress: tokenOf(drop),
          tokensPerMint: 1000n * n,
          COMMON_OFFER: 1n,
          RARE_OFFER: 2n,
          EPIC_OFFER: 3n,
          LEGENDARY_OFFER: 4n,
          MYTHIC_OFFER: 5n * n,
          owner: `0x${"Ab".repeat(20)}`,
        };
    if (!(functionName in views)) throw new Error(`no view ${functionName}`);
    return views[functionName];
  };
  return { read: read as unknown as ReadContract, calls };
}

/** How viem reports a call the contract reverted (a function it does not have). */
const reverted = () =>
  new ContractFunctionExecutionError(
    new ContractFunctionRevertedError({
      abi: liveBoosterDropAbi,
      functionName: "owner",
      message: "reverted",
    }),
    { abi: liveBoosterDropAbi, functionName: "owner", contractAddress: dropAt(1) as `0x${string}` },
  );

describe("describeDrop", () => {
  it("reads the drop's and its token's views, addresses lowercase", async () => {
    const { read } = stubChain();
    expect(await describeDrop(read, dropAt(2))).toEqual({
      nftName: "Booster 2",
      nftSymbol: "B2",
      token: tokenOf(dropAt(2)),
      tokenName: "Tickets 2",
      tokenSymbol: "T2",
      tokensPerMint: 2000n,
      offers: [1n, 2n, 3n, 4n, 10n],
      owner: `0x${"ab".repeat(20)}`,
    });
  });

  it("describes a drop without an owner() view (the call reverts) with no owner", async () => {
    for (const error of [
      reverted(),
      new RpcRequestError({
        body: {},
        url: "http://rpc.test",
        error: { code: -32000, message: "execution reverted" },
      }),
    ]) {
      const { read } = stubChain({ [dropAt(1)]: { owner: { error } } });
      expect((await describeDrop(read, dropAt(1))).owner).toBeUndefined();
    }
  });

  it("fails, naming the drop, when the RPC cannot answer, even for the optional owner()", async () => {
    const unreachable = new HttpRequestError({ url: "http://rpc.test", details: "connection refused" });
    for (const view of ["owner", "tokensPerMint"]) {
      const { read } = stubChain({ [dropAt(3)]: { [view]: { error: unreachable } } });
      await expect(describeDrop(read, dropAt(3))).rejects.toThrow(
        `drop ${dropAt(3)}: HTTP request failed.: connection refused`,
      );
    }
  });
});

describe("createDropDescriptions", () => {
  it("reads each drop once, and forgets the least recently wanted beyond its bound, never one wanted now", async () => {
    const { read, calls } = stubChain();
    const descriptions = createDropDescriptions({ kept: 2, atOnce: 2 });
    await descriptions.describe(read, [dropAt(1), dropAt(2)]);
    const perDrop = calls.length / 2;
    expect(perDrop).toBe(12);
    await descriptions.describe(read, [dropAt(1)]);
    expect(calls.length).toBe(2 * perDrop);
    // Drop 1 was wanted after drop 2: drop 2 goes first.
    await descriptions.describe(read, [dropAt(3)]);
    expect(calls.length).toBe(3 * perDrop);
    expect([1, 2, 3].map((n) => descriptions.get(dropAt(n))?.nftName)).toEqual([
      "Booster 1",
      undefined,
      "Booster 3",
    ]);
    // Three wanted at once stay, whatever the bound: their logs are about to be applied.
    await descriptions.describe(read, [dropAt(1), dropAt(2), dropAt(3)]);
    expect([1, 2, 3].map((n) => descriptions.get(dropAt(n))?.nftName)).toEqual([
      "Booster 1",
      "Booster 2",
      "Booster 3",
    ]);
  });

  it("keeps what it read when a later drop cannot be described, and reads only the rest on the retry", async () => {
    const failing = stubChain({
      [dropAt(5)]: { name: { error: new HttpRequestError({ url: "http://rpc.test", details: "timeout" }) } },
    });
    const descriptions = createDropDescriptions({ atOnce: 1 });
    await expect(descriptions.describe(failing.read, [dropAt(4), dropAt(5)])).rejects.toThrow(
      `drop ${dropAt(5)}`,
    );
    expect(descriptions.get(dropAt(4))?.tokensPerMint).toBe(4000n);
    expect(descriptions.get(dropAt(5))).toBeUndefined();
    const healed = stubChain();
    await descriptions.describe(healed.read, [dropAt(4), dropAt(5)]);
    expect(healed.calls.every((call) => call.includes(dropAt(5).slice(3)))).toBe(true);
    expect(descriptions.get(dropAt(5))?.tokensPerMint).toBe(5000n);
  });
});
