import { createPublicClient, http, parseEther } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
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

  it("tells onBlock listeners of every block mined, by a transaction or evm_mine, until they stop", async () => {
    const chain = await start({ chainId: 8453, port: 0, intervalMs: 0 });
    const seen: bigint[] = [];
    const stop = chain.onBlock((blockNumber) => seen.push(blockNumber));
    const client = clientFor(chain);
    const base = await client.getBlockNumber();
    const [from, to] = chain.accounts;
    await chain.provider.request({ method: "eth_sendTransaction", params: [{ from, to, value: "0x1" }] });
    await chain.provider.request({ method: "evm_mine" });
    await vi.waitFor(() => expect(seen).toEqual([base + 1n, base + 2n]));
    stop();
    await chain.provider.request({ method: "evm_mine" });
    expect(await client.getBlockNumber()).toBe(base + 3n);
    expect(seen).toEqual([base + 1n, base + 2n]);
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

  it("answers over HTTP as the in-process provider does: reads, batches, errors and bad JSON", async () => {
    const chain = await start({ chainId: 8453, port: 0, intervalMs: 0 });
    const [from, to] = chain.accounts;
    // A contract creation whose constructor emits one empty log (PUSH1 0 PUSH1 0 LOG0), then a transfer.
    await chain.provider.request({ method: "eth_sendTransaction", params: [{ from, data: "0x60006000a0" }] });
    await chain.provider.request({ method: "eth_sendTransaction", params: [{ from, to, value: "0x1" }] });
    const post = async (body: string) =>
      (
        await fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body })
      ).json();

    const reads = [
      { method: "eth_getLogs", params: [{ fromBlock: "0x0", toBlock: "latest" }] },
      { method: "eth_getBlockByNumber", params: ["latest", true] },
      { method: "eth_getBlockByNumber", params: ["0xffff", false] },
      { method: "eth_blockNumber", params: [] },
    ];
    const logs = (await chain.provider.request(reads[0]!)) as unknown[];
    expect(logs).toHaveLength(1);
    for (const [id, read] of reads.entries()) {
      expect(await post(JSON.stringify({ jsonrpc: "2.0", id, ...read }))).toEqual({
        jsonrpc: "2.0",
        id,
        result: await chain.provider.request(read),
      });
    }

    const batch = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "eth_chainId" },
        { jsonrpc: "2.0", id: "b", method: "eth_noSuchMethod", params: [] },
        { jsonrpc: "2.0", id: "c", method: "eth_getLogs", params: [{ fromBlock: "0x9", toBlock: "0x1" }] },
      ]),
    );
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: "a", result: "0x2105" },
      { jsonrpc: "2.0", id: "b", error: expect.objectContaining({ code: -32004 }) },
      { jsonrpc: "2.0", id: "c", result: [] },
    ]);
    expect(await post("{")).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
  });

  it("rejects an invalid chain id before starting anything", async () => {
    await expect(startDevChain({ chainId: 0, port: 0 })).rejects.toThrow("invalid dev chain id");
  });
});
