/**
 * The ETH/USD price behind `marketCapUsd` and `pricePerPackUsd`. Routes that
 * need a price answer 503 (`PRICE_UNAVAILABLE`, classic body) when the source
 * has none. Sources: a fixed rate (the dev chain; `ETH_USD_PRICE`) and an
 * HTTP source for production (`ETH_USD_PRICE_URL`).
 */
export interface EthUsdPriceSource {
  /** US dollars per ETH as a decimal string (`"3012.55"`), or undefined while no fresh price is known. */
  usdPerEth(): Promise<string | undefined>;
}

export function fixedPriceSource(usdPerEth: string): EthUsdPriceSource {
  if (!/^\d+(\.\d+)?$/.test(usdPerEth)) throw new Error(`not a decimal price: ${usdPerEth}`);
  return { usdPerEth: async () => usdPerEth };
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
