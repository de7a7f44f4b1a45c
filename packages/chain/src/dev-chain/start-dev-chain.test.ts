import { createPublicClient, http, parseEther } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { waitForBlockNumber } from "../_test/setup.ts";
import { DEV_ACCOUNT_COUNT, deriveDevAccounts } from "../accounts.ts";
import type { DevChain } from "./index.ts";
import { startDevChain } from "./index.ts";

const started: DevChain[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((chain) => chain.close()));
});

async function start(options: Parameters<typeof startDevChain>[0]): Promise<DevChain> {
  const chain = await startDevChain(options);
  started.push(chain);
  return chain;
}

function clientFor(chain: DevChain) {
  return createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 20, cacheTime: 0 });
}

describe("startDevChain", () => {
  it("serves the chain id on a random loopback port with the 20 mnemonic accounts funded", async () => {
    const chain = await start({ chainId: 4663, port: 0 });
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.rpcUrl).not.toMatch(/:0$/);
    const client = clientFor(chain);
    expect(await client.getChainId()).toBe(4663);
    const expected = deriveDevAccounts().map((account) => account.address);
    expect(chain.accounts).toEqual(expected);
    expect(expected).toHaveLength(DEV_ACCOUNT_COUNT);
    const balances = await Promise.all(expected.map((address) => client.getBalance({ address })));
    expect(balances.every((balance) => balance === parseEther("10000"))).toBe(true);
  });

  it("keeps mining blocks on its interval and mines a sent transaction at once", async () => {
    const chain = await start({ chainId: 8453, port: 0, intervalMs: 50 });
    const client = clientFor(chain);
    const startBlock = await client.getBlockNumber();
    expect(await waitForBlockNumber(client, startBlock + 3n)).toBeGreaterThanOrEqual(startBlock + 3n);

    const [from, to] = chain.accounts;
    const hash = (await chain.provider.request({
      method: "eth_sendTransaction",
      params: [{ from, to, value: "0x1" }],
    })) as `0x${string}`;
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
  });

  it("stops serving after close, and close can be called twice", async () => {
    const chain = await startDevChain({ chainId: 8453, port: 0 });
    await chain.close();
    await chain.close();
    await expect(fetch(chain.rpcUrl, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("reports a clear error when the port is taken", async () => {
    const first = await start({ chainId: 8453, port: 0 });
    const port = Number(new URL(first.rpcUrl).port);
    await expect(startDevChain({ chainId: 4663, port })).rejects.toThrow(`port ${port}`);
  });

  it("reverts to a snapshot, so a different block can take the same height (a reorg)", async () => {
    const chain = await start({ chainId: 8453, port: 0, intervalMs: 0 });
    const client = clientFor(chain);
    await chain.provider.request({ method: "evm_mine" });
    const base = await client.getBlock();
    const snapshot = await chain.provider.request({ method: "evm_snapshot" });

    const [from, to] = chain.accounts;
    await chain.provider.request({ method: "eth_sendTransaction", params: [{ from, to, value: "0x1" }] });
    await chain.provider.request({ method: "evm_mine" });
    const orphaned = await client.getBlock({ blockNumber: base.number + 1n });
    expect(orphaned.transactions).toHaveLength(1);
    expect(await client.getBlockNumber()).toBe(base.number + 2n);

    expect(await chain.provider.request({ method: "evm_revert", params: [snapshot] })).toBe(true);
    expect(await client.getBlockNumber()).toBe(base.number);
    await chain.provider.request({ method: "evm_mine" });
    const replacement = await client.getBlock({ blockNumber: base.number + 1n });
    expect(replacement.hash).not.toBe(orphaned.hash);
    expect(replacement.parentHash).toBe(base.hash);
    expect(replacement.transactions).toHaveLength(0);
  });

  it("rejects an invalid chain id before starting anything", async () => {
    await expect(startDevChain({ chainId: 0, port: 0 })).rejects.toThrow("invalid dev chain id");
  });
});
