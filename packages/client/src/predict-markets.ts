import {
  type PredictMarket,
  type PredictMarketResponse,
  type PredictMarketsPage,
  type PredictMarketsQuery,
  type PredictQuote,
  type PredictQuoteQuery,
  predictMarketResponseSchema,
  predictMarketsPageSchema,
  predictQuoteSchema,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";

const PREFIX = "/predict/v9";

/** `cursor` (a previous page's `nextCursor`) and `limit` (1 to 100, default 20) of a markets read. */
export type PredictMarketsOptions = { cursor?: PredictMarketsQuery["cursor"]; limit?: number };
/** `market`, `side` (`yes` or `no`) and `amount` (WETH in Wei, fee included) of a quote. */
export type PredictQuoteOptions = PredictQuoteQuery;

export interface PredictMarketsApi {
  /**
   * One page of markets, newest first, with the finalized block it reflects.
   * Pass `nextCursor` as `cursor` for the next page; null means no older
   * market exists (a short page does not).
   *
   * @example
   * ```ts
   * const { markets, nextCursor, block } = await client.predict.markets.page({ limit: 50 });
   * ```
   */
  page(query?: PredictMarketsOptions): Promise<PredictMarketsPage>;
  /**
   * Every market, page after page, following `nextCursor` until it is null
   * (never stopping at a short page). Markets created during the walk come
   * before the first page, so none is repeated or skipped.
   *
   * @example
   * ```ts
   * for await (const market of client.predict.markets.iterate({ limit: 100 })) {
   *   console.log(market.marketId, market.state, market.prices);
   * }
   * ```
   */
  iterate(query?: PredictMarketsOptions): AsyncGenerator<PredictMarket, void, undefined>;
  /**
   * One market by address, with the block it was read at. A market the
   * feed does not have is `MktApiError` 404 `MARKET_NOT_FOUND`.
   *
   * @example
   * ```ts
   * const { market, block } = await client.predict.markets.get("0xabc…");
   * ```
   */
  get(address: string): Promise<PredictMarketResponse>;
  /**
   * A block-pinned buy preview: the shares `buy(side, amount, minSharesOut)`
   * returns on the market's state at `block`, the fee, the average price and
   * the probability after. Refusals are `MktApiError`: 400 `INVALID_AMOUNT`,
   * 404 `MARKET_NOT_FOUND`, 409 `MARKET_NOT_TRADING`.
   *
   * @example
   * ```ts
   * const quote = await client.predict.markets.quote({ market: "0xabc…", side: "yes", amount: "10000000000000000" });
   * // Slippage protection: accept no fewer shares than quoted.
   * await market.write.buy([0, BigInt(quote.amountIn), BigInt(quote.sharesOut)]);
   * ```
   */
  quote(query: PredictQuoteOptions): Promise<PredictQuote>;
}

/**
 * The prediction feed's markets and quotes (`/predict/v9/markets`, `/quote`).
 * Composed into `client.predict`; every read needs the API key.
 */
export function predictMarketsApi(request: Transport): PredictMarketsApi {
  async function page(query: PredictMarketsOptions = {}): Promise<PredictMarketsPage> {
    const { body } = await request<unknown>({
      method: "GET",
      path: `${PREFIX}/markets`,
      query: { cursor: query.cursor, limit: query.limit },
    });
    return predictMarketsPageSchema.parse(body);
  }

  return {
    page,

    async *iterate(query: PredictMarketsOptions = {}): AsyncGenerator<PredictMarket, void, undefined> {
      let cursor = query.cursor;
      for (;;) {
        const current = await page({ ...query, cursor });
        yield* current.markets;
        if (current.nextCursor === null) return;
        cursor = current.nextCursor;
      }
    },

    async get(address: string): Promise<PredictMarketResponse> {
      const { body } = await request<unknown>({
        method: "GET",
        path: `${PREFIX}/markets/${encodeURIComponent(address)}`,
      });
      return predictMarketResponseSchema.parse(body);
    },

    async quote(query: PredictQuoteOptions): Promise<PredictQuote> {
      const { body } = await request<unknown>({
        method: "GET",
        path: `${PREFIX}/quote`,
        query: { market: query.market, side: query.side, amount: query.amount },
      });
      return predictQuoteSchema.parse(body);
    },
  };
}
