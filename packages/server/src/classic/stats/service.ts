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
import { type EthUsdPriceSource, weiToUsd } from "../price.ts";

export interface PageRequest {
  page: number;
  limit: number;
}

export interface ClassicStatsService {
  collectors(
    query: { chainId: number; contractAddress?: string | undefined } & PageRequest,
  ): Promise<{ leaderboard: ClassicCollector[]; pagination: ClassicPagination }>;
  games(
    query: { chainId: number; sortBy: "volume" | "packs" } & PageRequest,
  ): Promise<{ leaderboard: ClassicGameLeaderboardEntry[]; pagination: ClassicPagination }>;
  /** Throws PRICE_UNAVAILABLE (503) without an ETH/USD price. */
  platform(chainId: number): Promise<ClassicStats["stats"]>;
}

const DAY_MS = 86_400_000;

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
      const contract = contractAddress === undefined ? sql`` : sql`AND contract_address = ${contractAddress}`;
      const { rows } = await sql<{
        owner: string;
        held: string;
        opened: string;
        burned: string;
        spent: string;
        total: string;
      }>`
        WITH wallets AS (
          SELECT owner,
                 count(*) FILTER (WHERE status <> 'burned') AS held,
                 count(*) FILTER (WHERE status = 'opened') AS opened,
                 count(*) FILTER (WHERE status = 'burned') AS burned,
                 coalesce(sum(acquired_price), 0) AS spent
          FROM classic_packs
          WHERE chain_id = ${chainId} ${contract}
          GROUP BY owner
        )
        SELECT owner, held, opened, burned, spent, count(*) OVER () AS total
        FROM wallets
        ORDER BY held DESC, opened DESC, spent DESC, owner ASC
        LIMIT ${limit} OFFSET ${(page - 1) * limit}`.execute(db.kysely);
      const total = rows[0] ? count(rows[0].total) : await countWallets(chainId, contractAddress);
      return {
        leaderboard: rows.map((row, index) => ({
          rank: (page - 1) * limit + index + 1,
          address: row.owner,
          packsHeld: count(row.held),
          packsOpened: count(row.opened),
          packsBurned: count(row.burned),
          spentWei: wei(row.spent),
        })),
        pagination: paginationOf({ page, limit }, total),
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
        const addresses = rows.map((row) => row.drop_address);
        const counted = await sql<{ contract_address: string; holders: string }>`
          SELECT contract_address, count(DISTINCT owner) AS holders
          FROM classic_packs
          WHERE chain_id = ${chainId} AND status <> 'burned'
            AND contract_address IN (${sql.join(addresses)})
          GROUP BY contract_address`.execute(db.kysely);
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
      const usdPerEth = await price?.usdPerEth();
      if (usdPerEth === undefined) throw priceUnavailable();
      const since = new Date(clock.now() - DAY_MS).toISOString();
      const { rows } = await sql<{
        games: string;
        active_games: string;
        graduated_games: string;
        packs_minted: string | null;
        packs_opened: string | null;
        packs_burned: string | null;
        mint_volume: string | null;
        updated_at: Date | null;
        holders: string;
        rewards_paid: string | null;
        day_packs: string;
        day_volume: string | null;
      }>`
        SELECT g.*, p.holders, p.rewards_paid, d.day_packs, d.day_volume
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
        ) g, (
          SELECT count(DISTINCT owner) FILTER (WHERE status <> 'burned') AS holders,
                 sum(reward_amount) FILTER (WHERE status = 'burned') AS rewards_paid
          FROM classic_packs WHERE chain_id = ${chainId}
        ) p, (
          SELECT count(*) AS day_packs, sum(acquired_price) AS day_volume
          FROM classic_packs WHERE chain_id = ${chainId} AND mint_time >= ${since}
        ) d`.execute(db.kysely);
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
        mintVolumeUsd: weiToUsd(mintVolume, usdPerEth),
        rewardsPaidWei: wei(row.rewards_paid),
        last24h: { packsMinted: count(row.day_packs), mintVolumeWei: wei(row.day_volume) },
        updatedAt: row.updated_at === null ? null : new Date(row.updated_at).toISOString(),
      };
    },
  };

  /** The number of ranked wallets, for a page past the end (the page query then returns no row to carry it). */
  async function countWallets(chainId: number, contractAddress: string | undefined) {
    const contract = contractAddress === undefined ? sql`` : sql`AND contract_address = ${contractAddress}`;
    const { rows } = await sql<{ total: string }>`
      SELECT count(DISTINCT owner) AS total FROM classic_packs
      WHERE chain_id = ${chainId} ${contract}`.execute(db.kysely);
    return count(rows[0]?.total);
  }
}
