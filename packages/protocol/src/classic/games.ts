import { z } from "zod";
import {
  addressString,
  classicPaginationSchema,
  classicQuery,
  classicUsdString,
  isoDateTime,
  txHashString,
  weiString,
} from "./common.ts";

/** A trait of a card (traits are an array of key/value string pairs). */
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
 * Card metadata. A game's cards are numbered 1..N ("card ids");
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
  gameId: z
    .string()
    .describe(
      'The factory\'s game id (a uint256, as a decimal string); `"0"` for a drop known only from the live events (listed by address, or created without the extension event `DropConfigured`).',
    ),
  tokenName: z.string(),
  tokenSymbol: z.string(),
  nftName: z.string(),
  nftSymbol: z.string(),
  description: z.string(),
  slug: z
    .string()
    .describe(
      "The creator's slug, or the default `<name>-<gameId>` (for a game id of 0, `<name>-<the drop address's first 8 hex digits>`).",
    ),
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
  marketCapUsd: classicUsdString("`marketCap`"),
  pricePerPack: weiString(
    "The ETH one pack costs now (the drop's `getMintPrice(1)`: the price of `tokensPerMint` tokens on the curve, or in the pool after graduation). For a drop whose curve parameters the server does not know (a game id of 0: no `DropConfigured`), before graduation: the price per pack its last ETH mint paid (0 before its first). In",
  ),
  pricePerPackUsd: classicUsdString("`pricePerPack`"),
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

// Requests and answers of the game-centric reads ------------------------------

/**
 * A game in a path: its drop address (any case) or its slug (a creator's, or
 * the default `<name>-<gameId>`). Anything else is a 400, never a lookup.
 */
export const classicGameParamsSchema = z.object({
  addressOrSlug: z
    .string()
    .regex(
      /^(0x[a-fA-F0-9]{40}|[a-zA-Z0-9][a-zA-Z0-9-]{0,79})$/,
      "must be a 0x-prefixed 20-byte address or a slug (letters, digits and -, at most 80)",
    )
    .transform((value) => value.toLowerCase())
    .describe("The game's drop address or its slug (case-insensitive)."),
});

export const CLASSIC_GAMES_MAX_LIMIT = 100;
export const CLASSIC_FEATURED_MAX_LIMIT = 50;
export const CLASSIC_SEARCH_MAX_QUERY = 100;

export const classicGamesQuerySchema = z.object({
  chainId: classicQuery.chainId,
  page: classicQuery.page,
  limit: classicQuery.limit(20, CLASSIC_GAMES_MAX_LIMIT),
  active: classicQuery.optionalBoolean(
    "`true`: only games whose drop is open for minting (`isActive`); `false`: only paused ones.",
  ),
  includeGraduated: classicQuery.boolean(
    "`false` leaves out games whose curve has graduated to a pool (`isGraduated`).",
    true,
  ),
  featured: classicQuery.optionalBoolean(
    "`true`: only games the operator features (`isFeatured`); `false`: only the others.",
  ),
});
export type ClassicGamesQuery = z.output<typeof classicGamesQuerySchema>;

export const classicSearchQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .min(1, "q must not be empty")
      .max(CLASSIC_SEARCH_MAX_QUERY, `q must be at most ${CLASSIC_SEARCH_MAX_QUERY} characters`)
      .optional()
      .describe(
        "Text found, case-insensitively, anywhere in the game's NFT or token name, either symbol, or its slug.",
      ),
    ownerAddress: classicQuery
      .address("ownerAddress")
      .optional()
      .describe("The creator's wallet (any case)."),
    chainId: classicQuery.chainId,
    page: classicQuery.page,
    limit: classicQuery.limit(20, CLASSIC_GAMES_MAX_LIMIT),
  })
  .refine((query) => query.q !== undefined || query.ownerAddress !== undefined, {
    message: "give q, ownerAddress or both",
    path: ["q"],
  });
export type ClassicSearchQuery = z.output<typeof classicSearchQuerySchema>;

export const CLASSIC_FEATURED_SORTS = ["trending", "newest", "marketCap", "volume"] as const;
export type ClassicFeaturedSort = (typeof CLASSIC_FEATURED_SORTS)[number];

export const classicFeaturedQuerySchema = z.object({
  chainId: classicQuery.chainId,
  limit: classicQuery.limit(10, CLASSIC_FEATURED_MAX_LIMIT),
  sortBy: z
    .enum(CLASSIC_FEATURED_SORTS, { error: `sortBy must be one of ${CLASSIC_FEATURED_SORTS.join(", ")}` })
    .default("trending")
    .describe(
      "`trending` (packs minted in the last 24 hours, then all-time pack volume, then newest), `newest` (latest created), `marketCap` (largest first), `volume` (Wei paid for packs, all time, largest first); default `trending`.",
    ),
});
export type ClassicFeaturedQuery = z.output<typeof classicFeaturedQuerySchema>;

export const classicFeaturedSchema = z
  .object({ success: z.literal(true), games: z.array(classicGameSchema) })
  .meta({ id: "ClassicFeatured" });
export type ClassicFeatured = z.infer<typeof classicFeaturedSchema>;

export const classicChainQuerySchema = z.object({ chainId: classicQuery.chainId });

export const classicGameDetailSchema = z
  .object({ success: z.literal(true), contractInfo: classicGameSchema })
  .meta({ id: "ClassicGameDetail" });
export type ClassicGameDetail = z.infer<typeof classicGameDetailSchema>;

export const CLASSIC_READY_STATUSES = ["indexing", "ready"] as const;

