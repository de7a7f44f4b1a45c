import { socialActionResultSchemas } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { REPORT_RETENTION_MS } from "./index.ts";

const DAY = 24 * 3_600_000;
const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;

beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  const as = (index: number) => signIn(test, index, { apiKey, now: clock.now() });
  [alice, bob] = await Promise.all([as(51), as(52)]);
});
afterAll(() => test.close());

const report = (who: SignedIn, fields: Record<string, unknown> = {}) =>
  accountAction(test, who, {
    kind: "report",
    subject: { kind: "account", id: bob.address },
    reason: "spam",
    ...fields,
  });

const storedReports = () =>
  test.db.kysely
    .selectFrom("reports")
    .select(["id", "reporter_id", "subject_kind", "reason", "details"])
    .execute();

describe("safety settings and blocks", () => {
  it("stores the DM policy and refuses other values", async () => {
    const updated = await accountAction(test, alice, { kind: "safety-update", dmPolicy: "following" });
    expect(updated.json()).toMatchObject({ family: "safety", result: { dmPolicy: "following" } });
    const row = await test.db.kysely
      .selectFrom("accounts as a")
      .innerJoin("account_wallets as w", "w.account_id", "a.id")
      .select("a.dm_policy")
      .where("w.address", "=", alice.address)
      .executeTakeFirstOrThrow();
    expect(row.dm_policy).toBe("following");
    expect((await accountAction(test, alice, { kind: "safety-update" })).statusCode).toBe(400);
    expect((await accountAction(test, alice, { kind: "safety-update", dmPolicy: "all" })).statusCode).toBe(
      400,
    );
  });

  it("blocks and unblocks idempotently, never oneself or an unknown wallet", async () => {
    for (let round = 0; round < 2; round++) {
      const blocked = await accountAction(test, alice, { kind: "block", address: bob.address });
      expect(socialActionResultSchemas.block.parse(blocked.json().result)).toEqual({
        address: bob.address,
        blocked: true,
      });
    }
    expect(await test.db.kysely.selectFrom("blocks").selectAll().execute()).toHaveLength(1);
    for (let round = 0; round < 2; round++) {
      const unblocked = await accountAction(test, alice, { kind: "unblock", address: bob.address });
      expect(unblocked.json().result).toEqual({ address: bob.address, blocked: false });
    }
    expect(await test.db.kysely.selectFrom("blocks").selectAll().execute()).toHaveLength(0);
    expect((await accountAction(test, alice, { kind: "block", address: alice.address })).statusCode).toBe(
      400,
    );
    const unknown = "0x000000000000000000000000000000000000f00d";
    expect((await accountAction(test, alice, { kind: "block", address: unknown })).statusCode).toBe(404);
    expect((await accountAction(test, alice, { kind: "unblock", address: unknown })).statusCode).toBe(404);
  });
});

describe("reports", () => {
  it("refuses malformed reports", async () => {
    expect((await report(alice, { details: "d".repeat(1001) })).statusCode).toBe(400);
    expect((await report(alice, { reason: "dislike" })).statusCode).toBe(400);
    expect((await report(alice, { subject: { kind: "planet", id: "x" } })).statusCode).toBe(400);
    expect((await report(alice, { subject: { kind: "account", id: "" } })).statusCode).toBe(400);
    expect((await report(alice, { subject: { kind: "account", id: "i".repeat(101) } })).statusCode).toBe(400);
    expect(await storedReports()).toEqual([]);
  });

  it("stores a report for 90 days and the expiry job deletes it then, not before", async () => {
    const created = await report(alice, { details: "sells fake packs", reason: "scam" });
    expect(created.statusCode, created.body).toBe(200);
    const first = socialActionResultSchemas.report.parse(created.json().result);
    expect(first.expiresAt).toBe(clock.now() + REPORT_RETENTION_MS);
    expect(REPORT_RETENTION_MS).toBe(90 * DAY);
    expect(await storedReports()).toEqual([
      expect.objectContaining({
        id: first.id,
        subject_kind: "account",
        reason: "scam",
        details: "sells fake packs",
      }),
    ]);

    clock.advance(60 * DAY);
    // The first session has expired (30 days); sign in again for a second, later report.
    const again = await signIn(test, 51, { apiKey, now: clock.now() });
    const second = socialActionResultSchemas.report.parse((await report(again)).json().result);

    clock.advance(30 * DAY - 60_000);
    await test.app.services.runJobs();
    expect((await storedReports()).map((row) => row.id).sort()).toEqual([first.id, second.id].sort());

    clock.advance(120_000);
    await test.app.services.runJobs();
    expect((await storedReports()).map((row) => row.id)).toEqual([second.id]);

    clock.advance(60 * DAY);
    await test.app.services.runJobs();
    expect(await storedReports()).toEqual([]);
  });
});
