import {
  CLASSIC_FEATURED_MAX_LIMIT,
  CLASSIC_GAMES_MAX_LIMIT,
  CLASSIC_SEARCH_MAX_QUERY,
  classicAllMetadataQuerySchema,
  classicAllMetadataSchema,
  classicChainQuerySchema,
  classicFeaturedQuerySchema,
  classicFeaturedSchema,
  classicGameDetailSchema,
  classicGameParamsSchema,
  classicGamesPageSchema,
  classicGamesQuerySchema,
  classicReadySchema,
  classicSearchPageSchema,
  classicSearchQuerySchema,
} from "@mkt/protocol";
import { notFound } from "../../errors.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { bypassesImageProxy } from "../../media/index.ts";
import { keyRefused, LIVE_COMPATIBLE } from "../responses.ts";
import type { ClassicGameCatalog } from "./directory.ts";

const gameNotFound = () => notFound("no game with this address or slug on this chain", "GAME_NOT_FOUND");

const pagination = (page: number, limit: number, total: number) => ({
  page,
  limit,
  total,
  totalPages: Math.ceil(total / limit),
});

const IMAGES =
  "Image URLs (`imageUrl`, `featuredImageUrl`, `packImage`, card images) point at this API's image route (`/classic/image/…`) when the image proxy serves them (http or https on port 80 or 443, a host on the operator's `IMAGE_PROXY_HOSTS`), unless the request sends `X-Bypass-Image-Proxy: true`; every other image URL is answered as the creator gave it. The two variants are cached and tagged (`ETag`) apart. Generated art of ours (`/classic/art/…`) is never proxied.";
const PRICES =
  "`marketCap` (Wei) is the token's spot price times its supply: before graduation the curve's price `(virtualEth + ethReserve) / (virtualTokens - tokensSold)` times `tokensSold`; after graduation the pool's price `poolEth / poolTokens` times `tokensSold + poolTokens`. `preorderProgress` is the curve's ETH reserve in percent of its graduation target, two decimals, 100 once graduated. `…Usd` fields are US dollars at the ETH/USD price source's rate (`GET /classic/eth-price`), rounded down to the cent and written as the live service writes them: `$`, thousands separated by commas, two decimals (`\"$0.73\"`, `\"$4,743.63\"`); without a price the answer is 503 `PRICE_UNAVAILABLE` (an empty answer needs no price).";
const METADATA =
  "A game's metadata (description, images, links, cards) is its creator's revision in effect now (`version`, a string here), or until the creator publishes one, the default derived from the chain (`version` `\"0\"`: one card per rarity named `<nftName> <Rarity>`, generated art).";

const errors = {
  400: { description: "A malformed query or path value (`VALIDATION_ERROR`)." },
  429: keyRefused,
  503: { description: "No ETH/USD price (`PRICE_UNAVAILABLE`)." },
} as const;
const notFoundError = { 404: { description: "No such game on this chain (`GAME_NOT_FOUND`)." } } as const;

