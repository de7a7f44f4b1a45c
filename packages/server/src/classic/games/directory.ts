import {
  CLASSIC_RARITY_NAMES,
  type ClassicCard,
  type ClassicFeaturedSort,
  type ClassicGame,
  type ClassicSearchGame,
  defaultGameSlug,
} from "@mkt/protocol";
import { type RawBuilder, sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { AppError } from "../../errors.ts";
import { artUrl, type ImageLinks } from "../../media/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { CardCatalogue, ClassicGameDirectory, RenderOptions } from "../directory.ts";
import { type EthUsdPriceSource, weiToUsd } from "../price.ts";
import { cardOddsPercent, formatPercent, marketCapWei, preorderProgress } from "./economics.ts";
import {
  type StoredCard,
  type StoredGameMetadata,
  storedCardsSchema,
  storedGameMetadataSchema,
} from "./metadata-store.ts";

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

/** The whole game-centric read side: the directory other areas use, and the listings of `/games`, `/search`, `/featured`. */
export interface ClassicGameCatalog extends ClassicGameDirectory {
  /** Whether `address` is an indexed drop of `chainId`. */
  exists(chainId: number, address: string): Promise<boolean>;
  list(query: GameListQuery, options: RenderOptions): Promise<GamePage<ClassicGame>>;
  search(query: GameSearchQuery, options: RenderOptions): Promise<GamePage<ClassicSearchGame>>;
  featured(query: FeaturedQuery, options: RenderOptions): Promise<ClassicGame[]>;
}

/** The trending window of `/featured?sortBy=trending`. */
export const TRENDING_WINDOW_MS = 24 * 3_600_000;

const DEFAULT_BG = "#111827";
type RarityCode = 1 | 2 | 3 | 4 | 5;

interface GameRow {
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

const iso = (value: Date | string) => new Date(value).toISOString();

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

/** The market cap in SQL (numeric), for ordering; the same rule as `marketCapWei`. */
const MARKET_CAP_SQL = sql`
  CASE WHEN g.is_graduated
       THEN CASE WHEN coalesce(g.pool_tokens, 0) > 0
                 THEN g.pool_eth * (g.tokens_sold + g.pool_tokens) / g.pool_tokens ELSE 0 END
       ELSE CASE WHEN g.virtual_tokens - g.tokens_sold > 0
                 THEN (g.virtual_eth + g.eth_reserve) * g.tokens_sold / (g.virtual_tokens - g.tokens_sold) ELSE 0 END
  END`;

const tuple5 = <T>(value: unknown, parse: (item: unknown) => T, fallback: T): [T, T, T, T, T] => {
  const items = Array.isArray(value) ? value : [];
  return [0, 1, 2, 3, 4].map((index) => (items[index] === undefined ? fallback : parse(items[index]))) as [
    T,
    T,
    T,
    T,
    T,
  ];
};

/** A game row with its metadata resolved: the revision's, or the default derived from the chain. */
interface Resolved {
  row: GameRow;
  slug: string;
  source: "user" | "default";
  version: number;
  game: StoredGameMetadata;
  cards: StoredCard[];
  oddsBps: [number, number, number, number, number];
  offers: [bigint, bigint, bigint, bigint, bigint];
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
  const defaultGame = (row: GameRow): StoredGameMetadata => {
    const pack = artUrl(publicUrl, row.chain_id, row.drop_address, "pack");
    return storedGameMetadataSchema.parse({
      description: `${row.nft_name} (${row.nft_symbol}): booster packs priced by ${row.token_name} (${row.token_symbol}).`,
      imageUrl: pack,
      packImage: pack,
      bgColor: DEFAULT_BG,
    });
  };
  const defaultCards = (row: GameRow): StoredCard[] =>
    ([1, 2, 3, 4, 5] as const).map((rarity) => ({
      name: `${row.nft_name} ${CLASSIC_RARITY_NAMES[rarity]}`,
      description: `${row.nft_name}: a card of rarity ${CLASSIC_RARITY_NAMES[rarity]}.`,
      imageUrl: artUrl(publicUrl, row.chain_id, row.drop_address, rarity),
      unopenedImageUrl: artUrl(publicUrl, row.chain_id, row.drop_address, "pack"),
      firstEditionImageUrl: null,
      externalLink: null,
      rarity,
      startId: rarity,
      endId: rarity,
      traits: [{ key: "Rarity", value: CLASSIC_RARITY_NAMES[rarity] }],
      bgColor: null,
    }));

  const resolveRow = (row: GameRow): Resolved => {
    const slug = row.creator_slug ?? (row.default_slug || defaultGameSlug(row.nft_name, row.game_id));
    const oddsBps = tuple5(row.odds_bps, (item) => Number(item), 0);
    const offers = tuple5(row.offers, (item) => BigInt(String(item)), 0n);
    if (row.version !== null) {
      const game = storedGameMetadataSchema.safeParse(row.game_meta);
      const cards = storedCardsSchema.safeParse(row.cards_meta);
      if (game.success && cards.success) {
        const sorted = [...cards.data].sort((a, b) => a.startId - b.startId);
        return {
          row,
          slug,
          source: "user",
          version: row.version,
          game: game.data,
          cards: sorted,
          oddsBps,
          offers,
        };
      }
    }
    return {
      row,
      slug,
      source: "default",
      version: 0,
      game: defaultGame(row),
      cards: defaultCards(row),
      oddsBps,
      offers,
    };
  };

  const renderCards = (resolved: Resolved, bypass: boolean): ClassicCard[] => {
    const { row, game } = resolved;
    const tierWidth = [0, 0, 0, 0, 0, 0];
    for (const card of resolved.cards)
      tierWidth[card.rarity] = (tierWidth[card.rarity] ?? 0) + card.endId - card.startId + 1;
    const isUser = resolved.source === "user";
    return resolved.cards.map((card) => {
      const rarity = card.rarity as RarityCode;
      const odds = cardOddsPercent(
        resolved.oddsBps[rarity - 1] ?? 0,
        card.endId - card.startId + 1,
        tierWidth[rarity] ?? 0,
      );
      return {
        id: `${row.chain_id}:${row.drop_address}:${card.startId}`,
        name: card.name,
        description: card.description,
        metadataDescription:
          card.description || `${card.name}, a ${CLASSIC_RARITY_NAMES[rarity]} card of ${row.nft_name}.`,
        imageUrl: images.link(card.imageUrl, bypass),
        unopenedImageUrl: images.link(card.unopenedImageUrl ?? game.packImage, bypass),
        firstEditionImageUrl: images.link(card.firstEditionImageUrl, bypass),
        featuredImageUrl: images.link(game.featuredImageUrl, bypass),
        externalLink: card.externalLink,
        privateExternalLink: null,
        bgColor: card.bgColor ?? game.bgColor,
        slug: resolved.slug,
        rarity: CLASSIC_RARITY_NAMES[rarity],
        rarityCode: rarity,
        traits: card.traits,
        startId: card.startId,
        endId: card.endId,
        odds,
        oddsFormatted: formatPercent(odds),
        contractAddress: row.drop_address,
        creator: row.creator,
        chainId: row.chain_id,
        txHash: row.created_tx,
        metadataSource: resolved.source,
        isActive: row.is_active,
        isDraft: false,
        disableFoil: game.disableFoil,
        disableWear: game.disableWear,
        version: resolved.version,
        effectiveFrom: isUser && row.effective_from ? iso(row.effective_from) : null,
        effectiveUntil: isUser && row.effective_until ? iso(row.effective_until) : null,
      };
    });
  };

  const renderCommon = (resolved: Resolved, usdPerEth: string, bypass: boolean) => {
    const { row, game } = resolved;
    const curve = {
      isGraduated: row.is_graduated,
      virtualEth: BigInt(row.virtual_eth),
      virtualTokens: BigInt(row.virtual_tokens),
      ethReserve: BigInt(row.eth_reserve),
      tokensSold: BigInt(row.tokens_sold),
      graduationEth: BigInt(row.graduation_eth),
      poolEth: row.pool_eth === null ? null : BigInt(row.pool_eth),
      poolTokens: row.pool_tokens === null ? null : BigInt(row.pool_tokens),
    };
    const marketCap = marketCapWei(curve);
    const pricePerPack = BigInt(row.price_per_pack);
    const updated = Math.max(
      new Date(row.updated_at).getTime(),
      row.meta_created_at && resolved.source === "user" ? new Date(row.meta_created_at).getTime() : 0,
      row.flags_updated_at ? new Date(row.flags_updated_at).getTime() : 0,
    );
    return {
      gameId: row.game_id,
      tokenName: row.token_name,
      tokenSymbol: row.token_symbol,
      nftName: row.nft_name,
      nftSymbol: row.nft_symbol,
      description: game.description,
      slug: resolved.slug,
      bgColor: game.bgColor,
      tokenAddress: row.token_address,
      dropContractAddress: row.drop_address,
      ownerAddress: row.creator,
      chainId: row.chain_id,
      imageUrl: images.link(game.imageUrl, bypass),
      websiteUrl: game.websiteUrl,
      featuredImageUrl: images.link(game.featuredImageUrl, bypass),
      packImage: images.link(game.packImage, bypass),
      isGraduated: row.is_graduated,
      isActive: row.is_active,
      isVerified: row.is_verified ?? false,
      isVerifiedArtist: row.is_verified_artist ?? false,
      isFeatured: row.is_featured ?? false,
      disableFoil: game.disableFoil,
      disableWear: game.disableWear,
      marketCap: marketCap.toString(),
      marketCapUsd: weiToUsd(marketCap, usdPerEth),
      pricePerPack: pricePerPack.toString(),
      pricePerPackUsd: weiToUsd(pricePerPack, usdPerEth),
      preorderProgress: preorderProgress(curve),
      createdAt: iso(row.created_at),
      updatedAt: new Date(updated).toISOString(),
      potentialCards: renderCards(resolved, bypass),
    };
  };

  const renderGame = (resolved: Resolved, usdPerEth: string, bypass: boolean): ClassicGame => ({
    ...renderCommon(resolved, usdPerEth, bypass),
    links: { ...resolved.game.links },
    version: String(resolved.version),
  });
  const renderSearchGame = (resolved: Resolved, usdPerEth: string, bypass: boolean): ClassicSearchGame => ({
    ...renderCommon(resolved, usdPerEth, bypass),
    isNSFW: resolved.game.isNSFW,
    isMarketfit: resolved.row.is_marketfit ?? false,
    links: { twitter: resolved.game.links.twitter, website: resolved.game.links.website },
    version: resolved.version,
  });

  /** The ETH/USD price, when there is something to price. */
  const usdPerEth = async (): Promise<string> => {
    const usd = await price.usdPerEth();
    if (usd === undefined)
      throw new AppError("unavailable", "ETH pricing is temporarily unavailable", {
        code: "PRICE_UNAVAILABLE",
        retryAfterSeconds: 5,
      });
    return usd;
  };

  const atOf = (options: RenderOptions) => options.at ?? new Date(clock.now());

  const fetchRows = async (at: Date, rest: RawBuilder<unknown>, extra?: RawBuilder<unknown>) =>
    (await selectGames(at, rest, extra).execute(db.kysely)).rows;

  const byAddresses = async (chainId: number, addresses: readonly string[], options: RenderOptions) => {
    const wanted = [...new Set(addresses.map((address) => address.toLowerCase()))];
    if (wanted.length === 0) return [];
    return fetchRows(
      atOf(options),
      sql`WHERE g.chain_id = ${chainId} AND g.drop_address = ANY(${wanted}::text[])`,
    );
  };

  /** A page of rows with the total; a page past the end counts separately. */
  const paged = async (
    at: Date,
    where: RawBuilder<unknown>,
    order: RawBuilder<unknown>,
    page: number,
    limit: number,
  ) => {
    const rows = await fetchRows(
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

  /** The games of `addresses` rendered in one variant, by drop address (unknown ones absent). */
  const renderedByAddress = async <Game>(
    chainId: number,
    addresses: readonly string[],
    options: RenderOptions,
    render: (resolved: Resolved, usdPerEth: string, bypass: boolean) => Game,
  ): Promise<Map<string, Game>> => {
    const rows = await byAddresses(chainId, addresses, options);
    const games = new Map<string, Game>();
    if (rows.length === 0) return games;
    const usd = await usdPerEth();
    for (const row of rows)
      games.set(row.drop_address, render(resolveRow(row), usd, options.bypassImageProxy));
    return games;
  };

  /** The card catalogue of one game row. */
  const catalogueOf = (chainId: number, row: GameRow, options: RenderOptions): CardCatalogue => {
    const resolved = resolveRow(row);
    const bypass = options.bypassImageProxy;
    return {
      chainId,
      contractAddress: row.drop_address,
      cards: renderCards(resolved, bypass),
      disableWear: resolved.game.disableWear,
      disableFoil: resolved.game.disableFoil,
      firstTokenId: BigInt(row.first_token_id),
      oddsBps: resolved.oddsBps,
      offers: resolved.offers,
      game: {
        nftName: row.nft_name,
        nftSymbol: row.nft_symbol,
        creator: row.creator,
        slug: resolved.slug,
        description: resolved.game.description,
        imageUrl: images.link(resolved.game.imageUrl, bypass),
        featuredImageUrl: images.link(resolved.game.featuredImageUrl, bypass),
        websiteUrl: resolved.game.websiteUrl,
        packsMinted: BigInt(row.packs_minted),
      },
      metadataSource: resolved.source,
      version: resolved.version,
      effectiveFrom: resolved.source === "user" && row.effective_from ? iso(row.effective_from) : null,
      effectiveUntil: resolved.source === "user" && row.effective_until ? iso(row.effective_until) : null,
    };
  };

  /** The card catalogues of `addresses` in effect at `options.at`, in one query, by drop address. */
  const catalogues = async (chainId: number, addresses: readonly string[], options: RenderOptions) => {
    const out = new Map<string, CardCatalogue>();
    for (const row of await byAddresses(chainId, addresses, options))
      out.set(row.drop_address, catalogueOf(chainId, row, options));
    return out;
  };

  const NEWEST = sql`g.created_block DESC, g.drop_address`;

  /** A page of the games matching `conditions`, newest first, rendered in one of the two variants. */
  const newestPage = async <Game>(
    conditions: RawBuilder<unknown>[],
    query: { page: number; limit: number },
    options: RenderOptions,
    render: (resolved: Resolved, usdPerEth: string, bypass: boolean) => Game,
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
      const trending =
        query.sortBy === "trending"
          ? sql`LEFT JOIN (SELECT contract_address, count(*) AS recent FROM classic_packs
                            WHERE chain_id = ${query.chainId} AND mint_time >= ${since}
                            GROUP BY contract_address) t ON t.contract_address = g.drop_address`
          : sql``;
      const rows = await fetchRows(
        at,
        sql`${trending} WHERE g.chain_id = ${query.chainId} AND f.is_featured ORDER BY ${order} LIMIT ${query.limit}`,
      );
      if (rows.length === 0) return [];
      const usd = await usdPerEth();
      return rows.map((row) => renderGame(resolveRow(row), usd, options.bypassImageProxy));
    },
  };
}
