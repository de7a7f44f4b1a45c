import { drawCard, FIRST_EDITION_PACKS } from "@mkt/chain";
import type { ClassicCard } from "@mkt/protocol";
import type { CardCatalogue } from "../directory.ts";

export interface DrawnCard {
  card: ClassicCard;
  /** The card id drawn, within the card's `startId..endId`. */
  cardId: number;
  wear: NonNullable<ClassicCard["wear"]>;
  wearValue: number;
  foil: NonNullable<ClassicCard["foil"]>;
}

/**
 * A pack's card under the card rule (`drawCard` of `@mkt/chain`, README):
 * its token seed decides the card within its rarity tier, its wear and its
 * foil. Undefined when the catalogue has no card of that rarity.
 */
export function drawPackCard(
  catalogue: CardCatalogue,
  tokenId: bigint,
  tokenSeed: bigint,
  rarity: number,
): DrawnCard | undefined {
  const draw = drawCard({
    tokenSeed,
    tokenId,
    rarity,
    cards: catalogue.cards.map((card) => ({
      startId: card.startId,
      endId: card.endId,
      rarity: card.rarityCode,
    })),
    firstTokenId: catalogue.firstTokenId,
    disableWear: catalogue.disableWear,
    disableFoil: catalogue.disableFoil,
  });
  const card = draw.cardIndex === null ? undefined : catalogue.cards[draw.cardIndex];
  if (!card || draw.cardId === null) return undefined;
  return { card, cardId: draw.cardId, wear: draw.wear, wearValue: draw.wearValue, foil: draw.foil };
}

/** Among the drop's first 1,000 token ids (a first token id of 0 means 1, as in the contract). */
export function isFirstEdition(tokenId: bigint, firstTokenId: bigint): boolean {
  const first = firstTokenId === 0n ? 1n : firstTokenId;
  return tokenId >= first && tokenId < first + FIRST_EDITION_PACKS;
}
