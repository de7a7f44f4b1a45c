import type { CreatedKey, CreateKeyRequest, MarketBucket, RateLimit } from "@mkt/protocol";
import { createdKeySchema, readRateLimit } from "@mkt/protocol";
import { type AccountApi, accountApi } from "./account.ts";
import { type ClassicApi, classicApi } from "./classic.ts";
import { createTransport, type TransportOptions } from "./http.ts";
import { type LiveApi, liveApi } from "./live.ts";
import { type MarketReadsApi, marketReadsApi } from "./market-reads.ts";
import { type PackEditApi, packEditApi } from "./pack-edits.ts";
import { type PredictApi, predictApi } from "./predict.ts";
import { predictMarketsApi } from "./predict-markets.ts";
import { type ReleasesApi, releasesApi } from "./releases.ts";
import { type RuntimeApi, runtimeApi } from "./runtime.ts";

/** `baseUrl`, the optional `apiKey`, and the `fetch`, `retry` policy and clock to use. */
export interface MktClientOptions extends TransportOptions {}

/** API keys (`/keys`). */
export interface KeysApi {
  /**
   * Creates an API key (`POST /keys`, no key needed); the key is in this answer only.
   * A 429 or 503 is retried with the same Idempotency-Key; a network failure is
   * not (a replay would answer without the key).
   */
  create(input: CreateKeyRequest): Promise<CreatedKey>;
  /** Revokes the client's own key. */
  revokeCurrent(): Promise<void>;
}

/**
 * The market API (`/market`): wallet sign-in and account sessions, and the
 * public reads: `discovery()`, `board`, `creators`, `artwork` and `community`.
 */
export interface MarketApi extends AccountApi, MarketReadsApi {
  /** The release catalog: public reads, and signed actions of a wallet (`/market/releases`). */
  releases: ReleasesApi;
  /** Names or annotates a pack the signing wallet holds (`POST /market/runtime/{version}/pack-edit`). */
  packEdit: PackEditApi;
  /** The runtime catalog and an owner's indexed claims (`/market/runtime`). */
  runtime: RuntimeApi;
  /** Live updates (`GET /market/live`): refresh signals over server-sent events. */
  live: LiveApi;
  /** Reserves one request in a budget (`GET /market/api-key`) and returns the budget's state. */
  reserve(bucket: MarketBucket): Promise<RateLimit>;
}

/** A client of the mkt APIs (`createMktClient`). */
export interface MktClient {
  /** API keys (`/keys`): create one, revoke the client's own. */
  keys: KeysApi;
  /** The Classic booster-box API (`/classic`): games, packs, holdings, activity, metadata. */
  classic: ClassicApi;
  /**
   * The prediction-market feed V9 (`/predict/v9`): `start()` (stop unless both runtime flags are
   * true), markets, quotes, portfolio, points and a stream that keeps a snapshot of the markets.
   */
  predict: PredictApi;
  /** The market API (`/market`): sign-in, sessions, releases, runtimes, public reads, live updates. */
  market: MarketApi;
}

/**
 * Creates a client of the mkt APIs: `keys`, `market`, `classic` and `predict`.
 *
 * The same conventions on every surface:
 * - **Signer**: every signed flow (market sign-in and account deletion, release
 *   actions, pack edits, classic sign-in) takes one `MktSigner`: a viem local
 *   or smart account, or a viem `WalletClient` with an account.
 * - **Times**: every expiry returned (`expiresAt`, `cooldownUntil`), and the
 *   times beside it, is Unix epoch milliseconds (`number`); the classic wire's
 *   ISO strings are converted. Durations carry their unit in their name.
 * - **Errors**: a refused request throws `MktApiError`: `status`, `code`
 *   (always set: the body's own code, or the status's for the market's words-only
 *   body), `message`, `retryAfterSeconds` (`undefined` without `Retry-After`),
 *   `requestId`. Branch on `status` and `code`.
 * - **Retries**: only what a retry can change: a 429 from a real rate limit and
 *   a 503, each waited out by its `Retry-After` (up to
 *   `retry.maxRetryAfterSeconds`), and network failures of idempotent requests.
 *   A client without an API key fails at once (`apiKeyMissing`), never waiting.
 *
 * @example
 * ```ts
 * import { createMktClient } from "@mkt/client";
 *
 * const anonymous = createMktClient({ baseUrl: "http://127.0.0.1:8080" });
 * const { key } = await anonymous.keys.create({ description: "my bot", email: "me@example.com" });
 * const client = createMktClient({ baseUrl: "http://127.0.0.1:8080", apiKey: key });
 * const budget = await client.market.reserve("read");
 * console.log(budget.remaining);
 * ```
 */
export function createMktClient(options: MktClientOptions): MktClient {
  const request = createTransport(options);
  return {
    keys: {
      async create(input: CreateKeyRequest): Promise<CreatedKey> {
        const { body } = await request<unknown>({
          method: "POST",
          path: "/keys",
          body: input,
          authenticated: false,
        });
        return createdKeySchema.parse(body);
      },
      async revokeCurrent(): Promise<void> {
        await request({ method: "DELETE", path: "/keys/current" });
      },
    },
    classic: classicApi(request, { stream: options }),
    predict: predictApi(request, { stream: options, markets: predictMarketsApi(request) }),
    market: {
      ...accountApi(request),
      ...marketReadsApi(request),
      releases: releasesApi(request),
      packEdit: packEditApi(request),
      runtime: runtimeApi(request),
      live: liveApi(options),
      async reserve(bucket: MarketBucket): Promise<RateLimit> {
        const { headers } = await request({ method: "GET", path: "/market/api-key", query: { bucket } });
        return readRateLimit(headers);
      },
    },
  };
}
