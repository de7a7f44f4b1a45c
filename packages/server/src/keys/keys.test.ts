import { createdKeySchema } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, setupReplicas, TEST_ADMIN_TOKEN, type TestApp } from "../_test/app.ts";
import { setupDatabase } from "../_test/database.ts";
import { API_KEY_LENGTH, hashSecret } from "./secrets.ts";

const post = (t: TestApp, payload: unknown, ip = "10.1.0.1") =>
  t.app.server.inject({ method: "POST", url: "/keys", payload: payload as object, remoteAddress: ip });

describe("POST /keys", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  it("creates a key that works at once at multiplier 1", async () => {
    const response = await post(t, { description: "My dashboard", email: "ops@example.com" });
    expect(response.statusCode).toBe(201);
    const created = createdKeySchema.parse(response.json());
    expect(created.key).toMatch(/^mkt_[A-Za-z0-9_-]{43}$/);
    expect(created.key).toHaveLength(API_KEY_LENGTH);
    expect(created.multiplier).toBe(1);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);
    expect(response.headers["cache-control"]).toBe("no-store");
    const check = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": created.key },
    });
    expect(check.statusCode).toBe(204);
    expect(check.body).toBe("");
  });

  it.each([
    [{ email: "a@example.com" }, /description/],
    [{ description: "", email: "a@example.com" }, /description must be 1 to 500 characters/],
    [{ description: "   ", email: "a@example.com" }, /description must be 1 to 500 characters/],
    [{ description: "x".repeat(501), email: "a@example.com" }, /description must be 1 to 500 characters/],
    [{ description: "ok" }, /email/],
    [{ description: "ok", email: "not-an-email" }, /email must be a valid e-mail address/],
    [{ description: 42, email: "a@example.com" }, /description/],
    [{ description: "ok", email: "a@example.com", multiplier: 1000 }, /multiplier|unrecognized/i],
  ])("refuses %j with a clear 400 {error}", async (payload, message) => {
    const response = await post(t, payload, "10.1.0.2");
    expect(response.statusCode).toBe(400);
    const body = response.json() as { error: string };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error).toMatch(message);
  });

  it("accepts exactly 500 characters of description", async () => {
    const response = await post(t, { description: "x".repeat(500), email: "a@example.com" }, "10.1.0.3");
    expect(response.statusCode).toBe(201);
  });

  it("refuses a body that is not JSON with 400 and a non-JSON content type with 415", async () => {
    const bad = await t.app.server.inject({
      method: "POST",
      url: "/keys",
      headers: { "content-type": "application/json" },
      payload: "{not json",
      remoteAddress: "10.1.0.4",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: "the request body is not valid JSON" });
    const text = await t.app.server.inject({
      method: "POST",
      url: "/keys",
      headers: { "content-type": "text/plain" },
      payload: "hello",
      remoteAddress: "10.1.0.4",
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toHaveProperty("error");
  });

  it("limits key creation per client IP", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await post(t, { description: `burst ${i}`, email: "a@example.com" }, "10.1.0.9");
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
        expect(response.json()).toEqual({ error: "too many keys created from this client" });
      }
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.at(-1)).toBe(429);
    // Another client is not affected.
    expect((await post(t, { description: "other", email: "a@example.com" }, "10.1.0.10")).statusCode).toBe(
      201,
    );
  });

  it("stores only a hash of the key, and never writes the key to the logs", async () => {
    const created = createdKeySchema.parse(
      (await post(t, { description: "secret check", email: "a@example.com" }, "10.1.0.11")).json(),
    );
    await t.app.server.inject({ url: "/market/api-key?bucket=read", headers: { "api-key": created.key } });
    await t.app.server.inject({ url: "/market/api-key?bucket=nope", headers: { "api-key": created.key } });
    const row = await t.db.kysely
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.hash).toBe(hashSecret(created.key));
    expect(row.prefix).toBe(created.key.slice(0, 12));
    // Nothing in any table holds the key.
    const dump = await t.db.withConnection((c) =>
      c.query<{ text: string }>(
        "SELECT string_agg(t::text, ' ') AS text FROM (SELECT * FROM api_keys) t UNION ALL SELECT string_agg(i::text, ' ') FROM idempotency_records i",
      ),
    );
    expect(JSON.stringify(dump.rows)).not.toContain(created.key);
    expect(JSON.stringify(dump.rows)).not.toContain(created.key.slice(12));
    expect(t.logs.text()).not.toContain(created.key.slice(4));
    expect(t.logs.lines.length).toBeGreaterThan(0);
  });
});

