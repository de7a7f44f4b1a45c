import { afterEach, describe, expect, it, vi } from "vitest";
import { accountAction, signIn } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { REPORT_EXPIRY_SAFETY_MS, REPORT_RETENTION_MS, REPORTS_CHANNEL } from "./index.ts";

let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

/** A stored report of `reporter`'s, expiring at `expiresAt`: what the `report` action writes, with a chosen expiry. */
const insertReport = (t: TestApp, id: string, expiresAt: number) =>
  t.db.kysely
    .insertInto("reports")
    .values({
      id,
      reporter_id: null,
      subject_kind: "account",
      subject_id: "0x000000000000000000000000000000000000beef",
      reason: "spam",
      details: "",
      created_at: new Date(expiresAt - REPORT_RETENTION_MS),
      expires_at: new Date(expiresAt),
    })
    .execute();
const storedIds = async (t: TestApp) =>
  (await t.db.kysely.selectFrom("reports").select("id").orderBy("id").execute()).map((row) => row.id);

describe("report expiry", () => {
  it("deletes a report at its expiry, woken by its notification, long before the safety interval", async () => {
    test = await setupApp();
    const t = test;
    await t.app.listen();
    // Nothing is stored: once its first sweep is done, the worker sleeps for the whole safety
    // interval (six hours).
    expect(REPORT_EXPIRY_SAFETY_MS).toBe(6 * 3_600_000);
    const sleeps = () =>
      t.logs.lines.filter((line) => line.includes('"report expiry sleeps"')).map((line) => JSON.parse(line));
    await vi.waitFor(() => expect(sleeps()).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(Date.parse(sleeps()[0].until) - Date.now()).toBeGreaterThan(REPORT_EXPIRY_SAFETY_MS - 60_000);
    const expiresAt = Date.now() + 300;
    await insertReport(t, "rep_soon", expiresAt);
    await insertReport(t, "rep_later", Date.now() + REPORT_RETENTION_MS);
    // What the `report` action sends once its row is stored (here for a report near its end).
    await t.db.notify(REPORTS_CHANNEL, String(expiresAt));
    // Only the notified wake-up can delete it this soon: no periodic pass runs within six hours.
    await vi.waitFor(async () => expect(await storedIds(t)).toEqual(["rep_later"]), {
      timeout: 10_000,
      interval: 50,
    });
  });

  it("at start, sleeps until the earliest stored expiry", async () => {
    test = await setupApp();
    const t = test;
    await insertReport(t, "rep_due", Date.now() + 200);
    await insertReport(t, "rep_kept", Date.now() + 3_600_000);
    await t.app.listen();
    await vi.waitFor(async () => expect(await storedIds(t)).toEqual(["rep_kept"]), {
      timeout: 10_000,
      interval: 50,
    });
  });

  it("the report action announces the report's expiry on the reports channel", async () => {
    test = await setupApp();
    const t = test;
    const heard: string[] = [];
    const unlisten = await t.db.listen(REPORTS_CHANNEL, { onNotify: (payload) => heard.push(payload) });
    try {
      const apiKey = (await t.createKey({ multiplier: 100 })).key;
      const reporter = await signIn(t, 61, { apiKey });
      const reported = await accountAction(t, reporter, {
        kind: "report",
        subject: { kind: "account", id: "0x000000000000000000000000000000000000beef" },
        reason: "spam",
      });
      expect(reported.statusCode, reported.body).toBe(200);
      const { expiresAt } = reported.json().result as { expiresAt: number };
      await vi.waitFor(() => expect(heard).toEqual([String(expiresAt)]), { timeout: 5_000, interval: 20 });
    } finally {
      await unlisten();
    }
  });
});
