import {
  CLASSIC_HOLDINGS_MAX,
  CLASSIC_PAGE_DEPTH_RULE,
  CLASSIC_RECENT_BOX_PARAMS,
  classicAddressParamsSchema,
  classicBoxPageSchema,
  classicCollectionEventsQuerySchema,
  classicCollectionEventsSchema,
  classicContractAddressParamsSchema,
  classicDropPacksQuerySchema,
  classicGameParamsSchema,
  classicHoldingsQuerySchema,
  classicHoldingsSchema,
  classicOwnerAddressParamsSchema,
  classicOwnerAnswerSchema,
  classicOwnerQuerySchema,
  classicPackAnswerSchema,
  classicPackParamsSchema,
  classicPackPathQuerySchema,
  classicPackQuerySchema,
  classicQuery,
  classicRangePageSchema,
  classicRangeQuerySchema,
  classicRarityQuerySchema,
  classicRaritySchema,
  classicRecentAnswerSchema,
  classicRecentQuerySchema,
  classicTokenMetadataParamsSchema,
  classicTokenMetadataSchema,
} from "@mkt/protocol";
import { z } from "zod";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { bypassesImageProxy } from "../../media/index.ts";
import { keyRefused, LIVE_COMPATIBLE } from "../responses.ts";
import type { ActivityReader } from "./activity.ts";
import type { PackReader } from "./reader.ts";

const malformed = { description: "A malformed parameter (`error`: `VALIDATION_ERROR`)." };
const malformedOrTooDeep = {
  description: `A malformed parameter (\`error\`: \`VALIDATION_ERROR\`), or a page too deep (\`PAGE_TOO_DEEP\`): ${CLASSIC_PAGE_DEPTH_RULE}`,
};
const noGame = { description: "No game with that address or slug on the chain (`error`: `GAME_NOT_FOUND`)." };
const noPrice = {
  description:
    "The ETH/USD price is unavailable, so the game's USD fields cannot be given (`error`: `PRICE_UNAVAILABLE`).",
};
const EXACT_IDS =
  "Token ids are exact JSON integers of any size (never rounded through a 64-bit float), each with a decimal-string twin `tokenIdString` for parsers that keep only 53 bits.";

const metadataQuerySchema = z.object({ chainId: classicQuery.chainId });

/** The OpenAPI tag of every route a client of the live Classic service calls (with `/classic` as its base). */
const ID_RULE =
  "`_id` is an opaque, stable identifier of the pack in the live service's id form (24 lowercase hex digits: the first 24 hex digits of keccak256(abi.encode(uint256 chainId, address drop, uint256 tokenId))).";
const LIVE_METADATA =
  "With `includeMetadata=true` each pack has `metadata`: its token metadata (as `/metadata/{addressOrSlug}/{tokenId}`) with `imageUrl` (what to show: the pack image until the pack is opened, the card image after; the same URL as `image`), `originalImageUrl` (that image as the creator gave it, never proxied), `unopenedImageUrl` (the pack image), `foil` and `wear` (the card rule's words; null until the rarity is assigned).";
const BOX_VIEW_RULE = `Two views: the request selects one, never both. The box view (\`{success, boxes, pagination}\`) answers a request with \`contractAddress\` or \`rarityGreaterThan\`, the filters only clients of the live service send; without either the answer is as before.`;
const noPack = {
  description:
    "No game with that address or slug (`GAME_NOT_FOUND`), or no such pack in it (`PACK_NOT_FOUND`).",
};

