/**
 * The numbers a Game carries that the chain does not state directly, in
 * bigint arithmetic on the projection's Wei and token quantities.
 */

export interface CurveState {
  isGraduated: boolean;
  virtualEth: bigint;
  virtualTokens: bigint;
  ethReserve: bigint;
  tokensSold: bigint;
  graduationEth: bigint;
  poolEth: bigint | null;
  poolTokens: bigint | null;
}

/**
 * Spot price times supply, in Wei, rounded down. Before graduation the curve
 * prices the token: `x = virtualEth + ethReserve`, `y = virtualTokens - tokensSold`,
 * price `x / y`, supply `tokensSold`. After graduation the pool prices it:
 * `poolEth / poolTokens`, supply `tokensSold + poolTokens`. 0 when the
 * denominator is 0 (an empty pool or a sold-out curve has no spot price).
 */
export function marketCapWei(curve: CurveState): bigint {
  if (curve.isGraduated) {
    const poolTokens = curve.poolTokens ?? 0n;
    if (poolTokens <= 0n) return 0n;
    return ((curve.poolEth ?? 0n) * (curve.tokensSold + poolTokens)) / poolTokens;
  }
  const y = curve.virtualTokens - curve.tokensSold;
  if (y <= 0n) return 0n;
  return ((curve.virtualEth + curve.ethReserve) * curve.tokensSold) / y;
}

/**
 * Percent of the graduation target the curve's reserve holds, rounded down to
 * two decimals and capped at 100; 100 once graduated; 0 when the game has no
 * graduation target.
 */
export function preorderProgress(curve: CurveState): number {
  if (curve.isGraduated) return 100;
  if (curve.graduationEth <= 0n) return 0;
  const hundredths = (curve.ethReserve * 10_000n) / curve.graduationEth;
  return hundredths >= 10_000n ? 100 : Number(hundredths) / 100;
}

/**
 * The chance in percent that one pack draws a card: its rarity's odds (basis
 * points) times the card's share of its tier (`width / tierWidth`), rounded
 * to 6 decimals.
 */
export function cardOddsPercent(rarityBps: number, width: number, tierWidth: number): number {
  if (tierWidth <= 0) return 0;
  return Math.round(((rarityBps * width) / tierWidth) * 10_000) / 1_000_000;
}

/** `12.5` → `"12.5%"`: at most 4 decimals, trailing zeros dropped. */
export function formatPercent(percent: number): string {
  return `${Number(percent.toFixed(4)).toString()}%`;
}
