import { z } from "zod";
import { integerParam } from "../params/index.ts";
import {
  addressString,
  CLASSIC_PACK_STATUSES,
  CLASSIC_RARITY_NAMES,
  classicPaginationSchema,
  classicQuery,
  decimalString,
  exactInteger,
  isoDateTime,
  txHashString,
  weiString,
} from "./common.ts";
import { classicCardSchema, classicGameSchema, classicSearchGameSchema } from "./games.ts";

/** The largest uint256: token ids and seeds are at most this. */
const UINT256_MAX = (1n << 256n) - 1n;
const UINT256_DECIMAL = /^(0|[1-9][0-9]{0,77})$/;

/** A uint256 written in decimal (a query or path value), as a bigint; anything else is a 400. */
export const uint256Param = (name: string) =>
  z
    .string()
    .regex(UINT256_DECIMAL, `${name} must be a uint256 in decimal digits`)
    .transform((value) => BigInt(value))
    .refine((value) => value <= UINT256_MAX, `${name} must be a uint256 in decimal digits`);

/** At most this many ids in one `tokenIds` list. */
export const CLASSIC_MAX_TOKEN_IDS = 100;

const tokenIdList = z
  .string()
  .transform((value, context) => {
    const parts = value.split(",").map((part) => part.trim());
    if (parts.length > CLASSIC_MAX_TOKEN_IDS) {
      context.addIssue({ code: "custom", message: `tokenIds takes at most ${CLASSIC_MAX_TOKEN_IDS} ids` });
      return z.NEVER;
    }
    const ids: bigint[] = [];
    for (const part of parts) {
      if (!UINT256_DECIMAL.test(part) || BigInt(part) > UINT256_MAX) {
        context.addIssue({ code: "custom", message: "tokenIds must be uint256 values in decimal digits" });
        return z.NEVER;
      }
      ids.push(BigInt(part));
    }
    return ids;
  })
  .describe(
    `Comma-separated token ids (uint256, decimal digits), at most ${CLASSIC_MAX_TOKEN_IDS}; only these packs.`,
  );

/** The `status` filter of `/range`: exactly the three values section 4 lists. */
export const CLASSIC_RANGE_STATUS_FILTER = ["minted", "rarity_assigned", "burned"] as const;
export const CLASSIC_RANGE_SORTS = ["latestUpdateTimestamp", "tokenId", "mintedAt", "rarity"] as const;

const sortOrder = z
  .enum(["asc", "desc"], { error: "sortOrder must be asc or desc" })
  .default("desc")
  .describe("`asc` or `desc`; default `desc`.");

/** `GET /classic/range` (section 4). */
export const classicRangeQuerySchema = z.object({
  contractAddress: z
    .string()
    .min(1, "contractAddress is required")
    .max(200)
    .describe("The game's booster drop address, or its slug. Required."),
  tokenIds: tokenIdList.optional(),
  startTokenId: uint256Param("startTokenId").optional().describe("Lowest token id, inclusive."),
  endTokenId: uint256Param("endTokenId").optional().describe("Highest token id, inclusive."),
  chainId: classicQuery.chainId,
  status: z
    .enum(CLASSIC_RANGE_STATUS_FILTER, { error: "status must be minted, rarity_assigned or burned" })
    .optional()
    .describe(
      "Only packs in this state: `minted`, `rarity_assigned` or `burned`. These are exactly the values section 4 of the Classic document lists; an opened pack (status `opened`, which packs do reach) cannot be selected with this filter. We follow the document rather than widen the enum, so a client written against it sees the same contract.",
    ),
  rarity: integerParam("rarity", { min: 0, max: 4, rangeMessage: "rarity must be an integer 0 to 4" })
    .optional()
    .describe(
      "Only packs of this rarity code: 0 not assigned, 1 Common, 2 Rare, 3 Epic, 4 Legendary. Section 4 of the Classic document bounds this filter to 0..4, so Mythic (5) packs cannot be selected by rarity; we follow the document as written (they are still listed without the filter).",
    ),
  page: classicQuery.boundedPage,
  limit: classicQuery.limit(50, 100),
  sortBy: z
    .enum(CLASSIC_RANGE_SORTS, {
      error: "sortBy must be latestUpdateTimestamp, tokenId, mintedAt or rarity",
    })
    .default("latestUpdateTimestamp")
    .describe(
      "`latestUpdateTimestamp` (default), `tokenId`, `mintedAt` or `rarity`; ties are broken by token id in the same direction.",
    ),
  sortOrder,
  includeMetadata: classicQuery.boolean("Add each pack's token metadata (`metadata`).", false),
  includeContractDetails: classicQuery.boolean("Add the game (`contractDetails`, the games variant).", false),
});
export type ClassicRangeQuery = z.output<typeof classicRangeQuerySchema>;

