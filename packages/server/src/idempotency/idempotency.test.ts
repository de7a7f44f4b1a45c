import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";

describe("Idempotency-Key on POST /keys", () => {
  let t: TestApp;
  const clock = createManualClock();
  beforeAll(async () => {
    t = await setupApp({ clock });
  });
  afterAll(() => t.close());

  const create = (idempotencyKey: string | undefined, description = "idempotent app", ip = "10.7.0.1") =>
    t.app.server.inject({
      method: "POST",
      url: "/keys",
      remoteAddress: ip,
      headers: idempotencyKey !== undefined ? { "idempotency-key": idempotencyKey } : {},
      payload: { description, email: "a@example.com" },
    });

  const keyCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom("api_keys")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("returns the first response for a retry with the same body, without creating a second key", async () => {
    const before = await keyCount();
    const first = await create('"8e03978e-40d5-43e8-bc93-6894a57f9324"');
    expect(first.statusCode).toBe(201);
    const retry = await create('"8e03978e-40d5-43e8-bc93-6894a57f9324"');
    expect(retry.statusCode).toBe(201);
    // The same key, without its secret (shown once, never stored).
    const { key: _secret, ...withoutSecret } = first.json() as { key: string };
    expect(retry.json()).toEqual(withoutSecret);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(await keyCount()).toBe(before + 1);
    // Without the header each request creates a key.
    await create(undefined);
    await create(undefined);
    expect(await keyCount()).toBe(before + 3);
  });

  it("refuses the same key with another body with 422", async () => {
    expect((await create("key-a", "first body")).statusCode).toBe(201);
    const other = await create("key-a", "second body");
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: "this Idempotency-Key was already used with a different request" });
  });

  it("keeps keys apart per client", async () => {
    const a = await create("shared-key", "same", "10.7.1.1");
    const b = await create("shared-key", "same", "10.7.1.2");
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect((a.json() as { id: string }).id).not.toBe((b.json() as { id: string }).id);
  });

  it("forgets a key after 24 hours", async () => {
    const first = await create("day-key", "daily", "10.7.2.1");
    clock.advance(24 * 3_600_000 + 1);
    const later = await create("day-key", "daily", "10.7.2.1");
    expect(later.statusCode).toBe(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect((later.json() as { id: string }).id).not.toBe((first.json() as { id: string }).id);
    expect(await t.app.services.idempotency.sweep()).toBeGreaterThanOrEqual(1);
  });

  it("answers 409 to a retry that arrives while the first request is still running", async () => {
    // The first request's claim, as it stands while its handler runs.
    const body = { description: "race", email: "a@example.com" };
    await t.db.kysely
      .insertInto("idempotency_records")
      .values({
        scope: "ip:10.7.5.1",
        idempotency_key: createHash("sha256").update("racing-key").digest("hex"),
        fingerprint: createHash("sha256")
          .update(`POST /keys\n${JSON.stringify(body)}`)
          .digest("hex"),
        state: "pending",
        status: null,
        headers: null,
        body: null,
        expires_at: new Date(clock.now() + 60_000),
      })
      .execute();
    const retry = await create("racing-key", "race", "10.7.5.1");
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toEqual({
      error: "a request with this Idempotency-Key is still being processed; retry later",
    });
    // Two truly concurrent requests create one key between them.
    const before = await keyCount();
    const both = await Promise.all([
      create("racing-2", "race", "10.7.5.2"),
      create("racing-2", "race", "10.7.5.2"),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual(expect.arrayContaining([201]));
    expect(await keyCount()).toBe(before + 1);
  });

  it("refuses a malformed Idempotency-Key with 400", async () => {
    for (const bad of ["", "x".repeat(256), "with space"]) {
      const response = await create(bad, "bad key", "10.7.3.1");
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: "Idempotency-Key must be 1 to 255 printable ASCII characters",
      });
    }
  });

  it("stores the replayable response sealed: neither the new API key nor the Idempotency-Key is readable in the database", async () => {
    const response = await create("secret-check-key-0001", "sealed", "10.7.4.1");
    const created = response.json() as { key: string };
    const { rows } = await t.db.withConnection((c) =>
      c.query<{ row: string }>("SELECT r::text AS row FROM idempotency_records r"),
    );
    const text = rows.map((r) => r.row).join("\n");
    expect(rows.length).toBeGreaterThan(0);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice(4, 30));
    expect(text).not.toContain("secret-check-key-0001");
    // Not even sealed: the replay answers without it.
    const replay = await create("secret-check-key-0001", "sealed", "10.7.4.1");
    expect(replay.json()).not.toHaveProperty("key");
  });
});
