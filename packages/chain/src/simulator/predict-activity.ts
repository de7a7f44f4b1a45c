import type { Address } from "viem";
import { getAddress, maxUint256, parseEther, parseEventLogs } from "viem";
import { DEV_ACCOUNT_ROLES } from "../accounts.ts";
import { marketAbi, marketFactoryAbi, wethAbi } from "../generated/abis.ts";
import type { Side } from "../predict-math.ts";
import { maxSellReturn, quoteSell, SIDE } from "../predict-math.ts";
import type { ActionChoice, ActionReport, Activity, SimulationContext } from "./context.ts";
import { addressOf } from "./context.ts";

interface MarketState {
  address: Address;
  marketId: bigint;
  feeBps: bigint;
  creator: Address;
  paused: boolean;
  resolved: boolean;
  collected: boolean;
  trades: number;
  holders: Set<number>;
}

const MAX_OPEN_MARKETS = 5;
/** Trades a market sees before the operator may resolve it, so markets live long enough to watch. */
const TRADES_BEFORE_RESOLUTION = 8;
const SUBJECTS = [
  "the next block",
  "the demo chain",
  "a Mythic pack",
  "the sample token",
  "block 10000",
] as const;
const PREDICATES = [
  "be mined before noon",
  "graduate this week",
  "be sold back",
  "reach 1 ETH",
  "see a reorg",
] as const;

/** Prediction-feed traffic: markets created and seeded, YES/NO trades, operator pause, resolution and
 * redemption, and WETH wrapping. */
