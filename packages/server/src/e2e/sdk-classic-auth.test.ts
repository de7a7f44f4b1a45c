import { createMktClient, MktApiError } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";

/**
 * The Classic API's bearer sign-in through the SDK against the running
 * server: a viem account signs in, the client sends the token on its classic
 * calls, and sign-out revokes it.
 */
describe("SDK classic sign-in over real HTTP", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("signs in with a viem account, sends the bearer on classic calls, and signs out", async () => {
    const { key } = await t.createKey({ multiplier: 10 });
    const sent: { path: string; authorization: string | null; apiKey: string | null }[] = [];
    const recording = (async (url: URL | string, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      sent.push({
        path: new URL(String(url)).pathname,
        authorization: headers.get("authorization"),
        apiKey: headers.get("api-key"),
      });
      return fetch(url, init);
    }) as typeof fetch;
    const client = createMktClient({ baseUrl, apiKey: key, fetch: recording, retry: { attempts: 1 } });
    const wallet = testWallet(60);

    expect(client.classic.auth.signedIn).toBe(false);
    await client.classic.unboxingDisallowed();
    expect(sent.at(-1)?.authorization).toBeNull();

    const signedIn = await client.classic.auth.signIn(wallet);
    expect(signedIn.tokenType).toBe("Bearer");
    expect(signedIn.address).toBe(wallet.address.toLowerCase());
    expect(signedIn.account.wallets).toEqual([wallet.address.toLowerCase()]);
    expect(client.classic.auth.signedIn).toBe(true);

    const session = await client.classic.auth.session();
    expect(session.account).toEqual(signedIn.account);
    await client.classic.unboxingDisallowed();
    expect(sent.at(-1)).toEqual({
      path: "/classic/unboxing-disallowed",
      authorization: `Bearer ${signedIn.accessToken}`,
      apiKey: key,
    });

    await client.classic.auth.signOut();
    expect(client.classic.auth.signedIn).toBe(false);
    expect(sent.at(-1)).toMatchObject({ path: "/classic/auth/sign-out", apiKey: null });

    // The revoked token, used again, is a 401 in the classic body.
    client.classic.auth.useToken(signedIn.accessToken);
    const refused = await client.classic.auth.session().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MktApiError);
    expect((refused as MktApiError).status).toBe(401);
    expect((refused as MktApiError).body).toMatchObject({ success: false, error: "UNAUTHORIZED" });

    expect(t.logs.text()).not.toContain(signedIn.accessToken);
  });
});