export function classicPackRoutes({
  packs,
  activity,
}: {
  packs: PackReader;
  activity: ActivityReader;
}): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/range",
      operationId: "classicRange",
      summary: "Packs of one game, filtered, sorted and paged",
      description: [
        "The packs (booster boxes) of one game. Filters combine (AND): `tokenIds`, `startTokenId`..`endTokenId`, `status`, `rarity`.",
        "As the Classic document states them, `status` takes only `minted`, `rarity_assigned` and `burned` (packs whose randomness is pending, `opened`, are listed without the filter but cannot be selected by it) and `rarity` takes only 0 to 4 (Mythic, 5, cannot be selected by it). We follow the document where it is explicit.",
        "The order is `sortBy` then token id, both in `sortOrder`, so pages are stable.",
        `Paging: ${CLASSIC_PAGE_DEPTH_RULE} To read further into a large game, walk it by token id: \`sortBy=tokenId&sortOrder=asc\` with \`startTokenId\` one past the last token id of the previous page, page 1 each time. \`pagination.total\` is kept by the projection for the status and rarity filters; with \`tokenIds\`, \`startTokenId\` or \`endTokenId\` it is counted over that token range.`,
        EXACT_IDS,
      ].join("\n\n"),
      tags: ["Packs"],
      request: { query: classicRangeQuerySchema },
      responses: {
        200: { description: "A page of packs.", schema: classicRangePageSchema },
        400: malformedOrTooDeep,
        404: noGame,
        429: keyRefused,
        503: noPrice,
      },
      handler: (request) =>
        packs.range(request.query, { bypassImageProxy: bypassesImageProxy(request.headers) }),
    }),
    defineRoute({
      method: "GET",
      path: "/owner/:address",
      operationId: "classicOwnerPacks",
      summary: "Packs of an owner across games, or of one game (box view)",
      description: [
        "Every pack the address holds (or held until it sold it back) on the chain, of every game, newest change first by default (`sortOrder` applies to the latest update time; ties by drop address and token id).",
        `${BOX_VIEW_RULE} Without them: \`{success, boosterBoxes, pagination}\`. With them: \`{success, boxes, pagination}\`, the owner's packs of that game (\`contractAddress\`, address or slug; 404 \`GAME_NOT_FOUND\` when unknown) and/or above that rarity code. Both views take \`status\`, \`page\`, \`limit\`, \`sortOrder\`, \`includeMetadata\`, \`includeContractDetails\` and \`chainId\`; their packs have the same shape.`,
        "Live service: serves `GET /owner/{wallet}?contractAddress&chainId&page&limit&includeMetadata&includeContractDetails` (older clients add `status`), whose clients read `boxes[]`.",
        LIVE_METADATA,
        ID_RULE,
        `Paging: ${CLASSIC_PAGE_DEPTH_RULE}`,
        EXACT_IDS,
      ].join("\n\n"),
      tags: ["Packs", LIVE_COMPATIBLE],
      request: { params: classicAddressParamsSchema, query: classicOwnerQuerySchema },
      responses: {
        200: {
          description: "A page of packs: `boosterBoxes` (no box-view filter) or `boxes` (box view).",
          schema: classicOwnerAnswerSchema,
        },
        400: malformedOrTooDeep,
        404: noGame,
        429: keyRefused,
        503: noPrice,
      },
      handler: (request) =>
        packs.owner(request.params.address, request.query, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/collection/:ownerAddress",
      operationId: "classicHoldings",
      summary: "Holdings of a wallet",
      description: [
        "The holdings response, returned directly (no `success` envelope). `contractAddress` (address or slug) is optional: without it the answer holds the owner's packs of every game on the chain, grouped by game (ordered by drop address, then token id) and `contractAddress` is null.",
        `At most ${CLASSIC_HOLDINGS_MAX} boxes per answer: larger holdings are paged with \`page\` and \`limit\` (\`pagination\` says how many there are); ${CLASSIC_PAGE_DEPTH_RULE} A larger holding is read game by game (\`contractAddress\`). Burned (sold-back) packs stay listed with their burn facts.`,
        "`metadata` is the card the pack drew (the card rule: card, wear and foil from the pack's onchain token seed) once its rarity is assigned; `rewardAmount` the sell-back offer of its rarity, or the offer paid once burned. `userData` is the owner's shared market profile, when the wallet belongs to a market account.",
        EXACT_IDS,
      ].join("\n\n"),
      tags: ["Packs"],
      request: { params: classicOwnerAddressParamsSchema, query: classicHoldingsQuerySchema },
      responses: {
        200: { description: "The wallet's packs.", schema: classicHoldingsSchema },
        400: malformedOrTooDeep,
        404: noGame,
        429: keyRefused,
        503: noPrice,
      },
      handler: (request) =>
        packs.holdings(request.params.ownerAddress, request.query, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/collection/:contractAddress/events",
      operationId: "classicCollectionEvents",
      summary: "Activity of one game, incrementally",
      description: [
        "The game's onchain activity (mints, rarity assignments, openings, sell-backs, transfers between holders, curve purchases and sales, graduation, pause and resume), oldest first by (block, log index).",
        "Poll with the `nextCursor` of the previous answer: each answer holds the events strictly after it, so a poller walks forward without duplicates while new blocks arrive. `hasMore` says more events already follow; `head` is the last block the indexer has applied.",
        "Activity is a refresh signal, not a ledger: after a gap, re-read the durable resource.",
      ].join("\n\n"),
      tags: ["Activity"],
      request: { params: classicContractAddressParamsSchema, query: classicCollectionEventsQuerySchema },
      responses: {
        200: { description: "Events after the cursor.", schema: classicCollectionEventsSchema },
        400: malformed,
        404: noGame,
        429: keyRefused,
      },
      handler: (request) => activity.collection(request.params.contractAddress, request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/recent",
      operationId: "classicRecent",
      summary: "Recent activity across games, or recently changed packs (box view)",
      description: [
        "The activity of every game on the chain, newest first (block time, then block number and log index): `{success, events, nextCursor}`. `nextCursor` (`timestamp-objectId`) pages to older events; walking it while new activity arrives never repeats or skips an older event (new events appear before the first page).",
        `${BOX_VIEW_RULE} The box view lists packs, not events: those of that game (\`contractAddress\`, address or slug; 404 \`GAME_NOT_FOUND\` when unknown), or of every game on the chain, whose rarity code is above \`rarityGreaterThan\` when given, most recently changed first (latest update time, then drop address and token id), paged by \`page\` and \`limit\`; \`status\`, \`includeMetadata\` and \`includeContractDetails\` apply. The box-view parameters (${CLASSIC_RECENT_BOX_PARAMS.map((name) => `\`${name}\``).join(", ")}) with \`cursor\` are a 400, and so are \`status\`, \`page\` or the include flags without \`contractAddress\` or \`rarityGreaterThan\`.`,
        "Live service: serves `GET /recent?contractAddress&chainId&limit&includeMetadata=true&rarityGreaterThan=2`, whose clients read `boxes[]`.",
        LIVE_METADATA,
        ID_RULE,
        `Paging of the box view: ${CLASSIC_PAGE_DEPTH_RULE}`,
      ].join("\n\n"),
      tags: ["Activity", LIVE_COMPATIBLE],
      request: { query: classicRecentQuerySchema },
      responses: {
        200: {
          description:
            "Activity feed: `events` and `nextCursor`. Box view: `boxes` and `pagination`. `success` always.",
          schema: classicRecentAnswerSchema,
        },
        400: malformedOrTooDeep,
        404: noGame,
        429: keyRefused,
        503: noPrice,
      },
      handler: (request) =>
        request.query.contractAddress !== undefined || request.query.rarityGreaterThan !== undefined
          ? packs.recentBoxes(request.query, { bypassImageProxy: bypassesImageProxy(request.headers) })
          : activity.recent(request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/metadata/:addressOrSlug/:tokenId",
      operationId: "classicTokenMetadata",
      summary: "ERC-721 token metadata of a pack",
      description: [
        "What a drop's `tokenURI(id)` points at (`<PUBLIC_URL>/classic/metadata/<drop address>/<id>`), as NFT marketplaces read it. Public: neither credential, 2,000 requests per minute per client. Live-compatible: serves the live Classic service's `GET /vibe/boosterbox/metadata/{slug}/{tokenId}` (the drop's baseURI there), with the live fields `imageUrl` and `animation_url` beside the ERC-721 ones.",
        "`name` is `<card name> #<tokenId>` once the pack's card is drawn (its rarity assigned), else `<nft name> Pack #<tokenId>`; `image` the card's image once the pack is opened (first-edition art for a first edition when the game has one), the pack image before. `image` points at this API's image route when the image proxy serves it (http or https on port 80 or 443, a host on the operator's `IMAGE_PROXY_HOSTS`), else it is the creator's own URL (wallets and marketplaces send no `X-Bypass-Image-Proxy`, so an unproxiable image is never rewritten to a proxy URL that would refuse it); `external_url` is the card's external link when it has one. Creator URLs are `https://` (`http://` on a dev chain) only. Attributes: `Rarity`, `Status`, `First Edition` (`Yes`/`No`), and once drawn `Randomness`, `Card ID`, `Wear`, `Wear Value` (number, max 1), `Foil`.",
        "A pack whose rarity is pending is a 200 with `Status` `minted`; a token that was never minted is a 404 (`PACK_NOT_FOUND`). `chainId` defaults to 8453.",
      ].join("\n\n"),
      tags: ["Metadata", LIVE_COMPATIBLE],
      request: { params: classicTokenMetadataParamsSchema, query: metadataQuerySchema },
      responses: {
        200: { description: "The token JSON.", schema: classicTokenMetadataSchema },
        400: { description: "The token id is not a uint256 in decimal digits (`VALIDATION_ERROR`)." },
        404: { description: "No such game (`GAME_NOT_FOUND`) or token (`PACK_NOT_FOUND`)." },
        429: { description: "More than 2,000 requests in a minute from this client." },
      },
      handler: (request) =>
        packs.tokenMetadata(request.query.chainId, request.params.addressOrSlug, request.params.tokenId, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        }),
    }),
    // Live-compatible pack reads: the live Classic service's one-pack, drop and rarity reads.
    defineRoute({
      method: "GET",
      path: "/",
      operationId: "classicPack",
      summary: "One pack by drop and token id",
      description: [
        "One pack (booster box): `{success, boosterBox}`, the range pack (with `_id`) plus the game's `isNSFW`. `contractAddress` is the drop address or the game's slug.",
        "Live service: serves `GET /?tokenId&contractAddress&chainId&includeMetadata&includeContractDetails` (the surface root, `/classic` and `/classic/`).",
        LIVE_METADATA,
        ID_RULE,
        EXACT_IDS,
      ].join("\n\n"),
      tags: ["Packs", LIVE_COMPATIBLE],
      request: { query: classicPackQuerySchema },
      responses: {
        200: { description: "The pack.", schema: classicPackAnswerSchema },
        400: malformed,
        404: noPack,
        429: keyRefused,
        503: noPrice,
      },
      handler: (request) =>
        packs.pack(request.query.contractAddress, request.query.tokenId, request.query, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/contractAddress/:addressOrSlug/tokenId/:tokenId",
      operationId: "classicPackByPath",
      summary: "One pack by drop and token id, in the path",
      description: [
        "The answer of `GET /classic/?tokenId&contractAddress`, with the drop (address or slug) and the token id in the path.",
        "Live service: serves `GET /contractAddress/{address}/tokenId/{tokenId}`.",
        LIVE_METADATA,
        EXACT_IDS,
      ].join("\n\n"),
      tags: ["Packs", LIVE_COMPATIBLE],
      request: { params: classicPackParamsSchema, query: classicPackPathQuerySchema },
      responses: {
        200: { description: "The pack.", schema: classicPackAnswerSchema },
        400: malformed,
        404: noPack,
        429: keyRefused,
        503: noPrice,
      },
      handler: (request) =>
        packs.pack(request.params.addressOrSlug, request.params.tokenId, request.query, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/contractAddress/:addressOrSlug/all",
      operationId: "classicDropPacks",
      summary: "Every pack of one game, by token id",
      description: [
        "The game's packs in token id order (ascending), paged: `{success, boxes, pagination}` (the box view). `pagination.total` is every pack the game minted.",
        "Live service: serves `GET /contractAddress/{address}/all?chainId&page&limit`.",
        LIVE_METADATA,
        ID_RULE,
        `Paging: ${CLASSIC_PAGE_DEPTH_RULE} A larger game is walked with \`/range?sortBy=tokenId&sortOrder=asc&startTokenId=\`.`,
        EXACT_IDS,
      ].join("\n\n"),
      tags: ["Packs", LIVE_COMPATIBLE],
      request: { params: classicGameParamsSchema, query: classicDropPacksQuerySchema },
      responses: {
        200: { description: "A page of packs.", schema: classicBoxPageSchema },
        400: malformedOrTooDeep,
        404: noGame,
        429: keyRefused,
        503: noPrice,
      },
      handler: (request) =>
        packs.dropPacks(request.params.addressOrSlug, request.query, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/rarity",
      operationId: "classicRarity",
      summary: "Rarity of the packs an opening transaction opened",
      description: [
        "The packs of the game (`contractAddress`, address or slug) that the transaction `transactionHash` opened (its `Opened` log), with each pack's current rarity: the top-level `rarity`, `rarityName`, `tokenId` (+ `tokenIdString`), `randomValue` and `tokenSpecificRandomness` are the lowest token id's; `packs` lists every pack it opened, by token id.",
        "A pack whose rarity is still pending is a 200 with `rarity` 0 and `rarityName` `NOT_ASSIGNED` (a successful negative result; poll again). A transaction that opened no pack of that game, or that the indexer has not applied yet, is 404 `TRANSACTION_NOT_FOUND`.",
        "Live service: serves `GET /rarity?transactionHash&contractAddress`.",
        EXACT_IDS,
      ].join("\n\n"),
      tags: ["Packs", LIVE_COMPATIBLE],
      request: { query: classicRarityQuerySchema },
      responses: {
        200: { description: "The rarity of the opened packs.", schema: classicRaritySchema },
        400: malformed,
        404: {
          description:
            "No game with that address or slug (`GAME_NOT_FOUND`), or the transaction opened none of its packs (`TRANSACTION_NOT_FOUND`).",
        },
        429: keyRefused,
      },
      handler: (request) => packs.rarity(request.query),
    }),
  ];
}
