import {
  type PredictBlock,
  type PredictLeaderboard,
  type PredictMarket,
  type PredictMarketMedia,
  type PredictMarketResponse,
  type PredictMarketsPage,
  type PredictMarketsQuery,
  type PredictPoints,
  type PredictPortfolio,
  type PredictQuote,
  type PredictQuoteQuery,
  type PredictRuntime,
  type PredictStreamEvent,
  parsePredictStreamEvent,
  predictLeaderboardSchema,
  predictMarketMediaSchema,
  predictPointsSchema,
  predictPortfolioSchema,
  predictRuntimeSchema,
} from "@mkt/protocol";
import { MktApiError } from "./errors.ts";
import type { Transport, TransportOptions } from "./http.ts";
import { type LiveSubscription, subscribeEventStream } from "./live.ts";

const PREFIX = "/predict/v9";

/** The markets and quote reads `client.predict` is composed with (`predictMarketsApi` of predict-markets.ts). */
export interface PredictMarketsReads {
  page(query?: { cursor?: PredictMarketsQuery["cursor"]; limit?: number }): Promise<PredictMarketsPage>;
  iterate(query?: { cursor?: PredictMarketsQuery["cursor"]; limit?: number }): AsyncIterable<PredictMarket>;
  get(address: string): Promise<PredictMarketResponse>;
  quote(query: PredictQuoteQuery): Promise<PredictQuote>;
}

/** `start()` refused: the runtime record says the feed is not open to this client. */
export class PredictDisabledError extends Error {
  override readonly name = "PredictDisabledError";
  constructor(readonly runtime: PredictRuntime) {
    super(
      `the prediction feed is not available (enabled: ${runtime.enabled}, publicEnabled: ${runtime.publicEnabled}); stop`,
    );
  }
}

/** What a subscription shows: every market, the block of the read, and whether it may be out of date. */
export interface PredictSnapshot {
  markets: PredictMarket[];
  /** The finalized block of the newest full read (its first page); null before one succeeded. */
  block: PredictBlock | null;
  /** True while the last read or connection failed (a 503: disabled, stale, realtime not ready): the markets are the last good ones. */
  stale: boolean;
}

export interface PredictSubscribeOptions {
  /** Called with every new snapshot: after each full read, each refreshed market, each change of `stale`. */
  onSnapshot: (snapshot: PredictSnapshot) => void;
  /** Every stream event, after the snapshot was updated for it. */
  onEvent?: (event: PredictStreamEvent) => void;
  /** A failed read or connection; the subscription keeps going (backing off) unless the error is final. */
  onError?: (error: unknown) => void;
  /** Reconnection backoff: full jitter, doubling from `baseDelayMs` up to `maxDelayMs`. */
  backoff?: { baseDelayMs?: number; maxDelayMs?: number };
  /** Markets per page of the full reads (1 to 100; default 100). */
  pageSize?: number;
}

export interface PredictSubscription extends LiveSubscription {
  /** The current snapshot. */
  snapshot(): PredictSnapshot;
}

export interface PredictApi {
  /** The runtime record (`GET /runtime`). */
  runtime(): Promise<PredictRuntime>;
  /**
   * Reads the runtime record and throws `PredictDisabledError` unless both
   * `enabled` and `publicEnabled` are true: call it first and stop when it throws.
   *
   * @example
   * ```ts
   * try {
   *   await client.predict.start();
   * } catch (error) {
   *   if (error instanceof PredictDisabledError) return; // the feed is off for us
   *   throw error;
   * }
   * ```
   */
  start(): Promise<PredictRuntime>;
  /** Markets (`page`, `iterate` following `nextCursor` until null, `get`) and `quote`. */
  markets: PredictMarketsReads;
  /** A block-pinned buy preview (`GET /quote`); the same as `markets.quote`. */
  quote(query: PredictQuoteQuery): Promise<PredictQuote>;
  /**
   * One page of an address's positions, with totals over all of them.
   *
   * @example
   * ```ts
   * const { positions, totals, nextCursor } = await client.predict.portfolio("0xabc…", { limit: 100 });
   * ```
   */
  portfolio(address: string, query?: { cursor?: string; limit?: number }): Promise<PredictPortfolio>;
  /**
   * An address's points (`floor((buy + sell WETH) / 10^15) + floor(redeemed WETH / 10^15)`).
   *
   * @example
   * ```ts
   * const { points } = await client.predict.points("0xabc…");
   * ```
   */
  points(address: string): Promise<PredictPoints>;
  /**
   * A market's images (`GET /markets/{address}/media`): the generated art,
   * then the operator's image when set; every URL is the server's (art route
   * or signed image proxy).
   *
   * @example
   * ```ts
   * const { images } = await client.predict.media("0xabc…");
   * const src = (images.find((image) => image.kind === "operator") ?? images[0])?.url;
   * ```
   */
  media(address: string): Promise<PredictMarketMedia>;
  /** The top traders by points (`GET /points`, `limit` 1 to 100). */
  leaderboard(limit?: number): Promise<PredictLeaderboard>;
  /**
   * Keeps a snapshot of every market current. Reads `/markets` in full
   * (following `nextCursor` until null) at the start of every connection
   * (so on every reconnect) and on `resync`; refreshes one market on its
   * `market`, `trade` and `resolution` wakeups. Reconnects with backoff
   * and jitter and `Last-Event-ID`. A 503 (feed disabled, projection
   * stale, realtime not ready) keeps the last good snapshot, marked
   * `stale: true`, until a read succeeds again.
   *
   * @example
   * ```ts
   * const subscription = client.predict.subscribe({
   *   onSnapshot: ({ markets, block, stale }) => render(markets, block, stale),
   * });
   * // later
   * subscription.close();
   * ```
   */
  subscribe(options: PredictSubscribeOptions): PredictSubscription;
}