describe("key administration and revocation", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  it("refuses the operator API without the right bearer token", async () => {
    for (const authorization of [
      undefined,
      "Bearer wrong-token-wrong-token-00",
      `Basic ${TEST_ADMIN_TOKEN}`,
      TEST_ADMIN_TOKEN,
    ]) {
      const response = await t.app.admin.inject({
        url: "/admin/keys",
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: "operator token missing or wrong" });
    }
    const metrics = await t.app.admin.inject({ url: "/metrics" });
    expect(metrics.statusCode).toBe(401);
  });

  it("lists keys without their secret, with cursor paging", async () => {
    const created = [await t.createKey(), await t.createKey(), await t.createKey()];
    const first = await t.admin("GET", "/admin/keys?limit=2");
    expect(first.statusCode).toBe(200);
    const page = first.json() as { keys: Array<Record<string, unknown>>; next: string | null };
    expect(page.keys).toHaveLength(2);
    expect(page.next).toEqual(expect.any(String));
    const second = (await t.admin("GET", `/admin/keys?limit=2&cursor=${page.next}`)).json() as typeof page;
    const ids = [...page.keys, ...second.keys].map((k) => k.id);
    for (const key of created) expect(ids).toContain(key.id);
    const text = JSON.stringify([page, second]);
    for (const key of created) expect(text).not.toContain(key.key);
    expect(page.keys[0]).not.toHaveProperty("hash");
    const bad = await t.admin("GET", "/admin/keys?cursor=garbage");
    expect(bad.statusCode).toBe(400);
    // Signed: the position a real cursor carries, written by hand, is refused like garbage.
    const handMade = Buffer.from(
      JSON.stringify([new Date().toISOString(), String(page.keys[1]?.["id"])]),
    ).toString("base64url");
    const forged = await t.admin("GET", `/admin/keys?cursor=${handMade}`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: "cursor is not a cursor this API returned" });
  });

  it("applies a multiplier change at once", async () => {
    const key = await t.createKey();
    const before = await t.app.server.inject({
      url: "/market/api-key?bucket=write",
      headers: { "api-key": key.key },
    });
    expect(before.headers["ratelimit-limit"]).toBe("25");
    const patched = await t.admin("PATCH", `/admin/keys/${key.id}`, { multiplier: 4 });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ id: key.id, multiplier: 4, revoked: false });
    const after = await t.app.server.inject({
      url: "/market/api-key?bucket=write",
      headers: { "api-key": key.key },
    });
    expect(after.headers["ratelimit-limit"]).toBe("100");
  });

  it("revokes through the operator API at once", async () => {
    const key = await t.createKey();
    const ok = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": key.key },
    });
    expect(ok.statusCode).toBe(204);
    expect((await t.admin("PATCH", `/admin/keys/${key.id}`, { revoked: true })).json()).toMatchObject({
      revoked: true,
    });
    const refused = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": key.key },
    });
    expect(refused.statusCode).toBe(401);
    expect((await t.admin("PATCH", `/admin/keys/${key.id}`, { revoked: false })).statusCode).toBe(200);
    const restored = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": key.key },
    });
    expect(restored.statusCode).toBe(204);
  });

  it("lets the holder revoke its own key with the key", async () => {
    const key = await t.createKey();
    const revoke = await t.app.server.inject({
      method: "DELETE",
      url: "/keys/current",
      headers: { "api-key": key.key },
    });
    expect(revoke.statusCode).toBe(204);
    const refused = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": key.key },
    });
    expect(refused.statusCode).toBe(401);
    const again = await t.app.server.inject({
      method: "DELETE",
      url: "/keys/current",
      headers: { "api-key": key.key },
    });
    // A revoked key no longer authenticates, not even to revoke itself again.
    expect(again.statusCode).toBe(401);
    const missing = await t.app.server.inject({ method: "DELETE", url: "/keys/current" });
    expect(missing.statusCode).toBe(401);
    const unknown = await t.app.server.inject({
      method: "DELETE",
      url: "/keys/current",
      headers: { "api-key": `mkt_${"A".repeat(43)}` },
    });
    expect(unknown.statusCode).toBe(401);
  });

  it("refuses bad operator input with 400 and unknown keys with 404", async () => {
    const key = await t.createKey();
    for (const body of [{}, { multiplier: 0 }, { multiplier: 1.5 }, { revoked: "yes" }, { hash: "x" }]) {
      const response = await t.admin("PATCH", `/admin/keys/${key.id}`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty("error");
    }
    expect((await t.admin("PATCH", "/admin/keys/key_nope", { multiplier: 2 })).statusCode).toBe(404);
  });
});

