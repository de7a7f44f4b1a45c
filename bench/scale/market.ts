// The market surface of the scale benchmark: its volumes (packages/server/src/_test/volume/market.ts)
// and every market read over them, at the first page and a deep page.
import { deriveDevAccounts } from "@mkt/chain";
import {
  checkMarketClaimsSample,
  loadMarketClaims,
  marketCounts,
  VOLUME_RUNTIME,
  volumeDeployment,
} from "../../packages/server/src/_test/volume/market.ts";
import type { ScaleRoute, ScaleRoutesContext, ScaleSurface } from "./surface.ts";

/** Account 0 of the volume: a dev wallet, so the benchmark can sign it in. */
const measured = deriveDevAccounts(undefined, 1)[0]!;
const MEASURED = measured.address.toLowerCase();
const n = (value: number) => value.toLocaleString("en");

/** Follows `next` cursors of a list from `path` for `pages` pages; answers the last page's path. */
async function walk(
  ctx: ScaleRoutesContext,
  path: string,
  pages: number,
  headers?: Record<string, string>,
): Promise<string> {
  let current = path;
  for (let page = 1; page < pages; page++) {
    const response = await ctx.fetch(current, headers ? { headers } : {});
    if (response.status !== 200)
      throw new Error(`${current} answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { next?: string | number | null };
    if (body.next === undefined || body.next === null) return current;
    const url = new URL(current, "http://x");
    url.searchParams.set(typeof body.next === "number" ? "offset" : "cursor", String(body.next));
    current = `${url.pathname}${url.search}`;
  }
  return current;
}

export const marketScale: ScaleSurface = {
  id: "market",
  deployment: volumeDeployment(),
  async load(ctx) {
    const counts = marketCounts(ctx.scale);
    // A year of history ending now, to the second.
    const anchorMs = Math.floor(Date.now() / 1000) * 1000 - 365 * 86_400_000;
    await loadMarketClaims(ctx.db, { counts, measured: MEASURED, anchorMs, log: ctx.log });
  },
  async checkSample(ctx) {
    const counts = marketCounts(ctx.scale);
    await checkMarketClaimsSample(ctx.db, { counts, measured: MEASURED });
  },
  async routes(ctx) {
    const counts = marketCounts(ctx.scale);
    const claims = `${n(counts.claims)} claims`;
    const ownerClaims = `/market/runtime/${VOLUME_RUNTIME}/claims?owner=${MEASURED}&limit=100`;
    const routes: ScaleRoute[] = [
      { route: "GET /market/runtime/{version}/claims", page: "first", volume: claims, path: ownerClaims },
      {
        route: "GET /market/runtime/{version}/claims",
        page: "deep",
        volume: claims,
        // The measured collector holds 1 in 100 claims: the last page of them.
        path: await walk(ctx, ownerClaims, Math.ceil(counts.claims / 100 / 100)),
      },
    ];
    return routes;
  },
};
