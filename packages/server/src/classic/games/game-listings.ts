import type { ClassicFeaturedSort, ClassicGame, ClassicSearchGame } from "@mkt/protocol";
import { type RawBuilder, sql } from "kysely";
import type { Database } from "../../db/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { RenderOptions } from "../directory.ts";
import type { GameRender } from "./game-render.ts";
import { fetchGameRows, type GameRow } from "./game-rows.ts";
import type { Resolved } from "./resolved-game.ts";

/** One page of games and how many match in all. */
export interface GamePage<G> {
  games: G[];
  total: number;
}

export interface GameListQuery {
  chainId: number;
  page: number;
  limit: number;
  active?: boolean | undefined;
  includeGraduated: boolean;
  featured?: boolean | undefined;
}

export interface GameSearchQuery {
  chainId: number;
  page: number;
  limit: number;
  q?: string | undefined;
  ownerAddress?: string | undefined;
}

export interface FeaturedQuery {
  chainId: number;
  limit: number;
  sortBy: ClassicFeaturedSort;
}

/** The listings of `/games`, `/search` and `/featured`. */
export interface ClassicGameListings {
  /** A chain's games, newest first, filtered by active, graduated and featured. */
  list(query: GameListQuery, options: RenderOptions): Promise<GamePage<ClassicGame>>;
  /** Games whose names, symbols or slug contain the text, or that an owner created; newest first. */
  search(query: GameSearchQuery, options: RenderOptions): Promise<GamePage<ClassicSearchGame>>;
  /** The featured games, by trend, age, market cap or volume. */
  featured(query: FeaturedQuery, options: RenderOptions): Promise<ClassicGame[]>;
}

/** The trending window of `/featured?sortBy=trending`. */
export const TRENDING_WINDOW_MS = 24 * 3_600_000;

/** The market cap in SQL (numeric), for ordering; the same rule as `marketCapWei`. */
const MARKET_CAP_SQL = sql`
  CASE WHEN g.is_graduated
       THEN CASE WHEN coalesce(g.pool_tokens, 0) > 0
                 THEN g.pool_eth * (g.tokens_sold + g.pool_tokens) / g.pool_tokens ELSE 0 END
       ELSE CASE WHEN g.virtual_tokens - g.tokens_sold > 0
                 THEN (g.virtual_eth + g.eth_reserve) * g.tokens_sold / (g.virtual_tokens - g.tokens_sold) ELSE 0 END
  END`;

const NEWEST = sql`g.created_block DESC, g.drop_address`;

export function createGameListings({
  db,
  clock,
  atOf,
  usdPerEth,
  resolveRow,
  renderGame,
  renderSearchGame,
}: {
  db: Database;
  clock: Clock;
  /** The time whose metadata revision is in effect for `options`. */
  atOf: (options: RenderOptions) => Date;
  usdPerEth: () => Promise<string>;
  resolveRow: (row: GameRow) => Resolved;
  renderGame: GameRender<ClassicGame>;
  renderSearchGame: GameRender<ClassicSearchGame>;
}): ClassicGameListings {
  /** A page of rows with the total; a page past the end counts separately. */
  const paged = async (
    at: Date,
    where: RawBuilder<unknown>,
    order: RawBuilder<unknown>,
    page: number,
    limit: number,
  ) => {
    const rows = await fetchGameRows(
      db,
      at,
      sql`${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
      sql`, count(*) OVER () AS total`,
    );
    if (rows.length > 0) return { rows, total: Number(rows[0]?.total ?? 0) };
    if (page === 1) return { rows, total: 0 };
    const { rows: counted } = await sql<{ n: string | number }>`
      SELECT count(*) AS n FROM classic_games g
        LEFT JOIN classic_slugs s ON s.chain_id = g.chain_id AND s.contract_address = g.drop_address
        LEFT JOIN classic_game_flags f ON f.chain_id = g.chain_id AND f.contract_address = g.drop_address
      ${where}`.execute(db.kysely);
    return { rows, total: Number(counted[0]?.n ?? 0) };
  };

  /** A page of the games matching `conditions`, newest first, rendered in one of the two variants. */
  const newestPage = async <Game>(
    conditions: RawBuilder<unknown>[],
    query: { page: number; limit: number },
    options: RenderOptions,
    render: GameRender<Game>,
  ): Promise<{ games: Game[]; total: number }> => {
    const { rows, total } = await paged(
      atOf(options),
      sql`WHERE ${sql.join(conditions, sql` AND `)}`,
      NEWEST,
      query.page,
      query.limit,
    );
    if (rows.length === 0) return { games: [], total };
    const usd = await usdPerEth();
    return { games: rows.map((row) => render(resolveRow(row), usd, options.bypassImageProxy)), total };
  };

  return {
    async list(query, options) {
      const conditions = [sql`g.chain_id = ${query.chainId}`];
      if (query.active !== undefined) conditions.push(sql`g.is_active = ${query.active}`);
      if (!query.includeGraduated) conditions.push(sql`NOT g.is_graduated`);
      if (query.featured !== undefined)
        conditions.push(sql`coalesce(f.is_featured, false) = ${query.featured}`);
      return newestPage(conditions, query, options, renderGame);
    },

    async search(query, options) {
      const conditions = [sql`g.chain_id = ${query.chainId}`];
      if (query.ownerAddress !== undefined)
        conditions.push(sql`g.creator = ${query.ownerAddress.toLowerCase()}`);
      if (query.q !== undefined) {
        const q = query.q.toLowerCase();
        // strpos, not LIKE: the text is matched literally, `%` and `_` included.
        conditions.push(sql`(strpos(lower(g.nft_name), ${q}) > 0 OR strpos(lower(g.token_name), ${q}) > 0
          OR strpos(lower(g.nft_symbol), ${q}) > 0 OR strpos(lower(g.token_symbol), ${q}) > 0
          OR strpos(coalesce(s.slug, g.slug), ${q}) > 0)`);
      }
      return newestPage(conditions, query, options, renderSearchGame);
    },

    async featured(query, options) {
      const at = atOf(options);
      const since = new Date(clock.now() - TRENDING_WINDOW_MS).toISOString();
      const order = {
        trending: sql`coalesce(t.recent, 0) DESC, g.mint_volume DESC, ${NEWEST}`,
        newest: NEWEST,
        marketCap: sql`${MARKET_CAP_SQL} DESC, ${NEWEST}`,
        volume: sql`g.mint_volume DESC, ${NEWEST}`,
      }[query.sortBy];
      // Counted per featured game in its packs' mint-time index: the window of the few featured games only.
      const trending =
        query.sortBy === "trending"
          ? sql`LEFT JOIN LATERAL (SELECT count(*) AS recent FROM classic_packs p
                  WHERE p.chain_id = g.chain_id AND p.contract_address = g.drop_address AND p.mint_time >= ${since}
                ) t ON true`
          : sql``;
      const rows = await fetchGameRows(
        db,
        at,
        sql`${trending} WHERE g.chain_id = ${query.chainId} AND f.is_featured ORDER BY ${order} LIMIT ${query.limit}`,
      );
      if (rows.length === 0) return [];
      const usd = await usdPerEth();
      return rows.map((row) => renderGame(resolveRow(row), usd, options.bypassImageProxy));
    },
  };
}
