import {
  CLASSIC_ERROR_CODES,
  type ClassicCollector,
  type ClassicGameLeaderboardEntry,
  type ClassicPagination,
  type ClassicStats,
  defaultGameSlug,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { AppError } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { assertPageDepth } from "../page-depth.ts";
import { type EthUsdPriceSource, weiToUsdText } from "../price.ts";

export interface PageRequest {
  page: number;
  limit: number;
}

export interface ClassicStatsService {
  /** The collectors' leaderboard, of one game or of every game of the chain, one page. */
  collectors(
    query: { chainId: number; contractAddress?: string | undefined } & PageRequest,
  ): Promise<{ leaderboard: ClassicCollector[]; pagination: ClassicPagination }>;
  /** The games' leaderboard, by mint volume or packs minted, one page. */
  games(
    query: { chainId: number; sortBy: "volume" | "packs" } & PageRequest,
  ): Promise<{ leaderboard: ClassicGameLeaderboardEntry[]; pagination: ClassicPagination }>;
  /** Throws PRICE_UNAVAILABLE (503) without an ETH/USD price. */
  platform(chainId: number): Promise<ClassicStats["stats"]>;
}

const DAY_MS = 86_400_000;

interface CollectorRow {
  owner: string;
  held: string;
  opened: string;
  burned: string;
  spent: string;
}

const paginationOf = ({ page, limit }: PageRequest, total: number): ClassicPagination => ({
  page,
  limit,
  total,
  totalPages: Math.ceil(total / limit),
});

/** A count the database returns as numeric/int8 text, as a JSON integer (counts of packs stay far below 2^53). */
const count = (value: string | number | null | undefined) => Number(value ?? 0);
/** A Wei sum as a plain decimal string (numeric sums of integers carry no fraction). */
const wei = (value: string | null | undefined) => BigInt(value ?? "0").toString();

export const priceUnavailable = () =>
  new AppError("unavailable", "the ETH/USD price is temporarily unavailable; retry shortly", {
    code: CLASSIC_ERROR_CODES.priceUnavailable,
    retryAfterSeconds: 60,
  });

/**
 * Leaderboards and platform statistics, read from the classic projection
 * (`classic_games`, `classic_packs`). Every list is one bounded page in a
 * total order (ties broken down to the address), counted in the same query.
 */
export function createClassicStatsService({
  db,
  clock,
  price,
}: {
  db: Database;
  clock: Clock;
  price: EthUsdPriceSource | undefined;
}): ClassicStatsService {
  return {
    async collectors({ chainId, contractAddress, page, limit }) {
      assertPageDepth(page, limit);
      // The summaries the classic_packs triggers keep (migration 0032): one index range per page.
      const { rows } =
        contractAddress === undefined
          ? await sql<CollectorRow>`
              SELECT owner, held, held_opened AS opened, burned, spent FROM classic_collectors
              WHERE chain_id = ${chainId}
              ORDER BY held DESC, held_opened DESC, spent DESC, owner ASC
              LIMIT ${limit} OFFSET ${(page - 1) * limit}`.execute(db.kysely)
          : await sql<CollectorRow>`
              SELECT owner, held, held_opened AS opened, burned, spent FROM classic_game_collectors
              WHERE chain_id = ${chainId} AND contract_address = ${contractAddress}
              ORDER BY held DESC, held_opened DESC, spent DESC, owner ASC
              LIMIT ${limit} OFFSET ${(page - 1) * limit}`.execute(db.kysely);
      const { rows: totals } =
        contractAddress === undefined
          ? await sql<{ total: string }>`
              SELECT collectors AS total FROM classic_platform_totals WHERE chain_id = ${chainId}`.execute(
              db.kysely,
            )
          : await sql<{ total: string }>`
              SELECT collectors AS total FROM classic_game_holders
              WHERE chain_id = ${chainId} AND contract_address = ${contractAddress}`.execute(db.kysely);
      return {
        leaderboard: rows.map((row, index) => ({
          rank: (page - 1) * limit + index + 1,
          address: row.owner,
          packsHeld: count(row.held),
          packsOpened: count(row.opened),
          packsBurned: count(row.burned),
          spentWei: wei(row.spent),
        })),
        pagination: paginationOf({ page, limit }, count(totals[0]?.total)),
      };
    },

    async games({ chainId, sortBy, page, limit }) {
      const order =
        sortBy === "volume"
          ? sql`g.mint_volume DESC, g.packs_minted DESC, g.drop_address ASC`
          : sql`g.packs_minted DESC, g.mint_volume DESC, g.drop_address ASC`;
      const { rows } = await sql<{
        drop_address: string;
        nft_name: string;
        game_id: string;
        slug: string;
        creator_slug: string | null;
        mint_volume: string;
        packs_minted: string;
        total: string;
      }>`
        SELECT g.drop_address, g.nft_name, g.game_id, g.slug, s.slug AS creator_slug,
               g.mint_volume, g.packs_minted, count(*) OVER () AS total
        FROM classic_games g
        LEFT JOIN classic_slugs s ON s.chain_id = g.chain_id AND s.contract_address = g.drop_address
        WHERE g.chain_id = ${chainId}
        ORDER BY ${order}
        LIMIT ${limit} OFFSET ${(page - 1) * limit}`.execute(db.kysely);
      const holders = new Map<string, number>();
      if (rows.length > 0) {
        const counted = await sql<{ contract_address: string; holders: string }>`
          SELECT contract_address, holders FROM classic_game_holders
          WHERE chain_id = ${chainId} AND contract_address IN (${sql.join(rows.map((row) => row.drop_address))})`.execute(
          db.kysely,
        );
        for (const row of counted.rows) holders.set(row.contract_address, count(row.holders));
      }
      const total = rows[0]
        ? count(rows[0].total)
        : count(
            (
              await sql<{ total: string }>`
                SELECT count(*) AS total FROM classic_games WHERE chain_id = ${chainId}`.execute(db.kysely)
            ).rows[0]?.total,
          );
      return {
        leaderboard: rows.map((row, index) => ({
          rank: (page - 1) * limit + index + 1,
          address: row.drop_address,
          name: row.nft_name,
          slug: row.creator_slug ?? (row.slug || defaultGameSlug(row.nft_name, row.game_id)),
          volumeWei: wei(row.mint_volume),
          packsMinted: count(row.packs_minted),
          holders: holders.get(row.drop_address) ?? 0,
        })),
        pagination: paginationOf({ page, limit }, total),
      };
    },

    async platform(chainId) {
      const usdPerEth = (await price?.quote())?.usdPerEth;
      if (usdPerEth === undefined) throw priceUnavailable();
      const since = new Date(clock.now() - DAY_MS).toISOString();
      // Games are few; every figure over packs comes from the summaries the classic_packs
      // triggers keep (migration 0032). The last 24 hours: the whole UTC hours after `since`
      // from the hourly summary, the packs of the partial hour it starts in from the packs' index.
      const { rows } = await sql<{
        games: string;
        active_games: string;
        graduated_games: string;
        packs_minted: string | null;
        packs_opened: string | null;
        packs_burned: string | null;
        mint_volume: string | null;
        updated_at: Date | null;
        holders: string | null;
        rewards_paid: string | null;
        day_packs: string;
        day_volume: string | null;
      }>`
        WITH window_start AS (
          SELECT ${since}::timestamptz AS since,
                 date_trunc('hour', ${since}::timestamptz, 'UTC')
                   + CASE WHEN date_trunc('hour', ${since}::timestamptz, 'UTC') = ${since}::timestamptz
                          THEN interval '0' ELSE interval '1 hour' END AS first_whole_hour
        )
        SELECT g.*, t.holders, t.rewards_paid,
               h.packs + e.packs AS day_packs, h.volume + e.volume AS day_volume
        FROM (
          SELECT count(*) AS games,
                 count(*) FILTER (WHERE is_active) AS active_games,
                 count(*) FILTER (WHERE is_graduated) AS graduated_games,
                 sum(packs_minted) AS packs_minted,
                 sum(packs_opened) AS packs_opened,
                 sum(packs_burned) AS packs_burned,
                 sum(mint_volume) AS mint_volume,
                 max(updated_at) AS updated_at
          FROM classic_games WHERE chain_id = ${chainId}
        ) g
        LEFT JOIN classic_platform_totals t ON t.chain_id = ${chainId}
        CROSS JOIN (
          SELECT coalesce(sum(packs), 0) AS packs, coalesce(sum(volume), 0) AS volume
          FROM classic_mint_hours, window_start
          WHERE chain_id = ${chainId} AND hour >= first_whole_hour
        ) h
        CROSS JOIN (
          SELECT count(*) AS packs, coalesce(sum(acquired_price), 0) AS volume
          FROM classic_packs, window_start
          WHERE chain_id = ${chainId} AND mint_time >= since AND mint_time < first_whole_hour
        ) e`.execute(db.kysely);
      const row = rows[0];
      if (!row) throw new Error("the platform statistics query returned no row");
      const mintVolume = BigInt(row.mint_volume ?? "0");
      return {
        chainId,
        games: count(row.games),
        activeGames: count(row.active_games),
        graduatedGames: count(row.graduated_games),
        packsMinted: count(row.packs_minted),
        packsOpened: count(row.packs_opened),
        packsBurned: count(row.packs_burned),
        holders: count(row.holders),
        mintVolumeWei: mintVolume.toString(),
        mintVolumeUsd: weiToUsdText(mintVolume, usdPerEth),
        rewardsPaidWei: wei(row.rewards_paid),
        last24h: { packsMinted: count(row.day_packs), mintVolumeWei: wei(row.day_volume) },
        updatedAt: row.updated_at === null ? null : new Date(row.updated_at).toISOString(),
      };
    },
  };
}
