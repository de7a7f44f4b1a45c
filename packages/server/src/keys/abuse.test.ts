import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";

// Ways around the per-IP key limits and budgets, each reproduced over the API as an attacker would.
const create = (t: TestApp, ip: string, headers: Record<string, string> = {}) =>
  t.app.server.inject({
    method: "POST",
    url: "/keys",
    headers,
    remoteAddress: ip,
    payload: { description: "probe", email: "a@example.com" },
  });

describe("per-IP limits count an IPv6 /64 as one client", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  it("allows 10 keys an hour to a whole /64, not to each of its addresses", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++)
      statuses.push((await create(t, `2001:db8:10:1::${i.toString(16)}`)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201, 201, 429, 429]);
    // The next /64 is another client.
    expect((await create(t, "2001:db8:10:2::1")).statusCode).toBe(201);
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    for (let i = 0; i < 5; i++) expect((await create(t, "192.0.2.50")).statusCode).toBe(201);
    for (let i = 0; i < 5; i++) expect((await create(t, "::ffff:192.0.2.50")).statusCode).toBe(201);
    expect((await create(t, "192.0.2.50")).statusCode).toBe(429);
  });

  it("locks a /64 out after 20 failed key attempts from any of its addresses", async () => {
    const key = await t.createKey();
    for (let i = 1; i <= 20; i++) {
      const response = await t.app.server.inject({
        url: "/market/api-key?bucket=read",
        headers: { "api-key": `mkt_${"B".repeat(42)}${i % 10}` },
        remoteAddress: `2001:db8:20:1:${i.toString(16)}::1`,
      });
      expect(response.statusCode).toBe(401);
    }
    const locked = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": key.key },
      remoteAddress: "2001:db8:20:1:ffff::1",
    });
    expect(locked.statusCode).toBe(429);
    const elsewhere = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": key.key },
      remoteAddress: "2001:db8:20:2::1",
    });
    expect(elsewhere.statusCode).toBe(204);
  });

  it("budgets the prediction feed per /64", async () => {
    const key = await t.createKey();
    const health = (ip: string) =>
      t.app.server.inject({ url: "/predict/v9/health", headers: { "api-key": key.key }, remoteAddress: ip });
    expect((await health("2001:db8:30:1::1")).headers["ratelimit-remaining"]).toBe("99");
    expect((await health("2001:db8:30:1::2")).headers["ratelimit-remaining"]).toBe("98");
    expect((await health("2001:db8:30:2::1")).headers["ratelimit-remaining"]).toBe("99");
  });
});

describe("per-IP limits over real HTTP through a trusted proxy", () => {
  let t: TestApp;
  let baseUrl = "";
  beforeAll(async () => {
    t = await setupApp({ env: { TRUST_PROXY: "1", ALLOWED_ORIGINS: "https://app.mkt.test" } });
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  const createOverHttp = (forwardedFor: string) =>
    fetch(`${baseUrl}/keys`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ description: "probe", email: "a@example.com" }),
    });

  it("groups the forwarded IPv6 client by /64 for key creation", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++) statuses.push((await createOverHttp(`2001:db8:40:1::${i}`)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201, 201, 429]);
    expect((await createOverHttp("2001:db8:40:9::1")).status).toBe(201);
    expect((await createOverHttp("::ffff:192.0.2.77")).status).toBe(201);
  });

  it("keeps anonymous proxy traffic with a forged Origin to 30 reads a minute per client, and serves no key-only read", async () => {
    const rooms = (forwardedFor: string) =>
      fetch(`${baseUrl}/app/api/rooms`, {
        headers: { origin: "https://app.mkt.test", "x-forwarded-for": forwardedFor },
      });
    const statuses: number[] = [];
    for (let i = 1; i <= 31; i++) statuses.push((await rooms(`2001:db8:50:1::${i}`)).status);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    const profile = await fetch(`${baseUrl}/app/api/support/identity/profiles/x/someone`, {
      headers: { origin: "https://app.mkt.test", "x-forwarded-for": "198.51.100.60" },
    });
    expect(profile.status).toBe(404);
    // The same read under /market still needs a key.
    expect(
      (await fetch(`${baseUrl}/market/rooms`, { headers: { "x-forwarded-for": "198.51.100.61" } })).status,
    ).toBe(401);
  });
});

describe("DELETE /keys/current", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  const revoke = (key: string, ip: string) =>
    t.app.server.inject({
      method: "DELETE",
      url: "/keys/current",
      headers: { "api-key": key },
      remoteAddress: ip,
    });

  it("charges a small per-client budget before the lookup, counts unknown keys as failed attempts, then locks the client out", async () => {
    const valid = await t.createKey();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push(
        (await revoke(`mkt_${"C".repeat(41)}${String(i).padStart(2, "0")}`, "203.0.113.9")).statusCode,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    // Ten failures so far; ten more from elsewhere in the window lock the client out of every key check.
    for (let i = 0; i < 10; i++)
      await t.app.server.inject({
        url: "/market/api-key?bucket=read",
        headers: { "api-key": `mkt_${"D".repeat(41)}${String(i).padStart(2, "0")}` },
        remoteAddress: "203.0.113.9",
      });
    const locked = await t.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": valid.key },
      remoteAddress: "203.0.113.9",
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: "too many failed API key attempts from this client" });
    // The key itself is untouched: its holder, elsewhere, still uses and revokes it.
    expect((await revoke(valid.key, "203.0.113.10")).statusCode).toBe(204);
    expect((await revoke(valid.key, "203.0.113.10")).statusCode).toBe(401);
  });
});

describe("POST /keys with Idempotency-Key", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  it("replays the key that was created without its secret, and stores no secret", async () => {
    const first = await create(t, "198.51.100.20", { "idempotency-key": "retry-me" });
    expect(first.statusCode).toBe(201);
    const created = first.json() as { id: string; key: string; multiplier: number; createdAt: string };
    expect(created.key).toMatch(/^mkt_/);
    const replay = await create(t, "198.51.100.20", { "idempotency-key": "retry-me" });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual({
      id: created.id,
      multiplier: created.multiplier,
      createdAt: created.createdAt,
    });
    expect(replay.body).not.toContain(created.key);
  });
});
