import { z } from "zod";
import {
  addressString,
  CLASSIC_USD_FORMAT,
  classicPaginationSchema,
  classicQuery,
  classicUsdString,
  isoDateTime,
  weiString,
} from "./common.ts";
import { classicGameParamsSchema } from "./games.ts";

/**
 * Leaderboards and platform statistics of the classic projection. Counts are
 * JSON integers; Wei amounts decimal strings. Ranks start at 1 and are
 * total: ties are broken as each route documents, ending with the address,
 * so a page never repeats or skips an entry between two reads of one state.
 */

/** `GET /classic/leaderboards/collectors` query. */
export const classicCollectorsQuerySchema = z.object({
  chainId: classicQuery.chainId,
  contractAddress: classicQuery
    .address("contractAddress")
    .optional()
    .describe("Only the packs of this drop (an address; slugs are not taken here)."),
  limit: classicQuery.limit(25, 100),
  page: classicQuery.boundedPage,
});

export const classicCollectorSchema = z
  .object({
    rank: z.number().int().min(1),
    address: addressString("The wallet"),
    packsHeld: z
      .number()
      .int()
      .min(0)
      .describe("Packs the wallet owns now (minted, rarity assigned or opened)."),
    packsOpened: z
      .number()
      .int()
      .min(0)
      .describe("Of those, the opened ones (`opened`, randomness pending, or `rarity_assigned`)."),
    packsBurned: z.number().int().min(0).describe("Packs the wallet sold back (burned) while owning them."),
    spentWei: weiString(
      "Sum of the mint price (`acquiredAtPackPrice`) of every pack counted above (held or burned), in",
    ),
  })
  .meta({ id: "ClassicCollector" });
export type ClassicCollector = z.infer<typeof classicCollectorSchema>;

