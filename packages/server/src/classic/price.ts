import type { Config } from "../config/index.ts";
import type { Clock } from "../quotas/limiter.ts";

/** One ETH/USD price and when it was obtained. */
export interface EthUsdQuote {
  /** US dollars per ETH as a plain decimal string (`"3012.55"`). */
  usdPerEth: string;
  /** When the source obtained it: a fixed source's start, an HTTP source's successful fetch. */
  obtainedAt: Date;
}

/**
 * The ETH/USD price behind every `…Usd` field and `GET /classic/eth-price`.
 * Routes that need a price answer 503 (`PRICE_UNAVAILABLE`, classic body)
 * when the source has none. Sources: a fixed rate (the dev chain;
 * `ETH_USD_PRICE`) and an HTTP source for production (`ETH_USD_PRICE_URL`).
 */
export interface EthUsdPriceSource {
  /** The current price and its time, or undefined while no fresh price is known. */
  quote(): Promise<EthUsdQuote | undefined>;
}

/** A source that never has a price (a real chain without `ETH_USD_PRICE[_URL]`). */
export const noPriceSource: EthUsdPriceSource = { quote: async () => undefined };

const DECIMAL_PRICE = /^\d{1,12}(\.\d{1,18})?$/;

/** A fixed rate, obtained at `obtainedAt` (the process start by default). */
export function fixedPriceSource(usdPerEth: string, obtainedAt: Date = new Date()): EthUsdPriceSource {
  if (!DECIMAL_PRICE.test(usdPerEth)) throw new Error(`not a decimal price: ${usdPerEth}`);
  const quote = { usdPerEth, obtainedAt };
  return { quote: async () => quote };
}

const CENT_SCALE = 10n ** 18n;

/**
 * `wei` in US dollars at `usdPerEth`, rounded down to the cent, as `"1234.56"`.
 * Exact: bigint arithmetic on the price's decimal digits.
 */
export function weiToUsd(wei: bigint, usdPerEth: string): string {
  const [whole = "0", fraction = ""] = usdPerEth.split(".");
  const scale = 10n ** BigInt(fraction.length);
  const price = BigInt(whole + fraction); // usdPerEth * scale
  const cents = (wei * price * 100n) / (CENT_SCALE * scale);
  const text = cents.toString().padStart(3, "0");
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/**
 * A non-negative decimal amount of US dollars (`"4662.53"`, `"1234567.891"`,
 * `"0.5"`) as the live service writes its `…Usd` strings: `$`, thousands
 * separated by commas, two decimals, rounded down to the cent
 * (`"$4,662.53"`, `"$1,234,567.89"`, `"$0.50"`). The one formatting of every
 * `…Usd` field of the classic surface; `weiToUsd` computes the amount.
 */
export function formatUsd(dollars: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(dollars);
  if (!match) throw new Error(`not a decimal amount of dollars: ${dollars}`);
  const whole = (match[1] ?? "0").replace(/^0+(?=\d)/, "");
  const cents = `${match[2] ?? ""}00`.slice(0, 2);
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}

/** `wei` at `usdPerEth`, formatted as a `…Usd` field (`"$4,743.63"`): `formatUsd(weiToUsd(wei, usdPerEth))`. */
export const weiToUsdText = (wei: bigint, usdPerEth: string) => formatUsd(weiToUsd(wei, usdPerEth));

export interface HttpPriceSourceOptions {
  /** A JSON document holding the price (see `readPrice` for the accepted shapes). */
  url: string;
  /** Dotted path to the price in the document; default `price` (`{"price": "3012.55"}`). */
  jsonPath?: string;
  /** How long a fetched price is used before the next fetch; default 60 s. Failed fetches are retried no sooner. */
  ttlMs?: number;
  /** Age after which a price is unavailable (routes answer 503); default 5 minutes. */
  maxAgeMs?: number;
  /** Per-fetch deadline; default 5 s. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
  /** A failed fetch (the message only: a price URL may carry a token, so it is never passed on). */
  onError?: (message: string) => void;
}

const MAX_PRICE_DOCUMENT = 65_536;

/**
 * The price at `path` in a parsed JSON document, as a plain decimal string,
 * or undefined. Accepted: a decimal string (`"3012.55"`, Coinbase's
 * `data.amount`) or a finite positive JSON number written without an exponent
 * (`3012.55`); anything else (missing, zero, negative, `"1e3"`, an object)
 * is no price.
 */
export function readPrice(document: unknown, path: string): string | undefined {
  let value: unknown = document;
  for (const step of path.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, step) ? (value as Record<string, unknown>)[step] : undefined;
  }
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== "string" || !DECIMAL_PRICE.test(text) || !/[1-9]/.test(text)) return undefined;
  return text;
}

/**
 * ETH/USD from a JSON document over HTTP (`ETH_USD_PRICE_URL`), for
 * production. Fetched at most once per `ttlMs` per replica, whether the
 * fetch succeeds or not; while the last good price is younger than
 * `maxAgeMs` it is answered at once and a due refresh runs in the
 * background; past that the price is unavailable until a fetch succeeds.
 */
export function createHttpPriceSource(options: HttpPriceSourceOptions): EthUsdPriceSource {
  const {
    url,
    jsonPath = "price",
    ttlMs = 60_000,
    maxAgeMs = 300_000,
    timeoutMs = 5_000,
    fetch = globalThis.fetch,
    clock = { now: () => Date.now() },
    onError,
  } = options;
  let price: { usdPerEth: string; fetchedAt: number } | undefined;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;

  const fetchPrice = async (): Promise<string> => {
    const response = await fetch(url, {
      headers: { accept: "application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`price source answered ${response.status}`);
    const text = await response.text();
    if (text.length > MAX_PRICE_DOCUMENT) throw new Error("price document too large");
    const found = readPrice(JSON.parse(text), jsonPath);
    if (found === undefined) throw new Error(`price source document has no price at ${jsonPath}`);
    return found;
  };
  const refresh = () => {
    attemptedAt = clock.now();
    inFlight ??= fetchPrice()
      .then(
        (usdPerEth) => {
          price = { usdPerEth, fetchedAt: clock.now() };
        },
        (error: unknown) => onError?.(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  const usable = (): EthUsdQuote | undefined =>
    price !== undefined && clock.now() - price.fetchedAt <= maxAgeMs
      ? { usdPerEth: price.usdPerEth, obtainedAt: new Date(price.fetchedAt) }
      : undefined;

  return {
    async quote() {
      const due = clock.now() - attemptedAt >= ttlMs;
      if (usable() !== undefined) {
        if (due) void refresh();
        return usable();
      }
      if (due) await refresh();
      else if (inFlight) await inFlight;
      return usable();
    },
  };
}

/** The price source the configuration names (`ETH_USD_PRICE`, `ETH_USD_PRICE_URL`), or undefined: no price. */
export function createPriceSource(
  config: Pick<Config, "priceSource">,
  options: Pick<HttpPriceSourceOptions, "clock" | "fetch" | "onError"> = {},
): EthUsdPriceSource | undefined {
  const source = config.priceSource;
  if (source === undefined) return undefined;
  if (source.kind === "fixed")
    return fixedPriceSource(source.usdPerEth, new Date(options.clock?.now() ?? Date.now()));
  return createHttpPriceSource({ url: source.url, jsonPath: source.path, ...options });
}