/** An attribute of token metadata, as NFT marketplaces read it (OpenSea metadata standard). */
export const classicTokenAttributeSchema = z
  .object({
    trait_type: z.string(),
    value: z.union([z.string(), z.number()]),
    display_type: z.string().optional().describe("`number` for numeric traits."),
    max_value: z.number().optional(),
  })
  .meta({ id: "ClassicTokenAttribute" });

/**
 * The ERC-721 token metadata a drop's `tokenURI` points at (and the `metadata`
 * of a range pack). Attributes: `Rarity`, `Status`, `First Edition` always;
 * once the rarity is assigned also `Randomness`, `Card ID`, `Wear`, `Wear
 * Value` (display_type number, max_value 1) and `Foil`.
 */
export const classicTokenMetadataSchema = z
  .object({
    name: z
      .string()
      .describe("`<card name> #<tokenId>` once the card is drawn, else `<nft name> Pack #<tokenId>`."),
    description: z.string(),
    image: z.string().describe("The card's image once the pack is opened, the pack image before."),
    external_url: z.string(),
    attributes: z.array(classicTokenAttributeSchema),
  })
  .meta({ id: "ClassicTokenMetadata" });
export type ClassicTokenMetadata = z.infer<typeof classicTokenMetadataSchema>;

const tokenIdFields = {
  tokenId: exactInteger("The pack's token id (uint256), an exact JSON integer of any size."),
  tokenIdString: decimalString("`tokenId` as a decimal string, for parsers limited to 53 bits."),
};

const rarityFields = {
  rarity: z.number().int().min(0).max(5).describe("0 not assigned, 1 Common … 5 Mythic."),
  rarityName: z.enum(CLASSIC_RARITY_NAMES),
};

/** A pack in a range response (section 2), plus a few facts the live API also sends. */
export const classicRangePackSchema = z
  .object({
    ...tokenIdFields,
    contractAddress: addressString("The game's booster drop"),
    chainId: z.number().int(),
    owner: addressString("The holder (the seller once burned)"),
    status: z.enum(CLASSIC_PACK_STATUSES),
    ...rarityFields,
    randomValue: decimalString("The rarity roll (`tokenSeed mod 10000`); null until assigned.").nullable(),
    tokenSpecificRandomness: decimalString(
      "The pack's onchain token seed (uint256); null until the rarity is assigned.",
    ).nullable(),
    batchId: decimalString("The mint batch."),
    mintTxHash: txHashString("The mint transaction"),
    mintBlockNumber: z.number().int(),
    acquiredAtPackPrice: weiString("The pack price paid at mint, in"),
    mintedAt: isoDateTime("Block time of the mint."),
    openedAt: isoDateTime("Block time of the opening; null until opened.").nullable(),
    latestUpdateTimestamp: isoDateTime("Block time of the pack's latest change."),
    metadata: classicTokenMetadataSchema.optional().describe("With `includeMetadata=true`."),
    contractDetails: classicGameSchema.optional().describe("With `includeContractDetails=true`."),
  })
  .meta({ id: "ClassicRangePack" });
export type ClassicRangePack = z.infer<typeof classicRangePackSchema>;