export const classicCollectorsPageSchema = z
  .object({
    success: z.literal(true),
    leaderboard: z.array(classicCollectorSchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicCollectorsPage" });
export type ClassicCollectorsPage = z.infer<typeof classicCollectorsPageSchema>;

export const CLASSIC_GAME_LEADERBOARD_SORTS = ["volume", "packs"] as const;

/** `GET /classic/leaderboards/games` query. */
export const classicGameLeaderboardQuerySchema = z.object({
  chainId: classicQuery.chainId,
  sortBy: z
    .enum(CLASSIC_GAME_LEADERBOARD_SORTS, { error: "sortBy must be volume or packs" })
    .default("volume")
    .describe(
      "`volume` (default): mint volume in Wei, then packs minted; `packs`: packs minted, then mint volume. Both descending, then the drop address ascending.",
    ),
  limit: classicQuery.limit(25, 100),
  page: classicQuery.page,
});

export const classicGameLeaderboardEntrySchema = z
  .object({
    rank: z.number().int().min(1),
    address: addressString("The game's booster drop"),
    name: z.string().describe("The game's NFT name."),
    slug: z.string().describe("The creator's slug, or the default `<name>-<gameId>`."),
    volumeWei: weiString("Wei paid for packs of this game (mint volume), in"),
    packsMinted: z.number().int().min(0),
    holders: z.number().int().min(0).describe("Distinct wallets holding at least one unburned pack."),
  })
  .meta({ id: "ClassicGameLeaderboardEntry" });
export type ClassicGameLeaderboardEntry = z.infer<typeof classicGameLeaderboardEntrySchema>;

export const classicGameLeaderboardPageSchema = z
  .object({
    success: z.literal(true),
    leaderboard: z.array(classicGameLeaderboardEntrySchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicGameLeaderboardPage" });
export type ClassicGameLeaderboardPage = z.infer<typeof classicGameLeaderboardPageSchema>;

/** `GET /classic/stats` query. */
export const classicStatsQuerySchema = z.object({ chainId: classicQuery.chainId });

export const classicStatsSchema = z
  .object({
    success: z.literal(true),
    stats: z.object({
      chainId: z.number().int(),
      games: z.number().int().min(0),
      activeGames: z.number().int().min(0).describe("Games whose drop is open for minting."),
      graduatedGames: z.number().int().min(0),
      packsMinted: z.number().int().min(0),
      packsOpened: z.number().int().min(0),
      packsBurned: z.number().int().min(0),
      holders: z.number().int().min(0).describe("Distinct wallets holding at least one unburned pack."),
      mintVolumeWei: weiString("Wei paid for packs, all games, in"),
      mintVolumeUsd: classicUsdString("`mintVolumeWei`"),
      rewardsPaidWei: weiString("Wei paid out for sold-back (burned) packs, in"),
      last24h: z.object({
        packsMinted: z.number().int().min(0),
        mintVolumeWei: weiString("Wei paid for the packs minted in the last 24 hours, in"),
      }),
      updatedAt: isoDateTime(
        "Latest change of any game of the chain in the projection; null without games.",
      ).nullable(),
    }),
  })
  .meta({ id: "ClassicStats" });
export type ClassicStats = z.infer<typeof classicStatsSchema>;

// Live-compatible reads: the ETH price, a drop's price chart and its collection statistics ----------

/** `GET /classic/eth-price`: the ETH/USD price every `…Usd` field uses (the live service's `GET /eth-price`). */
export const classicEthPriceSchema = z
  .object({
    success: z.literal(true),
    price: z
      .number()
      .positive()
      .describe("US dollars per ETH as a JSON number (`4662.53`), as the price source gave it."),
    priceFormatted: z
      .string()
      .regex(CLASSIC_USD_FORMAT)
      .describe(
        '`price` as the live service writes it: `$`, thousands separated by commas, two decimals, rounded down to the cent (`"$4,662.53"`).',
      ),
    lastUpdated: isoDateTime(
      "When the price was obtained: the fixed source's start, or the HTTP source's last successful fetch.",
    ),
  })
  .meta({ id: "ClassicEthPrice" });
export type ClassicEthPrice = z.infer<typeof classicEthPriceSchema>;

/** The windows of `GET /classic/price-chart/{address}` and the width of their buckets. */
export const CLASSIC_CHART_TIMEFRAMES = {
  "1h": { windowMs: 3_600_000, bucketMs: 300_000, interval: "5m" },
  "24h": { windowMs: 86_400_000, bucketMs: 3_600_000, interval: "1h" },
  "7d": { windowMs: 604_800_000, bucketMs: 21_600_000, interval: "6h" },
  "30d": { windowMs: 2_592_000_000, bucketMs: 86_400_000, interval: "1d" },
} as const;
export type ClassicChartTimeframe = keyof typeof CLASSIC_CHART_TIMEFRAMES;
const TIMEFRAMES = Object.keys(CLASSIC_CHART_TIMEFRAMES) as [
  ClassicChartTimeframe,
  ...ClassicChartTimeframe[],
];

/** `GET /classic/price-chart/{addressOrSlug}` query. */
export const classicPriceChartQuerySchema = z.object({
  chainId: classicQuery.chainId,
  timeframe: z
    .enum(TIMEFRAMES, { error: `timeframe must be one of ${TIMEFRAMES.join(", ")}` })
    .default("24h")
    .describe(
      "The window: `1h` (5-minute points), `24h` (hourly, the default), `7d` (6-hourly) or `30d` (daily).",
    ),
  includeStats: classicQuery.boolean(
    "Add `stats` (current, open, high, low, change, volume, trades).",
    false,
  ),
});
export type ClassicPriceChartQuery = z.output<typeof classicPriceChartQuerySchema>;

export const classicPricePointSchema = z
  .object({
    timestamp: isoDateTime("Start of the bucket (UTC-aligned to the bucket width)."),
    price: weiString(
      "The pack price of the bucket: Wei paid per pack by its mints (their volume over their packs, rounded down); in a bucket without mints, the last known price carried forward,",
    ),
    priceUsd: classicUsdString("`price`")
      .nullable()
      .describe('`price` in US dollars (`"$3.00"`), null while no ETH/USD price is known.'),
    trades: z
      .number()
      .int()
      .min(0)
      .describe("Mint transactions in the bucket (0: the price is carried forward)."),
    volume: weiString("Wei paid for packs in the bucket, in"),
  })
  .meta({ id: "ClassicPricePoint" });
export type ClassicPricePoint = z.infer<typeof classicPricePointSchema>;

export const classicPriceChartStatsSchema = z
  .object({
    current: weiString("The last point's price, in"),
    open: weiString("The first point's price, in"),
    high: weiString("The highest point price in the window, in"),
    low: weiString("The lowest point price in the window, in"),
    change: z.number().describe("`(current - open) / open` in percent, two decimals; 0 when `open` is 0."),
    volume: weiString("Wei paid for packs in the window, in"),
    trades: z.number().int().min(0).describe("Mint transactions in the window."),
  })
  .meta({ id: "ClassicPriceChartStats" });

export const classicPriceChartSchema = z
  .object({
    success: z.literal(true),
    chainId: z.number().int(),
    contractAddress: addressString("The game's booster drop"),
    timeframe: z.enum(TIMEFRAMES),
    interval: z.enum(["5m", "1h", "6h", "1d"]).describe("The width of one point's bucket."),
    points: z
      .array(classicPricePointSchema)
      .describe(
        "Oldest first, one per bucket from the window's first to the bucket holding now (at most 12, 24, 28 or 30 for 1h, 24h, 7d, 30d); a game younger than the window starts at the bucket of its creation.",
      ),
    stats: classicPriceChartStatsSchema.optional().describe("With `includeStats=true`."),
  })
  .meta({ id: "ClassicPriceChart" });
export type ClassicPriceChart = z.infer<typeof classicPriceChartSchema>;

/** `GET /classic/collection/{contractAddress}/stats` path: the drop address or the game's slug. */
export const classicCollectionStatsParamsSchema = z.object({
  contractAddress: classicGameParamsSchema.shape.addressOrSlug,
});

/** `GET /classic/collection/{contractAddress}/stats` query. */
export const classicCollectionStatsQuerySchema = z.object({ chainId: classicQuery.chainId });

export const classicCollectionStatsSchema = z
  .object({
    success: z.literal(true),
    stats: z.object({
      chainId: z.number().int(),
      contractAddress: addressString("The game's booster drop"),
      tokenAddress: addressString("The game's ticket token"),
      name: z.string().describe("The game's NFT name."),
      slug: z.string().describe("The creator's slug, or the default `<name>-<gameId>`."),
      packsMinted: z.number().int().min(0),
      packsOpened: z.number().int().min(0).describe("Packs ever opened (sold-back ones included)."),
      packsBurned: z.number().int().min(0).describe("Packs sold back to the drop."),
      packsHeld: z.number().int().min(0).describe("Packs that exist now: minted and not burned."),
      packsUnopened: z.number().int().min(0).describe("Of those, packs not opened yet."),
      holders: z.number().int().min(0).describe("Distinct wallets holding at least one unburned pack."),
      collectors: z.number().int().min(0).describe("Distinct wallets holding or having burned a pack."),
      volumeWei: weiString("Wei paid for packs (mint volume), all time, in"),
      volumeUsd: classicUsdString("`volumeWei`")
        .nullable()
        .describe("`volumeWei` in US dollars; null without an ETH/USD price."),
      pricePerPack: weiString("Price of one pack now (as the game's `pricePerPack`), in"),
      pricePerPackUsd: classicUsdString("`pricePerPack`")
        .nullable()
        .describe("Null without an ETH/USD price."),
      marketCap: weiString("Spot price of the ticket token times its supply (as the game's `marketCap`), in"),
      marketCapUsd: classicUsdString("`marketCap`").nullable().describe("Null without an ETH/USD price."),
      isGraduated: z.boolean(),
      isActive: z.boolean(),
      last24h: z.object({
        packsMinted: z.number().int().min(0),
        volumeWei: weiString("Wei paid for the packs minted in the last 24 hours (by block time), in"),
        trades: z.number().int().min(0).describe("Mint transactions in the last 24 hours."),
      }),
      updatedAt: isoDateTime("Latest change of the game onchain."),
    }),
  })
  .meta({ id: "ClassicCollectionStats" });
export type ClassicCollectionStats = z.infer<typeof classicCollectionStatsSchema>;
