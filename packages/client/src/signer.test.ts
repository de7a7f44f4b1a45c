import { classicSignInMessage, signInMessage } from "@mkt/protocol";
import { createWalletClient, custom, type Hex, recoverMessageAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createMktClient, type MktSigner } from "./index.ts";

// Well-known dev keys (anvil's first two accounts); they never hold value.
const local = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const browserKey = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9d86dae88c7a3d8ae8adc6ccc5fe39");
const NOW = 1_790_000_000_000;
const ORIGIN = "https://app.example";

/**
 * A browser wallet as a `WalletClient` sees it: a JSON-RPC account (an address
 * only) whose wallet answers `personal_sign`, signing with its own key.
 */
function browserWallet() {
  const asked: Array<{ method: string; params: unknown }> = [];
  const wallet = createWalletClient({
    account: browserKey.address,
    transport: custom({
      async request({ method, params }: { method: string; params: unknown }) {
        asked.push({ method, params });
        if (method !== "personal_sign") throw new Error(`unexpected ${method}`);
        const [data, address] = params as [Hex, string];
        if (address.toLowerCase() !== browserKey.address.toLowerCase()) throw new Error("another wallet");
        return browserKey.signMessage({ message: { raw: data } });
      },
    }),
  });
  return { wallet, asked };
}

/**
 * A server that answers every request with `body` (a 204 for `null`), keeping
 * the posted bodies and Origin headers.
 */
function server(body: unknown, byPath: Record<string, unknown> = {}) {
  const posted: Array<{ path: string; origin: string | undefined; body: Record<string, unknown> }> = [];
  const fetch = (async (url: URL | string, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    posted.push({
      path: new URL(String(url)).pathname,
      origin: headers["origin"],
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    });
    const path = new URL(String(url)).pathname;
    const answer = path in byPath ? byPath[path] : body;
    if (answer === null) return new Response(null, { status: 204 });
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  }) as typeof globalThis.fetch;
  return { client: createMktClient({ baseUrl: "http://mkt.test", apiKey: "k", fetch }), posted };
}

const sessionFor = (address: string) => ({
  address: address.toLowerCase(),
  token: `mkts_${"t".repeat(43)}`,
  expiresAt: NOW + 30 * 86_400_000,
});

const classicSignedIn = (address: string) => ({
  success: true,
  accessToken: `mktb_${"b".repeat(43)}`,
  tokenType: "Bearer",
  expiresAt: "2026-09-22T12:00:00.000Z",
  address: address.toLowerCase(),
  account: { id: "acct_1", wallets: [address.toLowerCase()] },
});

describe("MktSigner: one signer type for every signed flow", () => {
  const signers: Array<[string, () => { signer: MktSigner; address: string; asked?: () => unknown[] }]> = [
    ["a viem local account", () => ({ signer: local, address: local.address })],
    [
      "a WalletClient over a browser wallet",
      () => {
        const { wallet, asked } = browserWallet();
        return { signer: wallet, address: browserKey.address, asked: () => asked };
      },
    ],
    [
      "a WalletClient with a local account",
      () => ({
        signer: createWalletClient({
          account: local,
          transport: custom({
            request: async () => {
              throw new Error("a local account signs without the wallet");
            },
          }),
        }),
        address: local.address,
      }),
    ],
  ];

  for (const [name, make] of signers) {
    it(`signs in to the market with ${name}`, async () => {
      const { signer, address, asked } = make();
      const { client, posted } = server(sessionFor(address));
      const credentials = await client.market.signIn(signer, { origin: ORIGIN, now: () => NOW });
      expect(credentials).toEqual({ ...sessionFor(address), origin: ORIGIN });
      const [sent] = posted;
      expect(sent).toMatchObject({
        path: "/market/account/session",
        origin: ORIGIN,
        body: { origin: ORIGIN, address: address.toLowerCase(), expires: NOW + 120_000 },
      });
      const { signature, ...fields } = sent!.body as {
        signature: Hex;
        origin: string;
        address: string;
        nonce: string;
        expires: number;
      };
      const recovered = await recoverMessageAddress({ message: signInMessage(fields), signature });
      expect(recovered.toLowerCase()).toBe(address.toLowerCase());
      if (asked)
        expect(asked().map((call) => (call as { method: string }).method)).toEqual(["personal_sign"]);
    });

    it(`signs in to the classic API with ${name}, its expiry in epoch milliseconds`, async () => {
      const { signer, address } = make();
      const { client, posted } = server(classicSignedIn(address));
      const signedIn = await client.classic.auth.signIn(signer, { now: () => NOW, ttlSeconds: 60 });
      expect(signedIn.expiresAt).toBe(Date.UTC(2026, 8, 22, 12));
      expect(client.classic.auth.signedIn).toBe(true);
      const { signature, ...fields } = posted[0]!.body as {
        signature: Hex;
        address: string;
        chainId: number;
        nonce: string;
        expires: number;
      };
      expect(fields).toMatchObject({ address: address.toLowerCase(), chainId: 8453, expires: NOW + 60_000 });
      const recovered = await recoverMessageAddress({ message: classicSignInMessage(fields), signature });
      expect(recovered.toLowerCase()).toBe(address.toLowerCase());
    });
  }

  it("signs release actions and account deletion with a WalletClient", async () => {
    const { wallet, asked } = browserWallet();
    const deletion = { deleted: true, accountId: "acct_1", sessionsRevoked: 1 };
    const { client, posted } = server(deletion, { "/market/releases": null });
    const session = client.market.session({ ...sessionFor(browserKey.address), origin: ORIGIN });
    expect(await session.deleteAccount(wallet, { now: () => NOW })).toEqual(deletion);
    await client.market.releases.delete(wallet, "rel_1", 1, { now: () => NOW });
    expect(posted.map((call) => [call.path, call.body["address"]])).toEqual([
      ["/market/account/delete", browserKey.address.toLowerCase()],
      ["/market/releases", browserKey.address.toLowerCase()],
    ]);
    expect(asked.map((call) => call.method)).toEqual(["personal_sign", "personal_sign"]);
  });

  it("refuses a WalletClient without an account before any request", async () => {
    const accountless = createWalletClient({
      transport: custom({
        request: async () => {
          throw new Error("never asked");
        },
      }),
    });
    const { client, posted } = server({});
    await expect(
      client.market.signIn(accountless as unknown as MktSigner, { origin: ORIGIN }),
    ).rejects.toThrow("the WalletClient has no account");
    expect(posted).toEqual([]);
  });

  it("refuses a ttlSeconds outside (0, 300] before asking the wallet", async () => {
    const { wallet, asked } = browserWallet();
    const { client, posted } = server({});
    await expect(client.classic.auth.signIn(wallet, { ttlSeconds: 301 })).rejects.toThrow(RangeError);
    await expect(client.market.signIn(wallet, { origin: ORIGIN, ttlSeconds: 0 })).rejects.toThrow(RangeError);
    expect([asked, posted]).toEqual([[], []]);
  });
});
