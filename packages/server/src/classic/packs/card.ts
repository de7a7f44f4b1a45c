import { CLASSIC_WEAR_NAMES, type ClassicCard } from "@mkt/protocol";
import { encodeAbiParameters, hexToBigInt, keccak256 } from "viem";
import type { CardCatalogue } from "../directory.ts";

/** A drop's first this many token ids are first editions (README, card rule). */
export const FIRST_EDITION_PACKS = 1000n;

export interface DrawnCard {
  card: ClassicCard;
  /** The card id drawn, within the card's `startId..endId`. */
  cardId: number;
  wear: ClassicCard["wear"] & string;
  wearValue: number;
  foil: NonNullable<ClassicCard["foil"]>;
}

const h = (seed: bigint, n: bigint) =>
  hexToBigInt(keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [seed, n])));

const WEAR_BANDS = [0.05, 0.2, 0.45, 0.75] as const;

/**
 * The card rule of the README: a pack's token seed decides its card within
 * its rarity tier, its wear and its foil. Undefined when the catalogue has no
 * card of that rarity.
 */
export function drawPackCard(
  catalogue: CardCatalogue,
  tokenSeed: bigint,
  rarity: number,
): DrawnCard | undefined {
  const tier = catalogue.cards.filter((card) => card.rarityCode === rarity);
  const width = tier.reduce((sum, card) => sum + BigInt(card.endId - card.startId + 1), 0n);
  if (width === 0n) return undefined;
  let offset = h(tokenSeed, 1n) % width;
  let drawn: { card: ClassicCard; cardId: number } | undefined;
  for (const card of tier) {
    const span = BigInt(card.endId - card.startId + 1);
    if (offset < span) {
      drawn = { card, cardId: card.startId + Number(offset) };
      break;
    }
    offset -= span;
  }
  if (!drawn) return undefined;
  const wearValue = catalogue.disableWear ? 0 : Number(h(tokenSeed, 2n) % 1_000_000n) / 1_000_000;
  const band = WEAR_BANDS.findIndex((bound) => wearValue < bound);
  const wear = CLASSIC_WEAR_NAMES[band === -1 ? 4 : band] ?? "Heavily Played";
  const foilRoll = h(tokenSeed, 3n) % 10_000n;
  const foil = catalogue.disableFoil
    ? "None"
    : foilRoll < 50n
      ? "Prize"
      : foilRoll < 500n
        ? "Standard"
        : "None";
  return { ...drawn, wear, wearValue, foil };
}

export const isFirstEdition = (tokenId: bigint, firstTokenId: bigint) =>
  tokenId < firstTokenId + FIRST_EDITION_PACKS;
