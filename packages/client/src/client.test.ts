import { describe, expect, it } from "vitest";
import { createMktClient, MktApiError } from "./index.ts";

function fakeServer(answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: URL | string, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json", ...answer.headers },
    });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const created = {
  id: "key_1",
  key: `mkt_${"a".repeat(43)}`,
  multiplier: 1,
  createdAt: "2026-11-25T12:00:00.000Z",
};

describe("@mkt/client transport", () => {
  it("retries a write with the same Idempotency-Key and honours Retry-After", async () => {
    const server = fakeServer([
      { status: 503, body: { error: "down" }, headers: { "retry-after": "2" } },
      { status: 429, body: { error: "slow down" }, headers: { "retry-after": "1" } },
      { status: 201, body: created },
    ]);
    const slept: number[] = [];
    const client = createMktClient({
      baseUrl: "http://mkt.test/",
      fetch: server.fetch,
      sleep: async (ms) => {
        slept.push(ms);
      },
      random: () => 0,
    });
    expect(await client.keys.create({ description: "d", email: "e@example.com" })).toEqual(created);
    expect(server.calls).toHaveLength(3);
    const keys = server.calls.map((c) => (c.init.headers as Record<string, string>)["Idempotency-Key"]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(slept).toEqual([2000, 1000]);
    expect(server.calls[0]?.url).toBe("http://mkt.test/keys");
  });

  it("gives up after the configured attempts with the server's status and body", async () => {
    const server = fakeServer([
      { status: 429, body: { error: "API_KEY_REQUIRED_OR_RATE_LIMITED", docs: "x" } },
    ]);
    const client = createMktClient({
      baseUrl: "http://mkt.test",
      apiKey: "k",
      fetch: server.fetch,
      retry: { attempts: 2 },
      sleep: async () => {},
    });
    const error = await client.market.reserve("read").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MktApiError);
    expect(error).toMatchObject({
      status: 429,
      body: { error: "API_KEY_REQUIRED_OR_RATE_LIMITED", docs: "x" },
    });
    expect(server.calls).toHaveLength(2);
  });

  it("does not retry a client error, and sends the key only in the header", async () => {
    const server = fakeServer([{ status: 401, body: { error: "API key malformed or invalid" } }]);
    const client = createMktClient({ baseUrl: "http://mkt.test", apiKey: "secret-key", fetch: server.fetch });
    await expect(client.market.reserve("write")).rejects.toThrow("HTTP 401: API key malformed or invalid");
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.url).toBe("http://mkt.test/market/api-key?bucket=write");
    expect(server.calls[0]?.url).not.toContain("secret-key");
    expect((server.calls[0]!.init.headers as Record<string, string>)["API-KEY"]).toBe("secret-key");
  });
});
