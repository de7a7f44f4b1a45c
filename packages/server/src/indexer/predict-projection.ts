import { marketAbi, marketFactoryAbi } from "@mkt/chain";
import { predictPointsOf } from "@mkt/protocol";
import type { Address } from "viem";
import type { FactoryRole } from "../chains/index.ts";
import {
  contractHandlers,
  dispatchByKind,
  type EventLog,
  type IndexedLog,
  lowercase,
  type Preload,
  type Projection,
  uintOf,
} from "./projection.ts";
import type { BatchStore, Row } from "./store.ts";

type MarketLog<N extends EventLog<typeof marketAbi>["event"]> = EventLog<typeof marketAbi, N>;

/** The wallet whose position a market's log moves: the buyer, the seller, the redeemer. */
function traderOf(log: EventLog<typeof marketAbi>): Address | undefined {
  switch (log.event) {
    case "Buy":
      return log.args.buyer;
    case "Sell":
      return log.args.seller;
    case "Redeemed":
      return log.args.owner;
    default:
      return undefined;
  }
}

/** Prediction feed: the market factory and every market it creates. */
export function predictProjection({ deployment, factory, scope: id }: FactoryRole): Projection {
  const chainId = deployment.chainId;
  const marketKey = (address: string) => ({ chain_id: chainId, address });
  const positionKey = (market: string, owner: Address) => ({
    chain_id: chainId,
    market,
    owner: lowercase(owner),
  });
  const traderKey = (trader: Address) => ({ chain_id: chainId, trader: lowercase(trader) });
  const atOf = (log: IndexedLog) => ({
    updated_block: log.blockNumber.toString(),
    updated_at: log.blockTime,
  });

  const factoryLogs = contractHandlers({
    abi: marketFactoryAbi,
    context: (_store, _log, contract) => contract,
    on: {
      MarketCreated(store, log) {
        const address = lowercase(log.args.market);
        const seed = log.args.seed.toString();
        store.put(
          "predict_markets",
          {
            scope: id,
            ...marketKey(address),
            market_id: log.args.marketId.toString(),
            creator: lowercase(log.args.creator),
            question: log.args.question,
            seed,
            fee_bps: Number(log.args.feeBps),
            yes_pool: seed,
            no_pool: seed,
            backing: seed,
            volume: "0",
            status: "active",
            outcome: null,
            paused: false,
            fees_accrued: "0",
            liquidity_collected: false,
            collected_shares: null,
            collected_fees: null,
            resolved_block: null,
            resolved_at: null,
            trade_count: 0,
            trade_seq: 0,
            created_block: log.blockNumber.toString(),
            created_at: log.blockTime,
            ...atOf(log),
          },
          log.blockNumber,
        );
      },
    },
    creates: (log) =>
      log.event === "MarketCreated" ? [{ address: lowercase(log.args.market), kind: "market" }] : [],
  });

  /** What a market's handlers share: its row (a log of a market the projection lacks changes nothing). */
  const marketContext = (store: BatchStore, log: IndexedLog) => {
    const market = store.get("predict_markets", marketKey(log.address));
    if (!market) return undefined;
    /** Records one trade of `trader` and moves their sums; returns its place among the market's trades. */
    const trade = (
      trader: Address,
      kind: "buy" | "sell" | "redeem",
      side: number | null,
      weth: bigint,
      fee: bigint,
      shares: bigint,
    ) => {
      // The trade's place among its market's trade rows; the caller puts the market with it.
      const seq = Number(market["trade_seq"]) + 1;
      store.append("predict_trades", {
        scope: id,
        chain_id: chainId,
        block_number: log.blockNumber.toString(),
        log_index: log.logIndex,
        transaction_hash: log.transactionHash,
        block_time: log.blockTime,
        market: log.address,
        trader: lowercase(trader),
        kind,
        side,
        weth: weth.toString(),
        fee: fee.toString(),
        shares: shares.toString(),
        market_seq: seq,
      });
      // The trader's sums and points, kept with the trade so no read sums a trader's trades.
      const key = traderKey(trader);
      const sums = store.get("predict_traders", key) ?? {
        scope: id,
        ...key,
        buy_weth: "0",
        sell_weth: "0",
        redeemed_weth: "0",
        trades: 0,
        points: "0",
      };
      const buyWeth = uintOf(sums, "buy_weth") + (kind === "buy" ? weth : 0n);
      const sellWeth = uintOf(sums, "sell_weth") + (kind === "sell" ? weth : 0n);
      const redeemedWeth = uintOf(sums, "redeemed_weth") + (kind === "redeem" ? weth : 0n);
      store.put(
        "predict_traders",
        {
          ...sums,
          buy_weth: buyWeth.toString(),
          sell_weth: sellWeth.toString(),
          redeemed_weth: redeemedWeth.toString(),
          trades: Number(sums["trades"]) + 1,
          points: predictPointsOf({ buyWeth, sellWeth, redeemedWeth }).toString(),
        },
        log.blockNumber,
      );
      return seq;
    };
    /** The trader's position in this market, or a new empty one. */
    const position = (trader: Address): Row => {
      const key = positionKey(log.address, trader);
      return (
        store.get("predict_positions", key) ?? {
          scope: id,
          ...key,
          yes_shares: "0",
          no_shares: "0",
          redeemed: "0",
          updated_block: "0",
        }
      );
    };
    return { market, trade, position, at: atOf(log) };
  };
  type MarketContext = NonNullable<ReturnType<typeof marketContext>>;

  const applyTrade = (store: BatchStore, log: MarketLog<"Buy" | "Sell">, context: MarketContext) => {
    const { market, trade, position, at } = context;
    const pools = { yes: uintOf(market, "yes_pool"), no: uintOf(market, "no_pool") };
    const { side, fee } = log.args;
    const own = side === 0 ? "yes" : "no";
    const other = side === 0 ? "no" : "yes";
    let backing = uintOf(market, "backing");
    let trader: Address;
    let weth: bigint;
    let shares: bigint;
    if (log.event === "Buy") {
      trader = log.args.buyer;
      weth = log.args.wethIn;
      shares = log.args.sharesOut;
      const invested = weth - fee;
      pools[own] = pools[own] + invested - shares;
      pools[other] = pools[other] + invested;
      backing += invested;
    } else {
      trader = log.args.seller;
      weth = log.args.wethOut;
      shares = log.args.sharesIn;
      const gross = weth + fee;
      pools[own] = pools[own] + shares - gross;
      pools[other] = pools[other] - gross;
      backing -= gross;
    }
    const seq = trade(trader, log.event === "Buy" ? "buy" : "sell", side, weth, fee, shares);
    const held = position(trader);
    const column = side === 0 ? "yes_shares" : "no_shares";
    const delta = log.event === "Buy" ? shares : -shares;
    store.put(
      "predict_positions",
      {
        ...held,
        [column]: (uintOf(held, column) + delta).toString(),
        updated_block: log.blockNumber.toString(),
      },
      log.blockNumber,
    );
    store.put(
      "predict_markets",
      {
        ...market,
        yes_pool: pools.yes.toString(),
        no_pool: pools.no.toString(),
        backing: backing.toString(),
        volume: (uintOf(market, "volume") + weth).toString(),
        fees_accrued: (uintOf(market, "fees_accrued") + fee).toString(),
        trade_count: Number(market["trade_count"]) + 1,
        trade_seq: seq,
        ...at,
      },
      log.blockNumber,
    );
  };

  /** The pause flag is the contract's own; a resolved market stays resolved whatever it is. */
  const applyPause = (store: BatchStore, log: MarketLog<"Paused" | "Unpaused">, context: MarketContext) => {
    const { market, at } = context;
    const paused = log.event === "Paused";
    const status = market["status"] === "resolved" ? "resolved" : paused ? "paused" : "active";
    store.put("predict_markets", { ...market, paused, status, ...at }, log.blockNumber);
  };

  const marketLogs = contractHandlers({
    abi: marketAbi,
    context: marketContext,
    on: {
      Buy: applyTrade,
      Sell: applyTrade,
      Paused: applyPause,
      Unpaused: applyPause,
      Resolved(store, log, { market, at }) {
        store.put(
          "predict_markets",
          {
            ...market,
            status: "resolved",
            outcome: Number(log.args.outcome),
            resolved_block: log.blockNumber.toString(),
            resolved_at: log.blockTime,
            ...at,
          },
          log.blockNumber,
        );
      },
      Redeemed(store, log, { market, trade, position, at }) {
        const { owner, payout } = log.args;
        const seq = trade(
          owner,
          "redeem",
          market["outcome"] === null ? null : Number(market["outcome"]),
          payout,
          0n,
          log.args.shares,
        );
        const held = position(owner);
        const column = Number(market["outcome"]) === 0 ? "yes_shares" : "no_shares";
        store.put(
          "predict_positions",
          {
            ...held,
            [column]: "0",
            redeemed: (uintOf(held, "redeemed") + payout).toString(),
            updated_block: log.blockNumber.toString(),
          },
          log.blockNumber,
        );
        store.put(
          "predict_markets",
          { ...market, backing: (uintOf(market, "backing") - payout).toString(), trade_seq: seq, ...at },
          log.blockNumber,
        );
      },
      LiquidityCollected(store, log, { market, at }) {
        const { shares } = log.args;
        store.put(
          "predict_markets",
          // The creator takes the pool's shares of the outcome: both pools are emptied.
          {
            ...market,
            yes_pool: "0",
            no_pool: "0",
            backing: (uintOf(market, "backing") - shares).toString(),
            fees_accrued: "0",
            liquidity_collected: true,
            collected_shares: shares.toString(),
            collected_fees: log.args.fees.toString(),
            ...at,
          },
          log.blockNumber,
        );
      },
    },
    preloads(log) {
      const preloads: Preload[] = [{ table: "predict_markets", key: marketKey(log.address) }];
      const trader = traderOf(log);
      if (trader !== undefined) {
        preloads.push({ table: "predict_positions", key: positionKey(log.address, trader) });
        preloads.push({ table: "predict_traders", key: traderKey(trader) });
      }
      return preloads;
    },
  });

  return {
    id,
    generation: "predict",
    chainId,
    startBlock: BigInt(factory.startBlock),
    finalityDepth: deployment.finalityDepth,
    // The feed serves a finalized projection, so a reorg never undoes what it served: nothing
    // above latest - depth is read.
    reads: "finalized",
    contracts: [{ address: factory.address.toLowerCase(), kind: "factory" }],
    ...dispatchByKind({ factory: factoryLogs, market: marketLogs }),
  };
}