/** `/games`, `/search`, `/featured` and `/contractAddress/{addressOrSlug}` with `/ready` and `/all-metadata`. */
export function classicGameRoutes({
  games,
  publication,
}: {
  games: ClassicGameCatalog;
  /**
   * Confirmed creator metadata waiting for its game to be indexed
   * (classic/drafts): `/ready` publishes it, and stays false while it cannot.
   */
  publication?: { pendingPublication(chainId: number, address: string): Promise<boolean> };
}): RouteSpec[] {
  const resolveOr404 = async (chainId: number, addressOrSlug: string) => {
    const address = await games.resolve(chainId, addressOrSlug);
    if (address === undefined) throw gameNotFound();
    return address;
  };
  return [
    defineRoute({
      method: "GET",
      path: "/games",
      operationId: "classicListGames",
      summary: "List games",
      description: `The games (pack collections) of one chain, newest first (creation block descending, then drop address). Filters: \`chainId\` (default 8453), \`active\` (\`isActive\`; absent: both), \`includeGraduated\` (default true; \`false\` leaves out graduated games), \`featured\` (\`isFeatured\`; absent: both). Paging: \`page\` from 1, \`limit\` 1 to ${CLASSIC_GAMES_MAX_LIMIT} (default 20); \`pagination.total\` counts every match, \`totalPages\` is \`ceil(total / limit)\` (0 when nothing matches); a page past the end is empty.\n\n${METADATA}\n\n${PRICES}\n\n${IMAGES}`,
      tags: ["Games"],
      request: { query: classicGamesQuerySchema },
      responses: { 200: { description: "A page of games.", schema: classicGamesPageSchema }, ...errors },
      handler: async (request) => {
        const query = request.query;
        const { games: page, total } = await games.list(query, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        });
        return { success: true, games: page, pagination: pagination(query.page, query.limit, total) };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/search",
      operationId: "classicSearchGames",
      summary: "Search games by text or creator",
      description: `Games whose NFT name, token name, either symbol or slug contains \`q\` (case-insensitive, matched literally, at most ${CLASSIC_SEARCH_MAX_QUERY} characters), and/or whose creator is \`ownerAddress\`; at least one of the two (400 \`VALIDATION_ERROR\` otherwise); both narrow together. \`chainId\` (minimum 1, default 8453), \`page\` (minimum 1) and \`limit\` (1 to ${CLASSIC_GAMES_MAX_LIMIT}, default 20) as on \`/games\`. Newest first. The search variant of a game: \`version\` a number, \`isNSFW\` and \`isMarketfit\`, \`links\` without discord. Charged to the search budget (25 per minute).\n\n${PRICES}\n\n${IMAGES}`,
      tags: ["Games"],
      request: { query: classicSearchQuerySchema },
      responses: {
        200: { description: "A page of matching games.", schema: classicSearchPageSchema },
        ...errors,
      },
      handler: async (request) => {
        const query = request.query;
        const { games: page, total } = await games.search(query, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        });
        return { success: true, games: page, pagination: pagination(query.page, query.limit, total) };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/featured",
      operationId: "classicFeaturedGames",
      summary: "Featured games",
      description: `The games the operator features (\`isFeatured\`), at most \`limit\` (1 to ${CLASSIC_FEATURED_MAX_LIMIT}, default 10), no paging. \`sortBy\`: \`trending\` (default) ranks by packs minted in the last 24 hours, ties by all-time pack volume (Wei paid for packs), then newest; \`newest\` by creation block; \`marketCap\` largest first; \`volume\` by all-time pack volume. Every order ends with the drop address, so it is total.\n\n${PRICES}\n\n${IMAGES}`,
      tags: ["Games"],
      request: { query: classicFeaturedQuerySchema },
      responses: { 200: { description: "Featured games.", schema: classicFeaturedSchema }, ...errors },
      handler: async (request) => ({
        success: true,
        games: await games.featured(request.query, { bypassImageProxy: bypassesImageProxy(request.headers) }),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/contractAddress/:addressOrSlug",
      operationId: "classicGetGame",
      summary: "A game by drop address or slug",
      description: `One game, found by its drop address (any case), its creator's slug or its default slug \`<name>-<gameId>\`, on \`chainId\` (default 8453). Serves the live service's \`GET /contractAddress/{addressOrSlug}\`: \`contractInfo\` carries every field its clients read (\`dropContractAddress, nftName, nftSymbol, description, imageUrl, packImage, pricePerPackUsd, marketCapUsd, ownerAddress, tokenAddress, chainId, isVerified, isGraduated, isActive\`), the \`…Usd\` strings in the live format (\`"$0.73"\`, \`"$4,743.63"\`). Unlike the live service, \`marketCap\` and \`pricePerPack\` are plain Wei decimal strings (not zero-padded) and \`version\` is the metadata revision (\`"0"\`, \`"3"\`).\n\n${METADATA}\n\n${PRICES}\n\n${IMAGES}`,
      tags: ["Games", LIVE_COMPATIBLE],
      request: { params: classicGameParamsSchema, query: classicChainQuerySchema },
      responses: {
        200: { description: "The game.", schema: classicGameDetailSchema },
        ...errors,
        ...notFoundError,
      },
      handler: async (request) => {
        const { chainId } = request.query;
        const address = await resolveOr404(chainId, request.params.addressOrSlug);
        const game = (
          await games.games(chainId, [address], { bypassImageProxy: bypassesImageProxy(request.headers) })
        ).get(address);
        if (!game) throw gameNotFound();
        return { success: true, contractInfo: game };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/contractAddress/:addressOrSlug/ready",
      operationId: "classicGameReady",
      summary: "Whether a new game can be read yet",
      description:
        'Step 5 of the creator workflow: poll until `ready`. A drop address the indexer has not seen yet is not an error (its deployment may still be on its way): 200 with `ready: false`, `progress: 0`, `status: "indexing"`. Indexed, but the creator\'s confirmed metadata (`POST /classic/metadata/confirm`) not published yet: `ready: false`, `progress: 50`, `status: "indexing"` (this read publishes it when it can). Once indexed and published: `ready: true`, `progress: 100`, `status: "ready"`, and `metadataSource` says whether the creator\'s metadata (`user`) or the default one is in effect. A slug nobody has is 404 `GAME_NOT_FOUND` (a slug exists only once its game does). Cached about 5 seconds. Live-compatible: serves the live Classic service\'s `GET /vibe/boosterbox/contractAddress/{address}/ready?chainId`; `progress` here is always one of 0, 50 and 100, never null (the live service may answer null, so a client written for it accepts both and branches on `ready`).',
      tags: ["Games", LIVE_COMPATIBLE],
      request: { params: classicGameParamsSchema, query: classicChainQuerySchema },
      responses: {
        200: { description: "The game's readiness.", schema: classicReadySchema },
        400: errors[400],
        404: { description: "A slug no game has (`GAME_NOT_FOUND`)." },
        429: errors[429],
      },
      handler: async (request) => {
        const { chainId } = request.query;
        const key = request.params.addressOrSlug;
        const address = await games.resolve(chainId, key);
        if (address === undefined) {
          if (/^0x[0-9a-f]{40}$/.test(key))
            return { success: true, ready: false, progress: 0, status: "indexing", metadataSource: null };
          throw gameNotFound();
        }
        if (await publication?.pendingPublication(chainId, address))
          return { success: true, ready: false, progress: 50, status: "indexing", metadataSource: null };
        const catalogue = await games.catalogue(chainId, address, { bypassImageProxy: true });
        return {
          success: true,
          ready: true,
          progress: 100,
          status: "ready",
          metadataSource: catalogue?.metadataSource ?? "default",
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/contractAddress/:addressOrSlug/all-metadata",
      operationId: "classicGameAllMetadata",
      summary: "Every card of a game with its odds",
      description: `The cards of the metadata in effect now, in card-id order: \`name\`, \`description\`, \`imageUrl\`, \`rarity\` (code 1 Common … 5 Mythic), \`startId\`/\`endId\` (the card ids the card covers), \`odds\` (percent chance that one pack draws this card: its rarity's odds times its share of the rarity's card ids) and \`oddsFormatted\` (\`"12.5%"\`). \`totalTokens\` is the number of packs minted. With \`includeContractDetails=true\` the game is added as \`contractDetails\` (which needs a price: 503 \`PRICE_UNAVAILABLE\` without one; without it this route needs none). Cached about 5 seconds like the other game state (\`Cache-Control: public, max-age=5\`), not the 5 minutes of the metadata views: \`totalTokens\` and the prices of \`contractDetails\` change with every mint and trade.\n\n${IMAGES}`,
      tags: ["Games"],
      request: { params: classicGameParamsSchema, query: classicAllMetadataQuerySchema },
      responses: {
        200: { description: "The cards.", schema: classicAllMetadataSchema },
        ...errors,
        ...notFoundError,
      },
      handler: async (request) => {
        const { chainId, includeContractDetails } = request.query;
        const options = { bypassImageProxy: bypassesImageProxy(request.headers) };
        const address = await resolveOr404(chainId, request.params.addressOrSlug);
        const catalogue = await games.catalogue(chainId, address, options);
        if (!catalogue) throw gameNotFound();
        const contractDetails = includeContractDetails
          ? (await games.games(chainId, [address], options)).get(address)
          : undefined;
        return {
          success: true,
          metadata: catalogue.cards.map((card) => ({
            name: card.name,
            description: card.description,
            imageUrl: card.imageUrl,
            rarity: card.rarityCode,
            startId: card.startId,
            endId: card.endId,
            odds: card.odds,
            oddsFormatted: card.oddsFormatted,
          })),
          totalTokens: Number(catalogue.game.packsMinted),
          ...(contractDetails ? { contractDetails } : {}),
        };
      },
    }),
  ];
}
