import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";

// The fast path sits in front of Fastify on the real listener, so these tests
// go over real HTTP (inject never reaches it), on one keep-alive connection.
const OUR_HEADERS = [
  "x-request-id",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "vary",
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-expose-headers",
];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The local port of the connection it came over: equal ports, same connection. */
  localPort: number | undefined;
}

describe("GET /market/api-key fast path", () => {
  let t: TestApp;
  let baseUrl: string;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  const get = (path: string, headers: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${baseUrl}${path}`, { agent, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            localPort: response.socket?.localPort,
          }),
        );
      });
      req.on("error", reject);
      req.end();
    });

  beforeAll(async () => {
    t = await setupApp({ env: { ALLOWED_ORIGINS: "https://app.mkt.test" } });
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  it("answers exactly the headers the Fastify route answers, with and without a first-party Origin", async () => {
    for (const origin of [undefined, "https://app.mkt.test", "https://elsewhere.example"]) {
      const key = await t.createKey();
      const headers = { "api-key": key.key, ...(origin ? { origin } : {}) };
      const fast = await get("/market/api-key?bucket=read", headers);
      const routed = await t.app.server.inject({
        method: "GET",
        url: "/market/api-key?bucket=read",
        headers,
      });
      expect(fast.status).toBe(204);
      expect(routed.statusCode).toBe(204);
      expect(fast.body).toBe("");
      const ours = (all: Record<string, unknown>) =>
        Object.fromEntries(
          OUR_HEADERS.filter((name) => all[name] !== undefined).map((name) => [name, all[name]]),
        );
      const fastHeaders = ours(fast.headers);
      const routedHeaders = ours(routed.headers);
      // Same names; same values except the request id and the one request the first answer spent.
      expect(Object.keys(fastHeaders).sort()).toEqual(Object.keys(routedHeaders).sort());
      expect(fastHeaders["ratelimit-limit"]).toBe("100");
      expect(fastHeaders["ratelimit-remaining"]).toBe("99");
      expect(routedHeaders["ratelimit-remaining"]).toBe("98");
      for (const name of ["vary", "access-control-allow-origin", "access-control-allow-credentials"])
        expect(fastHeaders[name]).toEqual(routedHeaders[name]);
    }
  });

  it("charges each key its own budget when one connection alternates between keys", async () => {
    const [a, b] = [await t.createKey(), await t.createKey({ multiplier: 2 })];
    const seen: { key: string; remaining: string; limit: string; port: number | undefined }[] = [];
    for (const key of [a, b, a, a, b, a]) {
      const answer = await get("/market/api-key?bucket=write", { "api-key": key.key });
      expect(answer.status).toBe(204);
      seen.push({
        key: key.id,
        remaining: String(answer.headers["ratelimit-remaining"]),
        limit: String(answer.headers["ratelimit-limit"]),
        port: answer.localPort,
      });
    }
    expect(new Set(seen.map((s) => s.port)).size).toBe(1);
    expect(seen.map((s) => `${s.key === a.id ? "a" : "b"}:${s.remaining}/${s.limit}`)).toEqual([
      "a:24/25",
      "b:49/50",
      "a:23/25",
      "a:22/25",
      "b:48/50",
      "a:21/25",
    ]);
  });

  it("refuses a key revoked by its holder on the very next request of the same connection", async () => {
    const key = await t.createKey();
    const before = await get("/market/api-key?bucket=read", { "api-key": key.key });
    expect(before.status).toBe(204);
    const revoked = await t.app.server.inject({
      method: "DELETE",
      url: "/keys/current",
      headers: { "api-key": key.key },
    });
    expect(revoked.statusCode).toBeLessThan(300);
    const after = await get("/market/api-key?bucket=read", { "api-key": key.key });
    expect(after.localPort).toBe(before.localPort);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body)).toEqual({ error: expect.stringContaining("API key") });
  });

  it("leaves a key that is the right length but unknown to the route, which answers 401", async () => {
    const known = await t.createKey();
    const unknown =
      `${known.key.slice(0, -4)}AAAA` === known.key
        ? `${known.key.slice(0, -4)}BBBB`
        : `${known.key.slice(0, -4)}AAAA`;
    expect(unknown).toHaveLength(known.key.length);
    expect((await get("/market/api-key?bucket=read", { "api-key": known.key })).status).toBe(204);
    const answer = await get("/market/api-key?bucket=read", { "api-key": unknown });
    expect(answer.status).toBe(401);
    expect((await get("/market/api-key?bucket=read", { "api-key": known.key })).status).toBe(204);
  });

  it("counts its answers in the request metrics like any other request", async () => {
    const key = await t.createKey();
    const metric = async () => {
      const text = await t.app.services.metrics.registry.getSingleMetricAsString("mkt_http_requests_total");
      const line = text
        .split("\n")
        .find((l) => l.includes('route="/market/api-key"') && l.includes('status="204"'));
      return line ? Number(line.split(" ").pop()) : 0;
    };
    const before = await metric();
    for (let i = 0; i < 3; i++)
      expect((await get("/market/api-key?bucket=stream", { "api-key": key.key })).status).toBe(204);
    expect(await metric()).toBe(before + 3);
  });
});
