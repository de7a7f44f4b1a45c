import {
  CLASSIC_ERROR_CODES,
  classicCollectionStatsParamsSchema,
  classicCollectionStatsQuerySchema,
  classicCollectionStatsSchema,
  classicEthPriceSchema,
  classicGameParamsSchema,
  classicPriceChartQuerySchema,
  classicPriceChartSchema,
} from "@mkt/protocol";
import { notFound } from "../../errors.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import type { ClassicGameDirectory } from "../directory.ts";
import { keyRefused, LIVE_COMPATIBLE } from "../responses.ts";
import type { ClassicDropStats } from "./drop-stats.ts";

const malformed = { description: "A malformed path or query value (`VALIDATION_ERROR`)." };
const gameNotFound = { description: "No game with this address or slug on the chain (`GAME_NOT_FOUND`)." };

/**
 * The live service's market reads: the ETH price (`GET /eth-price`), a drop's
 * price chart (`GET /price-chart/{address}`) and its collection statistics
 * (`GET /collection/{address}/stats`), under `/classic`.
 */
export function classicDropStatsRoutes({
  stats,
  games,
}: {
  stats: ClassicDropStats;
  games: Pick<ClassicGameDirectory, "resolve">;
}): RouteSpec[] {
  const resolveOr404 = async (chainId: number, addressOrSlug: string) => {
    const address = await games.resolve(chainId, addressOrSlug);
    if (address === undefined)
      throw notFound("no game with this address or slug on this chain", CLASSIC_ERROR_CODES.gameNotFound);
    return address;
  };
  return [
    defineRoute({
      method: "GET",
      path: "/eth-price",
      operationId: "classicEthPrice",
      summary: "The ETH/USD price",
      description:
        "Serves the live service's `GET /eth-price`. The ETH/USD price every `…Usd` field of this API is computed from: `price` a JSON number (`4662.53`, as the source gave it), `priceFormatted` in the live format (`\"$4,662.53\"`: `$`, thousands separators, two decimals, rounded down to the cent), `lastUpdated` the ISO time the price was obtained (a fixed `ETH_USD_PRICE`: when this process started; `ETH_USD_PRICE_URL`: the last successful fetch, at most every 60 seconds, unusable after 5 minutes). Without a usable price: 503 `PRICE_UNAVAILABLE` with `Retry-After`. Cached for 30 seconds (shared read cache and `Cache-Control: private, max-age=30`): half the source's refresh period, so a client sees a price at most 90 seconds older than the source's.",
      tags: ["Analytics", LIVE_COMPATIBLE],
      responses: {
        200: { description: "The price.", schema: classicEthPriceSchema },
        400: { description: "An unknown query parameter (`VALIDATION_ERROR`)." },
        429: keyRefused,
        503: { description: "No usable ETH/USD price (`PRICE_UNAVAILABLE`, with `Retry-After`)." },
      },
      handler: async () => ({ success: true, ...(await stats.ethPrice()) }),
    }),
    defineRoute({
      method: "GET",
      path: "/price-chart/:addressOrSlug",
      operationId: "classicPriceChart",
      summary: "A drop's pack price over time",
      description: [
        "Serves the live service's `GET /price-chart/{address}?timeframe=24h&includeStats=true`; takes the drop address or the game's slug and `chainId` (default 8453).",
        "**What is charted.** Packs are bought from the drop (its mints, `BoosterDropsMinted`), each paying the Wei the drop spent on the pack's tokens (`getMintPrice`, the drop's `TokensPurchased` in the mint's transaction; a mint with tokens pays no Wei). A point's `price` is what the bucket's mints paid per pack: their Wei over their packs, rounded down. A bucket without mints carries the last known price forward (`trades: 0`, `volume` \"0\"); before the window's first mint the price is the last mint's before the window, or without one the drop's pack price from its creation. A pack's price is the drop token's price of `tokensPerMint` tokens, so it moves with the token's curve (then its pool): the line follows what mints actually paid.",
        "**Buckets.** `timeframe` `1h`: twelve 5-minute points; `24h` (default): 24 hourly; `7d`: 28 six-hourly; `30d`: 30 daily. Buckets are aligned to multiples of their width in UTC; the last one holds now and is still filling (a mint whose block time is past this server's clock, on a chain running ahead of it, counts in it). A game younger than the window starts at the bucket of its creation. `timestamp` is a bucket's start.",
        '**USD.** `priceUsd` is `price` at the current ETH/USD price (`GET /classic/eth-price`), in the live format (`"$3.00"`); without a price it is null and the chart is still answered (no 503).',
        "**Stats** (`includeStats=true`): `current` (last point), `open` (first point), `high`, `low` (over the points), `change` (percent from open to current, two decimals, toward zero; 0 when open is 0), `volume` and `trades` over the window.",
        "Read from an index of the drop's trades by time (aggregated by the database, so the cost is the window's mint transactions, never the drop's history). Cached up to 30 seconds, and rebuilt as soon as the classic projection moves.",
      ].join("\n\n"),
      tags: ["Analytics", LIVE_COMPATIBLE],
      request: { params: classicGameParamsSchema, query: classicPriceChartQuerySchema },
      responses: {
        200: { description: "The chart.", schema: classicPriceChartSchema },
        400: {
          description:
            "A malformed address or slug, or a `timeframe` other than 1h, 24h, 7d, 30d (`VALIDATION_ERROR`).",
        },
        404: gameNotFound,
        429: keyRefused,
      },
      handler: async (request) => {
        const { chainId, timeframe, includeStats } = request.query;
        const address = await resolveOr404(chainId, request.params.addressOrSlug);
        return { success: true, ...(await stats.priceChart({ chainId, address, timeframe, includeStats })) };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/collection/:contractAddress/stats",
      operationId: "classicCollectionStats",
      summary: "A drop's collection statistics",
      description: [
        "Serves the live service's `GET /collection/{address}/stats`; takes the drop address or the game's slug and `chainId` (default 8453). Not to be confused with `GET /classic/collection/{ownerAddress}` (a wallet's holdings): that route takes an address only, and this path ends in `/stats`.",
        "Packs minted, opened (ever: a pack is opened before it can be sold back), burned (sold back), held (minted and not burned) and unopened, by the pack summaries the projection keeps in the transaction of every indexed block; holders (wallets with an unburned pack) and collectors (wallets with any pack of the game); mint volume; the pack price and market cap (as the game's `pricePerPack` and `marketCap`); and the last 24 hours' mints (packs, Wei, transactions) by block time from the index of the drop's trades.",
        '`…Usd` fields are at the current ETH/USD price, in the live format (`"$4,743.63"`), and null without a price: statistics are answered without one (no 503).',
        "Cached like game state: up to 5 seconds, and rebuilt as soon as the classic projection moves (every figure moves with a mint).",
      ].join("\n\n"),
      tags: ["Analytics", LIVE_COMPATIBLE],
      request: { params: classicCollectionStatsParamsSchema, query: classicCollectionStatsQuerySchema },
      responses: {
        200: { description: "The statistics.", schema: classicCollectionStatsSchema },
        400: malformed,
        404: gameNotFound,
        429: keyRefused,
      },
      handler: async (request) => {
        const { chainId } = request.query;
        const address = await resolveOr404(chainId, request.params.contractAddress);
        return { success: true, stats: await stats.collection(chainId, address) };
      },
    }),
  ];
}
