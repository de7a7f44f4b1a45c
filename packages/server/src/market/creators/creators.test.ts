import { randomUUID } from "node:crypto";
import { type ReleaseActionInput, releaseActionMessage } from "@mkt/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, signDeletion, signIn, testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { claimDropsOf, marketDeployment, seedRuntimes } from "../../_test/market.ts";
import { chainRoles } from "../../chains/index.ts";

const clock = createManualClock(Date.now());
const DAY = 86_400_000;
const address = (index: number) => testWallet(index).address.toLowerCase();

/** A market deployment with runtimes r1 and r2; the test writes their projection itself (no chain). */
const deployment = marketDeployment();
/** Another registry's scope on the same chain: its runtimes are not the market's. */
const otherScope = chainRoles([marketDeployment(`0x${"f".repeat(40)}`)]).market!.scope;

let test: TestApp;
let apiKey: string;
const get = (url: string) => test.app.server.inject({ method: "GET", url, headers: { "api-key": apiKey } });

async function act(index: number, action: ReleaseActionInput) {
  const fields = { address: address(index), nonce: randomUUID(), expires: clock.now() + 60_000 };
  const signature = await testWallet(index).signMessage({
    message: releaseActionMessage({ ...fields, action }),
  });
  const response = await test.app.server.inject({
    method: "POST",
    url: "/market/releases",
    headers: { "api-key": apiKey },
    payload: { ...fields, action, signature },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

const create = async (index: number, name: string) =>
  (await act(index, { kind: "create", draft: { name, symbol: "OWL" } })).id as string;

let announcedIds: string[];
let draftId: string;

beforeAll(async () => {
  test = await setupApp({ clock, deployments: [deployment] });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
  // Drops: wallet 1 created 3 (r1 #3 at block 5; r2 #7 and #8 at block 9) and one in another registry's
  // runtime r9 (not the market's); wallet 5 created one; wallet 2 none.
  const scope = await seedRuntimes(test.db, deployment);
  const [c1, c2] = [claimDropsOf(deployment, "r1"), claimDropsOf(deployment, "r2")];
  await sql`INSERT INTO market_drops (scope, chain_id, runtime_id, drop_id, contract, creator, price, max_supply, claimed, created_block, created_tx, updated_block)
    VALUES (${scope}, 8453, 'r1', 3, ${c1}, ${address(1)}, 0, 100, 4, 5, '0xd3', 6),
           (${scope}, 8453, 'r2', 7, ${c2}, ${address(1)}, 1000000000000000000000, 0, 12, 9, '0xd7', 9),
           (${scope}, 8453, 'r2', 8, ${c2}, ${address(1)}, 5, 10, 0, 9, '0xd8', 9),
           (${scope}, 8453, 'r2', 9, ${c2}, ${address(5)}, 0, 0, 0, 10, '0xd9', 10),
           (${otherScope}, 8453, 'r9', 1, ${`0x${"9".repeat(40)}`}, ${address(1)}, 0, 0, 0, 11, '0xe1', 11)`.execute(
    test.db.kysely,
  );

  // Wallet 1's account: a username, two announced releases (one linked to drop r2 #7), one draft.
  const owner = await signIn(test, 1, { apiKey, now: clock.now() });
  const named = await accountAction(test, owner, { kind: "profile-update", username: "owlmaker" });
  expect(named.statusCode, named.body).toBe(200);
  const first = await create(1, "First");
  await act(1, { kind: "announce", releaseId: first, revision: 1, launchAt: clock.now() + DAY });
  await act(1, { kind: "link", releaseId: first, revision: 2, version: "r2", dropId: "7" });
  clock.advance(1_000);
  const second = await create(1, "Second");
  await act(1, { kind: "announce", releaseId: second, revision: 1, launchAt: clock.now() + DAY });
  draftId = await create(1, "Secret draft");
  announcedIds = [second, first];
  // Wallets 2 and 3 follow wallet 1; wallet 1 follows wallet 2.
  for (const index of [2, 3]) {
    const follower = await signIn(test, index, { apiKey, now: clock.now() });
    expect((await accountAction(test, follower, { kind: "follow", address: address(1) })).statusCode).toBe(
      200,
    );
  }
  expect((await accountAction(test, owner, { kind: "follow", address: address(2) })).statusCode).toBe(200);
});
afterAll(() => test.close());

describe("creators", () => {
  it("answers the public profile, follow counts, public releases and drops of the account", async () => {
    const response = await get(`/market/creators/${address(1).toUpperCase().replace("0X", "0x")}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toMatchObject({
      address: address(1),
      profile: { address: address(1), username: "owlmaker" },
      followers: 2,
      following: 1,
      releases: 2,
      drops: 3,
    });
  });

  it("lists a wallet with drops and no account, and 404s a wallet with neither", async () => {
    expect((await get(`/market/creators/${address(5)}`)).json()).toEqual({
      address: address(5),
      profile: null,
      followers: 0,
      following: 0,
      releases: 0,
      drops: 1,
    });
    expect((await get(`/market/creators/${address(5)}/releases`)).json()).toEqual({
      address: address(5),
      releases: [],
      next: null,
    });
    for (const path of ["", "/releases", "/drops"]) {
      const response = await get(`/market/creators/${address(6)}${path}`);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
    const bad = await get("/market/creators/0x1234");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: expect.any(String) });
  });

  it("lists the creator's public releases as summaries, never the draft", async () => {
    const response = await get(`/market/creators/${address(1)}/releases`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.releases.map((release: { id: string }) => release.id)).toEqual(announcedIds);
    expect(body.releases.map((release: { id: string }) => release.id)).not.toContain(draftId);
    expect(body.releases[1]).toMatchObject({
      status: "live",
      version: "r2",
      dropId: "7",
      cardsOmitted: true,
    });
    const paged = await get(`/market/creators/${address(1)}/releases?limit=1`);
    const next = paged.json().next;
    expect(paged.json().releases.map((release: { id: string }) => release.id)).toEqual([announcedIds[0]]);
    const rest = await get(`/market/creators/${address(1)}/releases?limit=1&cursor=${next}`);
    expect(rest.json()).toMatchObject({ releases: [{ id: announcedIds[1] }], next: null });
  });

  it("pages the wallet's drops newest first, in the market runtimes only, with amounts as strings", async () => {
    const first = await get(`/market/creators/${address(1)}/drops?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().drops).toEqual([
      {
        version: "r2",
        dropId: "8",
        creator: address(1),
        price: "5",
        maxSupply: "10",
        claimed: "0",
        createdBlock: 9,
        releaseId: null,
      },
      {
        version: "r2",
        dropId: "7",
        creator: address(1),
        price: "1000000000000000000000",
        maxSupply: "0",
        claimed: "12",
        createdBlock: 9,
        releaseId: announcedIds[1],
      },
    ]);
    const rest = await get(`/market/creators/${address(1)}/drops?limit=2&cursor=${first.json().next}`);
    expect(rest.json()).toMatchObject({
      drops: [{ version: "r1", dropId: "3", createdBlock: 5 }],
      next: null,
    });
    const forged = await get(
      `/market/creators/${address(1)}/drops?cursor=${Buffer.from('["x"]').toString("base64url")}`,
    );
    expect(forged.statusCode).toBe(400);
  });
});

describe("follow counts", () => {
  const counts = async (index: number) => {
    const { followers, following } = (await get(`/market/creators/${address(index)}`)).json();
    return { followers, following };
  };

  it("move with every follow, unfollow and account deletion, without counting the follows on a read", async () => {
    // Wallet 4 follows wallets 1 and 2, then unfollows wallet 1.
    const four = await signIn(test, 4, { apiKey, now: clock.now() });
    for (const target of [1, 2])
      expect((await accountAction(test, four, { kind: "follow", address: address(target) })).statusCode).toBe(
        200,
      );
    expect(await counts(1)).toEqual({ followers: 3, following: 1 });
    expect(await counts(4)).toEqual({ followers: 0, following: 2 });
    expect((await accountAction(test, four, { kind: "unfollow", address: address(1) })).statusCode).toBe(200);
    expect(await counts(1)).toEqual({ followers: 2, following: 1 });
    // Wallet 2 (following wallet 1, followed by wallets 1 and 4) deletes its account: its follows go with it.
    const two = await signIn(test, 2, { apiKey, now: clock.now() });
    const deleted = await test.app.server.inject({
      method: "POST",
      url: "/market/account/delete",
      headers: two.headers,
      payload: await signDeletion(testWallet(2), { now: clock.now() }),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await counts(1)).toEqual({ followers: 1, following: 0 });
    expect(await counts(4)).toEqual({ followers: 0, following: 0 });
    // The creator's page reads the kept counts: they equal the follows that remain.
    const { rows } = await sql<{ followers: number; following: number }>`
      SELECT (SELECT count(*)::int FROM follows f JOIN account_wallets w ON w.account_id = f.followee_id WHERE w.address = ${address(1)}) AS followers,
             (SELECT count(*)::int FROM follows f JOIN account_wallets w ON w.account_id = f.follower_id WHERE w.address = ${address(1)}) AS following`.execute(
      test.db.kysely,
    );
    expect(rows[0]).toEqual({ followers: 1, following: 0 });
  });
});
