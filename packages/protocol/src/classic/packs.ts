import { z } from "zod";
import { integerParam } from "../params/index.ts";
import {
  addressString,
  CLASSIC_PACK_STATUS_LIFECYCLE,
  CLASSIC_PACK_STATUSES,
  CLASSIC_PAGE_DEPTH_RULE,
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

/** The `status` filter of `/range`: exactly the three statuses the Classic document lists for it. */
export const CLASSIC_RANGE_STATUS_FILTER = ["minted", "rarity_assigned", "burned"] as const;
export const CLASSIC_RANGE_SORTS = ["latestUpdateTimestamp", "tokenId", "mintedAt", "rarity"] as const;

const sortOrder = z
  .enum(["asc", "desc"], { error: "sortOrder must be asc or desc" })
  .default("desc")
  .describe("`asc` or `desc`; default `desc`.");

/** `GET /classic/range`: the packs of one game, filtered, sorted and paged. */
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
      "Only packs in this state: `minted`, `rarity_assigned` or `burned`, the values the Classic document lists for this filter. `opened` (randomness pending, usually for a block or two) cannot be selected with it; such packs are listed without the filter.",
    ),
  rarity: integerParam("rarity", { min: 0, max: 4, rangeMessage: "rarity must be an integer 0 to 4" })
    .optional()
    .describe(
      "Only packs of this rarity code: 0 not assigned, 1 Common, 2 Rare, 3 Epic, 4 Legendary. The filter is bounded to 0..4, as on the live service, so Mythic (5) packs cannot be selected by rarity (they are still listed without the filter).",
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
    image: z
      .string()
      .describe(
        "The card's image once the pack is opened, the pack image before (proxied unless `X-Bypass-Image-Proxy: true`, when the image proxy serves it).",
      ),
    imageUrl: z
      .string()
      .describe("What to show for the pack: the same URL as `image` (the live service's name for it)."),
    originalImageUrl: z
      .string()
      .describe(
        "The URL of `image` as the creator gave it (or our generated art), never rewritten to the image proxy.",
      ),
    unopenedImageUrl: z
      .string()
      .describe("The pack image (the card's unopened image, else the game's pack image, else our art)."),
    external_url: z.string(),
    animation_url: z
      .literal("")
      .describe(
        'Always `""`: packs and cards are still images (uploads accept PNG, JPEG and WebP only), so there is no multimedia attachment. Present because clients of the live service read it as a string; marketplaces treat an empty `animation_url` as none.',
      ),
    attributes: z.array(classicTokenAttributeSchema),
    foil: z
      .string()
      .nullable()
      .describe(
        "The pack's foil under the card rule (`Prize`, `Standard` or `None`); null until its card is drawn (rarity assigned).",
      ),
    wear: z
      .string()
      .nullable()
      .describe(
        "The pack's wear under the card rule (`Pristine`, `Mint`, `Lightly Played`, `Moderately Played`, `Heavily Played`); null until its card is drawn.",
      ),
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

/** `_id` of a pack: 24 lowercase hex digits, the live service's id form. */
export const CLASSIC_PACK_ID_PATTERN = /^[0-9a-f]{24}$/;

/**
 * A pack in a range response, plus a few facts the live API also
 * sends. The same shape is every pack list's item (`/range`, `/owner`'s two
 * views, `/recent`'s box view, `/contractAddress/{x}/all`) and, with
 * `isNSFW`, the one-pack answer: the document says the payload may gain
 * fields over time, so one shape serves both the document's clients and the
 * live service's.
 */
export const classicRangePackSchema = z
  .object({
    _id: z
      .string()
      .regex(CLASSIC_PACK_ID_PATTERN)
      .describe(
        "An opaque, stable identifier of the pack in the live service's id form (24 lowercase hex digits): the first 24 hex digits of keccak256(abi.encode(uint256 chainId, address drop, uint256 tokenId)). Distinct per pack, the same on every read.",
      ),
    ...tokenIdFields,
    contractAddress: addressString("The game's booster drop"),
    chainId: z.number().int(),
    owner: addressString("The holder (the seller once burned)"),
    status: z.enum(CLASSIC_PACK_STATUSES).describe(CLASSIC_PACK_STATUS_LIFECYCLE),
    ...rarityFields,
    randomValue: decimalString("The rarity roll (`tokenSeed mod 10000`); null until assigned.").nullable(),
    tokenSpecificRandomness: decimalString(
      "The pack's onchain token seed (uint256); null until the rarity is assigned.",
    ).nullable(),
    batchId: decimalString("The open batch (one `open` call, one `RarityAssigned`); 0 until opened."),
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

/** The bound of `rarityGreaterThan` (the live clients' box-view filter): only packs of a higher rarity code. */
const rarityGreaterThan = integerParam("rarityGreaterThan", {
  min: 0,
  max: 4,
  rangeMessage: "rarityGreaterThan must be an integer 0 to 4",
}).describe(
  "Only packs whose rarity code is above this (0 to 4; 2 = Epic, Legendary and Mythic). Selects the box view (`boxes`).",
);

const boxContractAddress = (what: string) =>
  z
    .string()
    .min(1, "contractAddress must not be empty")
    .max(200)
    .describe(`The game's booster drop address or slug: only its packs. ${what}`);

/** `GET /classic/owner/{address}`: packs of an owner across games. */
export const classicOwnerQuerySchema = z.object({
  contractAddress: boxContractAddress(
    "Selects the box view (`boxes`, the live service's answer to this filter).",
  ).optional(),
  rarityGreaterThan: rarityGreaterThan.optional(),
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

/** A pack (booster box) in a holdings view. */
export const classicHoldingsPackSchema = z
  .object({
    ...tokenIdFields,
    owner: addressString("The holder (the seller once burned)"),
    contractAddress: addressString("The game's booster drop"),
    chainId: z.number().int(),
    status: z.enum(CLASSIC_PACK_STATUSES).describe(CLASSIC_PACK_STATUS_LIFECYCLE),
    ...rarityFields,
    batchId: decimalString("The open batch (one `open` call, one `RarityAssigned`); 0 until opened."),
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
    rewardAmount: decimalString(
      "The sell-back offer of the pack's rarity, in the drop's token (its smallest unit; the token has 18 decimals): the offer `sellAndClaimOffer` would mint while unburned, the offer paid once burned; null before the rarity is assigned.",
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

/** `GET /classic/owner/{address}` answer without a box-view filter: range-style packs. */
export const classicOwnerPageSchema = z
  .object({
    success: z.literal(true),
    boosterBoxes: z.array(classicRangePackSchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicOwnerPage" });
export type ClassicOwnerPage = z.infer<typeof classicOwnerPageSchema>;

/**
 * The box view: the answer the live service's clients read (`boxes`) from
 * `/owner/{address}` and `/recent` when they send a pack filter
 * (`contractAddress`, `rarityGreaterThan`), and from
 * `/contractAddress/{addressOrSlug}/all`.
 */
export const classicBoxPageSchema = z
  .object({
    success: z.literal(true),
    boxes: z.array(classicRangePackSchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicBoxPage" });
export type ClassicBoxPage = z.infer<typeof classicBoxPageSchema>;

/** A pack in the box view: the range pack (one schema; the name says where the live clients read it). */
export const classicLiveBoxSchema = classicRangePackSchema;
export type ClassicLiveBox = ClassicRangePack;

const BOX_VIEW_KEYS =
  "present in the box view (the request has `contractAddress` or `rarityGreaterThan`), absent otherwise.";

/**
 * `GET /classic/owner/{address}`'s 200, both views in one object (the response
 * serializer compiles one object; a union would make it try each branch):
 * `boosterBoxes` without a box-view filter, `boxes` with one; `success` and
 * `pagination` always.
 */
export const classicOwnerAnswerSchema = z
  .object({
    success: z.literal(true),
    boosterBoxes: z
      .array(classicRangePackSchema)
      .optional()
      .describe(
        "The owner's packs: present without a box-view filter (no `contractAddress`, no `rarityGreaterThan`), absent otherwise.",
      ),
    boxes: z
      .array(classicRangePackSchema)
      .optional()
      .describe(`The owner's packs of that game and/or above that rarity: ${BOX_VIEW_KEYS}`),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicOwnerAnswer" });
export type ClassicOwnerAnswer = z.infer<typeof classicOwnerAnswerSchema>;

/** `GET /classic/` and `/classic/contractAddress/{addressOrSlug}/tokenId/{tokenId}`: one pack, with its game's NSFW flag. */
export const classicPackDetailSchema = classicRangePackSchema
  .extend({
    isNSFW: z.boolean().describe("The game's NSFW flag (its metadata revision in effect)."),
  })
  .meta({ id: "ClassicPackDetail" });
export type ClassicPackDetail = z.infer<typeof classicPackDetailSchema>;

export const classicPackAnswerSchema = z
  .object({ success: z.literal(true), boosterBox: classicPackDetailSchema })
  .meta({ id: "ClassicPackAnswer" });
export type ClassicPackAnswer = z.infer<typeof classicPackAnswerSchema>;

const packReadOptions = {
  chainId: classicQuery.chainId,
  includeMetadata: classicQuery.boolean("Add the pack's token metadata (`metadata`).", false),
  includeContractDetails: classicQuery.boolean("Add the game (`contractDetails`, the games variant).", false),
};

/** `GET /classic/` (the live service's `GET /`): one pack by query. */
export const classicPackQuerySchema = z.object({
  tokenId: uint256Param("tokenId").describe("The pack's token id (uint256, decimal digits). Required."),
  contractAddress: z
    .string()
    .min(1, "contractAddress is required")
    .max(200)
    .describe("The game's booster drop address or slug. Required."),
  ...packReadOptions,
});
export type ClassicPackQuery = z.output<typeof classicPackQuerySchema>;

/** `GET /classic/contractAddress/{addressOrSlug}/tokenId/{tokenId}`: one pack by path. */
export const classicPackParamsSchema = z.object({
  addressOrSlug: z.string().min(1).max(200).describe("The booster drop address or the game's slug."),
  tokenId: uint256Param("tokenId").describe("The token id (uint256, decimal digits)."),
});
export const classicPackPathQuerySchema = z.object(packReadOptions);
export type ClassicPackPathQuery = z.output<typeof classicPackPathQuerySchema>;

/** `GET /classic/contractAddress/{addressOrSlug}/all`: every pack of a drop in token id order. */
export const classicDropPacksQuerySchema = z.object({
  chainId: classicQuery.chainId,
  page: classicQuery.boundedPage,
  limit: classicQuery.limit(50, 100),
  includeMetadata: classicQuery.boolean("Add each pack's token metadata (`metadata`).", false),
  includeContractDetails: classicQuery.boolean("Add the game (`contractDetails`).", false),
});
export type ClassicDropPacksQuery = z.output<typeof classicDropPacksQuerySchema>;

/** `GET /classic/rarity`: the rarity of the packs an opening transaction opened. */
export const classicRarityQuerySchema = z.object({
  transactionHash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "transactionHash must be a 0x-prefixed 32-byte hash")
    .transform((value) => value.toLowerCase())
    .describe("The opening transaction (`open`), 0x-prefixed 32-byte hash, any case. Required."),
  contractAddress: z
    .string()
    .min(1, "contractAddress is required")
    .max(200)
    .describe("The game's booster drop address or slug. Required."),
  chainId: classicQuery.chainId,
});
export type ClassicRarityQuery = z.output<typeof classicRarityQuerySchema>;

const rarityOfPackFields = {
  ...tokenIdFields,
  rarity: z
    .number()
    .int()
    .min(0)
    .max(5)
    .describe("0 while the rarity is pending (`NOT_ASSIGNED`), else 1 Common … 5 Mythic."),
  rarityName: z.enum(CLASSIC_RARITY_NAMES),
  randomValue: decimalString("The rarity roll (`tokenSeed mod 10000`); null while pending.").nullable(),
  tokenSpecificRandomness: decimalString("The pack's token seed (uint256); null while pending.").nullable(),
};

export const classicPackRaritySchema = z.object(rarityOfPackFields).meta({ id: "ClassicPackRarity" });
export type ClassicPackRarity = z.infer<typeof classicPackRaritySchema>;

export const classicRaritySchema = z
  .object({
    success: z.literal(true),
    ...rarityOfPackFields,
    packs: z
      .array(classicPackRaritySchema)
      .describe(
        "Every pack of that drop the transaction opened, by token id; the top-level fields are the first (lowest token id).",
      ),
  })
  .meta({ id: "ClassicRarity" });
export type ClassicRarity = z.infer<typeof classicRaritySchema>;

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

/** The `/recent` parameters of the box view only: with a cursor (the activity feed's), any of them is a 400. */
export const CLASSIC_RECENT_BOX_PARAMS = [
  "contractAddress",
  "rarityGreaterThan",
  "status",
  "page",
  "includeMetadata",
  "includeContractDetails",
] as const;
export type ClassicRecentBoxParam = (typeof CLASSIC_RECENT_BOX_PARAMS)[number];

const boxOnly = (text: string) =>
  `${text} Box view only (400 with \`cursor\`, or without \`contractAddress\` and \`rarityGreaterThan\`).`;

export const classicRecentQuerySchema = z
  .object({
    contractAddress: boxContractAddress(
      "Selects the box view (`boxes`): that game's packs, most recently changed first.",
    ).optional(),
    rarityGreaterThan: rarityGreaterThan.optional(),
    status: z
      .enum(CLASSIC_PACK_STATUSES, { error: "status must be minted, rarity_assigned, opened or burned" })
      .optional()
      .describe(boxOnly("Only packs in this state.")),
    page: integerParam("page", { min: 1, max: 1_000_000 })
      .optional()
      .describe(boxOnly(`Page number, from 1 (default 1). ${CLASSIC_PAGE_DEPTH_RULE}`)),
    includeMetadata: classicQuery.optionalBoolean(boxOnly("Add each pack's token metadata (`metadata`).")),
    includeContractDetails: classicQuery.optionalBoolean(
      boxOnly("Add each pack's game (`contractDetails`)."),
    ),
    chainId: classicQuery.chainId,
    limit: classicQuery.limit(50, 100),
    cursor: z
      .string()
      .regex(RECENT_CURSOR, "cursor must be a nextCursor this route returned (`<timestamp>-<objectId>`)")
      .refine(
        recentCursorInRange,
        "cursor must be a nextCursor this route returned (`<timestamp>-<objectId>`)",
      )
      .optional()
      .describe(
        "Opaque; pass the `nextCursor` of the previous answer. Form `timestamp-objectId`: Unix milliseconds of the block time, then 24 hex digits (block number, 16, and log index, 8). The answer holds the events older than that one. Absent = the newest. Activity feed only: with a box-view parameter it is a 400.",
      ),
  })
  .superRefine((query, context) => {
    const box = CLASSIC_RECENT_BOX_PARAMS.filter((name) => query[name] !== undefined);
    if (box.length === 0) return;
    if (query.cursor !== undefined)
      context.addIssue({
        code: "custom",
        path: ["cursor"],
        message: `cursor pages the activity feed and cannot be combined with the box view's ${box.join(", ")}`,
      });
    else if (query.contractAddress === undefined && query.rarityGreaterThan === undefined)
      context.addIssue({
        code: "custom",
        path: [box[0] ?? "page"],
        message: `${box.join(", ")} apply only to the box view: add contractAddress or rarityGreaterThan`,
      });
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

/**
 * `GET /classic/recent`'s 200, both views in one object (one serializer, no
 * branch trial): the activity feed (`events`, `nextCursor`) without a
 * box-view filter, the box view (`boxes`, `pagination`) with one.
 */
export const classicRecentAnswerSchema = z
  .object({
    success: z.literal(true),
    events: z
      .array(classicActivityEventSchema)
      .optional()
      .describe(
        "Activity, newest first: present in the activity feed (no `contractAddress`, no `rarityGreaterThan`), absent in the box view.",
      ),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .describe(
        "The activity feed's cursor of the next older page (null on the last); absent in the box view.",
      ),
    boxes: z
      .array(classicRangePackSchema)
      .optional()
      .describe(`Packs, most recently changed first: ${BOX_VIEW_KEYS}`),
    pagination: classicPaginationSchema.optional().describe(`The box view's pages: ${BOX_VIEW_KEYS}`),
  })
  .meta({ id: "ClassicRecentAnswer" });
export type ClassicRecentAnswer = z.infer<typeof classicRecentAnswerSchema>;
