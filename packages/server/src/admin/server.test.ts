import Fastify from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, TEST_ADMIN_TOKEN, type TestApp } from "../_test/app.ts";
import { mountOperatorRoutes, OPERATOR_TAG } from "../http/operator-routes.ts";
import { defineRoute } from "../http/route.ts";
import { SLOTS } from "../quotas/limiter.ts";
import { defaultFailedTokenAttempts } from "./server.ts";

const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
const { limit, windowMs } = defaultFailedTokenAttempts;
let test: TestApp;
beforeAll(async () => {
  test = await setupApp({ clock });
});
afterAll(() => test.close());

/** Every way of not presenting the operator token. */
const wrongCredentials: Array<Record<string, string>> = [
  {},
  { authorization: "Bearer wrong-token-wrong-token-00" },
  { authorization: `Basic ${TEST_ADMIN_TOKEN}` },
  { authorization: TEST_ADMIN_TOKEN },
  { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` },
];
const right = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

const request = (remoteAddress: string, headers: Record<string, string>, url = "/admin/keys") =>
  test.app.admin.inject({ method: "GET", url, headers, remoteAddress });

/** Spends `count` failed attempts from `remoteAddress`, each answered 401. */
async function fail(remoteAddress: string, count: number) {
  for (let attempt = 0; attempt < count; attempt++) {
    const response = await request(remoteAddress, wrongCredentials[attempt % wrongCredentials.length]!);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: "operator token missing or wrong" });
  }
}

describe("failed operator token attempts", () => {
  it(`answers the right token after ${limit - 1} failures, and 429 with Retry-After after ${limit}, even with the right token`, async () => {
    const client = "192.0.2.10";
    await fail(client, limit - 1);
    expect((await request(client, right)).statusCode).toBe(200);
    // A success neither counts nor forgives: one more failure spends the budget.
    await fail(client, 1);
    for (const [url, headers] of [
      ["/admin/keys", right],
      ["/metrics", right],
      ["/admin/keys", {}],
      ["/admin/indexer", { authorization: "Bearer wrong-token-wrong-token-00" }],
    ] as const) {
      const refused = await request(client, headers, url);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.json()).toEqual({ error: "too many failed operator token attempts from this client" });
      // The limiter counts the oldest slot of the window in full: the failures (all at the start
      // of one slot, the clock being still) leave it one window and one slot later.
      expect(refused.headers["retry-after"]).toBe(String((windowMs + windowMs / SLOTS) / 1000));
    }
    // Another client is not affected.
    expect((await request("192.0.2.11", right)).statusCode).toBe(200);
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped address as its IPv4 address", async () => {
    await fail("2001:db8:1:2::1", limit - 1);
    await fail("2001:db8:1:2:ffff:ffff:ffff:fffe", 1);
    expect((await request("2001:db8:1:2::abcd", right)).statusCode).toBe(429);
    expect((await request("2001:db8:1:3::1", right)).statusCode).toBe(200);

    await fail("192.0.2.20", limit - 1);
    await fail("::ffff:192.0.2.20", 1);
    expect((await request("192.0.2.20", right)).statusCode).toBe(429);
  });

  it("lets the client in again once its failures leave the window", async () => {
    const client = "192.0.2.30";
    await fail(client, limit);
    const slot = windowMs / SLOTS;
    clock.advance(windowMs - slot);
    const stillRefused = await request(client, right);
    expect(stillRefused.statusCode).toBe(429);
    expect(stillRefused.headers["retry-after"]).toBe(String((2 * slot) / 1000));
    clock.advance(2 * slot);
    expect((await request(client, right)).statusCode).toBe(200);
  });
});

describe("operator routes", () => {
  // One route of each area that defines operator routes: the listener's own, health, each surface.
  const routes = [
    ["GET", "/admin/keys", undefined],
    ["GET", "/admin/health", undefined],
    ["PUT", "/admin/classic/unboxing-disallowed", { disallowed: "yes" }],
    ["PATCH", "/admin/classic/reports/1", { status: "open" }],
    ["PUT", "/admin/predict/runtime", { enabled: "yes" }],
    ["POST", "/admin/invites", { maxUses: "many" }],
  ] as const;

  it.each(routes)(
    "%s %s takes the listener's rule: no token is 401, never cached",
    async (method, url, body) => {
      const response = await test.app.admin.inject({
        method,
        url,
        remoteAddress: "192.0.2.40",
        ...(body ? { payload: body } : {}),
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers["cache-control"]).toBe("no-store");
    },
  );

  it.each(routes.filter(([, , body]) => body !== undefined))(
    "%s %s validates its body with its schema: a wrong field is 400 in the operator body",
    async (method, url, body) => {
      const response = await test.app.admin.inject({
        method,
        url,
        headers: right,
        remoteAddress: "192.0.2.41",
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(["error"]);
      expect(response.headers["cache-control"]).toBe("no-store");
    },
  );

  it("refuses a route defined twice at start", () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    const route = defineRoute({
      method: "GET",
      path: "/admin/twice",
      operationId: "twice",
      summary: "Twice",
      tags: [OPERATOR_TAG],
      responses: { 200: { description: "Nothing." } },
      handler: () => ({}),
    });
    expect(() => mountOperatorRoutes(app, [route, route])).toThrow(
      "Method 'GET' already declared for route '/admin/twice'",
    );
    void app.close();
  });
});
