import { z } from "zod";
import { addressString, classicPaginationSchema, classicQuery, isoDateTime, weiString } from "./common.ts";

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
    packsOpened: z.number().int().min(0).describe("Of those, the opened ones."),
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
      mintVolumeUsd: z.string().describe("`mintVolumeWei` in US dollars at the current rate, two decimals."),
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