export const classicReadySchema = z
  .object({
    success: z.literal(true),
    ready: z.boolean().describe("The game can be read by address and slug."),
    progress: z
      .number()
      .int()
      .min(0)
      .max(100)
      .describe(
        "0 while the drop is not indexed yet, 50 while its confirmed creator metadata is not published yet, 100 once ready.",
      ),
    status: z
      .enum(CLASSIC_READY_STATUSES)
      .describe("`indexing` (not in the projection yet: poll again) or `ready`."),
    metadataSource: z
      .enum(CLASSIC_METADATA_SOURCES)
      .nullable()
      .describe("Whose metadata is in effect once ready (`user` or `default`); null while indexing."),
  })
  .meta({ id: "ClassicReady" });
export type ClassicReady = z.infer<typeof classicReadySchema>;

export const classicAllMetadataQuerySchema = z.object({
  chainId: classicQuery.chainId,
  includeContractDetails: classicQuery.boolean("Add the game as `contractDetails`.", false),
});

export const classicMetadataEntrySchema = z
  .object({
    name: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    rarity: z.number().int().min(1).max(5).describe("Rarity code: 1 Common … 5 Mythic."),
    startId: z.number().int().min(1),
    endId: z.number().int().min(1),
    odds: z.number().describe("Chance in percent that one pack draws this card."),
    oddsFormatted: z.string(),
  })
  .meta({ id: "ClassicMetadataEntry" });

export const classicAllMetadataSchema = z
  .object({
    success: z.literal(true),
    metadata: z.array(classicMetadataEntrySchema),
    totalTokens: z.number().int().min(0).describe("Packs minted so far."),
    contractDetails: classicGameSchema.optional(),
  })
  .meta({ id: "ClassicAllMetadata" });
export type ClassicAllMetadata = z.infer<typeof classicAllMetadataSchema>;

export const classicMetadataAtQuerySchema = z.object({
  chainId: classicQuery.chainId,
  at: z.iso
    .datetime({ offset: true, error: "at must be an ISO 8601 date-time" })
    .optional()
    .describe("Read the metadata revision in effect at this time; now when absent."),
});

const revisionFields = {
  chainId: z.number().int(),
  contractAddress: addressString("The game's booster drop"),
  slug: z.string(),
  metadataSource: z.enum(CLASSIC_METADATA_SOURCES),
  version: z.number().int().min(0),
  effectiveFrom: isoDateTime("Start of the revision's validity.").nullable(),
  effectiveUntil: isoDateTime("End of the revision's validity; null while open-ended.").nullable(),
};

export const classicCardCatalogueSchema = z
  .object({ success: z.literal(true), ...revisionFields, cards: z.array(classicCardSchema) })
  .meta({ id: "ClassicCardCatalogue" });
export type ClassicCardCatalogueView = z.infer<typeof classicCardCatalogueSchema>;

export const classicRarityOddsSchema = z
  .object({
    rarity: z.number().int().min(1).max(5).describe("Rarity code."),
    name: z.string().describe("Common, Rare, Epic, Legendary or Mythic."),
    oddsBps: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .describe("Chance in basis points that a pack is of this rarity."),
    percent: z.number().describe("`oddsBps` in percent."),
    oddsFormatted: z.string(),
    sellBackOffer: weiString("What the drop pays back for a card of this rarity, in"),
    cards: z.number().int().min(0).describe("Cards of this rarity in the revision."),
  })
  .meta({ id: "ClassicRarityOdds" });

export const classicOddsViewSchema = z
  .object({ success: z.literal(true), ...revisionFields, rarities: z.array(classicRarityOddsSchema) })
  .meta({ id: "ClassicOddsView" });
export type ClassicOddsView = z.infer<typeof classicOddsViewSchema>;

/**
 * The contract-level metadata (ERC-7572 `contractURI`, with the fields
 * OpenSea's contract-level metadata adds) of a drop.
 */
export const classicContractMetadataSchema = z
  .object({
    name: z.string(),
    symbol: z.string(),
    description: z.string(),
    image: z.string().nullable().describe("The game's image (its pack art by default)."),
    banner_image: z.string().nullable().describe("The game's featured image, when it has one."),
    featured_image: z.string().nullable().describe("The featured image, else the image."),
    external_link: z.string().nullable().describe("The game's website, when its creator gave one."),
    external_url: z
      .string()
      .nullable()
      .describe("Same as `external_link` (the name some marketplaces read)."),
    collaborators: z.array(z.string()).describe("The creator's wallet."),
    seller_fee_basis_points: z.number().int().describe("Always 0: the drops take no secondary-sale royalty."),
    fee_recipient: z.string().describe("The creator's wallet."),
  })
  .meta({ id: "ClassicContractMetadata" });
export type ClassicContractMetadata = z.infer<typeof classicContractMetadataSchema>;

/** The operator's flags of a game (`PATCH /admin/classic/games/{chainId}/{address}`); absent fields keep their value. */
export const adminClassicGameFlagsSchema = z
  .object({
    isFeatured: z.boolean().optional(),
    isVerified: z.boolean().optional(),
    isVerifiedArtist: z.boolean().optional(),
    isMarketfit: z.boolean().optional(),
  })
  .strict();
export type AdminClassicGameFlags = z.infer<typeof adminClassicGameFlagsSchema>;

export const classicGameFlagsSchema = z.object({
  chainId: z.number().int(),
  contractAddress: z.string(),
  isFeatured: z.boolean(),
  isVerified: z.boolean(),
  isVerifiedArtist: z.boolean(),
  isMarketfit: z.boolean(),
});
export type ClassicGameFlags = z.infer<typeof classicGameFlagsSchema>;
