import { type RawBuilder, sql } from "kysely";
import type { Database } from "../../db/index.ts";

/** A `classic_games` row joined with its creator slug, operator flags and the metadata revision in effect. */
export interface GameRow {
  chain_id: number;
  drop_address: string;
  game_id: string;
  token_address: string;
  creator: string;
  nft_name: string;
  nft_symbol: string;
  token_name: string;
  token_symbol: string;
  price_per_pack: string;
  eth_reserve: string;
  tokens_sold: string;
  is_graduated: boolean;
  packs_minted: string;
  offers: unknown;
  odds_bps: unknown;
  virtual_eth: string;
  virtual_tokens: string;
  graduation_eth: string;
  first_token_id: string;
  is_active: boolean;
  pool_eth: string | null;
  pool_tokens: string | null;
  default_slug: string;
  created_tx: string;
  created_at: Date | string;
  updated_at: Date | string;
  creator_slug: string | null;
  is_featured: boolean | null;
  is_verified: boolean | null;
  is_verified_artist: boolean | null;
  is_marketfit: boolean | null;
  flags_updated_at: Date | string | null;
  version: number | null;
  game_meta: unknown;
  cards_meta: unknown;
  effective_from: Date | string | null;
  effective_until: Date | string | null;
  meta_created_at: Date | string | null;
  total?: string | number;
}

export const iso = (value: Date | string) => new Date(value).toISOString();

/** Every column a rendered game needs: the game, its slug, flags and the metadata revision in effect at `at`. */
function selectGames(at: Date, rest: RawBuilder<unknown>, extraColumns: RawBuilder<unknown> = sql``) {
  return sql<GameRow>`
    SELECT g.chain_id, g.drop_address, g.game_id::text AS game_id, g.token_address, g.creator,
           g.nft_name, g.nft_symbol, g.token_name, g.token_symbol,
           g.price_per_pack::text AS price_per_pack, g.eth_reserve::text AS eth_reserve,
           g.tokens_sold::text AS tokens_sold, g.is_graduated, g.packs_minted::text AS packs_minted,
           g.offers, g.odds_bps, g.virtual_eth::text AS virtual_eth, g.virtual_tokens::text AS virtual_tokens,
           g.graduation_eth::text AS graduation_eth, g.first_token_id::text AS first_token_id, g.is_active,
           g.pool_eth::text AS pool_eth, g.pool_tokens::text AS pool_tokens,
           g.slug AS default_slug, g.created_tx, g.created_at, g.updated_at,
           s.slug AS creator_slug,
           f.is_featured, f.is_verified, f.is_verified_artist, f.is_marketfit, f.updated_at AS flags_updated_at,
           m.version, m.game AS game_meta, m.cards AS cards_meta, m.effective_from, m.effective_until,
           m.created_at AS meta_created_at
           ${extraColumns}
      FROM classic_games g
      LEFT JOIN classic_slugs s ON s.chain_id = g.chain_id AND s.contract_address = g.drop_address
      LEFT JOIN classic_game_flags f ON f.chain_id = g.chain_id AND f.contract_address = g.drop_address
      LEFT JOIN LATERAL (
        SELECT version, game, cards, effective_from, effective_until, created_at
          FROM classic_metadata r
         WHERE r.chain_id = g.chain_id AND r.contract_address = g.drop_address
           AND r.effective_from <= ${at.toISOString()}
           AND (r.effective_until IS NULL OR r.effective_until > ${at.toISOString()})
         ORDER BY r.version DESC LIMIT 1
      ) m ON true
      ${rest}`;
}

/** The game rows `rest` (conditions, order, limit after the joins) selects, with the metadata in effect at `at`. */
export const fetchGameRows = async (
  db: Database,
  at: Date,
  rest: RawBuilder<unknown>,
  extra?: RawBuilder<unknown>,
) => (await selectGames(at, rest, extra).execute(db.kysely)).rows;
