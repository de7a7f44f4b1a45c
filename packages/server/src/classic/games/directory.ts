import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import type { ImageLinks } from "../../media/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { CardCatalogue, ClassicGameDirectory, RenderOptions } from "../directory.ts";
import type { EthUsdPriceSource } from "../price.ts";
import { type ClassicGameListings, createGameListings } from "./game-listings.ts";
import { createGameRenderer, type GameRender, requireUsdPerEth } from "./game-render.ts";
import { fetchGameRows } from "./game-rows.ts";
import { createGameResolver } from "./resolved-game.ts";

/** The whole game-centric read side: the directory other areas use, and the listings of `/games`, `/search`, `/featured`. */
export interface ClassicGameCatalog extends ClassicGameDirectory, ClassicGameListings {
  /** Whether `address` is an indexed drop of `chainId`. */
  exists(chainId: number, address: string): Promise<boolean>;
}

export function createClassicGameDirectory({
  db,
  publicUrl,
  images,
  price,
  clock,
}: {
  db: Database;
  publicUrl: string;
  images: ImageLinks;
  price: EthUsdPriceSource;
  clock: Clock;
}): ClassicGameCatalog {
  const resolveRow = createGameResolver(publicUrl);
  const { renderGame, renderSearchGame, catalogueOf } = createGameRenderer(images);
  const usdPerEth = requireUsdPerEth(price);
  const atOf = (options: RenderOptions) => options.at ?? new Date(clock.now());

  const byAddresses = async (chainId: number, addresses: readonly string[], options: RenderOptions) => {
    const wanted = [...new Set(addresses.map((address) => address.toLowerCase()))];
    if (wanted.length === 0) return [];
    return fetchGameRows(
      db,
      atOf(options),
      sql`WHERE g.chain_id = ${chainId} AND g.drop_address = ANY(${wanted}::text[])`,
    );
  };

  /** The games of `addresses` rendered in one variant, by drop address (unknown ones absent). */
  const renderedByAddress = async <Game>(
    chainId: number,
    addresses: readonly string[],
    options: RenderOptions,
    render: GameRender<Game>,
  ): Promise<Map<string, Game>> => {
    const rows = await byAddresses(chainId, addresses, options);
    const games = new Map<string, Game>();
    if (rows.length === 0) return games;
    const usd = await usdPerEth();
    for (const row of rows)
      games.set(row.drop_address, render(resolveRow(row), usd, options.bypassImageProxy));
    return games;
  };

  /** The card catalogues of `addresses` in effect at `options.at`, in one query, by drop address. */
  const catalogues = async (chainId: number, addresses: readonly string[], options: RenderOptions) => {
    const out = new Map<string, CardCatalogue>();
    for (const row of await byAddresses(chainId, addresses, options))
      out.set(row.drop_address, catalogueOf(chainId, resolveRow(row), options.bypassImageProxy));
    return out;
  };

  return {
    async resolve(chainId, addressOrSlug) {
      const key = addressOrSlug.toLowerCase();
      const { rows } = await sql<{ address: string }>`
        SELECT address FROM (
          SELECT 0 AS rank, drop_address AS address FROM classic_games WHERE chain_id = ${chainId} AND drop_address = ${key}
          UNION ALL
          SELECT 1, contract_address FROM classic_slugs WHERE chain_id = ${chainId} AND slug = ${key}
          UNION ALL
          SELECT 2, drop_address FROM classic_games WHERE chain_id = ${chainId} AND slug = ${key}
        ) found ORDER BY rank LIMIT 1`.execute(db.kysely);
      return rows[0]?.address;
    },

    async exists(chainId, address) {
      const { rows } = await sql`
        SELECT 1 FROM classic_games WHERE chain_id = ${chainId} AND drop_address = ${address.toLowerCase()}`.execute(
        db.kysely,
      );
      return rows.length > 0;
    },

    games: (chainId, addresses, options) => renderedByAddress(chainId, addresses, options, renderGame),

    searchGames: (chainId, addresses, options) =>
      renderedByAddress(chainId, addresses, options, renderSearchGame),

    async catalogue(chainId, address, options) {
      return (await catalogues(chainId, [address], options)).get(address.toLowerCase());
    },

    catalogues,

    ...createGameListings({ db, clock, atOf, usdPerEth, resolveRow, renderGame, renderSearchGame }),
  };
}
