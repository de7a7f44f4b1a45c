import { z } from "zod";
import { addressString, classicPaginationSchema, isoDateTime, txHashString, weiString } from "./common.ts";

/** A trait of a card (section 2: traits, an array of key/value string pairs). */
export const classicTraitSchema = z
  .object({ key: z.string(), value: z.string() })
  .meta({ id: "ClassicTrait" });

/** Where a card's metadata comes from: `user` (the creator's revision) or `default` (derived from the chain until the creator publishes one). */
export const CLASSIC_METADATA_SOURCES = ["user", "default"] as const;

/** Wear names, best to worst, by wear value bands (see the card rule in `@mkt/chain` classic-cards). */
export const CLASSIC_WEAR_NAMES = [
  "Pristine",
  "Mint",
  "Lightly Played",
  "Moderately Played",
  "Heavily Played",
] as const;
/** Foil names: `None`, `Standard`, `Prize`. */
export const CLASSIC_FOIL_NAMES = ["None", "Standard", "Prize"] as const;

/**
 * Card metadata (section 2). A game's cards are numbered 1..N ("card ids");
 * a card covers the card ids `startId..endId` and its weight within its
 * rarity tier is the width of that range. `odds` is the chance in percent
 * that one pack draws this card. `wear` and `foil` are filled only where a
 * pack was drawn (holdings); a catalogue entry leaves them out.
 */
export const classicCardSchema = z
  .object({
    id: z
      .string()
      .describe(
        "`<chainId>:<contractAddress>:<startId>`: stable across revisions while the card keeps its range.",
      ),
    name: z.string(),
    description: z.string(),
    metadataDescription: z.string().describe("The text an NFT marketplace shows for a token of this card."),
    imageUrl: z.string().nullable(),
    unopenedImageUrl: z.string().nullable(),
    firstEditionImageUrl: z.string().nullable(),
    featuredImageUrl: z.string().nullable(),
    externalLink: z.string().nullable(),
    privateExternalLink: z
      .string()
      .nullable()
      .describe("Shown to holders only; always null in public reads."),
    bgColor: z.string(),
    slug: z.string().describe("The game's slug."),
    rarity: z.string().describe("Rarity name: Common, Rare, Epic, Legendary or Mythic."),
    rarityCode: z.number().int().min(1).max(5),
    traits: z.array(classicTraitSchema),
    startId: z.number().int().min(1),
    endId: z.number().int().min(1),
    odds: z
      .number()
      .describe(
        "Chance in percent that one pack draws this card (rarity odds x the card's share of its tier).",
      ),
    oddsFormatted: z.string().describe("`odds` as text, e.g. `12.5%`."),
    contractAddress: addressString("The game's booster drop"),
    creator: addressString("The game's creator"),
    chainId: z.number().int(),
    txHash: txHashString("The game's deployment transaction"),
    metadataSource: z.enum(CLASSIC_METADATA_SOURCES),
    isActive: z.boolean(),
    isDraft: z.boolean().describe("Always false in reads of deployed games."),
    disableFoil: z.boolean(),
    disableWear: z.boolean(),
    version: z.number().int().min(0).describe("The metadata revision's version; 0 for default metadata."),
    effectiveFrom: isoDateTime("Start of the revision's validity.").nullable(),
    effectiveUntil: isoDateTime("End of the revision's validity; null while open-ended.").nullable(),
    wear: z.enum(CLASSIC_WEAR_NAMES).optional(),
    wearValue: z.number().min(0).max(1).optional().describe("0 (pristine) to 1."),
    foil: z.enum(CLASSIC_FOIL_NAMES).optional(),
  })
  .meta({ id: "ClassicCard" });
export type ClassicCard = z.infer<typeof classicCardSchema>;

const gameCommon = {
  gameId: z.string().describe("The factory's game id (a uint256, as a decimal string)."),
  tokenName: z.string(),
  tokenSymbol: z.string(),
  nftName: z.string(),
  nftSymbol: z.string(),
  description: z.string(),
  slug: z.string().describe("The creator's slug, or the default `<name>-<gameId>`."),
  bgColor: z.string(),
  tokenAddress: addressString("The game's bonding-curve token"),
  dropContractAddress: addressString("The game's booster drop (ERC-721)"),
  ownerAddress: addressString("The creator"),
  chainId: z.number().int(),
  imageUrl: z.string().nullable(),
  websiteUrl: z.string().nullable(),
  featuredImageUrl: z.string().nullable(),
  packImage: z.string().nullable(),
  isGraduated: z.boolean(),
  isActive: z.boolean().describe("The drop is open for minting (its creator has not paused it)."),
  isVerified: z.boolean(),
  isVerifiedArtist: z.boolean(),
  isFeatured: z.boolean(),
  disableFoil: z.boolean(),
  disableWear: z.boolean(),
  marketCap: weiString("Spot price of the token times its supply, in"),
  marketCapUsd: z.string().describe("`marketCap` in US dollars, two decimals."),
  pricePerPack: weiString("Price of one pack, in"),
  pricePerPackUsd: z.string().describe("`pricePerPack` in US dollars, two decimals."),
  preorderProgress: z
    .number()
    .min(0)
    .max(100)
    .describe(
      "Percent of the graduation target the curve's ETH reserve has reached; 100 once graduated, 0 when the game never graduates.",
    ),
  createdAt: isoDateTime("Block time of the game's creation."),
  updatedAt: isoDateTime("Latest change of the game onchain or of its metadata."),
  potentialCards: z.array(classicCardSchema),
};

/** The game of `/games`, `/featured`, `/contractAddress/…` and range payloads: `version` a string, links with discord. */
export const classicGameSchema = z
  .object({
    ...gameCommon,
    links: z.object({ twitter: z.string(), website: z.string(), discord: z.string() }),
    version: z
      .string()
      .describe('The metadata revision\'s version, as a string (`"0"` for default metadata).'),
  })
  .meta({ id: "ClassicGame" });
export type ClassicGame = z.infer<typeof classicGameSchema>;

/** The game of `/search` and holdings payloads: `version` a number, `isNSFW` and `isMarketfit`, links without discord. */
export const classicSearchGameSchema = z
  .object({
    ...gameCommon,
    isNSFW: z.boolean(),
    isMarketfit: z.boolean(),
    links: z.object({ twitter: z.string(), website: z.string() }),
    version: z.number().int().describe("The metadata revision's version (0 for default metadata)."),
  })
  .meta({ id: "ClassicSearchGame" });
export type ClassicSearchGame = z.infer<typeof classicSearchGameSchema>;

export const classicGamesPageSchema = z
  .object({
    success: z.literal(true),
    games: z.array(classicGameSchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicGamesPage" });
export type ClassicGamesPage = z.infer<typeof classicGamesPageSchema>;

export const classicSearchPageSchema = z
  .object({
    success: z.literal(true),
    games: z.array(classicSearchGameSchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicSearchPage" });
export type ClassicSearchPage = z.infer<typeof classicSearchPageSchema>;
