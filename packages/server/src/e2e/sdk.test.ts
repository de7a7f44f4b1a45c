import { createMktClient, MktApiError } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN, testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";

describe("SDK against the running server", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("creates a key, reserves budget with it, revokes it", async () => {
    const anonymous = createMktClient({ baseUrl });
    const created = await anonymous.keys.create({ description: "sdk e2e", email: "sdk@example.com" });
    const client = createMktClient({ baseUrl, apiKey: created.key });
    expect(await client.market.reserve("write")).toEqual({
      limit: 25,
      remaining: 24,
      resetSeconds: expect.any(Number),
    });
    expect(await client.market.reserve("write")).toMatchObject({ remaining: 23 });
    await client.keys.revokeCurrent();
    const error = await client.market.reserve("read").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MktApiError);
    expect((error as MktApiError).status).toBe(401);
  });
});

describe("GET /market/api-key over real HTTP (served before Fastify routing)", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp({ env: { ALLOWED_ORIGINS: "https://mkt.example" } });
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("answers exactly as the Fastify route does, charges the same budget, and is counted and logged", async () => {
    const key = await t.createKey();
    // The first request looks the key up (Fastify route); later ones are served from the cache.
    const first = await fetch(`${baseUrl}/market/api-key?bucket=write`, { headers: { "api-key": key.key } });
    expect(first.status).toBe(204);
    const fast = await fetch(`${baseUrl}/market/api-key?bucket=write`, {
      headers: { "api-key": key.key, origin: "https://mkt.example", "x-request-id": "fast-1" },
    });
    const routed = await t.app.server.inject({
      url: "/market/api-key?bucket=write",
      headers: { "api-key": key.key, origin: "https://mkt.example", "x-request-id": "routed-1" },
    });
    expect(fast.status).toBe(routed.statusCode);
    const names = (headers: Iterable<string>) =>
      [...headers].filter((h) => !["date", "connection", "keep-alive"].includes(h)).sort();
    expect(names(fast.headers.keys())).toEqual(names(Object.keys(routed.headers)));
    expect(fast.headers.get("x-request-id")).toBe("fast-1");
    expect(fast.headers.get("ratelimit-remaining")).toBe("23");
    expect(routed.headers["ratelimit-remaining"]).toBe("22");
    expect(fast.headers.get("access-control-allow-origin")).toBe("https://mkt.example");
    expect(fast.headers.get("access-control-allow-credentials")).toBe("true");
    expect(t.logs.text()).toContain('"reqId":"fast-1"');
    const metrics = await t.app.services.metrics.registry.getSingleMetricAsString("mkt_http_requests_total");
    expect(metrics).toMatch(/route="\/market\/api-key",method="GET",status="204"} 3/);
  });

  it("leaves every refusal to the Fastify route", async () => {
    const key = await t.createKey();
    for (let i = 0; i < 10; i++)
      await fetch(`${baseUrl}/market/api-key?bucket=stream`, { headers: { "api-key": key.key } });
    const refused = await fetch(`${baseUrl}/market/api-key?bucket=stream`, {
      headers: { "api-key": key.key },
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "API key budget exhausted for this bucket" });
    const bad = await fetch(`${baseUrl}/market/api-key?bucket=nope`, { headers: { "api-key": key.key } });
    expect(bad.status).toBe(400);
    const unknown = await fetch(`${baseUrl}/market/api-key?bucket=read`, {
      headers: { "api-key": `mkt_${"U".repeat(43)}` },
    });
    expect(unknown.status).toBe(401);
  });
});

describe("SDK wallet sign-in over real HTTP", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("signs in with the shared message builder, reads the session, deletes the account with a deletion signature", async () => {
    const { key } = await createMktClient({ baseUrl }).keys.create({
      description: "sdk sign-in",
      email: "a@example.com",
    });
    const client = createMktClient({ baseUrl, apiKey: key });
    const wallet = testWallet(3);
    const credentials = await client.market.signIn(wallet, { origin: TEST_ORIGIN });
    expect(credentials.address).toBe(wallet.address.toLowerCase());
    const session = client.market.session(credentials);
    expect(await session.state()).toMatchObject({ active: true, address: credentials.address });

    const deleted = await session.deleteAccount(wallet);
    expect(deleted).toMatchObject({ deleted: true, sessionsRevoked: 1 });
    const after = await session.state().catch((error: unknown) => error);
    expect(after).toBeInstanceOf(MktApiError);
    expect((after as MktApiError).status).toBe(401);
  });
});
