// The market surface of the scale benchmark: its volumes (packages/server/src/_test/volume/market.ts)
// and every market read over them, at the first page and a deep page.
import { randomUUID } from "node:crypto";
import { deriveDevAccounts } from "@mkt/chain";
import { signInMessage } from "@mkt/protocol";
import pg from "pg";
import {
  accountAddress,
  checkMarketClaimsSample,
  checkMarketSocialSample,
  loadMarketClaims,
  loadMarketSocial,
  MEASURED_CREATOR,
  marketCounts,
  releaseOf,
  VOLUME_RUNTIME,
  volumeDeployment,
} from "../../packages/server/src/_test/volume/market.ts";
import { type Database, migrate, openDatabase } from "../../packages/server/src/db/index.ts";
import type { ScaleRoute, ScaleRoutesContext, ScaleSurface } from "./surface.ts";

/** Account 0 of the volume: a dev wallet, so the benchmark can sign it in. */
const measured = deriveDevAccounts(undefined, 1)[0]!;
const MEASURED = measured.address.toLowerCase();
const n = (value: number) => value.toLocaleString("en");

/** Follows `next` cursors of a list from `path` for at most `pages` pages; answers the last page's path. */
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
    const counts = marketCounts(ctx.scale);
    const session = await signIn(ctx);
    const runtime = `/market/runtime/${VOLUME_RUNTIME}`;
    const account1 = accountAddress(1, MEASURED);
    const releaseIds = releaseIdsOf(counts);
    const publicReleases = releaseIds.public.length;
    const ownReleases = releaseIds.ownPublic;
    const volume = {
      claims: `${n(counts.claims)} claims`,
      drops: `${n(counts.drops)} drops, ${n(counts.claims)} claims`,
      releases: `${n(counts.releases)} releases`,
      accounts: `${n(counts.accounts)} accounts`,
      dms: `${n(counts.dms)} DMs`,
      follows: `${n(counts.accounts)} accounts' follows`,
    };
    const lastOffset = (total: number, page: number, bound: number) =>
      Math.min(bound, Math.max(0, Math.floor((total - 1) / page) * page));
    const routes: ScaleRoute[] = [];
    const add = (
      route: string,
      page: ScaleRoute["page"],
      volumeText: string,
      path: string,
      headers?: Record<string, string>,
    ) => routes.push({ route, page, volume: volumeText, path, ...(headers ? { headers } : {}) });
    /** A list's first page, and its last page reached by following `next` (at most `pages` pages). */
    const list = async (
      route: string,
      volumeText: string,
      path: string,
      pages: number,
      headers?: Record<string, string>,
    ) => {
      add(route, "first", volumeText, path, headers);
      add(route, "deep", volumeText, await walk(ctx, path, pages, headers), headers);
    };

    add("GET /market/runtime", "first", volume.drops, "/market/runtime");
    await list(
      "GET /market/runtime/{version}",
      volume.drops,
      `${runtime}?limit=10`,
      Math.ceil(counts.drops / 10) + 1,
    );
    const ownerClaims = `${runtime}/claims?owner=${MEASURED}&limit=100`;
    await list(
      "GET /market/runtime/{version}/claims",
      volume.claims,
      ownerClaims,
      Math.ceil(counts.claims / 100 / 100) + 1,
    );
    add("GET /market/discovery", "first", volume.drops, "/market/discovery");
    for (const board of ["creators", "collectors"] as const) {
      const path = `/market/board/${board}?window=all`;
      add(`GET /market/board/${board}`, "first", volume.claims, path);
      // Offset paging, bounded at 10,000 (documented): the last page the board serves.
      const entries = board === "creators" ? Math.min(50, counts.accounts) : counts.accounts;
      add(
        `GET /market/board/${board}`,
        "deep",
        volume.claims,
        `${path}&offset=${lastOffset(entries, 25, 10_000)}`,
      );
      add(`GET /market/board/${board} (30d)`, "first", volume.claims, `/market/board/${board}?window=30d`);
    }
    add(
      "GET /market/creators/{address}",
      "first",
      `${volume.accounts}, ${volume.releases}`,
      `/market/creators/${MEASURED}`,
    );
    await list(
      "GET /market/creators/{address}/releases",
      volume.releases,
      `/market/creators/${MEASURED}/releases?limit=10`,
      Math.ceil(ownReleases / 10) + 1,
    );
    await list(
      "GET /market/creators/{address}/drops",
      volume.drops,
      `/market/creators/${MEASURED}/drops?limit=1`,
      counts.drops,
    );
    add("GET /market/releases", "first", volume.releases, "/market/releases");
    // Offset paging, bounded at 10,000 (documented): the last page it serves.
    add(
      "GET /market/releases",
      "deep",
      volume.releases,
      `/market/releases?offset=${lastOffset(publicReleases, 50, 10_000)}`,
    );
    const release = releaseIds.public[0]!;
    add("GET /market/releases/{releaseId}", "first", volume.releases, `/market/releases/${release}`);
    add(
      "GET /market/releases/{releaseId}/artwork",
      "first",
      volume.releases,
      `/market/releases/${release}/artwork`,
    );
    await list(
      "GET /market/releases/{releaseId}/artwork/history",
      volume.releases,
      `/market/releases/${release}/artwork/history?limit=1`,
      4,
    );
    await list(
      "GET /market/account/releases",
      volume.releases,
      "/market/account/releases?limit=10",
      Math.ceil(releaseIds.own / 10) + 1,
      session,
    );
    await list(
      "GET /market/dm/threads",
      volume.dms,
      "/market/dm/threads?limit=100",
      counts.accounts,
      session,
    );
    await list(
      "GET /market/dm/messages",
      volume.dms,
      `/market/dm/messages?with=${account1}&limit=100`,
      counts.dms,
      session,
    );
    add("GET /market/dm/unread", "first", volume.dms, "/market/dm/unread", session);
    await list(
      "GET /market/accounts/{address}/followers",
      volume.follows,
      `/market/accounts/${MEASURED}/followers?limit=100`,
      counts.accounts,
    );
    await list(
      "GET /market/accounts/{address}/following",
      volume.follows,
      `/market/accounts/${MEASURED}/following?limit=100`,
      counts.accounts,
    );
    return routes;
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

/** The loaded releases' ids: the public ones (newest change first), and the measured account's. */
function releaseIdsOf(counts: ReturnType<typeof marketCounts>) {
  const all = Array.from({ length: counts.releases }, (_, r) => releaseOf(r, counts, 0));
  const mine = all.filter((release) => release.owner === MEASURED_CREATOR);
  return {
    public: all
      .filter((release) => release.status !== "draft")
      .map((release) => release.id)
      .reverse(),
    own: mine.length,
    ownPublic: mine.filter((release) => release.status !== "draft").length,
  };
}
