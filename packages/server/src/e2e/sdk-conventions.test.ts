import { createMktClient, type MktApiError, type MktClientOptions } from "@mkt/client";
import { createWalletClient, custom, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN, testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";

/**
 * The SDK's conventions against the running server, the same on every
 * surface: the error every surface answers, a client without a key failing
 * at once, and one signer type (a viem account or a WalletClient) for every
 * signed flow.
 */
describe("SDK conventions over real HTTP", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  /** A client with the default retry policy whose requests are counted and whose waits are recorded, never slept. */
  const counted = (options: Partial<MktClientOptions> = {}) => {
    const requests: string[] = [];
    const slept: number[] = [];
    const client = createMktClient({
      baseUrl,
      fetch: (async (url: URL | string, init?: RequestInit) => {
        requests.push(`${init?.method ?? "GET"} ${new URL(String(url)).pathname}`);
        return fetch(url, init);
      }) as typeof fetch,
      sleep: async (ms) => {
        slept.push(ms);
      },
      ...options,
    });
    return { client, requests, slept };
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: unknown) => error as MktApiError,
    );
  const summary = (error: MktApiError) => ({
    status: error.status,
    code: error.code,
    surface: error.surface,
    apiKeyMissing: error.apiKeyMissing,
    retryAfterSeconds: error.retryAfterSeconds,
  });

  it("fails at once without a key on every surface: one request, no wait, a clear error", async () => {
    const classic = counted();
    const classicRefusal = await refusal(classic.client.classic.games.list());
    expect(summary(classicRefusal)).toEqual({
      status: 429,
      code: "RATE_LIMITED",
      surface: "classic",
      apiKeyMissing: true,
      retryAfterSeconds: 60,
    });
    expect(classicRefusal.message).toContain("this client has no API key");
    expect([classic.requests, classic.slept]).toEqual([["GET /classic/games"], []]);

    const predict = counted();
    const predictRefusal = await refusal(predict.client.predict.markets.page());
    expect(summary(predictRefusal)).toEqual({
      status: 429,
      code: "API_KEY_REQUIRED_OR_RATE_LIMITED",
      surface: "predict",
      apiKeyMissing: true,
      retryAfterSeconds: 60,
    });
    expect([predict.requests, predict.slept]).toEqual([["GET /predict/v9/markets"], []]);

    const market = counted();
    const marketRefusal = await refusal(market.client.market.reserve("read"));
    expect(summary(marketRefusal)).toEqual({
      status: 401,
      code: "UNAUTHORIZED",
      surface: "market",
      apiKeyMissing: true,
      retryAfterSeconds: undefined,
    });
    expect(marketRefusal.message).toBe(
      "HTTP 401 UNAUTHORIZED: API key missing: send it in the API-KEY header (this client has no API key: create one with client.keys.create() (POST /keys) and pass it as apiKey to createMktClient)",
    );
    expect([market.requests, market.slept]).toEqual([["GET /market/api-key"], []]);
  });

  it("does not retry a revoked key on any surface", async () => {
    const { key } = await t.createKey();
    const revoked = counted({ apiKey: key });
    await revoked.client.keys.revokeCurrent();
    expect(summary(await refusal(revoked.client.classic.games.list()))).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      apiKeyMissing: false,
    });
    expect(summary(await refusal(revoked.client.predict.runtime()))).toMatchObject({
      status: 429,
      code: "API_KEY_REQUIRED_OR_RATE_LIMITED",
    });
    expect(summary(await refusal(revoked.client.market.discovery()))).toMatchObject({
      status: 401,
      code: "UNAUTHORIZED",
    });
    expect(revoked.requests).toEqual([
      "DELETE /keys/current",
      "GET /classic/games",
      "GET /predict/v9/runtime",
      "GET /market/discovery",
    ]);
    expect(revoked.slept).toEqual([]);
  });

  it("gives every surface's error a code, its words, the request id, and no Retry-After it was not sent", async () => {
    const { key } = await t.createKey({ multiplier: 10 });
    const { client, requests } = counted({ apiKey: key });

    const market = await refusal(client.market.releases.get("rel_nowhere"));
    expect(summary(market)).toEqual({
      status: 404,
      code: "NOT_FOUND",
      surface: "market",
      apiKeyMissing: false,
      retryAfterSeconds: undefined,
    });
    expect(market.message).toMatch(/^HTTP 404 NOT_FOUND: \S/);
    expect(market.requestId).toMatch(/\S/);

    const classic = await refusal(client.classic.games.get(`0x${"de".repeat(20)}`));
    expect(summary(classic)).toEqual({
      status: 404,
      code: "GAME_NOT_FOUND",
      surface: "classic",
      apiKeyMissing: false,
      retryAfterSeconds: undefined,
    });
    expect(classic.message).toBe(`HTTP 404 GAME_NOT_FOUND: ${(classic.body as { message: string }).message}`);

    // The feed is off on this deployment: a 503 whose Retry-After (a minute) is longer than the
    // client waits through, so it is the caller's to wait.
    const predict = await refusal(client.predict.markets.page());
    expect(summary(predict)).toEqual({
      status: 503,
      code: "FEED_DISABLED",
      surface: "predict",
      apiKeyMissing: false,
      retryAfterSeconds: 60,
    });
    expect(predict.message).toBe(
      "HTTP 503 FEED_DISABLED: the prediction feed is disabled on this deployment",
    );

    const platform = await refusal(
      createMktClient({ baseUrl }).keys.create({ description: "d", email: "nope" }),
    );
    expect(summary(platform)).toEqual({
      status: 400,
      code: "INVALID_INPUT",
      surface: "platform",
      apiKeyMissing: false,
      retryAfterSeconds: undefined,
    });

    // Not one of these answers could change on a retry.
    expect(requests).toHaveLength(3);
  });

  it("signs in on the market and the classic API with a viem account and with a WalletClient", async () => {
    const { key } = await t.createKey({ multiplier: 10 });
    const account = testWallet(80);
    const browserKey = testWallet(81);
    const asked: string[] = [];
    // A browser wallet behind a WalletClient: a JSON-RPC account the wallet signs for (`personal_sign`).
    const walletClient = createWalletClient({
      account: browserKey.address,
      transport: custom({
        async request({ method, params }: { method: string; params: unknown }) {
          asked.push(method);
          const [data] = params as [Hex, string];
          return browserKey.signMessage({ message: { raw: data } });
        },
      }),
    });

    for (const [signer, address] of [
      [account, account.address],
      [walletClient, browserKey.address],
    ] as const) {
      const client = createMktClient({ baseUrl, apiKey: key });
      const credentials = await client.market.signIn(signer, { origin: TEST_ORIGIN });
      expect(credentials.address).toBe(address.toLowerCase());
      expect(typeof credentials.expiresAt).toBe("number");
      const state = await client.market.session(credentials).state();
      expect([state.address, state.expiresAt]).toEqual([address.toLowerCase(), credentials.expiresAt]);

      const signedIn = await client.classic.auth.signIn(signer);
      expect(signedIn.address).toBe(address.toLowerCase());
      const session = await client.classic.auth.session();
      expect(session.expiresAt).toBe(signedIn.expiresAt);
      expect(session.createdAt).toBeLessThan(session.expiresAt);
    }
    expect(asked).toEqual(["personal_sign", "personal_sign"]);
  });
});
