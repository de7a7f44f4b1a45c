import { marketAbi, marketFactoryAbi, waitForSuccess, wethAbi } from "@mkt/chain";
import { type Address, type Hex, maxUint256, parseEther, parseEventLogs } from "viem";
import { expect, vi } from "vitest";
import { PREDICT_INDEXER_SOURCE } from "../predict/freshness.ts";
import type { TestApp } from "./app.ts";
import type { TestChain } from "./dev-chain.ts";

/**
 * Prediction-market transactions on a chain-4663 dev chain, as the demo
 * simulator sends them (packages/chain/src/simulator/predict-activity.ts),
 * and the indexing step the predict e2e tests drive by hand.
 */
export function predictTrading(chain: TestChain) {
  const { publicClient } = chain.clients;
  const factory = chain.deployment.contracts["MarketFactory"]!.address;
  const weth = chain.deployment.contracts["WETH"]!.address;
  const send = async (hash: Promise<Hex>) => waitForSuccess(publicClient, await hash);
  const funded = new Set<string>();

  /** Wraps plenty of WETH for `account` and approves `spender` once for all. */
  const fund = async (account: number, spender: Address) => {
    const wallet = chain.clients.wallet(account);
    if (!funded.has(String(account))) {
      await send(
        wallet.writeContract({
          address: weth,
          abi: wethAbi,
          functionName: "deposit",
          value: parseEther("1000"),
        }),
      );
      funded.add(String(account));
    }
    const key = `${account}:${spender.toLowerCase()}`;
    if (funded.has(key)) return;
    await send(
      wallet.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "approve",
        args: [spender, maxUint256],
      }),
    );
    funded.add(key);
  };

  return {
    factory,
    weth,
    fund,

    /** Creates a market as `account`; its address and id from the MarketCreated log. */
    async createMarket(account: number, question: string, seed: bigint, feeBps: bigint) {
      await fund(account, factory);
      const receipt = await send(
        chain.clients.wallet(account).writeContract({
          address: factory,
          abi: marketFactoryAbi,
          functionName: "createMarket",
          args: [question, seed, feeBps],
        }),
      );
      const [created] = parseEventLogs({
        abi: marketFactoryAbi,
        logs: receipt.logs,
        eventName: "MarketCreated",
      });
      return { address: created!.args.market.toLowerCase() as Address, marketId: created!.args.marketId };
    },

    /** `buy(side, amount, minSharesOut)` as `account`; the shares its Buy log reports and its block. */
    async buy(account: number, market: Address, side: 0 | 1, amount: bigint, minSharesOut = 0n) {
      await fund(account, market);
      const receipt = await send(
        chain.clients.wallet(account).writeContract({
          address: market,
          abi: marketAbi,
          functionName: "buy",
          args: [side, amount, minSharesOut],
        }),
      );
      const [bought] = parseEventLogs({ abi: marketAbi, logs: receipt.logs, eventName: "Buy" });
      return { sharesOut: bought!.args.sharesOut, blockNumber: receipt.blockNumber };
    },

    async operate(market: Address, functionName: "pause" | "unpause" | "resolve", outcome = 0) {
      const wallet = chain.clients.wallet(2);
      await send(
        functionName === "resolve"
          ? wallet.writeContract({ address: market, abi: marketAbi, functionName, args: [outcome] })
          : wallet.writeContract({ address: market, abi: marketAbi, functionName }),
      );
    },

    /** Every MarketCreated log up to `block`, as (id, address). */
    async createdUpTo(block: bigint) {
      const logs = await publicClient.getContractEvents({
        address: factory,
        abi: marketFactoryAbi,
        eventName: "MarketCreated",
        fromBlock: 0n,
        toBlock: block,
      });
      return logs.map((log) => ({ marketId: log.args.marketId!, address: log.args.market!.toLowerCase() }));
    },
  };
}

/**
 * Indexes the chain as the predict scope will once it reads finalized blocks
 * only: `finalityDepth` empty blocks are mined first, so the last block with
 * the test's transactions is final either way, then every scope syncs once
 * and the commit's NOTIFY has moved `indexer:predict` on this replica.
 */
export async function indexPredict(chain: TestChain, t: TestApp): Promise<void> {
  await chain.mine(chain.deployment.finalityDepth);
  const [counter] = t.app.services.revisions.counters([PREDICT_INDEXER_SOURCE]);
  const before = counter!.value;
  for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
  await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
}
