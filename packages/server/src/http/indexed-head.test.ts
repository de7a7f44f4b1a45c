import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";
import { marketDeployment, seedRuntimes } from "../_test/market.ts";
import { INDEXER_CHANNEL } from "../indexer/head-store.ts";
import { MARKET_INDEXER_SOURCE } from "../market/routes.ts";

const clock = createManualClock();
let t: TestApp;
let key: string;
let scope: string;

/** Writes the market scope's head: blocks below `nextBlock` indexed, the chain seen at `observedHead`, `ageMs` ago. */
async function setHead(nextBlock: number, observedHead: number, ageMs: number) {
  await t.db.withConnection((c) =>
    c.query(
      `INSERT INTO indexer_heads (scope, chain_id, next_block, revision, observed_head, observed_at, updated_at)
       VALUES ($1, 8453, $2, 1, $3, $4, $4)
       ON CONFLICT (scope) DO UPDATE SET next_block = EXCLUDED.next_block, observed_head = EXCLUDED.observed_head,
         observed_at = EXCLUDED.observed_at`,
      [scope, nextBlock, observedHead, new Date(clock.now() - ageMs)],
    ),
  );
}

/** What the indexer does after a commit; resolves once this replica heard it. */
async function announceCommit() {
  const [counter] = t.app.services.revisions.counters([MARKET_INDEXER_SOURCE]);
  const before = counter!.value;
  await t.db.notify(INDEXER_CHANNEL, scope);
  await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
}

const get = (url: string, headers: Record<string, string> = { "api-key": key }) =>
  t.app.server.inject({ method: "GET", url, headers });

const indexedHeaders = (response: { headers: Record<string, unknown> }) => ({
  block: response.headers["indexed-block"],
  lag: response.headers["indexed-lag"],
  age: response.headers["indexed-age"],
});

beforeAll(async () => {
  t = await setupApp({ deployments: [marketDeployment()], clock });
  key = (await t.createKey({ multiplier: 100 })).key;
  scope = await seedRuntimes(t.db, marketDeployment());
  await setHead(51, 54, 2_000);
});
afterAll(() => t.close());

describe("Indexed-* headers of answers built from an indexed projection", () => {
  it("say the indexed block, the lag behind the chain head last seen, and the seconds since", async () => {
    const first = await get("/market/runtime");
    expect(first.statusCode).toBe(200);
    expect(indexedHeaders(first)).toEqual({ block: "50", lag: "4", age: "2" });
  });

  it("keep growing on read-cache hits and 304s while the indexer does not see the chain", async () => {
    const first = await get("/market/runtime");
    clock.advance(40_000);
    const hit = await get("/market/runtime");
    expect(hit.body).toBe(first.body);
    expect(indexedHeaders(hit)).toEqual({ block: "50", lag: "4", age: "42" });
    const notModified = await get("/market/runtime", {
      "api-key": key,
      "if-none-match": String(first.headers["etag"]),
    });
    expect(notModified.statusCode).toBe(304);
    expect(indexedHeaders(notModified)).toEqual({ block: "50", lag: "4", age: "42" });
  });

  it("follow an indexer commit at once", async () => {
    await setHead(61, 60, 0);
    await announceCommit();
    expect(indexedHeaders(await get("/market/runtime"))).toEqual({ block: "60", lag: "0", age: "0" });
  });

  it("are absent from errors and from answers not built from the projection", async () => {
    const refused = await get("/market/runtime", {});
    expect(refused.statusCode).toBe(401);
    expect(indexedHeaders(refused)).toEqual({ block: undefined, lag: undefined, age: undefined });
    const releases = await get("/market/releases");
    expect(releases.statusCode).toBe(200);
    expect(indexedHeaders(releases)).toEqual({ block: undefined, lag: undefined, age: undefined });
  });

  it("are exposed to cross-origin readers", async () => {
    const response = await get("/market/runtime", { "api-key": key, origin: "https://elsewhere.example" });
    expect(String(response.headers["access-control-expose-headers"])).toContain(
      "Indexed-Block, Indexed-Lag, Indexed-Age",
    );
  });
});
