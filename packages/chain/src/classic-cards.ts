import { encodeAbiParameters, hexToBigInt, keccak256 } from "viem";

/**
 * The card rule: what a pack holds past its rarity, decided offchain and deterministically from the
 * pack's onchain `tokenSeed` (`keccak256(abi.encode(batchRandomNumber, tokenId))`, see classic-math).
 * With `h(n) = uint256(keccak256(abi.encode(tokenSeed, n)))`:
 * - card: among the game's cards of the pack's rarity in card-id order, card id offset `h(1) mod W`
 *   (`W` the sum of their widths) picks the card whose range covers it;
 * - wear: `(h(2) mod 1_000_000) / 1_000_000`, named by `WEAR_BANDS`;
 * - foil: `h(3) mod 10_000` below 50 is Prize, below 500 Standard, else None;
 * - first edition: the drop's first `FIRST_EDITION_PACKS` token ids.
 * Everything here is pure: the same pack and cards give the same card on every server.
 */

/** Packs whose token id is below `firstTokenId + FIRST_EDITION_PACKS` are first editions. */
export const FIRST_EDITION_PACKS = 1000n;

export type WearName = "Pristine" | "Mint" | "Lightly Played" | "Moderately Played" | "Heavily Played";
export type FoilName = "None" | "Standard" | "Prize";

/** Wear values are multiples of 1 / WEAR_SCALE in [0, 1). */
export const WEAR_SCALE = 1_000_000;

/** Wear bands, best to worst: a value `v` is in the band with `from <= v < to`. */
export const WEAR_BANDS: readonly { name: WearName; from: number; to: number }[] = [
  { name: "Pristine", from: 0, to: 0.05 },
  { name: "Mint", from: 0.05, to: 0.2 },
  { name: "Lightly Played", from: 0.2, to: 0.45 },
  { name: "Moderately Played", from: 0.45, to: 0.75 },
  { name: "Heavily Played", from: 0.75, to: 1 },
];

/** Foil roll `h(3) mod roll`: below `prize` is a Prize foil, below `standard` a Standard one. */
export const FOIL_THRESHOLDS = { roll: 10_000n, prize: 50n, standard: 500n } as const;

/** One card of a game's metadata: the card ids `startId..endId` (inclusive) and its rarity (1..5). */
export interface CardRange {
  startId: number;
  endId: number;
  rarity: number;
}

export interface DrawCardInput {
  /** The pack's onchain seed (RarityAssigned.tokenSeed). */
  tokenSeed: bigint;
  tokenId: bigint;
  /** The pack's rarity, 1 (Common) to 5 (Mythic). */
  rarity: number;
  cards: readonly CardRange[];
  /** The drop's first token id; 0 means 1, as in the contract. */
  firstTokenId: bigint;
  disableWear?: boolean;
  disableFoil?: boolean;
}

export interface CardDraw {
  /** Index in `cards` of the drawn card; null when no card has the pack's rarity. */
  cardIndex: number | null;
  /** The drawn card id, within that card's `startId..endId`; null with `cardIndex`. */
  cardId: number | null;
  /** 0 (pristine) to 1, six decimals. */
  wearValue: number;
  wear: WearName;
  foil: FoilName;
  isFirstEdition: boolean;
}

/** `uint256(keccak256(abi.encode(tokenSeed, n)))`: the rule's n-th draw from one pack's seed. */
export function cardRoll(tokenSeed: bigint, n: bigint): bigint {
  return hexToBigInt(
    keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [tokenSeed, n])),
  );
}

/** The band name of a wear value in [0, 1]; 1 itself is Heavily Played. */
export function wearName(value: number): WearName {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`wear value must be in [0, 1], got ${value}`);
  return (WEAR_BANDS.find((band) => value < band.to) ?? WEAR_BANDS[WEAR_BANDS.length - 1]!).name;
}

/**
 * Draws a pack's card, wear, foil and first edition from its seed.
 *
 * @example
 * const draw = drawCard({
 *   tokenSeed: pack.tokenSeed, tokenId: 7n, rarity: 2, firstTokenId: 1n,
 *   cards: [{ startId: 1, endId: 3, rarity: 1 }, { startId: 4, endId: 4, rarity: 2 }],
 * });
 * // draw.cardIndex === 1, draw.cardId === 4 (the only Rare card)
 */
export function drawCard(input: DrawCardInput): CardDraw {
  const { tokenSeed, tokenId, rarity, cards } = input;
  if (tokenSeed < 0n || tokenSeed >= 2n ** 256n) throw new RangeError("tokenSeed must be a uint256");
  for (const card of cards) {
    if (!Number.isSafeInteger(card.startId) || !Number.isSafeInteger(card.endId) || card.startId < 1) {
      throw new RangeError(`card ids must be positive integers, got ${card.startId}..${card.endId}`);
    }
    if (card.endId < card.startId) throw new RangeError(`empty card range ${card.startId}..${card.endId}`);
  }
  const tier = cards
    .map((card, index) => ({ card, index }))
    .filter(({ card }) => card.rarity === rarity)
    .sort((a, b) => a.card.startId - b.card.startId);
  const width = tier.reduce((sum, { card }) => sum + BigInt(card.endId - card.startId + 1), 0n);
  let cardIndex: number | null = null;
  let cardId: number | null = null;
  if (width > 0n) {
    let offset = cardRoll(tokenSeed, 1n) % width;
    for (const { card, index } of tier) {
      const span = BigInt(card.endId - card.startId + 1);
      if (offset < span) {
        cardIndex = index;
        cardId = card.startId + Number(offset);
        break;
      }
      offset -= span;
    }
  }

  const wearValue = input.disableWear ? 0 : Number(cardRoll(tokenSeed, 2n) % BigInt(WEAR_SCALE)) / WEAR_SCALE;
  let foil: FoilName = "None";
  if (!input.disableFoil) {
    const roll = cardRoll(tokenSeed, 3n) % FOIL_THRESHOLDS.roll;
    foil = roll < FOIL_THRESHOLDS.prize ? "Prize" : roll < FOIL_THRESHOLDS.standard ? "Standard" : "None";
  }
  const firstTokenId = input.firstTokenId === 0n ? 1n : input.firstTokenId;
  return {
    cardIndex,
    cardId,
    wearValue,
    wear: wearName(wearValue),
    foil,
    isFirstEdition: tokenId >= firstTokenId && tokenId < firstTokenId + FIRST_EDITION_PACKS,
  };
}
