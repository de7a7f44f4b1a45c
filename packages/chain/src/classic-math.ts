import { encodeAbiParameters, hexToBigInt, keccak256 } from "viem";

/** Rarity codes as the booster drop stores them; 0 until the batch's randomness arrives. */
export const RARITY = { unassigned: 0, common: 1, rare: 2, epic: 3, legendary: 4, mythic: 5 } as const;
export type RarityCode = (typeof RARITY)[keyof typeof RARITY];
export const RARITY_NAMES = ["NOT_ASSIGNED", "Common", "Rare", "Epic", "Legendary", "Mythic"] as const;

/** Rarity odds in basis points for Common..Mythic (60%, 25%, 10%, 4%, 1%): the sample games' odds. */
export const DEFAULT_ODDS_BPS: RarityOdds = [6000, 2500, 1000, 400, 100];

/** Rarity odds in basis points for Common, Rare, Epic, Legendary, Mythic; they sum to 10000. */
export type RarityOdds = readonly [number, number, number, number, number];

/**
 * Upper bounds (exclusive) of the basis-point roll for Common..Mythic under `odds`: the running sums,
 * as BoosterDrop keeps them. Throws unless the odds are five integers from 0 to 10000 summing to 10000.
 */
export function rarityRollBounds(odds: RarityOdds = DEFAULT_ODDS_BPS): readonly bigint[] {
  if (odds.length !== 5 || odds.some((bps) => !Number.isInteger(bps) || bps < 0 || bps > 10000)) {
    throw new RangeError("odds must be five integers from 0 to 10000");
  }
  let total = 0n;
  const bounds = odds.map((bps) => (total += BigInt(bps)));
  if (total !== 10000n) throw new RangeError(`odds must sum to 10000, got ${total}`);
  return bounds;
}

/** The roll bounds of the default odds: 6000, 8500, 9500, 9900, 10000. */
export const RARITY_ROLL_BOUNDS_BPS = rarityRollBounds(DEFAULT_ODDS_BPS);

/** Offer per rarity (Common..Mythic) as basis points of a pack's price in tokens (`tokensPerMint`), for sample games. */
export const DEFAULT_OFFER_BPS = [2000n, 5000n, 10000n, 30000n, 100000n] as const;

export type RarityOffers = readonly [bigint, bigint, bigint, bigint, bigint];

export function defaultOffers(tokensPerMint: bigint): RarityOffers {
  const [common, rare, epic, legendary, mythic] = DEFAULT_OFFER_BPS.map(
    (bps) => (tokensPerMint * bps) / 10000n,
  );
  return [common!, rare!, epic!, legendary!, mythic!];
}

export interface RarityDraw {
  /** keccak256(abi.encode(batchRandomNumber, tokenId)) as a uint256: `getTokenRarity`'s tokenSpecificRandomness. */
  tokenSeed: bigint;
  /** tokenSeed % 10000, the roll compared against the odds' cumulative bounds. */
  randomValue: bigint;
  rarity: Exclude<RarityCode, 0>;
}

/**
 * Recomputes offchain the rarity BoosterDrop assigns to `tokenId` from its open batch's random number
 * (`RarityAssigned.randomNumber` as a uint256), under
 * the game's odds: the first tier whose cumulative bound exceeds the roll (a 0 bps tier is never drawn).
 */
export function deriveRarity(
  randomNumber: bigint,
  tokenId: bigint,
  oddsBps: RarityOdds = DEFAULT_ODDS_BPS,
): RarityDraw {
  const bounds = rarityRollBounds(oddsBps);
  const tokenSeed = hexToBigInt(
    keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [randomNumber, tokenId])),
  );
  const randomValue = tokenSeed % 10000n;
  const index = bounds.findIndex((bound) => randomValue < bound);
  return { tokenSeed, randomValue, rarity: (index + 1) as RarityDraw["rarity"] };
}

/** The bonding curve's state as BoosterToken stores it (all amounts in wei / token base units). */
export interface CurveState {
  virtualEth: bigint;
  virtualTokens: bigint;
  ethReserve: bigint;
  tokensSold: bigint;
}

function curvePoint(state: CurveState): { x: bigint; y: bigint } {
  return { x: state.virtualEth + state.ethReserve, y: state.virtualTokens - state.tokensSold };
}

/** Tokens out for `ethIn` wei: floor(y * ethIn / (x + ethIn)), as BoosterToken.getEthBuyQuote. */
export function curveQuoteBuy(state: CurveState, ethIn: bigint): bigint {
  if (ethIn < 0n) throw new RangeError("ethIn must not be negative");
  const { x, y } = curvePoint(state);
  return (y * ethIn) / (x + ethIn);
}

/** Wei in for exactly `tokensOut`: ceil(x * tokensOut / (y - tokensOut)), as BoosterToken.getTokenBuyQuote. */
export function curveTokenBuyCost(state: CurveState, tokensOut: bigint): bigint {
  const { x, y } = curvePoint(state);
  if (tokensOut < 0n || tokensOut >= y) throw new RangeError("tokensOut must be in [0, y)");
  return (x * tokensOut + (y - tokensOut) - 1n) / (y - tokensOut);
}

/** The curve after a buy of exactly `tokensOut`, and its cost. */
export function curveAfterTokenBuy(
  state: CurveState,
  tokensOut: bigint,
): { ethIn: bigint; state: CurveState } {
  const ethIn = curveTokenBuyCost(state, tokensOut);
  return {
    ethIn,
    state: { ...state, ethReserve: state.ethReserve + ethIn, tokensSold: state.tokensSold + tokensOut },
  };
}

/** Wei out for `tokensIn`: floor(x * tokensIn / (y + tokensIn)), as BoosterToken.getTokenSellQuote. */
export function curveQuoteSell(state: CurveState, tokensIn: bigint): bigint {
  if (tokensIn < 0n) throw new RangeError("tokensIn must not be negative");
  const { x, y } = curvePoint(state);
  return (x * tokensIn) / (y + tokensIn);
}

export function curveAfterBuy(state: CurveState, ethIn: bigint): { tokensOut: bigint; state: CurveState } {
  const tokensOut = curveQuoteBuy(state, ethIn);
  return {
    tokensOut,
    state: { ...state, ethReserve: state.ethReserve + ethIn, tokensSold: state.tokensSold + tokensOut },
  };
}

export function curveAfterSell(state: CurveState, tokensIn: bigint): { ethOut: bigint; state: CurveState } {
  if (tokensIn > state.tokensSold) throw new RangeError("cannot sell more tokens than the curve sold");
  const ethOut = curveQuoteSell(state, tokensIn);
  return {
    ethOut,
    state: { ...state, ethReserve: state.ethReserve - ethOut, tokensSold: state.tokensSold - tokensIn },
  };
}

/** Spot price in wei of one whole token (10^18 base units), rounded down. */
export function curveSpotPrice(state: CurveState): bigint {
  const { x, y } = curvePoint(state);
  return (x * 10n ** 18n) / y;
}

/** Value in wei of the circulating supply at the spot price, rounded down. */
export function curveMarketCap(state: CurveState): bigint {
  const { x, y } = curvePoint(state);
  return (x * state.tokensSold) / y;
}

/** Tokens minted into the pool at graduation: the ETH reserve priced at the closing spot price. */
export function graduationTokenLiquidity(state: CurveState): bigint {
  return (
    (state.ethReserve * (state.virtualTokens - state.tokensSold)) / (state.virtualEth + state.ethReserve)
  );
}