/**
 * The prediction feed (`/predict/v9`): the runtime check, markets and
 * quotes, portfolios, points, and a stream client that keeps a snapshot of
 * every market.
 */
export function predictApi(
  request: Transport,
  { stream, markets }: { stream: TransportOptions; markets: PredictMarketsReads },
): PredictApi {
  const baseUrl = stream.baseUrl.replace(/\/+$/, "");

  async function runtime(): Promise<PredictRuntime> {
    const { body } = await request<unknown>({ method: "GET", path: `${PREFIX}/runtime` });
    return predictRuntimeSchema.parse(body);
  }

  return {
    runtime,

    async start(): Promise<PredictRuntime> {
      const record = await runtime();
      if (!record.enabled || !record.publicEnabled) throw new PredictDisabledError(record);
      return record;
    },

    markets,

    quote: (query: PredictQuoteQuery) => markets.quote(query),

    async portfolio(
      address: string,
      query: { cursor?: string; limit?: number } = {},
    ): Promise<PredictPortfolio> {
      const { body } = await request<unknown>({
        method: "GET",
        path: `${PREFIX}/portfolio/${encodeURIComponent(address)}`,
        query: { cursor: query.cursor, limit: query.limit },
      });
      return predictPortfolioSchema.parse(body);
    },

    async points(address: string): Promise<PredictPoints> {
      const { body } = await request<unknown>({
        method: "GET",
        path: `${PREFIX}/points/${encodeURIComponent(address)}`,
      });
      return predictPointsSchema.parse(body);
    },

    async media(address: string): Promise<PredictMarketMedia> {
      const { body } = await request<unknown>({
        method: "GET",
        path: `${PREFIX}/markets/${encodeURIComponent(address)}/media`,
      });
      return predictMarketMediaSchema.parse(body);
    },

    async leaderboard(limit?: number): Promise<PredictLeaderboard> {
      const { body } = await request<unknown>({ method: "GET", path: `${PREFIX}/points`, query: { limit } });
      return predictLeaderboardSchema.parse(body);
    },

    subscribe(options: PredictSubscribeOptions): PredictSubscription {
      let snapshot: PredictSnapshot = { markets: [], block: null, stale: false };
      const publish = (next: PredictSnapshot) => {
        snapshot = next;
        options.onSnapshot(snapshot);
      };
      const failed = (error: unknown) => {
        options.onError?.(error);
        if (error instanceof MktApiError && error.status === 503 && !snapshot.stale)
          publish({ ...snapshot, stale: true });
      };
      const reload = async () => {
        try {
          const all: PredictMarket[] = [];
          let block: PredictBlock | null = null;
          let cursor: string | undefined;
          for (;;) {
            const page = await markets.page({ cursor, limit: options.pageSize ?? 100 });
            block ??= page.block;
            all.push(...page.markets);
            if (page.nextCursor === null) break;
            cursor = page.nextCursor;
          }
          publish({ markets: all, block, stale: false });
        } catch (error) {
          failed(error);
        }
      };
      const refresh = async (address: string) => {
        try {
          const { market } = await markets.get(address);
          const index = snapshot.markets.findIndex((m) => m.address === market.address);
          const list =
            index === -1
              ? [market, ...snapshot.markets]
              : snapshot.markets.map((m, i) => (i === index ? market : m));
          publish({ ...snapshot, markets: list });
        } catch (error) {
          failed(error);
        }
      };
      // Events are handled in order: each waits for the reads of the one before.
      let handling: Promise<void> = Promise.resolve();
      const subscription = subscribeEventStream(
        stream,
        { url: new URL(`${baseUrl}${PREFIX}/stream`), surface: "predict", parse: parsePredictStreamEvent },
        {
          onResync: reload,
          onEvent: (event) => {
            handling = handling.then(async () => {
              if (event.event === "ready") await reload();
              else if (event.event === "market" || event.event === "trade" || event.event === "resolution")
                await refresh(event.data.market);
              options.onEvent?.(event);
            });
          },
          onError: failed,
          ...(options.backoff ? { backoff: options.backoff } : {}),
        },
      );
      return { ...subscription, snapshot: () => snapshot };
    },
  };
}
