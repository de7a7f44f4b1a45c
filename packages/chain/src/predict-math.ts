/**
 * Offchain twin of Market.sol's fixed-product market maker. Every function reproduces the contract's
 * integer arithmetic and rounding exactly, so a quote here equals calcBuyAmount / calcSellAmount onchain.
 */

export const SIDE = { yes: 0, no: 1 } as const;
export type Side = (typeof SIDE)[keyof typeof SIDE];
export const BPS = 10000n;

/** Outcome-share balances held by the pool. */
export interface PoolBalances {
  yes: bigint;
  no: bigint;
}

export interface BuyQuote {
  sharesOut: bigint;
  fee: bigint;
  poolAfter: PoolBalances;
}

export interface SellQuote {
  sharesIn: bigint;
  fee: bigint;
  poolAfter: PoolBalances;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return a === 0n ? 0n : (a - 1n) / b + 1n;
}

function checkFee(feeBps: bigint): void {
  if (feeBps < 0n || feeBps >= BPS) throw new RangeError(`feeBps out of range: ${feeBps}`);
}

function balancesOf(pool: PoolBalances, side: Side): { own: bigint; other: bigint } {
  return side === SIDE.yes ? { own: pool.yes, other: pool.no } : { own: pool.no, other: pool.yes };
}

function withBalances(side: Side, own: bigint, other: bigint): PoolBalances {
  return side === SIDE.yes ? { yes: own, no: other } : { yes: other, no: own };
}

/** A freshly created market: `seed` complete sets in the pool. */
export function seededPool(seed: bigint): PoolBalances {
  return { yes: seed, no: seed };
}

/** Shares of `side` received for `wethIn` wei, as Market.calcBuyAmount and Market.buy. */
export function quoteBuy(pool: PoolBalances, side: Side, wethIn: bigint, feeBps: bigint): BuyQuote {
  checkFee(feeBps);
  if (wethIn < 0n) throw new RangeError("wethIn must not be negative");
  const fee = (wethIn * feeBps) / BPS;
  const investment = wethIn - fee;
  const { own, other } = balancesOf(pool, side);
  const ownAfterTrade = ceilDiv(own * other, other + investment);
  const sharesOut = own + investment - ownAfterTrade;
  return { sharesOut, fee, poolAfter: withBalances(side, ownAfterTrade, other + investment) };
}

/** Shares of `side` the seller gives up to receive exactly `wethOut` wei, as Market.calcSellAmount. */
export function quoteSell(pool: PoolBalances, side: Side, wethOut: bigint, feeBps: bigint): SellQuote {
  checkFee(feeBps);
  if (wethOut < 0n) throw new RangeError("wethOut must not be negative");
  const gross = ceilDiv(wethOut * BPS, BPS - feeBps);
  const { own, other } = balancesOf(pool, side);
  if (gross >= other) throw new RangeError("sale exceeds the pool's liquidity");
  const ownAfterTrade = ceilDiv(own * other, other - gross);
  return {
    sharesIn: ownAfterTrade + gross - own,
    fee: gross - wethOut,
    poolAfter: withBalances(side, ownAfterTrade, other - gross),
  };
}

/**
 * The most WETH a holder of `shares` shares of `side` can take out in one sale, found by bisection on
 * quoteSell (sharesIn grows with wethOut), so the result is exactly what the contract accepts.
 */
export function maxSellReturn(pool: PoolBalances, side: Side, shares: bigint, feeBps: bigint): bigint {
  const fits = (wethOut: bigint) => {
    try {
      return quoteSell(pool, side, wethOut, feeBps).sharesIn <= shares;
    } catch {
      return false;
    }
  };
  let low = 0n;
  let high = shares;
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if (fits(mid)) low = mid;
    else high = mid - 1n;
  }
  return low;
}

/** Marginal probability of `side` in basis points, as Market.probabilityBps. */
export function probabilityBps(pool: PoolBalances, side: Side): bigint {
  const { other } = balancesOf(pool, side);
  return (other * BPS) / (pool.yes + pool.no);
}

/** The largest uint256: any intermediate above it reverts the contract (Solidity 0.8 checked arithmetic). */
export const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * Why Market.buy would revert where calcBuyAmount's math alone answers:
 * `zero_amount` (`wethIn` is 0), `overflow` (an intermediate of the buy passes
 * uint256), `zero_shares` (the buy returns no share: the "slippage" guard
 * `sharesOut > 0`).
 */
export type BuyRefusal = "zero_amount" | "overflow" | "zero_shares";

export class BuyRefusedError extends RangeError {
  override readonly name = "BuyRefusedError";
  constructor(
    readonly reason: BuyRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** The market state Market.buy reads and writes besides the pools. */
export interface BuyState {
  pool: PoolBalances;
  feeBps: bigint;
  /** The contract's `backing` (raised by the investment). */
  backing: bigint;
  /** The contract's `feesAccrued` (raised by the fee). */
  feesAccrued: bigint;
}

/**
 * Market.buy(side, wethIn, 0) as the contract runs it, trading state aside:
 * quoteBuy plus the guards its math skips, in the contract's order. Every
 * checked operation of buy and calcBuyAmount is checked here against
 * uint256: `wethIn * feeBps`, `b * o`, `o + inv`, `b + inv`, `backing + inv`,
 * `feesAccrued + fee`. The buyer's own share balance (`+= sharesOut`) and its
 * WETH balance and allowance are the buyer's, not the market's, and are not
 * checked. Throws BuyRefusedError where the contract reverts.
 */
export function quoteBuyChecked(state: BuyState, side: Side, wethIn: bigint): BuyQuote {
  if (wethIn <= 0n) throw new BuyRefusedError("zero_amount", "the amount must be above zero");
  const overflow = (value: bigint, what: string) => {
    if (value > MAX_UINT256) throw new BuyRefusedError("overflow", `${what} overflows uint256`);
  };
  overflow(wethIn, "the amount");
  overflow(wethIn * state.feeBps, "amount * feeBps");
  const fee = (wethIn * state.feeBps) / BPS;
  const investment = wethIn - fee;
  const { own, other } = balancesOf(state.pool, side);
  overflow(own * other, "the pools' product");
  overflow(other + investment, "the other pool plus the investment");
  overflow(own + investment, "the bought pool plus the investment");
  overflow(state.backing + investment, "the backing plus the investment");
  overflow(state.feesAccrued + fee, "the accrued fees plus the fee");
  const quote = quoteBuy(state.pool, side, wethIn, state.feeBps);
  if (quote.sharesOut === 0n) throw new BuyRefusedError("zero_shares", "the amount buys no share");
  return quote;
}
