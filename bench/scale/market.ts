// The market surface of the scale benchmark: its volumes (packages/server/src/_test/volume/market.ts)
// and every market read over them, at the first page and a deep page.
import { randomUUID } from "node:crypto";
import { deriveDevAccounts } from "@mkt/chain";
import { signInMessage } from "@mkt/protocol";
import pg from "pg";
import {
  checkMarketClaimsSample,
  checkMarketSocialSample,
  loadMarketClaims,
  loadMarketSocial,
  marketCounts,
  marketReadRoutes,
  volumeDeployment,
} from "../../packages/server/src/_test/volume/market.ts";
import { type Database, migrate, openDatabase } from "../../packages/server/src/db/index.ts";
import type { ScaleRoutesContext, ScaleSurface } from "./surface.ts";

/** Account 0 of the volume: a dev wallet, so the benchmark can sign it in. */
const measured = deriveDevAccounts(undefined, 1)[0]!;
const MEASURED = measured.address.toLowerCase();

/** A migrated, empty database beside the loaded one, for the services to write a sample into; dropped after. */
async function withScratchDatabase(url: string, fn: (db: Database) => Promise<void>) {
  const name = `${new URL(url).pathname.slice(1)}_check`;
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
    const scratchUrl = new URL(url);
    scratchUrl.pathname = `/${name}`;
    const db = await openDatabase({ kind: "postgres", url: scratchUrl.toString(), poolSize: 2 });
    try {
      await migrate(db);
      await fn(db);
    } finally {
      await db.close();
    }
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await client.end();
  }
}

export const marketScale: ScaleSurface = {
  id: "market",
  deployment: volumeDeployment(),
  async load(ctx) {
    const counts = marketCounts(ctx.scale);
    // A year of history ending now, to the second.
    const anchorMs = Math.floor(Date.now() / 1000) * 1000 - 365 * 86_400_000;
    await loadMarketClaims(ctx.db, { counts, measured: MEASURED, anchorMs, log: ctx.log });
    await loadMarketSocial(ctx.db, { counts, measured: MEASURED, anchorMs, log: ctx.log });
  },
  async checkSample(ctx) {
    const counts = marketCounts(ctx.scale);
    await checkMarketClaimsSample(ctx.db, { counts, measured: MEASURED });
    await withScratchDatabase(ctx.url, (scratch) => checkMarketSocialSample(ctx.db, scratch, { counts }));
  },
  async routes(ctx) {
    const session = await signIn(ctx);
    return marketReadRoutes({
      counts: marketCounts(ctx.scale),
      measured: MEASURED,
      session,
      get: async (path: string, headers?: Record<string, string>) => {
        const response = await ctx.fetch(path, headers ? { headers } : {});
        return { status: response.status, body: await response.text() };
      },
    });
  },
};

/** Signs the measured account in through the API; the headers of its session's requests. */
async function signIn(ctx: ScaleRoutesContext): Promise<Record<string, string>> {
  const origin = "http://localhost:8080";
  const fields = {
    origin,
    address: MEASURED,
    nonce: randomUUID(),
    expires: Date.now() + 60_000,
  };
  const signature = await measured.signMessage({ message: signInMessage(fields) });
  const response = await ctx.fetch("/market/account/session", {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({ ...fields, signature }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  return { authorization: `Bearer ${token}`, origin, "x-mkt-wallet": MEASURED };
}
