import { parseReleaseAction, type Release, releaseActionMessage } from "@mkt/protocol";
import { recoverMessageAddress } from "viem";
import { privateKeyToAccount, toAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createMktClient, MktApiError } from "./index.ts";

// A well-known dev key (anvil's first account); never holds value.
const account = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const NOW = 1_790_000_000_000;

const release = (id: string, revision = 1): Release => ({
  id,
  owner: account.address.toLowerCase(),
  status: "announced",
  revision,
  updatedAt: NOW,
  launchAt: NOW + 86_400_000,
  version: null,
  dropId: null,
  name: `Release ${id}`,
  symbol: "OWL",
  image: "",
  color: "#000000",
  baseURI: "",
  description: "",
  links: { website: "", x: "", telegram: "" },
  design: {
    accent: "#000000",
    pattern: "solid",
    mask: "full",
    cardsByRarity: [],
    strokes: [],
    tierImages: [],
    cardImage: "",
    tierMasks: [],
  },
  cardsOmitted: true,
});

const page = (ids: string[], more: boolean) => ({
  releases: ids.map((id) => release(id)),
  wishlist: [],
  wishedReleases: [],
  more,
  artworkHash: "0".repeat(64),
});

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fake server answering `answers` in order (the last one repeats), recording every request. */
function fakeServer(answers: Array<{ status: number; body?: unknown }>) {
  const calls: Call[] = [];
  const fetch = (async (url: URL | string, init?: RequestInit) => {
    const target = new URL(String(url));
    calls.push({
      method: init?.method ?? "GET",
      path: target.pathname + target.search,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  }) as typeof globalThis.fetch;
  const client = createMktClient({ baseUrl: "http://mkt.test", apiKey: "key", fetch });
  return { releases: client.market.releases, calls };
}

/** The wallet that signed a posted body, recovered over the message rebuilt from its fields. */
async function signerOf(body: unknown) {
  const { address, nonce, expires, action, signature } = body as {
    address: string;
    nonce: string;
    expires: number;
    action: unknown;
    signature: `0x${string}`;
  };
  const message = releaseActionMessage({ address, nonce, expires, action });
  return (await recoverMessageAddress({ message, signature })).toLowerCase();
}

describe("@mkt/client releases reads", () => {
  it("lists one page with the offset and the API key", async () => {
    const server = fakeServer([{ status: 200, body: page(["a", "b"], true) }]);
    const listed = await server.releases.list({ offset: 50 });
    expect(listed.releases.map((entry) => entry.id)).toEqual(["a", "b"]);
    expect(listed.more).toBe(true);
    expect(server.calls[0]).toMatchObject({ method: "GET", path: "/market/releases?offset=50" });
    expect(server.calls[0]?.headers["API-KEY"]).toBe("key");
  });

  it("iterates every page by offset, once per id, until more is false", async () => {
    const server = fakeServer([
      { status: 200, body: page(["a", "b"], true) },
      // "a" changed while paging and moved to the front; "b" slid into this page.
      { status: 200, body: page(["b", "c"], true) },
      { status: 200, body: page(["d"], false) },
    ]);
    const ids: string[] = [];
    for await (const entry of server.releases.iterate()) ids.push(entry.id);
    expect(ids).toEqual(["a", "b", "c", "d"]);
    expect(server.calls.map((call) => call.path)).toEqual([
      "/market/releases?offset=0",
      "/market/releases?offset=2",
      "/market/releases?offset=4",
    ]);
  });

  it("reads one release by id and refuses an answer that is not a Release", async () => {
    const server = fakeServer([
      { status: 200, body: release("rel_1", 3) },
      { status: 200, body: { id: 1 } },
    ]);
    expect((await server.releases.get("rel_1")).revision).toBe(3);
    expect(server.calls[0]?.path).toBe("/market/releases/rel_1");
    await expect(server.releases.get("rel_1")).rejects.toThrow();
  });
});

describe("@mkt/client signed release actions", () => {
  it("posts the parsed action with a fresh nonce, a 2-minute expiry and the wallet's signature", async () => {
    const server = fakeServer([
      { status: 201, body: { ...release("rel_1"), status: "draft", launchAt: null } },
    ]);
    const draft = { name: "  Night Owls ", symbol: "OWL", color: "#AABBCC" };
    const created = await server.releases.create(account, draft, { now: () => NOW });
    expect(created).toMatchObject({ id: "rel_1", status: "draft" });

    const call = server.calls[0]!;
    expect(call).toMatchObject({ method: "POST", path: "/market/releases" });
    expect(call.headers["API-KEY"]).toBe("key");
    const body = call.body as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["address", "nonce", "expires", "action", "signature"]);
    expect(body["address"]).toBe(account.address.toLowerCase());
    expect(body["nonce"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body["expires"]).toBe(NOW + 120_000);
    // The body carries the parsed action (trimmed, lowercased, defaults filled), byte for byte.
    expect(JSON.stringify(body["action"])).toBe(
      JSON.stringify(parseReleaseAction({ kind: "create", draft })),
    );
    expect(body["action"]).toMatchObject({ draft: { name: "Night Owls", color: "#aabbcc", image: "" } });
    expect(await signerOf(body)).toBe(account.address.toLowerCase());
  });

  it("signs each kind with its own fields and a new nonce each time", async () => {
    const server = fakeServer([{ status: 200, body: release("rel_1", 2) }]);
    const launchAt = NOW + 86_400_000;
    await server.releases.edit(account, "rel_1", 1, { name: "Owls", symbol: "OWL" });
    await server.releases.announce(account, "rel_1", 2, launchAt);
    await server.releases.reschedule(account, "rel_1", 3, launchAt + 1);
    await server.releases.cancel(account, "rel_1", 4);
    await server.releases.link(account, "rel_1", 5, "r2", "7");
    const actions = server.calls.map((call) => (call.body as { action: unknown }).action);
    expect(actions).toEqual([
      parseReleaseAction({
        kind: "edit",
        releaseId: "rel_1",
        revision: 1,
        draft: { name: "Owls", symbol: "OWL" },
      }),
      { kind: "announce", releaseId: "rel_1", revision: 2, launchAt },
      { kind: "reschedule", releaseId: "rel_1", revision: 3, launchAt: launchAt + 1 },
      { kind: "cancel", releaseId: "rel_1", revision: 4 },
      { kind: "link", releaseId: "rel_1", revision: 5, version: "r2", dropId: "7" },
    ]);
    const nonces = new Set(server.calls.map((call) => (call.body as { nonce: string }).nonce));
    expect(nonces.size).toBe(5);
    for (const call of server.calls) expect(await signerOf(call.body)).toBe(account.address.toLowerCase());
  });

  it("deletes with a 204 and no body to parse", async () => {
    const server = fakeServer([{ status: 204 }]);
    await expect(server.releases.delete(account, "rel_1", 1)).resolves.toBeUndefined();
    expect((server.calls[0]!.body as { action: unknown }).action).toEqual({
      kind: "delete",
      releaseId: "rel_1",
      revision: 1,
    });
  });

  it("refuses an action that does not parse before asking the wallet to sign", async () => {
    const server = fakeServer([{ status: 200, body: release("rel_1") }]);
    let signed = 0;
    const signer = toAccount({
      ...account,
      signMessage: async (args) => {
        signed++;
        return account.signMessage(args);
      },
    });
    await expect(server.releases.cancel(signer, "rel_1", 0)).rejects.toThrow(/revision/);
    await expect(server.releases.create(signer, { name: "x", symbol: "no spaces" })).rejects.toThrow(
      /symbol/,
    );
    expect(signed).toBe(0);
    expect(server.calls).toEqual([]);
  });

  it("surfaces a stale revision as an MktApiError with status 409", async () => {
    const server = fakeServer([{ status: 409, body: { error: "revision 1 is stale; the release is at 2" } }]);
    const error = await server.releases.cancel(account, "rel_1", 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MktApiError);
    expect(error).toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: "HTTP 409 CONFLICT: revision 1 is stale; the release is at 2",
    });
  });
});
