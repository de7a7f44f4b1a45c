import { randomUUID } from "node:crypto";
import { parseReleaseAction, type ReleaseActionInput, releaseActionMessage } from "@mkt/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEnvelopeChecks, testWallet } from "../../_test/accounts.ts";
import { createManualClock } from "../../_test/app.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { claimDropsOf, marketDeployment, seedRuntimes } from "../../_test/market.ts";
import { chainRoles } from "../../chains/index.ts";
import { createCursorSigner } from "../../paging/index.ts";
import { createCursorCodec, createRuntimeCatalog } from "../runtime/index.ts";
import { createReleaseService, RELEASES_SOURCE, type ReleaseService } from "./service.ts";

const clock = createManualClock(Date.now());
const bumped: string[] = [];
let database: TestDatabase;
let releases: ReleaseService;
/** The market registry's runtimes r1 and r2, as the indexer would have written them. */
const deployment = marketDeployment();
let scope: string;
beforeAll(async () => {
  database = await setupDatabase();
  scope = await seedRuntimes(database.db, deployment);
  releases = createReleaseService({
    db: database.db,
    clock,
    envelopes: testEnvelopeChecks(database.db, clock),
    runtimes: createRuntimeCatalog({
      db: database.db,
      market: chainRoles([deployment]).market,
      cursors: createCursorCodec({ key: async () => Buffer.alloc(32, 1) }),
    }),
    bump: async (source) => {
      bumped.push(source);
    },
    cursors: createCursorSigner(Buffer.alloc(32, 2)),
  });
});
afterAll(() => database.close());

const address = (index: number) => testWallet(index).address.toLowerCase();

async function apply(index: number, input: ReleaseActionInput) {
  const fields = { address: address(index), nonce: randomUUID(), expires: clock.now() + 60_000 };
  const action = parseReleaseAction(input);
  const signature = await testWallet(index).signMessage({
    message: releaseActionMessage({ ...fields, action }),
  });
  return releases.apply({ ...fields, action, signature }, { ip: "192.0.2.1" });
}

/** A drop the indexer saw in runtime r1 of the market registry (or of a registry on another chain), created by wallet `index`. */
const seeDrop = (dropId: string, index: number, at = { scope: () => scope, chainId: 8453 }) =>
  sql`INSERT INTO market_drops (scope, chain_id, runtime_id, drop_id, contract, creator, price, max_supply, created_block, created_tx, updated_block)
      VALUES (${at.scope()}, ${at.chainId}, 'r1', ${dropId}::numeric, ${claimDropsOf(deployment, "r1")}, ${address(index)}, 0, 10, 1, '0xa0', 1)`.execute(
    database.db.kysely,
  );

async function announcedRelease(index: number) {
  const created = await apply(index, { kind: "create", draft: { name: "Linked", symbol: "LNK" } });
  if (created.kind !== "created") throw new Error("not created");
  const releaseId = created.release.id;
  await apply(index, { kind: "announce", releaseId, revision: 1, launchAt: clock.now() + 60_000 });
  return releaseId;
}

describe("link", () => {
  it("links an announced release to a drop the indexer saw, created by the owner's wallet", async () => {
    const releaseId = await announcedRelease(1);
    const link = { kind: "link", releaseId, revision: 2, version: "r1", dropId: "7" } as const;
    await expect(apply(1, link)).rejects.toMatchObject({ kind: "conflict" });
    // Drop 7 of an r1 of a registry on another chain is not the market's.
    await seeDrop("7", 1, { scope: () => "1:registry:0xother", chainId: 1 });
    await expect(apply(1, link)).rejects.toMatchObject({ kind: "conflict" });
    await seeDrop("7", 1);
    const linked = await apply(1, link);
    expect(linked).toMatchObject({
      kind: "changed",
      release: { status: "live", version: "r1", dropId: "7", revision: 3 },
    });
    expect((await releases.get(releaseId)).status).toBe("live");

    // A drop links to one release at most.
    const other = await announcedRelease(1);
    await expect(apply(1, { ...link, releaseId: other })).rejects.toMatchObject({ kind: "conflict" });
    // live is final.
    await expect(apply(1, { kind: "cancel", releaseId, revision: 3 })).rejects.toMatchObject({
      kind: "conflict",
    });
  });

  it("refuses a drop another account created", async () => {
    const releaseId = await announcedRelease(2);
    await seeDrop("8", 3);
    await expect(
      apply(2, { kind: "link", releaseId, revision: 2, version: "r1", dropId: "8" }),
    ).rejects.toMatchObject({ kind: "forbidden" });
  });
});

describe("read cache source", () => {
  it("bumps market-releases on every accepted action and on none refused", async () => {
    bumped.length = 0;
    const created = await apply(4, { kind: "create", draft: { name: "Bumps", symbol: "BMP" } });
    if (created.kind !== "created") throw new Error("not created");
    const releaseId = created.release.id;
    await apply(4, { kind: "edit", releaseId, revision: 1, draft: { name: "Bumps 2", symbol: "BMP" } });
    await expect(
      apply(4, { kind: "edit", releaseId, revision: 1, draft: { name: "Stale", symbol: "BMP" } }),
    ).rejects.toMatchObject({ kind: "conflict" });
    await apply(4, { kind: "delete", releaseId, revision: 2 });
    expect(bumped).toEqual([RELEASES_SOURCE, RELEASES_SOURCE, RELEASES_SOURCE]);
  });
});
