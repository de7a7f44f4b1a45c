import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./errors.ts";
import { createMktClient, MktApiError, type MktClient, type MktClientOptions } from "./index.ts";

type Answer =
  | { status: number; body?: unknown; text?: string; headers?: Record<string, string> }
  | { networkError: true };

/** A fake server answering `answers` in order (the last one repeats), recording every request. */
function fakeServer(answers: Answer[]) {
  const calls: Array<{ url: string; method: string; headers: Record<string, string> }> = [];
  const fetch = (async (url: URL | string, init?: RequestInit) => {
    calls.push({
      url: String(url),
      method: init?.method ?? "GET",
      headers: (init?.headers ?? {}) as Record<string, string>,
    });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    if ("networkError" in answer) throw new TypeError("fetch failed");
    const json = answer.text === undefined;
    return new Response(
      json ? (answer.body === undefined ? null : JSON.stringify(answer.body)) : answer.text,
      {
        status: answer.status,
        headers: { "content-type": json ? "application/json" : "text/html", ...answer.headers },
      },
    );
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

/** A client of `server` whose waits are recorded, never slept. */
function clientOf(server: ReturnType<typeof fakeServer>, options: Partial<MktClientOptions> = {}) {
  const slept: number[] = [];
  const client = createMktClient({
    baseUrl: "http://mkt.test/",
    fetch: server.fetch,
    sleep: async (ms) => {
      slept.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { client, slept };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error as MktApiError,
  );

const created = {
  id: "key_1",
  key: `mkt_${"a".repeat(43)}`,
  multiplier: 1,
  createdAt: "2026-11-25T12:00:00.000Z",
};

const OPAQUE_CLASSIC = {
  success: false,
  message: "API key missing or invalid, or rate limit exceeded",
  error: "RATE_LIMITED",
};
const OPAQUE_PREDICT = { error: "API_KEY_REQUIRED_OR_RATE_LIMITED", docs: "http://mkt.test/docs/predict" };
const WINDOW = { "retry-after": "60", "ratelimit-limit": "100", "ratelimit-remaining": "0" };

describe("MktApiError: one shape whichever surface answered", () => {
  it("reads code and message from the market body, whose code is the status's", async () => {
    const server = fakeServer([
      { status: 404, body: { error: "no such creator" }, headers: { "x-request-id": "req-7" } },
    ]);
    const error = await failure(clientOf(server, { apiKey: "k" }).client.market.creators.get("0xabc"));
    expect(error).toBeInstanceOf(MktApiError);
    expect(error).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
      surface: "market",
      message: "HTTP 404 NOT_FOUND: no such creator",
      requestId: "req-7",
      retryAfterSeconds: undefined,
      apiKeyMissing: false,
    });
  });

  it("reads the classic body's own code and message", async () => {
    const server = fakeServer([
      { status: 404, body: { success: false, message: "Game not found", error: "GAME_NOT_FOUND" } },
    ]);
    const error = await failure(clientOf(server, { apiKey: "k" }).client.classic.games.get("nope"));
    expect(error).toMatchObject({
      status: 404,
      code: "GAME_NOT_FOUND",
      surface: "classic",
      message: "HTTP 404 GAME_NOT_FOUND: Game not found",
    });
  });

  it("gives a classic body without a code the status's code", async () => {
    const server = fakeServer([{ status: 403, body: { success: false, message: "not yours" } }]);
    const error = await failure(clientOf(server, { apiKey: "k" }).client.classic.games.get("x"));
    expect([error.code, error.message]).toEqual(["FORBIDDEN", "HTTP 403 FORBIDDEN: not yours"]);
  });

  it("reads the prediction feed's {error, message} and its one 429 {error, docs}", async () => {
    const notFound = fakeServer([
      { status: 404, body: { error: "MARKET_NOT_FOUND", message: "no market at 0xabc" } },
    ]);
    const missing = await failure(clientOf(notFound, { apiKey: "k" }).client.predict.markets.get("0xabc"));
    expect(missing).toMatchObject({
      status: 404,
      code: "MARKET_NOT_FOUND",
      surface: "predict",
      message: "HTTP 404 MARKET_NOT_FOUND: no market at 0xabc",
    });

    const limited = fakeServer([{ status: 429, body: OPAQUE_PREDICT, headers: WINDOW }]);
    const refused = await failure(clientOf(limited, { apiKey: "k" }).client.predict.runtime());
    expect(refused).toMatchObject({
      status: 429,
      code: "API_KEY_REQUIRED_OR_RATE_LIMITED",
      surface: "predict",
      retryAfterSeconds: 60,
      message:
        "HTTP 429 API_KEY_REQUIRED_OR_RATE_LIMITED: API key missing or invalid, or rate limit exceeded (see http://mkt.test/docs/predict)",
    });
  });

  it("reads the platform's body (POST /keys) as the market's", async () => {
    const server = fakeServer([{ status: 400, body: { error: "email must be an email address" } }]);
    const error = await failure(clientOf(server).client.keys.create({ description: "d", email: "nope" }));
    expect(error).toMatchObject({
      status: 400,
      code: "INVALID_INPUT",
      surface: "platform",
      message: "HTTP 400 INVALID_INPUT: email must be an email address",
    });
  });

  it("gives a body that is not the surface's (a proxy's page) the status's code", async () => {
    const server = fakeServer([{ status: 502, text: "<html>Bad Gateway</html>" }]);
    const error = await failure(clientOf(server, { apiKey: "k" }).client.market.discovery());
    expect(error).toMatchObject({
      status: 502,
      code: "BAD_GATEWAY",
      body: "<html>Bad Gateway</html>",
      message: "HTTP 502 BAD_GATEWAY: <html>Bad Gateway</html>",
    });
  });
});

describe("Retry-After", () => {
  it("is undefined when the server sent none, and the 429 is then final", async () => {
    const server = fakeServer([{ status: 429, body: { error: "API key budget exhausted for this bucket" } }]);
    const { client, slept } = clientOf(server, { apiKey: "k" });
    const error = await failure(client.market.reserve("read"));
    expect([error.status, error.code, error.retryAfterSeconds]).toEqual([429, "RATE_LIMITED", undefined]);
    expect(server.calls).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it("is the seconds the server sent", async () => {
    const server = fakeServer([
      { status: 409, body: { error: "still running" }, headers: { "retry-after": "3" } },
    ]);
    const error = await failure(clientOf(server, { apiKey: "k" }).client.market.discovery());
    expect(error.retryAfterSeconds).toBe(3);
  });

  it("reads delay-seconds and HTTP dates, and nothing else", () => {
    const now = Date.parse("2026-11-25T12:00:00Z");
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Wed, 25 Nov 2026 12:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Wed, 25 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter("1.5", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});

describe("retries: only where a retry can succeed", () => {
  it("retries a 503 and a real 429 after their Retry-After, a write with one Idempotency-Key", async () => {
    const server = fakeServer([
      { status: 503, body: { error: "key lookup unavailable" }, headers: { "retry-after": "2" } },
      {
        status: 429,
        body: { error: "too many keys created from this client" },
        headers: { "retry-after": "1" },
      },
      { status: 201, body: created },
    ]);
    const { client, slept } = clientOf(server);
    expect(await client.keys.create({ description: "d", email: "e@example.com" })).toEqual(created);
    expect(server.calls).toHaveLength(3);
    const keys = server.calls.map((call) => call.headers["Idempotency-Key"]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(slept).toEqual([2000, 1000]);
    expect(server.calls[0]?.url).toBe("http://mkt.test/keys");
  });

  it("gives up after the configured attempts with the last answer", async () => {
    const server = fakeServer([
      {
        status: 429,
        body: { error: "API key budget exhausted for this bucket" },
        headers: { "retry-after": "1" },
      },
    ]);
    const { client, slept } = clientOf(server, { apiKey: "k", retry: { attempts: 2 } });
    const error = await failure(client.market.reserve("read"));
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterSeconds: 1 });
    expect(server.calls).toHaveLength(2);
    expect(slept).toEqual([1000]);
  });

  it("leaves a Retry-After longer than maxRetryAfterSeconds to the caller", async () => {
    const server = fakeServer([
      { status: 503, body: { error: "maintenance" }, headers: { "retry-after": "600" } },
    ]);
    const { client, slept } = clientOf(server, { apiKey: "k" });
    const error = await failure(client.market.discovery());
    expect([error.status, error.retryAfterSeconds]).toEqual([503, 600]);
    expect(server.calls).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it("does not retry a 503 without Retry-After, nor a client error, and sends the key only in the header", async () => {
    const down = fakeServer([{ status: 503, body: { error: "down" } }]);
    await failure(clientOf(down, { apiKey: "k" }).client.market.discovery());
    expect(down.calls).toHaveLength(1);

    const server = fakeServer([{ status: 401, body: { error: "API key malformed or invalid" } }]);
    const { client, slept } = clientOf(server, { apiKey: "secret-key" });
    const error = await failure(client.market.reserve("write"));
    expect(error).toMatchObject({
      status: 401,
      code: "UNAUTHORIZED",
      message: "HTTP 401 UNAUTHORIZED: API key malformed or invalid",
      apiKeyMissing: false,
    });
    expect(server.calls).toHaveLength(1);
    expect(slept).toEqual([]);
    expect(server.calls[0]?.url).toBe("http://mkt.test/market/api-key?bucket=write");
    expect(server.calls[0]?.url).not.toContain("secret-key");
    expect(server.calls[0]?.headers["API-KEY"]).toBe("secret-key");
  });

  it("does not retry the classic and prediction 429 that also stands for a revoked key", async () => {
    for (const [body, read] of [
      [OPAQUE_CLASSIC, (client: MktClient) => client.classic.games.list()],
      [OPAQUE_PREDICT, (client: MktClient) => client.predict.runtime()],
    ] as const) {
      const server = fakeServer([
        { status: 429, body, headers: WINDOW },
        { status: 200, body: {} },
      ]);
      const { client, slept } = clientOf(server, { apiKey: "revoked" });
      const error = await failure(read(client));
      expect([error.status, error.retryAfterSeconds, error.apiKeyMissing]).toEqual([429, 60, false]);
      expect(server.calls).toHaveLength(1);
      expect(slept).toEqual([]);
    }
  });

  it("retries a classic service limit that names itself, unless the route calls it final", async () => {
    const limited = { success: false, message: "chat rate limit", error: "CHAT_RATE_LIMITED" };
    const posted = {
      success: true,
      replayed: false,
      message: {
        id: "1",
        contractAddress: `0x${"ab".repeat(20)}`,
        chainId: 8453,
        author: { address: `0x${"cd".repeat(20)}`, userData: null },
        text: "gm",
        clientMessageId: "m1",
        createdAt: "2026-11-25T12:00:00.000Z",
        deleted: false,
      },
    };
    const chat = fakeServer([
      { status: 429, body: limited, headers: { "retry-after": "5" } },
      { status: 201, body: posted },
    ]);
    const { client, slept } = clientOf(chat, { apiKey: "k" });
    const sent = await client.classic.chat.post(`0x${"ab".repeat(20)}`, "gm", { clientMessageId: "m1" });
    expect(sent.message.text).toBe("gm");
    expect(chat.calls).toHaveLength(2);
    expect(slept).toEqual([5000]);

    const duplicate = { success: false, message: "already reported", error: "DUPLICATE_REPORT" };
    const reports = fakeServer([{ status: 429, body: duplicate, headers: { "retry-after": "5" } }]);
    const reporting = clientOf(reports, { apiKey: "k" });
    const error = await failure(reporting.client.classic.tools.report({ contractAddress: "0xabc" }, "scam"));
    expect([error.code, reports.calls.length, reporting.slept]).toEqual(["DUPLICATE_REPORT", 1, []]);
  });

  it("does not retry an answer the server replayed for the Idempotency-Key", async () => {
    const server = fakeServer([
      {
        status: 429,
        body: { error: "too many actions" },
        headers: { "retry-after": "1", "idempotent-replayed": "true" },
      },
    ]);
    const { client } = clientOf(server, { apiKey: "k" });
    const session = client.market.session({
      address: "0xabc",
      token: `mkts_${"t".repeat(43)}`,
      expiresAt: 0,
      origin: "https://app.example",
    });
    await failure(session.action({ kind: "wishlist-list" }));
    expect(server.calls).toHaveLength(1);
  });

  it("resends after a network failure only what is safe to send twice", async () => {
    const reads = fakeServer([{ networkError: true }, { status: 200, body: { disallowed: false } }]);
    const reading = clientOf(reads, { apiKey: "k" });
    expect(await reading.client.classic.unboxingDisallowed()).toEqual({ disallowed: false });
    expect(reads.calls.map((call) => call.method)).toEqual(["GET", "GET"]);
    expect(reading.slept).toEqual([125]);

    const actions = fakeServer([
      { networkError: true },
      {
        status: 200,
        body: { ok: true, kind: "wishlist-list", family: "releases", result: { wishlist: [] } },
      },
    ]);
    const session = clientOf(actions, { apiKey: "k" }).client.market.session({
      address: "0xabc",
      token: `mkts_${"t".repeat(43)}`,
      expiresAt: 0,
      origin: "https://app.example",
    });
    expect((await session.action({ kind: "wishlist-list" })).result).toEqual({ wishlist: [] });
    const keys = actions.calls.map((call) => call.headers["Idempotency-Key"]);
    expect([keys.length, new Set(keys).size]).toEqual([2, 1]);

    const creating = fakeServer([{ networkError: true }, { status: 201, body: created }]);
    await expect(
      clientOf(creating).client.keys.create({ description: "d", email: "e@example.com" }),
    ).rejects.toThrow(TypeError);
    expect(creating.calls).toHaveLength(1);
  });
});

describe("a client without an API key", () => {
  const keyless = (answers: Answer[]) => {
    const server = fakeServer(answers);
    const { client, slept } = clientOf(server);
    return { server, client, slept };
  };

  it("fails at once on the classic 429, after exactly one request and no wait", async () => {
    const { server, client, slept } = keyless([{ status: 429, body: OPAQUE_CLASSIC, headers: WINDOW }]);
    const error = await failure(client.classic.games.list());
    expect(error).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      apiKeyMissing: true,
      retryAfterSeconds: 60,
    });
    expect(error.message).toContain("this client has no API key");
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.headers["API-KEY"]).toBeUndefined();
    expect(slept).toEqual([]);
  });

  it("fails at once on the prediction feed's 429 and the market's 401", async () => {
    const predict = keyless([{ status: 429, body: OPAQUE_PREDICT, headers: WINDOW }]);
    const refused = await failure(predict.client.predict.markets.page());
    expect([refused.code, refused.apiKeyMissing, predict.server.calls.length, predict.slept]).toEqual([
      "API_KEY_REQUIRED_OR_RATE_LIMITED",
      true,
      1,
      [],
    ]);

    const market = keyless([
      { status: 401, body: { error: "API key missing: send it in the API-KEY header" } },
    ]);
    const unauthorized = await failure(market.client.market.reserve("read"));
    expect(unauthorized).toMatchObject({ status: 401, code: "UNAUTHORIZED", apiKeyMissing: true });
    expect(unauthorized.message).toBe(
      "HTTP 401 UNAUTHORIZED: API key missing: send it in the API-KEY header (this client has no API key: create one with client.keys.create() (POST /keys) and pass it as apiKey to createMktClient)",
    );
    expect(market.server.calls).toHaveLength(1);
  });

  it("ends an event-stream subscription at once instead of reconnecting", async () => {
    const { server, client, slept } = keyless([{ status: 429, body: OPAQUE_CLASSIC, headers: WINDOW }]);
    const errors: unknown[] = [];
    const chat = client.classic.chat.subscribe("my-game-12", {
      onEvent: () => {},
      onResync: () => {},
      onError: (error) => errors.push(error),
    });
    const error = await failure(chat.done);
    expect(error).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      surface: "classic",
      apiKeyMissing: true,
    });
    expect([server.calls.length, slept, errors]).toEqual([1, [], []]);
  });

  it("still retries a public route's real limit: the key is not what it lacks", async () => {
    const { server, client, slept } = keyless([
      {
        status: 429,
        body: { error: "too many keys created from this client" },
        headers: { "retry-after": "2" },
      },
      { status: 201, body: created },
    ]);
    expect(await client.keys.create({ description: "d", email: "e@example.com" })).toEqual(created);
    expect([server.calls.length, slept]).toEqual([2, [2000]]);
  });
});