describe("key cache across replicas", () => {
  let replicas: Awaited<ReturnType<typeof setupReplicas>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    replicas = await setupReplicas();
    ({ a, b } = replicas);
  });
  afterAll(() => replicas.close());

  it("a revocation on one replica reaches the other within a second", async () => {
    const key = await a.createKey();
    const check = (t: TestApp) =>
      t.app.server.inject({ url: "/market/api-key?bucket=read", headers: { "api-key": key.key } });
    expect((await check(b)).statusCode).toBe(204);
    const started = Date.now();
    await a.admin("PATCH", `/admin/keys/${key.id}`, { revoked: true });
    await vi.waitFor(async () => expect((await check(b)).statusCode).toBe(401), {
      timeout: 1_000,
      interval: 20,
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("a multiplier change on one replica reaches the other within a second", async () => {
    const key = await a.createKey();
    const check = (t: TestApp) =>
      t.app.server.inject({ url: "/market/api-key?bucket=stream", headers: { "api-key": key.key } });
    expect((await check(b)).headers["ratelimit-limit"]).toBe("10");
    await a.admin("PATCH", `/admin/keys/${key.id}`, { multiplier: 7 });
    await vi.waitFor(async () => expect((await check(b)).headers["ratelimit-limit"]).toBe("70"), {
      timeout: 1_000,
      interval: 20,
    });
  });
});

describe("failing closed", () => {
  it("serves a key fresh in the cache while the database is down, and answers 503 for a key it must look up", async () => {
    const database = await setupDatabase();
    const t = await setupApp({ database });
    const known = await t.createKey();
    const other = await t.createKey();
    const cached = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": known.key },
    });
    expect(cached.statusCode).toBe(204);
    await t.app.services.keys.stop();
    await database.close();
    const stillServed = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": known.key },
    });
    expect(stillServed.statusCode).toBe(204);
    // `other` was created on this replica, so its cache entry was dropped: it must be looked up.
    const mustLookUp = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": other.key },
    });
    expect(mustLookUp.statusCode).toBe(503);
    expect(mustLookUp.json()).toEqual({ error: "the API key lookup is unavailable; try again shortly" });
    expect(mustLookUp.headers["retry-after"]).toBe("1");
    const predict = await t.app.server.inject({
      url: "/predict/v9/health",
      headers: { "api-key": other.key },
    });
    expect(predict.statusCode).toBe(503);
    expect(predict.headers["cache-control"]).toBe("no-store");
    expect(predict.json()).toMatchObject({ error: "SERVICE_UNAVAILABLE" });
    const ready = await t.app.server.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    await t.app.close();
  });
});
