import {
  CLASSIC_CHART_TIMEFRAMES,
  CLASSIC_ERROR_CODES,
  type ClassicChartTimeframe,
  type ClassicCollectionStats,
  type ClassicEthPrice,
  type ClassicPriceChart,
  type ClassicPricePoint,
  defaultGameSlug,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { notFound } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { marketCapWei } from "../games/economics.ts";
import { type EthUsdPriceSource, formatUsd, weiToUsdText } from "../price.ts";
import { priceUnavailable } from "./service.ts";

/** The ETH price, a drop's pack-price chart and its collection statistics: the live service's market reads. */
export interface ClassicDropStats {
  /** The ETH/USD price and when it was obtained; throws PRICE_UNAVAILABLE (503) without one. */
  ethPrice(): Promise<Omit<ClassicEthPrice, "success">>;
  /**
   * The pack price of the drop `address` (resolved, lowercase) over `timeframe`, bucketed;
   * GAME_NOT_FOUND (404) when it is not a game of `chainId`. Needs no ETH price.
   */
  priceChart(query: {
    chainId: number;
    address: string;
    timeframe: ClassicChartTimeframe;
    includeStats: boolean;
  }): Promise<Omit<ClassicPriceChart, "success">>;
  /** The drop's statistics from the projection's summaries; GAME_NOT_FOUND (404). Needs no ETH price. */
  collection(chainId: number, address: string): Promise<ClassicCollectionStats["stats"]>;
}

const DAY_MS = 86_400_000;

/** The classic body's 404 for a drop that is no game of the chain. */
const gameNotFound = () =>
  notFound("no game with this address or slug on this chain", CLASSIC_ERROR_CODES.gameNotFound);

/** A count as a JSON integer (counts of packs and trades stay far below 2^53). */
const count = (value: string | number | null | undefined) => Number(value ?? 0);
/** A numeric sum of integers as a bigint (`null` for an empty sum). */
const big = (value: string | null | undefined) => BigInt(value ?? "0");

const maxOf = (a: bigint, b: bigint) => (a >= b ? a : b);
const minOf = (a: bigint, b: bigint) => (a <= b ? a : b);

interface MintBucket {
  bucket: string;
  trades: string;
  packs: string;
  volume: string;
}

/**
 * A drop's mints (`BoosterDropsMinted`, one per mint transaction) from `from` on, aggregated by the
 * database per bucket of `bucketSeconds` from the packs they minted: each pack carries the ETH its
 * mint paid (`acquired_price`, the drop's `TokensPurchased` of that transaction split over its packs),
 * so a bucket's volume is exactly what its mints paid. A block time past the bucket `last` (the one
 * holding now: a chain whose clock runs ahead of ours) counts in that bucket.
 */
const mintBuckets = (
  chainId: number,
  drop: string,
  from: Date,
  last: number,
  bucketSeconds: number,
) => sql<MintBucket>`
  SELECT least(floor(extract(epoch FROM p.mint_time) / ${bucketSeconds})::bigint, ${last}::bigint)::text AS bucket,
         count(DISTINCT p.mint_tx)::text AS trades,
         count(*)::text AS packs,
         sum(p.acquired_price)::text AS volume
  FROM classic_packs p
  WHERE p.chain_id = ${chainId} AND p.contract_address = ${drop}
    AND p.mint_time >= ${from.toISOString()}::timestamptz
  GROUP BY 1`;

export function createClassicDropStats({
  db,
  clock,
  price,
}: {
  db: Database;
  clock: Clock;
  price: EthUsdPriceSource;
}): ClassicDropStats {
  const usdPerEth = async () => (await price.quote())?.usdPerEth;

  return {
    async ethPrice() {
      const quote = await price.quote();
      if (quote === undefined) throw priceUnavailable();
      return {
        price: Number(quote.usdPerEth),
        priceFormatted: formatUsd(quote.usdPerEth),
        lastUpdated: quote.obtainedAt.toISOString(),
      };
    },

    async priceChart({ chainId, address, timeframe, includeStats }) {
      const { windowMs, bucketMs, interval } = CLASSIC_CHART_TIMEFRAMES[timeframe];
      const { rows: games } = await sql<{ price_per_pack: string; created_at: Date | string }>`
        SELECT price_per_pack::text AS price_per_pack, created_at FROM classic_games
        WHERE chain_id = ${chainId} AND drop_address = ${address}`.execute(db.kysely);
      const game = games[0];
      if (!game) throw gameNotFound();
      // Buckets are aligned to multiples of their width since the Unix epoch (UTC); the window is
      // the `windowMs / bucketMs` buckets ending with the one holding now (still filling), and
      // starts no earlier than the bucket of the game's creation.
      const now = clock.now();
      const current = Math.floor(now / bucketMs) * bucketMs;
      const windowStart = current - (windowMs / bucketMs - 1) * bucketMs;
      const created = Math.floor(new Date(game.created_at).getTime() / bucketMs) * bucketMs;
      const first = Math.min(Math.max(windowStart, created), current);
      const from = new Date(first);
      const [{ rows }, { rows: before }, usd] = await Promise.all([
        mintBuckets(chainId, address, from, current / bucketMs, bucketMs / 1000).execute(db.kysely),
        // The price the first bucket starts from: the last mint before the window.
        sql<{ price: string }>`
          SELECT (sum(p.acquired_price) / count(*))::numeric(78, 0)::text AS price FROM classic_packs p
          WHERE p.chain_id = ${chainId} AND p.contract_address = ${address}
            AND p.mint_tx = (
              SELECT l.mint_tx FROM classic_packs l
              WHERE l.chain_id = ${chainId} AND l.contract_address = ${address}
                AND l.mint_time < ${from.toISOString()}::timestamptz
              ORDER BY l.mint_time DESC, l.mint_block DESC, l.token_id DESC
              LIMIT 1)
          GROUP BY p.mint_tx`.execute(db.kysely),
        usdPerEth(),
      ]);
      const byBucket = new Map(rows.map((row) => [Number(row.bucket) * bucketMs, row]));
      // Without an earlier mint the drop's own pack price (set at its creation, what a mint pays).
      let last = big(before[0]?.price ?? game.price_per_pack);
      const points: ClassicPricePoint[] = [];
      for (let at = first; at <= current; at += bucketMs) {
        const found = byBucket.get(at);
        const packs = big(found?.packs);
        const volume = big(found?.volume);
        // A bucket with mints: Wei paid per pack; an empty one carries the last known price forward.
        if (packs > 0n) last = volume / packs;
        points.push({
          timestamp: new Date(at).toISOString(),
          price: last.toString(),
          priceUsd: usd === undefined ? null : weiToUsdText(last, usd),
          trades: count(found?.trades),
          volume: volume.toString(),
        });
      }
      const chart: Omit<ClassicPriceChart, "success"> = {
        chainId,
        contractAddress: address,
        timeframe,
        interval,
        points,
      };
      if (!includeStats) return chart;
      const prices = points.map((point) => BigInt(point.price));
      const open = prices[0] ?? 0n;
      const currentPrice = prices.at(-1) ?? 0n;
      return {
        ...chart,
        stats: {
          current: currentPrice.toString(),
          open: open.toString(),
          high: prices.reduce(maxOf, open).toString(),
          low: prices.reduce(minOf, open).toString(),
          // Percent, two decimals, rounded toward zero.
          change: open === 0n ? 0 : Number(((currentPrice - open) * 10_000n) / open) / 100,
          volume: points.reduce((sum, point) => sum + BigInt(point.volume), 0n).toString(),
          trades: points.reduce((sum, point) => sum + point.trades, 0),
        },
      };
    },

    async collection(chainId, address) {
      const since = new Date(clock.now() - DAY_MS).toISOString();
      // The game row, its holder counts and its pack counts by status (the summaries the
      // classic_packs triggers keep, migration 0032: a few rows per game), and the mints of the
      // last 24 hours from the trades index.
      const { rows } = await sql<{
        drop_address: string;
        token_address: string;
        nft_name: string;
        game_id: string;
        slug: string;
        creator_slug: string | null;
        price_per_pack: string;
        mint_volume: string;
        is_graduated: boolean;
        is_active: boolean;
        virtual_eth: string;
        virtual_tokens: string;
        eth_reserve: string;
        tokens_sold: string;
        graduation_eth: string;
        pool_eth: string | null;
        pool_tokens: string | null;
        updated_at: Date | string;
        holders: string | null;
        collectors: string | null;
        minted: string | null;
        unopened: string | null;
        opened: string | null;
        burned: string | null;
        day_trades: string;
        day_packs: string | null;
        day_volume: string | null;
      }>`
        SELECT g.drop_address, g.token_address, g.nft_name, g.game_id::text AS game_id, g.slug,
               s.slug AS creator_slug, g.price_per_pack::text AS price_per_pack,
               g.mint_volume::text AS mint_volume, g.is_graduated, g.is_active,
               g.virtual_eth::text AS virtual_eth, g.virtual_tokens::text AS virtual_tokens,
               g.eth_reserve::text AS eth_reserve, g.tokens_sold::text AS tokens_sold,
               g.graduation_eth::text AS graduation_eth, g.pool_eth::text AS pool_eth,
               g.pool_tokens::text AS pool_tokens, g.updated_at,
               h.holders, h.collectors, c.minted, c.unopened, c.opened, c.burned,
               d.trades AS day_trades, d.packs AS day_packs, d.volume AS day_volume
        FROM classic_games g
        LEFT JOIN classic_slugs s ON s.chain_id = g.chain_id AND s.contract_address = g.drop_address
        LEFT JOIN classic_game_holders h ON h.chain_id = g.chain_id AND h.contract_address = g.drop_address
        CROSS JOIN LATERAL (
          SELECT sum(packs)::text AS minted,
                 sum(packs) FILTER (WHERE status = 'minted')::text AS unopened,
                 sum(packs) FILTER (WHERE status IN ('opened', 'rarity_assigned', 'burned'))::text AS opened,
                 sum(packs) FILTER (WHERE status = 'burned')::text AS burned
          FROM classic_pack_counts
          WHERE chain_id = g.chain_id AND contract_address = g.drop_address
        ) c
        CROSS JOIN LATERAL (
          SELECT count(DISTINCT p.mint_tx)::text AS trades, count(*)::text AS packs,
                 sum(p.acquired_price)::text AS volume
          FROM classic_packs p
          WHERE p.chain_id = g.chain_id AND p.contract_address = g.drop_address
            AND p.mint_time >= ${since}::timestamptz
        ) d
        WHERE g.chain_id = ${chainId} AND g.drop_address = ${address}`.execute(db.kysely);
      const row = rows[0];
      if (!row) throw gameNotFound();
      const usd = await usdPerEth();
      const priced = (wei: bigint) => (usd === undefined ? null : weiToUsdText(wei, usd));
      const volume = big(row.mint_volume);
      const pricePerPack = big(row.price_per_pack);
      const marketCap = marketCapWei({
        isGraduated: row.is_graduated,
        virtualEth: big(row.virtual_eth),
        virtualTokens: big(row.virtual_tokens),
        ethReserve: big(row.eth_reserve),
        tokensSold: big(row.tokens_sold),
        graduationEth: big(row.graduation_eth),
        poolEth: row.pool_eth === null ? null : big(row.pool_eth),
        poolTokens: row.pool_tokens === null ? null : big(row.pool_tokens),
      });
      const minted = count(row.minted);
      const burned = count(row.burned);
      return {
        chainId,
        contractAddress: row.drop_address,
        tokenAddress: row.token_address,
        name: row.nft_name,
        slug: row.creator_slug ?? (row.slug || defaultGameSlug(row.nft_name, row.game_id)),
        packsMinted: minted,
        packsOpened: count(row.opened),
        packsBurned: burned,
        packsHeld: minted - burned,
        packsUnopened: count(row.unopened),
        holders: count(row.holders),
        collectors: count(row.collectors),
        volumeWei: volume.toString(),
        volumeUsd: priced(volume),
        pricePerPack: pricePerPack.toString(),
        pricePerPackUsd: priced(pricePerPack),
        marketCap: marketCap.toString(),
        marketCapUsd: priced(marketCap),
        isGraduated: row.is_graduated,
        isActive: row.is_active,
        last24h: {
          packsMinted: count(row.day_packs),
          volumeWei: big(row.day_volume).toString(),
          trades: count(row.day_trades),
        },
        updatedAt: new Date(row.updated_at).toISOString(),
      };
    },
  };
}