export const classicRangePageSchema = z
  .object({
    success: z.literal(true),
    boosterBoxes: z.array(classicRangePackSchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicRangePage" });
export type ClassicRangePage = z.infer<typeof classicRangePageSchema>;

/** `GET /classic/owner/{address}`: packs of an owner across games. */
export const classicOwnerQuerySchema = z.object({
  chainId: classicQuery.chainId,
  status: z
    .enum(CLASSIC_PACK_STATUSES, { error: "status must be minted, rarity_assigned, opened or burned" })
    .optional()
    .describe("Only packs in this state (any of the four); absent = every pack the address ever held."),
  page: classicQuery.boundedPage,
  limit: classicQuery.limit(50, 100),
  sortOrder,
  includeMetadata: classicQuery.boolean("Add each pack's token metadata (`metadata`).", false),
  includeContractDetails: classicQuery.boolean("Add each pack's game (`contractDetails`).", false),
});
export type ClassicOwnerQuery = z.output<typeof classicOwnerQuerySchema>;

export const classicAddressParamsSchema = z.object({
  address: classicQuery.address("address"),
});

/** The shared profile of a pack's owner, when the owner's wallet belongs to a market account. */
export const classicUserDataSchema = z
  .object({
    id: z.string().describe("The account id."),
    username: z.string(),
    displayName: z.string().describe("The username, else the verified X username, else empty."),
    profileImage: z.string().nullable(),
    address: addressString("The owner's wallet"),
  })
  .meta({ id: "ClassicUserData" });

/** A pack (booster box) in a holdings view (section 2). */
export const classicHoldingsPackSchema = z
  .object({
    ...tokenIdFields,
    owner: addressString("The holder (the seller once burned)"),
    contractAddress: addressString("The game's booster drop"),
    chainId: z.number().int(),
    status: z.enum(CLASSIC_PACK_STATUSES),
    ...rarityFields,
    batchId: decimalString("The mint batch."),
    tokenSeed: decimalString("The onchain token seed; null until the rarity is assigned.").nullable(),
    randomValue: decimalString("The rarity roll; null until assigned.").nullable(),
    mintTxHash: txHashString("The mint transaction"),
    burnTxHash: txHashString("The sell-back transaction").nullable(),
    rarityAssignedTxHash: txHashString("The rarity assignment transaction").nullable(),
    openedTxHash: txHashString("The opening transaction").nullable(),
    mintBlockNumber: z.number().int(),
    burnBlockNumber: z.number().int().nullable(),
    rarityAssignedBlockNumber: z.number().int().nullable(),
    openedBlockNumber: z.number().int().nullable(),
    rewardAmount: weiString(
      "The sell-back offer of the pack's rarity (paid in ETH by the drop) while unburned, the offer paid once burned; null before the rarity is assigned. In",
    ).nullable(),
    acquiredAtPackPrice: weiString("The pack price paid at mint, in"),
    mintTimestamp: isoDateTime("Mint block time."),
    burnTimestamp: isoDateTime("Sell-back block time.").nullable(),
    rarityAssignedTimestamp: isoDateTime("Rarity assignment block time.").nullable(),
    openedTimestamp: isoDateTime("Opening block time.").nullable(),
    latestUpdateTimestamp: isoDateTime("Block time of the pack's latest change."),
    isMarketfit: z.boolean().describe("The game's marketfit flag."),
    isFirstEdition: z.boolean().describe("Among the drop's first 1,000 token ids."),
    metadata: classicCardSchema
      .nullable()
      .describe("The drawn card with its wear and foil (the card rule); null before the rarity is assigned."),
    contract: classicSearchGameSchema.describe("The game (search variant: `version` a number)."),
    userData: classicUserDataSchema
      .nullable()
      .describe("The owner's shared market profile; null when the wallet has no account."),
  })
  .meta({ id: "ClassicHoldingsPack" });
export type ClassicHoldingsPack = z.infer<typeof classicHoldingsPackSchema>;

/** At most this many boxes in one holdings answer; larger holdings are paged. */
export const CLASSIC_HOLDINGS_MAX = 500;

export const classicHoldingsQuerySchema = z.object({
  contractAddress: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "The game's booster drop address or slug. Optional: without it the answer holds the owner's packs of every game on the chain, grouped by game (ordered by drop address, then token id).",
    ),
  chainId: classicQuery.chainId,
  page: classicQuery.boundedPage,
  limit: classicQuery.limit(CLASSIC_HOLDINGS_MAX, CLASSIC_HOLDINGS_MAX),
});
export type ClassicHoldingsQuery = z.output<typeof classicHoldingsQuerySchema>;

export const classicOwnerAddressParamsSchema = z.object({
  ownerAddress: classicQuery.address("ownerAddress"),
});

/** The holdings response, returned directly (no `success` envelope). */
export const classicHoldingsSchema = z
  .object({
    ownerAddress: addressString("The owner"),
    contractAddress: addressString("The game asked for; null when every game was asked for").nullable(),
    chainId: z.number().int(),
    boxes: z.array(classicHoldingsPackSchema),
    pagination: classicPaginationSchema.describe(
      `Holdings are paged at most ${CLASSIC_HOLDINGS_MAX} boxes at a time (\`page\`, \`limit\`).`,
    ),
  })
  .meta({ id: "ClassicHoldings" });
export type ClassicHoldings = z.infer<typeof classicHoldingsSchema>;

/** `GET /classic/owner/{address}` answer: range-style packs. */
export const classicOwnerPageSchema = z
  .object({
    success: z.literal(true),
    boosterBoxes: z.array(classicRangePackSchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicOwnerPage" });
export type ClassicOwnerPage = z.infer<typeof classicOwnerPageSchema>;

/** `GET /classic/metadata/{addressOrSlug}/{tokenId}` path. */
export const classicTokenMetadataParamsSchema = z.object({
  addressOrSlug: z.string().min(1).max(200).describe("The booster drop address or the game's slug."),
  tokenId: uint256Param("tokenId").describe("The token id (uint256, decimal digits)."),
});

/** Kinds of activity records (`/collection/{contractAddress}/events`, `/recent`). */
export const CLASSIC_ACTIVITY_TYPES = [
  "game_created",
  "mint",
  "rarity_assigned",
  "open",
  "sell_back",
  "transfer",
  "curve_purchase",
  "curve_sale",
  "graduation",
  "pause",
  "resume",
] as const;
export type ClassicActivityType = (typeof CLASSIC_ACTIVITY_TYPES)[number];

/**
 * One onchain activity record of a game, from one log. Which fields are set
 * depends on `type`:
 * - `game_created`: actor = creator;
 * - `mint`: actor = minter, tokenIds = the minted range, ethAmount = price x amount;
 * - `rarity_assigned`: tokenIds = [pack], rarity;
 * - `open`: actor = owner, tokenIds = the opened packs;
 * - `sell_back`: actor = seller, tokenIds = [pack], rarity, ethAmount = the offer paid (the drop pays it in ETH);
 * - `transfer`: actor = sender, to = recipient, tokenIds = [pack] (mints and burns are `mint`/`sell_back`);
 * - `curve_purchase`: actor = buyer, ethAmount = ETH in, tokenAmount = tickets out;
 * - `curve_sale`: actor = seller, tokenAmount = tickets in, ethAmount = ETH out;
 * - `graduation`: ethAmount and tokenAmount = the liquidity moved to the pool, to = the pool;
 * - `pause` / `resume`: the creator paused or resumed minting.
 */
export const classicActivityEventSchema = z
  .object({
    id: z
      .string()
      .regex(/^[0-9a-f]{24}$/)
      .describe("The log's position as 24 hex digits: block number (16) then log index (8)."),
    type: z.enum(CLASSIC_ACTIVITY_TYPES),
    chainId: z.number().int(),
    contractAddress: addressString("The game's booster drop"),
    address: addressString("The contract that emitted the log (the drop, its token, or the factory)"),
    blockNumber: z.number().int().min(0),
    logIndex: z.number().int().min(0),
    txHash: txHashString("The transaction"),
    timestamp: isoDateTime("Block time."),
    tokenIds: z.array(decimalString("A token id")).describe("Pack token ids as exact decimal strings."),
    actor: addressString("Who acted (minter, owner, buyer, seller, sender, creator)").nullable(),
    to: addressString("Recipient of a transfer, or the pool of a graduation").nullable(),
    rarity: z.number().int().min(1).max(5).nullable(),
    ethAmount: weiString("ETH moved, in").nullable(),
    tokenAmount: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,77})$/)
      .nullable()
      .describe("Tickets (the game's token) moved, in base units (18 decimals), as a decimal string."),
  })
  .meta({ id: "ClassicActivityEvent" });
export type ClassicActivityEvent = z.infer<typeof classicActivityEventSchema>;

/** `<block>:<logIndex>`: the events after this log position. */
const EVENTS_CURSOR = /^(0|[1-9][0-9]{0,17}):(0|[1-9][0-9]{0,8})$/;

export const classicCollectionEventsQuerySchema = z.object({
  chainId: classicQuery.chainId,
  limit: classicQuery.limit(100, 200),
  cursor: z
    .string()
    .regex(EVENTS_CURSOR, "cursor must be a nextCursor this route returned (`<block>:<logIndex>`)")
    .optional()
    .describe(
      "Opaque; pass the `nextCursor` of the previous answer. Block-number based (`<block>:<logIndex>`): the answer holds the events strictly after that log. Absent = from the game's first event.",
    ),
});
export type ClassicCollectionEventsQuery = z.output<typeof classicCollectionEventsQuerySchema>;

export const classicContractAddressParamsSchema = z.object({
  contractAddress: z.string().min(1).max(200).describe("The booster drop address or the game's slug."),
});

export const classicCollectionEventsSchema = z
  .object({
    success: z.literal(true),
    events: z.array(classicActivityEventSchema).describe("Oldest first, by (blockNumber, logIndex)."),
    nextCursor: z
      .string()
      .nullable()
      .describe(
        "Where the next poll continues: the last event's position, or the cursor sent when there was none new (null when neither).",
      ),
    hasMore: z.boolean().describe("More events already follow; poll again at once."),
    head: z
      .number()
      .int()
      .nullable()
      .describe("The last block the indexer has applied for this game's chain; null before it indexed any."),
  })
  .meta({ id: "ClassicCollectionEvents" });
export type ClassicCollectionEvents = z.infer<typeof classicCollectionEventsSchema>;

/** `<unix ms>-<24 hex digits>`: the events older than this one. */
const RECENT_CURSOR = /^(0|[1-9][0-9]{0,15})-[0-9a-f]{24}$/;
/** Within what a date, a bigint block number and an integer log index hold. */
function recentCursorInRange(cursor: string): boolean {
  if (!RECENT_CURSOR.test(cursor)) return false;
  const [ms = "", objectId = ""] = cursor.split("-");
  return (
    Number(ms) <= 8_640_000_000_000_000 &&
    BigInt(`0x${objectId.slice(0, 16)}`) < 1n << 63n &&
    Number.parseInt(objectId.slice(16), 16) < 2 ** 31
  );
}

export const classicRecentQuerySchema = z.object({
  chainId: classicQuery.chainId,
  limit: classicQuery.limit(50, 100),
  cursor: z
    .string()
    .regex(RECENT_CURSOR, "cursor must be a nextCursor this route returned (`<timestamp>-<objectId>`)")
    .refine(recentCursorInRange, "cursor must be a nextCursor this route returned (`<timestamp>-<objectId>`)")
    .optional()
    .describe(
      "Opaque; pass the `nextCursor` of the previous answer. Form `timestamp-objectId`: Unix milliseconds of the block time, then 24 hex digits (block number, 16, and log index, 8). The answer holds the events older than that one. Absent = the newest.",
    ),
});
export type ClassicRecentQuery = z.output<typeof classicRecentQuerySchema>;

export const classicRecentSchema = z
  .object({
    success: z.literal(true),
    events: z
      .array(classicActivityEventSchema)
      .describe("Newest first: block time, block number, log index."),
    nextCursor: z
      .string()
      .nullable()
      .describe("The cursor of the next older page; null when this was the last."),
  })
  .meta({ id: "ClassicRecent" });
export type ClassicRecent = z.infer<typeof classicRecentSchema>;
