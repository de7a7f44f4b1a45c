import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type ClassicRefresh,
  type ClassicSession,
  type ClassicSignIn,
  createMktClient,
  type MarketSessionCredentials,
  type SessionState,
} from "./index.ts";

/** A client whose server answers every request with `body`. */
function answering(body: unknown) {
  const fetch = (async () =>
    new Response(JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json" },
    })) as unknown as typeof globalThis.fetch;
  return createMktClient({ baseUrl: "http://mkt.test", apiKey: "k", fetch });
}

const DROP = `0x${"ab".repeat(20)}`;

describe("every expiry the SDK returns is Unix epoch milliseconds", () => {
  it("types the expiries of every surface as numbers", () => {
    expectTypeOf<MarketSessionCredentials["expiresAt"]>().toEqualTypeOf<number>();
    expectTypeOf<SessionState["expiresAt"]>().toEqualTypeOf<number>();
    expectTypeOf<ClassicSignIn["expiresAt"]>().toEqualTypeOf<number>();
    expectTypeOf<ClassicSession["expiresAt"]>().toEqualTypeOf<number>();
    expectTypeOf<ClassicSession["createdAt"]>().toEqualTypeOf<number>();
    expectTypeOf<ClassicRefresh["cooldownUntil"]>().toEqualTypeOf<number>();
    expectTypeOf<ClassicRefresh["refreshedAt"]>().toEqualTypeOf<number>();
  });

  it("converts the classic session's ISO times", async () => {
    const client = answering({
      success: true,
      address: DROP,
      account: { id: "acct_1", wallets: [DROP] },
      createdAt: "2026-09-21T12:00:00.000Z",
      expiresAt: "2026-09-22T12:00:00.000Z",
    });
    client.classic.auth.useToken(`mktb_${"b".repeat(43)}`);
    const session = await client.classic.auth.session();
    expect([session.createdAt, session.expiresAt]).toEqual([
      Date.UTC(2026, 8, 21, 12),
      Date.UTC(2026, 8, 22, 12),
    ]);
    expect(session.account).toEqual({ id: "acct_1", wallets: [DROP] });
  });

  it("converts a refresh's cooldown", async () => {
    const client = answering({
      success: true,
      target: { chainId: 8453, contractAddress: DROP, tokenId: null },
      refreshed: false,
      refreshedAt: "2026-09-21T12:00:00.000Z",
      cooldownUntil: "2026-09-21T12:05:00.000Z",
      indexedThroughBlock: 42,
    });
    expect(await client.classic.tools.refresh({ contractAddress: DROP })).toEqual({
      success: true,
      target: { chainId: 8453, contractAddress: DROP, tokenId: null },
      refreshed: false,
      refreshedAt: Date.UTC(2026, 8, 21, 12),
      cooldownUntil: Date.UTC(2026, 8, 21, 12, 5),
      indexedThroughBlock: 42,
    });
  });

  it("refuses a classic time that is not ISO 8601 instead of returning NaN", async () => {
    const client = answering({
      success: true,
      address: DROP,
      account: { id: "acct_1", wallets: [] },
      createdAt: "yesterday",
      expiresAt: "2026-09-22T12:00:00.000Z",
    });
    await expect(client.classic.auth.session()).rejects.toThrow("not ISO 8601: yesterday");
  });
});