export function createPredictActivity(context: SimulationContext, factory: Address, weth: Address): Activity {
  const { clients, prng, users } = context;
  const { publicClient } = clients;
  const operator = DEV_ACCOUNT_ROLES.marketOperator;
  const markets: MarketState[] = [];

  async function loadMarket(marketId: bigint): Promise<MarketState> {
    const address = await publicClient.readContract({
      address: factory,
      abi: marketFactoryAbi,
      functionName: "markets",
      args: [marketId],
    });
    const read = { address, abi: marketAbi } as const;
    const [feeBps, creator, paused, resolved, collected] = await Promise.all([
      publicClient.readContract({ ...read, functionName: "feeBps" }),
      publicClient.readContract({ ...read, functionName: "creator" }),
      publicClient.readContract({ ...read, functionName: "paused" }),
      publicClient.readContract({ ...read, functionName: "resolved" }),
      publicClient.readContract({ ...read, functionName: "liquidityCollected" }),
    ]);
    return { address, marketId, feeBps, creator, paused, resolved, collected, trades: 0, holders: new Set() };
  }

  /** Wraps and approves just enough for the next transfer; WETH and approvals are onchain state. */
  async function ensureWeth(index: number, amount: bigint, spender: Address): Promise<void> {
    const owner = addressOf(context, index);
    const wallet = clients.wallet(index);
    const balance = await publicClient.readContract({
      address: weth,
      abi: wethAbi,
      functionName: "balanceOf",
      args: [owner],
    });
    if (balance < amount) {
      const value = amount - balance + parseEther("1");
      await context.send(
        wallet.writeContract({ address: weth, abi: wethAbi, functionName: "deposit", value }),
      );
    }
    const allowance = await publicClient.readContract({
      address: weth,
      abi: wethAbi,
      functionName: "allowance",
      args: [owner, spender],
    });
    if (allowance < amount) {
      await context.send(
        wallet.writeContract({
          address: weth,
          abi: wethAbi,
          functionName: "approve",
          args: [spender, maxUint256],
        }),
      );
    }
  }

  const open = () => markets.filter((m) => !m.resolved);
  const trading = () => markets.filter((m) => !m.resolved && !m.paused);

  async function createMarket(): Promise<ActionReport> {
    const creatorIndex = prng.pick([DEV_ACCOUNT_ROLES.deployer, ...users]);
    const seed = parseEther(prng.pick(["0.5", "1", "2", "5"]));
    const feeBps = BigInt(prng.pick([0, 100, 200, 300]));
    const question = `Will ${prng.pick(SUBJECTS)} ${prng.pick(PREDICATES)}?`;
    await ensureWeth(creatorIndex, seed, factory);
    const receipt = await context.send(
      clients.wallet(creatorIndex).writeContract({
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
    if (created === undefined) throw new Error("createMarket emitted no MarketCreated event");
    markets.push(await loadMarket(created.args.marketId));
    return { action: "createMarket", marketId: created.args.marketId.toString(), creator: creatorIndex };
  }

  async function buy(): Promise<ActionReport> {
    const market = prng.pick(trading());
    const buyer = prng.pick(users);
    const side = prng.int(0, 1) as Side;
    const wethIn = parseEther(prng.pick(["0.005", "0.02", "0.05", "0.1", "0.25"]));
    await ensureWeth(buyer, wethIn, market.address);
    const read = { address: market.address, abi: marketAbi } as const;
    const quote = await publicClient.readContract({
      ...read,
      functionName: "calcBuyAmount",
      args: [side, wethIn],
    });
    await context.send(
      clients
        .wallet(buyer)
        .writeContract({ ...read, functionName: "buy", args: [side, wethIn, (quote * 99n) / 100n] }),
    );
    market.trades++;
    market.holders.add(buyer);
    return { action: "buy", marketId: market.marketId.toString(), buyer, side, wethIn: wethIn.toString() };
  }

  async function sell(): Promise<ActionReport> {
    const market = prng.pick(trading().filter((m) => m.holders.size > 0));
    const seller = prng.pick([...market.holders]);
    const read = { address: market.address, abi: marketAbi } as const;
    const [[yes, no], poolYes, poolNo] = await Promise.all([
      publicClient.readContract({ ...read, functionName: "sharesOf", args: [addressOf(context, seller)] }),
      publicClient.readContract({ ...read, functionName: "poolBalances", args: [0n] }),
      publicClient.readContract({ ...read, functionName: "poolBalances", args: [1n] }),
    ]);
    const side: Side = yes === 0n ? SIDE.no : no === 0n ? SIDE.yes : (prng.int(0, 1) as Side);
    const held = side === SIDE.yes ? yes : no;
    const pool = { yes: poolYes, no: poolNo };
    const wethOut = (maxSellReturn(pool, side, held, market.feeBps) * BigInt(prng.int(30, 90))) / 100n;
    if (wethOut === 0n) {
      market.holders.delete(seller);
      return { action: "sell", skipped: true };
    }
    const { sharesIn } = quoteSell(pool, side, wethOut, market.feeBps);
    await context.send(
      clients
        .wallet(seller)
        .writeContract({ ...read, functionName: "sell", args: [side, wethOut, sharesIn] }),
    );
    market.trades++;
    return {
      action: "sell",
      marketId: market.marketId.toString(),
      seller,
      side,
      wethOut: wethOut.toString(),
    };
  }

  const pausable = () => trading().filter((m) => m.trades >= 2);
  const paused = () => open().filter((m) => m.paused);

  async function setPaused(candidates: MarketState[], pause: boolean): Promise<ActionReport> {
    const market = prng.pick(candidates);
    const functionName = pause ? "pause" : "unpause";
    await context.send(
      clients.wallet(operator).writeContract({ address: market.address, abi: marketAbi, functionName }),
    );
    market.paused = pause;
    return { action: functionName, marketId: market.marketId.toString() };
  }

  async function resolve(): Promise<ActionReport> {
    const market = prng.pick(open().filter((m) => m.trades >= TRADES_BEFORE_RESOLUTION));
    const outcome = prng.int(0, 1);
    await context.send(
      clients.wallet(operator).writeContract({
        address: market.address,
        abi: marketAbi,
        functionName: "resolve",
        args: [outcome],
      }),
    );
    market.resolved = true;
    return { action: "resolve", marketId: market.marketId.toString(), outcome };
  }

  async function redeem(): Promise<ActionReport> {
    const market = prng.pick(markets.filter((m) => m.resolved && m.holders.size > 0));
    const holder = prng.pick([...market.holders]);
    market.holders.delete(holder);
    const read = { address: market.address, abi: marketAbi } as const;
    const [[yes, no], outcome] = await Promise.all([
      publicClient.readContract({ ...read, functionName: "sharesOf", args: [addressOf(context, holder)] }),
      publicClient.readContract({ ...read, functionName: "outcome" }),
    ]);
    if ((outcome === SIDE.yes ? yes : no) === 0n) return { action: "redeem", skipped: true };
    await context.send(clients.wallet(holder).writeContract({ ...read, functionName: "redeem" }));
    return { action: "redeem", marketId: market.marketId.toString(), holder };
  }

  async function collectLiquidity(): Promise<ActionReport> {
    const market = prng.pick(
      markets.filter((m) => m.resolved && !m.collected && creatorIndex(m) !== undefined),
    );
    const creator = creatorIndex(market);
    if (creator === undefined) throw new Error("market creator is not a dev account");
    await context.send(
      clients
        .wallet(creator)
        .writeContract({ address: market.address, abi: marketAbi, functionName: "collectLiquidity" }),
    );
    market.collected = true;
    return { action: "collectLiquidity", marketId: market.marketId.toString(), creator };
  }

  function creatorIndex(market: MarketState): number | undefined {
    const index = clients.accounts.findIndex((account) => account.address === getAddress(market.creator));
    return index === -1 ? undefined : index;
  }

  async function unwrap(): Promise<ActionReport> {
    const holder = prng.pick(users);
    const balance = await publicClient.readContract({
      address: weth,
      abi: wethAbi,
      functionName: "balanceOf",
      args: [addressOf(context, holder)],
    });
    const amount = balance / 2n;
    if (amount === 0n) return { action: "unwrap", skipped: true };
    await context.send(
      clients
        .wallet(holder)
        .writeContract({ address: weth, abi: wethAbi, functionName: "withdraw", args: [amount] }),
    );
    return { action: "unwrap", holder, amount: amount.toString() };
  }

  return {
    async init() {
      const count = await publicClient.readContract({
        address: factory,
        abi: marketFactoryAbi,
        functionName: "marketCount",
      });
      for (let marketId = 1n; marketId <= count; marketId++) markets.push(await loadMarket(marketId));
    },

    choices(): ActionChoice[] {
      const tradingMarkets = trading();
      return [
        { action: "createMarket", weight: open().length < MAX_OPEN_MARKETS ? 4 : 0, run: createMarket },
        { action: "buy", weight: tradingMarkets.length > 0 ? 35 : 0, run: buy },
        { action: "sell", weight: tradingMarkets.some((m) => m.holders.size > 0) ? 14 : 0, run: sell },
        { action: "pause", weight: pausable().length > 0 ? 2 : 0, run: () => setPaused(pausable(), true) },
        { action: "unpause", weight: paused().length > 0 ? 8 : 0, run: () => setPaused(paused(), false) },
        {
          action: "resolve",
          weight: open().some((m) => m.trades >= TRADES_BEFORE_RESOLUTION) ? 3 : 0,
          run: resolve,
        },
        {
          action: "redeem",
          weight: markets.some((m) => m.resolved && m.holders.size > 0) ? 10 : 0,
          run: redeem,
        },
        {
          action: "collectLiquidity",
          weight: markets.some((m) => m.resolved && !m.collected && creatorIndex(m) !== undefined) ? 4 : 0,
          run: collectLiquidity,
        },
        { action: "unwrap", weight: 2, run: unwrap },
      ];
    },
  };
}
