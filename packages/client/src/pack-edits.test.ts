import { type PackEdit, packEditMessage, parsePackEditAction } from "@mkt/protocol";
import { recoverMessageAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createMktClient, MktApiError } from "./index.ts";

// A well-known dev key (anvil's first account); never holds value.
const account = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const NOW = 1_790_000_000_000;

function fakeServer(answer: { status: number; body: unknown }) {
  const calls: Array<{ method: string; path: string; body: Record<string, unknown> }> = [];
  const fetch = (async (url: URL | string, init?: RequestInit) => {
    calls.push({
      method: init?.method ?? "GET",
      path: new URL(String(url)).pathname,
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  }) as typeof globalThis.fetch;
  const client = createMktClient({
    baseUrl: "http://mkt.test",
    apiKey: "key",
    fetch,
    retry: { attempts: 1 },
  });
  return { packEdit: client.market.packEdit, calls };
}

const edited: PackEdit = {
  version: "r2",
  packId: "7",
  owner: account.address.toLowerCase(),
  name: "Rare pulls",
  note: null,
  updatedAt: NOW,
};

describe("@mkt/client packEdit", () => {
  it("posts the parsed edit to the runtime's path, signed over packEditMessage with that runtime", async () => {
    const server = fakeServer({ status: 200, body: edited });
    const answer = await server.packEdit(
      account,
      "r2",
      { kind: "set-name", packId: "7", name: "  Rare pulls " },
      { now: () => NOW },
    );
    expect(answer).toEqual(edited);
    const call = server.calls[0]!;
    expect(call).toMatchObject({ method: "POST", path: "/market/runtime/r2/pack-edit" });
    expect(Object.keys(call.body)).toEqual(["address", "nonce", "expires", "action", "signature"]);
    expect(call.body["action"]).toEqual({ kind: "set-name", packId: "7", name: "Rare pulls" });
    expect(call.body["expires"]).toBe(NOW + 120_000);
    const { address, nonce, expires, action, signature } = call.body as {
      address: string;
      nonce: string;
      expires: number;
      action: unknown;
      signature: `0x${string}`;
    };
    // The signature is over this runtime's text; the same fields with another runtime recover elsewhere.
    const message = (version: string) => packEditMessage({ address, nonce, expires, version, action });
    expect((await recoverMessageAddress({ message: message("r2"), signature })).toLowerCase()).toBe(
      account.address.toLowerCase(),
    );
    expect((await recoverMessageAddress({ message: message("r1"), signature })).toLowerCase()).not.toBe(
      account.address.toLowerCase(),
    );
    expect(action).toEqual(parsePackEditAction({ kind: "set-name", packId: "7", name: "Rare pulls" }));
  });

  it("refuses an edit that does not parse or a bad runtime id before signing, and surfaces 403", async () => {
    const server = fakeServer({ status: 403, body: { error: "holds no pack 7 in runtime r2" } });
    await expect(
      server.packEdit(account, "r2", { kind: "set-note", packId: "07", note: "x" }),
    ).rejects.toThrow(/decimal/);
    await expect(
      server.packEdit(account, "r2/../x", { kind: "set-note", packId: "7", note: "x" }),
    ).rejects.toThrow(/runtime id/);
    expect(server.calls).toEqual([]);
    const refused = await server
      .packEdit(account, "r2", { kind: "set-note", packId: "7", note: null })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MktApiError);
    expect((refused as MktApiError).status).toBe(403);
    expect((refused as MktApiError).body).toEqual({ error: "holds no pack 7 in runtime r2" });
  });
});
