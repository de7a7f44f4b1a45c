import type { AccountActionResponse, DmMessageList, DmThreadList, DmUnread } from "@mkt/protocol";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createMktClient, type MarketSessionCredentials } from "./index.ts";

const wallet = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const other = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const credentials: MarketSessionCredentials = {
  address: wallet,
  token: `mkts_${"t".repeat(43)}`,
  expiresAt: 1_790_000_000_000,
  origin: "https://mkt.example",
};

/** A session whose server answers every request with `body`. */
function sessionAnswering(body: unknown) {
  const paths: string[] = [];
  const fetch = (async (url: URL | string) => {
    paths.push(new URL(String(url)).pathname + new URL(String(url)).search);
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  }) as typeof globalThis.fetch;
  const client = createMktClient({ baseUrl: "http://mkt.test", apiKey: "k", fetch });
  return { session: client.market.session(credentials), paths };
}

const dmSent = {
  ok: true,
  kind: "dm",
  family: "dms",
  result: { id: "17", threadId: "3", to: other, createdAt: 1_790_000_000_000 },
} as const;

describe("@mkt/client account actions", () => {
  it("returns the result type of the kind it was given", async () => {
    const { session } = sessionAnswering(dmSent);
    const sent = await session.action({ kind: "dm", to: other, body: "hello" });
    expectTypeOf(sent).toEqualTypeOf<AccountActionResponse<"dm">>();
    expectTypeOf(sent.result.threadId).toEqualTypeOf<string>();
    expect(sent).toEqual(dmSent);

    const listed = sessionAnswering({
      ok: true,
      kind: "wishlist-list",
      family: "releases",
      result: { wishlist: ["r1", "r2"] },
    });
    const { result } = await listed.session.action({ kind: "wishlist-list" });
    expectTypeOf(result).toEqualTypeOf<{ wishlist: string[] }>();
    expect(result.wishlist).toEqual(["r1", "r2"]);
  });

  it("refuses an answer that is not the shape of the kind asked for", async () => {
    const { session } = sessionAnswering(dmSent);
    await expect(session.action({ kind: "follow", address: other })).rejects.toThrow();
    const broken = sessionAnswering({ ...dmSent, result: { ...dmSent.result, createdAt: "yesterday" } });
    await expect(broken.session.action({ kind: "dm", to: other, body: "hello" })).rejects.toThrow();
  });

  it("does not compile a body that is not the kind's", () => {
    const { session } = sessionAnswering(dmSent);
    // @ts-expect-error `dm` needs `to` and `body`.
    void session.action({ kind: "dm", address: other }).catch(() => {});
    // @ts-expect-error no such kind.
    void session.action({ kind: "teleport" }).catch(() => {});
  });
});

describe("@mkt/client DM reads", () => {
  const thread = {
    id: "3",
    with: { address: other, username: null },
    lastMessage: { id: "17", from: other, fromMe: false, body: "hi", createdAt: 1_790_000_000_000 },
    unread: 1,
  };

  it("parses threads, messages and unread counts with the protocol schemas", async () => {
    const threads = sessionAnswering({ threads: [thread], next: null });
    const page = await threads.session.dm.threads({ limit: 10 });
    expectTypeOf(page).toEqualTypeOf<DmThreadList>();
    expect(page.threads[0]?.with.address).toBe(other);
    expect(threads.paths).toEqual(["/market/dm/threads?limit=10"]);

    const messages = sessionAnswering({
      threadId: "3",
      with: thread.with,
      messages: [thread.lastMessage],
      next: "c1",
    });
    const list = await messages.session.dm.messages({ with: other });
    expectTypeOf(list).toEqualTypeOf<DmMessageList>();
    expect(list.messages.map((message) => message.body)).toEqual(["hi"]);

    const unread = sessionAnswering({ messages: 4, threads: 2 });
    const counts = await unread.session.dm.unread();
    expectTypeOf(counts).toEqualTypeOf<DmUnread>();
    expect(counts).toEqual({ messages: 4, threads: 2 });
  });

  it("refuses a body that is not a DM read", async () => {
    await expect(
      sessionAnswering({ threads: [{ ...thread, unread: "1" }] }).session.dm.threads(),
    ).rejects.toThrow();
    await expect(sessionAnswering({ messages: 4 }).session.dm.unread()).rejects.toThrow();
  });
});
