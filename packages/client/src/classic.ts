import {
  type ClassicActivityEvent,
  type ClassicAllMetadata,
  type ClassicBoxPage,
  type ClassicCardCatalogueView,
  type ClassicCollectionEvents,
  type ClassicCollectionStats,
  type ClassicCollectorsPage,
  type ClassicContractMetadata,
  type ClassicEthPrice,
  type ClassicFeatured,
  type ClassicGame,
  type ClassicGameDetail,
  type ClassicGameLeaderboardPage,
  type ClassicGamesPage,
  type ClassicHoldings,
  type ClassicHoldingsPack,
  type ClassicOddsView,
  type ClassicOwnerPage,
  type ClassicPackAnswer,
  type ClassicPagination,
  type ClassicPriceChart,
  type ClassicRangePack,
  type ClassicRangePage,
  type ClassicRarity,
  type ClassicReady,
  type ClassicRecent,
  type ClassicRecentBoxParam,
  type ClassicSearchGame,
  type ClassicSearchPage,
  type ClassicStats,
  type ClassicTokenMetadata,
  type ClassicUnboxing,
  type classicAllMetadataQuerySchema,
  classicAllMetadataSchema,
  classicBoxPageSchema,
  classicCardCatalogueSchema,
  type classicCollectionEventsQuerySchema,
  classicCollectionEventsSchema,
  classicCollectionStatsSchema,
  classicCollectorsPageSchema,
  type classicCollectorsQuerySchema,
  classicContractMetadataSchema,
  type classicDropPacksQuerySchema,
  classicEthPriceSchema,
  type classicFeaturedQuerySchema,
  classicFeaturedSchema,
  classicGameDetailSchema,
  classicGameLeaderboardPageSchema,
  type classicGameLeaderboardQuerySchema,
  classicGamesPageSchema,
  type classicGamesQuerySchema,
  type classicHoldingsQuerySchema,
  classicHoldingsSchema,
  type classicMetadataAtQuerySchema,
  classicOddsViewSchema,
  classicOwnerPageSchema,
  type classicOwnerQuerySchema,
  classicPackAnswerSchema,
  type classicPackPathQuerySchema,
  type classicPriceChartQuerySchema,
  classicPriceChartSchema,
  classicRangePageSchema,
  type classicRangeQuerySchema,
  type classicRarityQuerySchema,
  classicRaritySchema,
  classicReadySchema,
  type classicRecentQuerySchema,
  classicRecentSchema,
  classicSearchPageSchema,
  type classicSearchQuerySchema,
  type classicStatsQuerySchema,
  classicStatsSchema,
  classicTokenMetadataSchema,
  classicUnboxingSchema,
} from "@mkt/protocol";
import type { z } from "zod";
import {
  bearerHeaders,
  type ClassicAuthApi,
  type ClassicCredential,
  classicAuthApi,
} from "./classic-auth.ts";
import { type ClassicChatApi, classicChatApi } from "./classic-chat.ts";
import { type ClassicCreatorApi, classicCreatorApi } from "./classic-creator.ts";
import { type ClassicToolsApi, classicToolsApi } from "./classic-tools.ts";
import { type ClassicUploadImage, classicUploadImage } from "./classic-uploads.ts";
import type { Transport, TransportOptions } from "./http.ts";

/**
 * Restores the exact integers of a classic answer. The server writes a
 * uint256 the document calls integer (`tokenId`) as an exact JSON integer
 * with a decimal-string twin (`tokenIdString`); `JSON.parse` rounds the
 * former past 2^53, so every field that has a twin is rebuilt from it as a
 * `bigint`, at any depth.
 */
export function exactIntegers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(exactIntegers);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(record)) {
    const twin = record[`${name}String`];
    out[name] =
      typeof twin === "string" &&
      /^\d+$/.test(twin) &&
      (typeof field === "number" || typeof field === "bigint")
        ? BigInt(twin)
        : exactIntegers(field);
  }
  return out;
}

