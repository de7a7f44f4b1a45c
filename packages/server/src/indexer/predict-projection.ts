import { marketAbi, marketFactoryAbi } from "@mkt/chain";
import { predictPointsOf } from "@mkt/protocol";
import type { FactoryRole } from "../chains/index.ts";
import { big, type IndexedLog, lower, type Preload, type Projection, str } from "./projection.ts";

/** Prediction feed: the market factory and every market it creates. */
export function predictProjection({ deployment, factory, scope: id }: FactoryRole): Projection {
  const chainId = deployment.chainId;
  const marketKey = (address: string) => ({ chain_id: chainId, address });
  const positionKey = (market: string, owner: unknown) => ({
    chain_id: chainId,
    market,
    owner: lower(owner),
  });
  const traderKey = (trader: unknown) => ({ chain_id: chainId, trader: lower(trader) });
  const traderOf = (log: IndexedLog) => log.args["buyer"] ?? log.args["seller"] ?? log.args["owner"];
  return {
    id,
    generation: "predict",
    chainId,
    startBlock: BigInt(factory.startBlock),
    finalityDepth: deployment.finalityDepth,
    // The feed serves a finalized projection (issue 15): nothing above latest - depth is read.
    reads: "finalized",
    contracts: [{ address: factory.address.toLowerCase(), kind: "factory" }],
    abis: { factory: marketFactoryAbi, market: marketAbi },
    handles: {
      factory: ["MarketCreated"],
      market: ["Buy", "Sell", "Paused", "Unpaused", "Resolved", "Redeemed", "LiquidityCollected"],
    },
    creates: (log, contract) =>
      contract.kind === "factory" && log.event === "MarketCreated"
        ? [{ address: lower(log.args["market"]), kind: "market" }]
        : [],
    preloads(log, contract) {
      if (contract.kind !== "market") return [];
      const preloads: Preload[] = [{ table: "predict_markets", key: marketKey(log.address) }];
      const trader = traderOf(log);
      if (trader !== undefined) {
        preloads.push({ table: "predict_positions", key: positionKey(log.address, trader) });
        preloads.push({ table: "predict_traders", key: traderKey(trader) });
      }
      return preloads;
    },
    apply(store, log, contract) {
      const at = { updated_block: log.blockNumber.toString(), updated_at: log.blockTime };
      if (contract.kind === "factory") {
        if (log.event !== "MarketCreated") return;
        const address = lower(log.args["market"]);
        const seed = str(log.args["seed"]);
        store.put(
          "predict_markets",
          {
            scope: id,
            ...marketKey(address),
            market_id: str(log.args["marketId"]),
            creator: lower(log.args["creator"]),
            question: log.args["question"],
            seed,
            fee_bps: Number(log.args["feeBps"]),
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
            ...at,
          },
          log.blockNumber,
        );
        return;
      }
      const market = store.get("predict_markets", marketKey(log.address));
      if (!market) return;
      const trade = (
        kind: "buy" | "sell" | "redeem",
        side: number | null,
        weth: bigint,
        fee: bigint,
        shares: bigint,
      ) => {
        const trader = lower(traderOf(log));
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
          trader,
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
        const buyWeth = big(sums["buy_weth"]) + (kind === "buy" ? weth : 0n);
        const sellWeth = big(sums["sell_weth"]) + (kind === "sell" ? weth : 0n);
        const redeemedWeth = big(sums["redeemed_weth"]) + (kind === "redeem" ? weth : 0n);
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
      const position = () => {
        const key = positionKey(log.address, traderOf(log));
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
      const pools = { yes: big(market["yes_pool"]), no: big(market["no_pool"]) };
      switch (log.event) {
        case "Buy":
        case "Sell": {
          const side = Number(log.args["side"]);
          const fee = big(log.args["fee"]);
          const own = side === 0 ? "yes" : "no";
          const other = side === 0 ? "no" : "yes";
          let backing = big(market["backing"]);
          let weth: bigint;
          let shares: bigint;
          if (log.event === "Buy") {
            weth = big(log.args["wethIn"]);
            shares = big(log.args["sharesOut"]);
            const invested = weth - fee;
            pools[own] = pools[own] + invested - shares;
            pools[other] = pools[other] + invested;
            backing += invested;
          } else {
            weth = big(log.args["wethOut"]);
            shares = big(log.args["sharesIn"]);
            const gross = weth + fee;
            pools[own] = pools[own] + shares - gross;
            pools[other] = pools[other] - gross;
            backing -= gross;
          }
          const seq = trade(log.event === "Buy" ? "buy" : "sell", side, weth, fee, shares);
          const held = position();
          const column = side === 0 ? "yes_shares" : "no_shares";
          const delta = log.event === "Buy" ? shares : -shares;
          store.put(
            "predict_positions",
            {
              ...held,
              [column]: (big(held[column]) + delta).toString(),
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
              volume: (big(market["volume"]) + weth).toString(),
              fees_accrued: (big(market["fees_accrued"]) + fee).toString(),
              trade_count: Number(market["trade_count"]) + 1,
              trade_seq: seq,
              ...at,
            },
            log.blockNumber,
          );
          return;
        }
        case "Paused":
        case "Unpaused": {
          // The pause flag is the contract's own; a resolved market stays resolved whatever it is.
          const paused = log.event === "Paused";
          const status = market["status"] === "resolved" ? "resolved" : paused ? "paused" : "active";
          store.put("predict_markets", { ...market, paused, status, ...at }, log.blockNumber);
          return;
        }
        case "Resolved":
          store.put(
            "predict_markets",
            {
              ...market,
              status: "resolved",
              outcome: Number(log.args["outcome"]),
              resolved_block: log.blockNumber.toString(),
              resolved_at: log.blockTime,
              ...at,
            },
            log.blockNumber,
          );
          return;
        case "Redeemed": {
          const payout = big(log.args["payout"]);
          const seq = trade(
            "redeem",
            market["outcome"] === null ? null : Number(market["outcome"]),
            payout,
            0n,
            big(log.args["shares"]),
          );
          const held = position();
          const column = Number(market["outcome"]) === 0 ? "yes_shares" : "no_shares";
          store.put(
            "predict_positions",
            {
              ...held,
              [column]: "0",
              redeemed: (big(held["redeemed"]) + payout).toString(),
              updated_block: log.blockNumber.toString(),
            },
            log.blockNumber,
          );
          store.put(
            "predict_markets",
            { ...market, backing: (big(market["backing"]) - payout).toString(), trade_seq: seq, ...at },
            log.blockNumber,
          );
          return;
        }
        case "LiquidityCollected": {
          const shares = big(log.args["shares"]);
          store.put(
            "predict_markets",
            // The creator takes the pool's shares of the outcome: both pools are emptied.
            {
              ...market,
              yes_pool: "0",
              no_pool: "0",
              backing: (big(market["backing"]) - shares).toString(),
              fees_accrued: "0",
              liquidity_collected: true,
              collected_shares: shares.toString(),
              collected_fees: str(log.args["fees"]),
              ...at,
            },
            log.blockNumber,
          );
          return;
        }
        default:
          return;
      }
    },
  };
}
