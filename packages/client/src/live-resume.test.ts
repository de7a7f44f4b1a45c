import { describe, expect, it } from "vitest";
import { subscribeEventStream } from "./live.ts";

/** A fetch that answers each connection with the next SSE body and records the request headers. */
function sseServer(bodies: string[]) {
  const headers: Array<Record<string, string>> = [];
  const fetch = (async (_url: URL | string, init?: RequestInit) => {
    headers.push({ ...(init?.headers as Record<string, string>) });
    const body = bodies[Math.min(headers.length - 1, bodies.length - 1)]!;
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  return { fetch, headers };
}

describe("event-stream resume", () => {
  it("resumes after an id sent in a block without data, as the SSE standard says", async () => {
    const server = sseServer([
      'id: 41\nevent: ping\ndata: {"n":1}\n\nid: 42\n\n',
      'id: 43\nevent: ping\ndata: {"n":2}\n\n',
    ]);
    const received: string[] = [];
    const subscription = subscribeEventStream(
      {
        baseUrl: "http://mkt.test",
        apiKey: "k",
        fetch: server.fetch,
        sleep: async () => {},
        random: () => 0,
      },
      {
        url: new URL("http://mkt.test/stream"),
        surface: "market",
        parse: (raw) => ({ event: raw.event ?? "message", data: raw.data }),
      },
      {
        onEvent: (event) => {
          received.push(event.data);
          if (received.length === 2) subscription.close();
        },
        onResync: () => {},
      },
    );
    await subscription.done;
    expect(received).toEqual(['{"n":1}', '{"n":2}']);
    expect(server.headers[0]?.["Last-Event-ID"]).toBeUndefined();
    expect(server.headers[1]?.["Last-Event-ID"]).toBe("42");
    expect(subscription.lastEventId()).toBe("43");
  });
});