/**
 * Every item of a page-based classic list, from page 1 to the `totalPages`
 * the server reports on each page (re-read every page, so a list that grows
 * while it is walked is followed to its new end).
 */
export async function* everyPageItem<Page extends { pagination: ClassicPagination }, Item>(
  read: (page: number) => Promise<Page>,
  items: (page: Page) => Item[],
): AsyncGenerator<Item> {
  for (let page = 1; ; page++) {
    const answer = await read(page);
    yield* items(answer);
    if (page >= answer.pagination.totalPages) return;
  }
}

/**
 * Every pack of a range in token-id order, however many: page 1 of the range
 * narrowed past the last token id seen, again and again, so no page lies deeper
 * than the server's page-depth bound (`CLASSIC_MAX_PAGE_DEPTH`) and no pack is
 * repeated or skipped while the list grows.
 */
export async function* everyTokenIdItem<Item extends { tokenId: bigint }>(
  read: (window: { startTokenId?: bigint; endTokenId?: bigint }) => Promise<{ items: Item[]; limit: number }>,
  ascending: boolean,
): AsyncGenerator<Item> {
  let window: { startTokenId?: bigint; endTokenId?: bigint } = {};
  for (;;) {
    const { items, limit } = await read(window);
    yield* items;
    const last = items.at(-1);
    if (!last || items.length < limit || (!ascending && last.tokenId === 0n)) return;
    window = ascending ? { startTokenId: last.tokenId + 1n } : { endTokenId: last.tokenId - 1n };
  }
}

export type ClassicQuery = Record<
  string,
  string | number | boolean | bigint | readonly (string | bigint)[] | undefined
>;

/** A route's query as the SDK takes it: the parsed form of its query schema, every field optional. */
type QueryOf<S extends z.ZodType> = Partial<z.output<S>>;

const segment = (value: string | bigint) => encodeURIComponent(value.toString());

/** The filters that select the box view (`boxes`) of `/owner/{address}` and `/recent`. */
type BoxFilter = { contractAddress: string; rarityGreaterThan?: number } | { rarityGreaterThan: number };
type OwnerQuery = QueryOf<typeof classicOwnerQuerySchema>;
type RecentQuery = QueryOf<typeof classicRecentQuerySchema>;

export interface ClassicGamesApi {
  /**
   * One page of games (`GET /classic/games`), newest first.
   *
   * @example
   * ```ts
   * const { games, pagination } = await client.classic.games.list({ limit: 50, active: true });
   * ```
   */
  list(query?: QueryOf<typeof classicGamesQuerySchema>): Promise<ClassicGamesPage>;
  /** Every game, page after page until `totalPages`. */
  iterate(query?: Omit<QueryOf<typeof classicGamesQuerySchema>, "page">): AsyncGenerator<ClassicGame>;
  /** Games by text and/or creator (`GET /classic/search`); at least one of `q` and `ownerAddress`. */
  search(query: QueryOf<typeof classicSearchQuerySchema>): Promise<ClassicSearchPage>;
  /** Every search result, page after page. */
  iterateSearch(
    query: Omit<QueryOf<typeof classicSearchQuerySchema>, "page">,
  ): AsyncGenerator<ClassicSearchGame>;
  /** Featured games (`GET /classic/featured`), `sortBy` trending by default. */
  featured(query?: QueryOf<typeof classicFeaturedQuerySchema>): Promise<ClassicFeatured>;
  /**
   * A game by drop address or slug (`GET /classic/contractAddress/{addressOrSlug}`).
   *
   * @example
   * ```ts
   * const { contractInfo } = await client.classic.games.get("neon-foxes-4");
   * ```
   */
  get(addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicGameDetail>;
  /** Whether a new game's metadata is ready (`…/ready`): poll while `ready` is false. */
  ready(addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicReady>;
  /** The cards of a game (`…/all-metadata`), optionally with the game. */
  allMetadata(
    addressOrSlug: string,
    query?: QueryOf<typeof classicAllMetadataQuerySchema>,
  ): Promise<ClassicAllMetadata>;
}

export interface ClassicMetadataApi {
  /** The contract-level JSON a drop's `contractURI` points at (public: sent without the key). */
  collection(addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicContractMetadata>;
  /** The token JSON a drop's `tokenURI` points at (public: sent without the key). */
  token(
    addressOrSlug: string,
    tokenId: bigint | string,
    query?: { chainId?: number },
  ): Promise<ClassicTokenMetadata>;
  /** The card catalogue with each card's odds, as in effect at `at` (default now). */
  cards(
    addressOrSlug: string,
    query?: QueryOf<typeof classicMetadataAtQuerySchema>,
  ): Promise<ClassicCardCatalogueView>;
  /** The rarity odds and sell-back offers of a game. */
  odds(addressOrSlug: string, query?: QueryOf<typeof classicMetadataAtQuerySchema>): Promise<ClassicOddsView>;
}

export interface ClassicPacksApi {
  /**
   * One page of a game's packs (`GET /classic/range`); `tokenId` is a `bigint`.
   *
   * @example
   * ```ts
   * const page = await client.classic.packs.range({ contractAddress: drop, status: "rarity_assigned" });
   * for (const pack of page.boosterBoxes) console.log(pack.tokenId, pack.rarity);
   * ```
   */
  range(query: QueryOf<typeof classicRangeQuerySchema>): Promise<ClassicRangePage>;
  /**
   * Every pack of a range query. With `sortBy: "tokenId"` it walks the range by token id (each
   * request page 1 of the rest of the range), so it reads a game of any size; in another order
   * it reads page after page until `totalPages`, and a list longer than the server's page-depth
   * bound (10,000 packs) ends with a 400 `PAGE_TOO_DEEP` error.
   */
  iterateRange(
    query: Omit<QueryOf<typeof classicRangeQuerySchema>, "page">,
  ): AsyncGenerator<ClassicRangePack>;
  /** One page of an owner's packs across games (`GET /classic/owner/{address}`, `boosterBoxes`). */
  owner(
    address: string,
    query?: Omit<OwnerQuery, "contractAddress" | "rarityGreaterThan">,
  ): Promise<ClassicOwnerPage>;
  /**
   * The box view of an owner's packs (`GET /classic/owner/{address}` with `contractAddress` and/or
   * `rarityGreaterThan`): `boxes`, the answer clients of the live service read.
   *
   * @example
   * ```ts
   * const { boxes } = await client.classic.packs.ownerBoxes(wallet, { contractAddress: drop, includeMetadata: true });
   * for (const box of boxes) console.log(box._id, box.rarityName, box.metadata?.imageUrl);
   * ```
   */
  ownerBoxes(
    address: string,
    query: Omit<OwnerQuery, "contractAddress" | "rarityGreaterThan"> & BoxFilter,
  ): Promise<ClassicBoxPage>;
  /**
   * Recently changed packs (`GET /classic/recent`'s box view): of one game and/or above a rarity,
   * most recently changed first, paged.
   *
   * @example
   * ```ts
   * const { boxes } = await client.classic.packs.recentBoxes({ contractAddress: drop, rarityGreaterThan: 2 });
   * ```
   */
  recentBoxes(
    query: Omit<RecentQuery, "cursor" | "contractAddress" | "rarityGreaterThan"> & BoxFilter,
  ): Promise<ClassicBoxPage>;
  /**
   * One pack by drop (address or slug) and token id (`GET /classic/?tokenId&contractAddress`), with
   * its game's `isNSFW`. 404 `PACK_NOT_FOUND` for a token never minted.
   *
   * @example
   * ```ts
   * const { boosterBox } = await client.classic.packs.get(drop, 12n, { includeMetadata: true });
   * ```
   */
  get(
    addressOrSlug: string,
    tokenId: bigint | string,
    query?: QueryOf<typeof classicPackPathQuerySchema>,
  ): Promise<ClassicPackAnswer>;
  /** The same pack by path (`GET /classic/contractAddress/{addressOrSlug}/tokenId/{tokenId}`). */
  getByPath(
    addressOrSlug: string,
    tokenId: bigint | string,
    query?: QueryOf<typeof classicPackPathQuerySchema>,
  ): Promise<ClassicPackAnswer>;
  /** One page of every pack of a game in token id order (`GET /classic/contractAddress/{addressOrSlug}/all`). */
  all(addressOrSlug: string, query?: QueryOf<typeof classicDropPacksQuerySchema>): Promise<ClassicBoxPage>;
  /**
   * The rarity of the packs an opening transaction opened (`GET /classic/rarity`). A pending rarity
   * is `rarity: 0`, `rarityName: "NOT_ASSIGNED"`; a transaction not (yet) indexed as an opening of
   * that game throws `MktApiError` 404 `TRANSACTION_NOT_FOUND`.
   *
   * @example
   * ```ts
   * const { rarityName, packs } = await client.classic.packs.rarity({ transactionHash: hash, contractAddress: drop });
   * ```
   */
  rarity(query: QueryOf<typeof classicRarityQuerySchema>): Promise<ClassicRarity>;
  /** Every pack of an owner, page after page (at most 10,000: deeper pages are 400 `PAGE_TOO_DEEP`). */
  iterateOwner(
    address: string,
    query?: Omit<OwnerQuery, "page" | "contractAddress" | "rarityGreaterThan">,
  ): AsyncGenerator<ClassicRangePack>;
  /** A wallet's holdings (`GET /classic/collection/{ownerAddress}`), returned directly. */
  holdings(
    ownerAddress: string,
    query?: QueryOf<typeof classicHoldingsQuerySchema>,
  ): Promise<ClassicHoldings>;
  /** Every pack a wallet holds, page after page (at most 10,000: deeper pages are 400 `PAGE_TOO_DEEP`; read a larger holding game by game with `contractAddress`). */
  iterateHoldings(
    ownerAddress: string,
    query?: Omit<QueryOf<typeof classicHoldingsQuerySchema>, "page">,
  ): AsyncGenerator<ClassicHoldingsPack>;
}

export interface ClassicActivityApi {
  /** A game's activity after `cursor` (`GET /classic/collection/{contractAddress}/events`), oldest first. */
  events(
    contractAddress: string,
    query?: QueryOf<typeof classicCollectionEventsQuerySchema>,
  ): Promise<ClassicCollectionEvents>;
  /**
   * Polls a game's activity: yields every event after `cursor` until the
   * server has nothing more (`hasMore` false). Keep the last event's
   * `nextCursor` (`lastCursor()`) to continue later without duplicates.
   */
  iterateEvents(
    contractAddress: string,
    query?: Omit<QueryOf<typeof classicCollectionEventsQuerySchema>, "cursor"> & { cursor?: string },
  ): AsyncGenerator<ClassicActivityEvent>;
  /** Recent activity across games (`GET /classic/recent`), newest first. */
  recent(query?: Omit<RecentQuery, ClassicRecentBoxParam>): Promise<ClassicRecent>;
  /** Every recent event, older and older, following `nextCursor` until it is null. */
  iterateRecent(
    query?: Omit<RecentQuery, "cursor" | ClassicRecentBoxParam>,
  ): AsyncGenerator<ClassicRecent["events"][number], void, unknown>;
}

export interface ClassicStatsApi {
  /** Wallets by packs held (`GET /classic/leaderboards/collectors`). */
  collectors(query?: QueryOf<typeof classicCollectorsQuerySchema>): Promise<ClassicCollectorsPage>;
  /** Games by mint volume or packs minted (`GET /classic/leaderboards/games`). */
  games(query?: QueryOf<typeof classicGameLeaderboardQuerySchema>): Promise<ClassicGameLeaderboardPage>;
  /** Platform statistics (`GET /classic/stats`). */
  platform(query?: QueryOf<typeof classicStatsQuerySchema>): Promise<ClassicStats>;
}

export interface ClassicApi {
  /** Bearer sign-in (`/classic/auth`): `signIn(account)`, `session()`, `signOut()`. */
  auth: ClassicAuthApi;
  /** The creator workflow (`/classic/metadata/…`): drafts, allowlists, confirm, ready, revisions. */
  creator: ClassicCreatorApi;
  /** Signed-in tools: recovery, reactions, reports, refreshes, the account's statistics. */
  tools: ClassicToolsApi;
  /** Game chat (`/classic/chat`): `list`, `iterate`, `post`, `delete`, `subscribe`. */
  chat: ClassicChatApi;
  /** Uploads one still PNG, JPEG or WebP (`POST /classic/image/upload`); see `classicUploadImage`. */
  uploadImage: ClassicUploadImage;
  /** Games: lists, search, featured, one game, its readiness and cards (`/classic/games`, `/classic/search`, `/classic/featured`). */
  games: ClassicGamesApi;
  /** The metadata a drop's `contractURI` and `tokenURI` point at, its cards and odds. */
  metadata: ClassicMetadataApi;
  /** Packs: ranges, owners' packs and box views, one pack, rarities and holdings. */
  packs: ClassicPacksApi;
  /** Activity: one game's events, and recent activity across games. */
  activity: ClassicActivityApi;
  /** Leaderboards and platform statistics. */
  stats: ClassicStatsApi;
  /**
   * Whether the operator currently disallows unboxing (`GET /classic/unboxing-disallowed`).
   *
   * @example
   * ```ts
   * if ((await client.classic.unboxingDisallowed()).disallowed) console.log("opening is paused");
   * ```
   */
  unboxingDisallowed(): Promise<ClassicUnboxing>;
  /**
   * The ETH/USD price behind every `…Usd` field (`GET /classic/eth-price`): `price` a number,
   * `priceFormatted` (`"$4,662.53"`), `lastUpdated` (ISO time it was obtained). Throws
   * `MktApiError` 503 `PRICE_UNAVAILABLE` while the server has no price.
   *
   * @example
   * ```ts
   * const { price, priceFormatted } = await client.classic.ethPrice();
   * ```
   */
  ethPrice(): Promise<ClassicEthPrice>;
  /**
   * A drop's pack price over a window (`GET /classic/price-chart/{addressOrSlug}`): points
   * oldest first (`timestamp`, `price` Wei per pack, `priceUsd` or null, `trades`, `volume`),
   * `stats` with `includeStats: true`.
   *
   * @example
   * ```ts
   * const { points, stats } = await client.classic.priceChart("neon-foxes-4", { timeframe: "7d", includeStats: true });
   * ```
   */
  priceChart(
    addressOrSlug: string,
    query?: QueryOf<typeof classicPriceChartQuerySchema>,
  ): Promise<ClassicPriceChart>;
  /**
   * A drop's statistics (`GET /classic/collection/{addressOrSlug}/stats`): packs by state,
   * holders, volume, price, market cap, the last 24 hours; `…Usd` null without an ETH price.
   *
   * @example
   * ```ts
   * const { stats } = await client.classic.collectionStats("neon-foxes-4");
   * console.log(stats.holders, stats.volumeUsd ?? "no price");
   * ```
   */
  collectionStats(addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicCollectionStats>;
}

/**
 * The Classic booster-box API (`/classic`): every read. Answers are parsed
 * with the `@mkt/protocol` schemas; exact integers (`tokenId`) are `bigint`.
 * A failed call throws `MktApiError`: branch on `status` and `code`
 * (`GAME_NOT_FOUND`, `PRICE_UNAVAILABLE`, `VALIDATION_ERROR`, …) and on the
 * answers' state fields (`ready`, `status`), never on the message.
 * `bypassImageProxy: true` asks for original image URLs (`X-Bypass-Image-Proxy`).
 */
export function classicApi(
  request: Transport,
  defaults: { bypassImageProxy?: boolean; stream?: TransportOptions } = {},
): ClassicApi {
  const proxyHeaders = defaults.bypassImageProxy ? { "X-Bypass-Image-Proxy": "true" } : undefined;
  // Once `auth.signIn` has run, every classic call sends the access token beside the API key.
  const credential: ClassicCredential = { token: undefined };
  const read = async <T>(
    path: string,
    schema: { parse(input: unknown): T },
    query: ClassicQuery = {},
    options: { authenticated?: boolean } = {},
  ) => {
    const plain: Record<string, string | number | boolean | undefined> = {};
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      plain[name] = Array.isArray(value)
        ? value.map(String).join(",")
        : typeof value === "bigint"
          ? value.toString()
          : (value as string | number | boolean);
    }
    const headers = { ...proxyHeaders, ...bearerHeaders(credential) };
    const { body } = await request<unknown>({
      method: "GET",
      path: `/classic${path}`,
      query: plain,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(options.authenticated === false ? { authenticated: false } : {}),
    });
    return schema.parse(exactIntegers(body));
  };
  const q = (query: object | undefined) => (query ?? {}) as ClassicQuery;

  const games: ClassicGamesApi = {
    list: (query?: QueryOf<typeof classicGamesQuerySchema>): Promise<ClassicGamesPage> =>
      read("/games", classicGamesPageSchema, q(query)),
    iterate: (query?: Omit<QueryOf<typeof classicGamesQuerySchema>, "page">): AsyncGenerator<ClassicGame> =>
      everyPageItem(
        (page) => read("/games", classicGamesPageSchema, { ...q(query), page }),
        (answer) => answer.games,
      ),
    search: (query: QueryOf<typeof classicSearchQuerySchema>): Promise<ClassicSearchPage> =>
      read("/search", classicSearchPageSchema, q(query)),
    iterateSearch: (
      query: Omit<QueryOf<typeof classicSearchQuerySchema>, "page">,
    ): AsyncGenerator<ClassicSearchGame> =>
      everyPageItem(
        (page) => read("/search", classicSearchPageSchema, { ...q(query), page }),
        (answer) => answer.games,
      ),
    featured: (query?: QueryOf<typeof classicFeaturedQuerySchema>): Promise<ClassicFeatured> =>
      read("/featured", classicFeaturedSchema, q(query)),
    get: (addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicGameDetail> =>
      read(`/contractAddress/${segment(addressOrSlug)}`, classicGameDetailSchema, q(query)),
    ready: (addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicReady> =>
      read(`/contractAddress/${segment(addressOrSlug)}/ready`, classicReadySchema, q(query)),
    allMetadata: (
      addressOrSlug: string,
      query?: QueryOf<typeof classicAllMetadataQuerySchema>,
    ): Promise<ClassicAllMetadata> =>
      read(`/contractAddress/${segment(addressOrSlug)}/all-metadata`, classicAllMetadataSchema, q(query)),
  };

  const metadata: ClassicMetadataApi = {
    collection: (addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicContractMetadata> =>
      read(`/metadata/${segment(addressOrSlug)}`, classicContractMetadataSchema, q(query), {
        authenticated: false,
      }),
    token: (
      addressOrSlug: string,
      tokenId: bigint | string,
      query?: { chainId?: number },
    ): Promise<ClassicTokenMetadata> =>
      read(`/metadata/${segment(addressOrSlug)}/${segment(tokenId)}`, classicTokenMetadataSchema, q(query), {
        authenticated: false,
      }),
    cards: (
      addressOrSlug: string,
      query?: QueryOf<typeof classicMetadataAtQuerySchema>,
    ): Promise<ClassicCardCatalogueView> =>
      read(`/metadata/${segment(addressOrSlug)}/cards`, classicCardCatalogueSchema, q(query)),
    odds: (
      addressOrSlug: string,
      query?: QueryOf<typeof classicMetadataAtQuerySchema>,
    ): Promise<ClassicOddsView> =>
      read(`/metadata/${segment(addressOrSlug)}/odds`, classicOddsViewSchema, q(query)),
  };

  const packs: ClassicPacksApi = {
    range: (query: QueryOf<typeof classicRangeQuerySchema>): Promise<ClassicRangePage> =>
      read("/range", classicRangePageSchema, q(query)),
    iterateRange: (
      query: Omit<QueryOf<typeof classicRangeQuerySchema>, "page">,
    ): AsyncGenerator<ClassicRangePack> =>
      query.sortBy === "tokenId"
        ? everyTokenIdItem(async (window) => {
            const answer = await read("/range", classicRangePageSchema, {
              ...q(query),
              ...q(window),
              page: 1,
            });
            return { items: answer.boosterBoxes, limit: answer.pagination.limit };
          }, query.sortOrder === "asc")
        : everyPageItem(
            (page) => read("/range", classicRangePageSchema, { ...q(query), page }),
            (answer) => answer.boosterBoxes,
          ),
    owner: (
      address: string,
      query?: Omit<OwnerQuery, "contractAddress" | "rarityGreaterThan">,
    ): Promise<ClassicOwnerPage> => read(`/owner/${segment(address)}`, classicOwnerPageSchema, q(query)),
    ownerBoxes: (
      address: string,
      query: Omit<OwnerQuery, "contractAddress" | "rarityGreaterThan"> & BoxFilter,
    ): Promise<ClassicBoxPage> => read(`/owner/${segment(address)}`, classicBoxPageSchema, q(query)),
    recentBoxes: (
      query: Omit<RecentQuery, "cursor" | "contractAddress" | "rarityGreaterThan"> & BoxFilter,
    ): Promise<ClassicBoxPage> => read("/recent", classicBoxPageSchema, q(query)),
    get: (
      addressOrSlug: string,
      tokenId: bigint | string,
      query?: QueryOf<typeof classicPackPathQuerySchema>,
    ): Promise<ClassicPackAnswer> =>
      read("/", classicPackAnswerSchema, { ...q(query), contractAddress: addressOrSlug, tokenId }),
    getByPath: (
      addressOrSlug: string,
      tokenId: bigint | string,
      query?: QueryOf<typeof classicPackPathQuerySchema>,
    ): Promise<ClassicPackAnswer> =>
      read(
        `/contractAddress/${segment(addressOrSlug)}/tokenId/${segment(tokenId)}`,
        classicPackAnswerSchema,
        q(query),
      ),
    all: (
      addressOrSlug: string,
      query?: QueryOf<typeof classicDropPacksQuerySchema>,
    ): Promise<ClassicBoxPage> =>
      read(`/contractAddress/${segment(addressOrSlug)}/all`, classicBoxPageSchema, q(query)),
    rarity: (query: QueryOf<typeof classicRarityQuerySchema>): Promise<ClassicRarity> =>
      read("/rarity", classicRaritySchema, q(query)),
    iterateOwner: (
      address: string,
      query?: Omit<OwnerQuery, "page" | "contractAddress" | "rarityGreaterThan">,
    ): AsyncGenerator<ClassicRangePack> =>
      everyPageItem(
        (page) => read(`/owner/${segment(address)}`, classicOwnerPageSchema, { ...q(query), page }),
        (answer) => answer.boosterBoxes,
      ),
    holdings: (
      ownerAddress: string,
      query?: QueryOf<typeof classicHoldingsQuerySchema>,
    ): Promise<ClassicHoldings> =>
      read(`/collection/${segment(ownerAddress)}`, classicHoldingsSchema, q(query)),
    iterateHoldings: (
      ownerAddress: string,
      query?: Omit<QueryOf<typeof classicHoldingsQuerySchema>, "page">,
    ): AsyncGenerator<ClassicHoldingsPack> =>
      everyPageItem(
        async (page) => {
          const answer = await read(`/collection/${segment(ownerAddress)}`, classicHoldingsSchema, {
            ...q(query),
            page,
          });
          return { ...answer, pagination: answer.pagination };
        },
        (answer) => answer.boxes,
      ),
  };

  const activity: ClassicActivityApi = {
    events: (
      contractAddress: string,
      query?: QueryOf<typeof classicCollectionEventsQuerySchema>,
    ): Promise<ClassicCollectionEvents> =>
      read(`/collection/${segment(contractAddress)}/events`, classicCollectionEventsSchema, q(query)),
    async *iterateEvents(
      contractAddress: string,
      query: Omit<QueryOf<typeof classicCollectionEventsQuerySchema>, "cursor"> & { cursor?: string } = {},
    ): AsyncGenerator<ClassicActivityEvent> {
      let cursor = query.cursor;
      for (;;) {
        const page = await activity.events(contractAddress, { ...query, ...(cursor ? { cursor } : {}) });
        yield* page.events;
        if (!page.hasMore || page.nextCursor === cursor) return;
        cursor = page.nextCursor ?? undefined;
      }
    },
    recent: (query?: Omit<RecentQuery, ClassicRecentBoxParam>): Promise<ClassicRecent> =>
      read("/recent", classicRecentSchema, q(query)),
    async *iterateRecent(query: Omit<RecentQuery, "cursor" | ClassicRecentBoxParam> = {}) {
      let cursor: string | undefined;
      do {
        const page = await activity.recent({ ...query, ...(cursor ? { cursor } : {}) });
        yield* page.events;
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
    },
  };

  const stats: ClassicStatsApi = {
    collectors: (query?: QueryOf<typeof classicCollectorsQuerySchema>): Promise<ClassicCollectorsPage> =>
      read("/leaderboards/collectors", classicCollectorsPageSchema, q(query)),
    games: (query?: QueryOf<typeof classicGameLeaderboardQuerySchema>): Promise<ClassicGameLeaderboardPage> =>
      read("/leaderboards/games", classicGameLeaderboardPageSchema, q(query)),
    platform: (query?: QueryOf<typeof classicStatsQuerySchema>): Promise<ClassicStats> =>
      read("/stats", classicStatsSchema, q(query)),
  };

  return {
    auth: classicAuthApi(request, credential),
    creator: classicCreatorApi(request, credential),
    tools: classicToolsApi(request, credential),
    chat: classicChatApi(request, credential, defaults.stream ?? { baseUrl: "" }),
    uploadImage: classicUploadImage(request, credential),
    games,
    metadata,
    packs,
    activity,
    stats,
    unboxingDisallowed: (): Promise<ClassicUnboxing> => read("/unboxing-disallowed", classicUnboxingSchema),
    ethPrice: (): Promise<ClassicEthPrice> => read("/eth-price", classicEthPriceSchema),
    priceChart: (
      addressOrSlug: string,
      query?: QueryOf<typeof classicPriceChartQuerySchema>,
    ): Promise<ClassicPriceChart> =>
      read(`/price-chart/${segment(addressOrSlug)}`, classicPriceChartSchema, q(query)),
    collectionStats: (addressOrSlug: string, query?: { chainId?: number }): Promise<ClassicCollectionStats> =>
      read(`/collection/${segment(addressOrSlug)}/stats`, classicCollectionStatsSchema, q(query)),
  };
}
