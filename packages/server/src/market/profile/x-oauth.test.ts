import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { lookup } from "./test-fixtures.ts";
import { createXOAuthProvider, X_OAUTH_ENDPOINTS } from "./x-provider.ts";

const REDIRECT = "https://mkt.example/connect/x";

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: URLSearchParams | undefined;
}

/** X's three endpoints, in memory: issues a token for `good-code` and says who it belongs to. */
function fakeX(
  options: { username?: string; avatar?: string; tokenStatus?: number; meStatus?: number } = {},
) {
  const requests: Recorded[] = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === "string" ? new URLSearchParams(init.body) : undefined;
    requests.push({ url, method: init?.method ?? "GET", headers, body });
    if (url === X_OAUTH_ENDPOINTS.token) {
      if (options.tokenStatus) return new Response("{}", { status: options.tokenStatus });
      if (body?.get("code") !== "good-code")
        return Response.json({ error: "invalid_request" }, { status: 400 });
      return Response.json({ token_type: "bearer", access_token: "x-access-token", scope: "users.read" });
    }
    if (url === X_OAUTH_ENDPOINTS.me) {
      if (options.meStatus) return new Response("{}", { status: options.meStatus });
      if (headers["authorization"] !== "Bearer x-access-token") return new Response("{}", { status: 401 });
      return Response.json({
        data: {
          id: "1",
          name: "Someone",
          username: options.username ?? "Oauth_User",
          profile_image_url: options.avatar ?? "https://pbs.twimg.com/profile_images/1/a_normal.jpg",
        },
      });
    }
    if (url === X_OAUTH_ENDPOINTS.revoke) return Response.json({ revoked: true });
    return new Response("not found", { status: 404 });
  };
  return { requests, fetch: fetchImpl as typeof fetch };
}

describe("X OAuth provider", () => {
  it("builds X's authorize URL with PKCE S256", () => {
    const provider = createXOAuthProvider({ clientId: "client-1", redirectUrl: REDIRECT });
    const url = new URL(provider.authorizeUrl("the-state", "the-challenge"));
    expect(`${url.origin}${url.pathname}`).toBe("https://x.com/i/oauth2/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "client-1",
      redirect_uri: REDIRECT,
      scope: "tweet.read users.read",
      state: "the-state",
      code_challenge: "the-challenge",
      code_challenge_method: "S256",
    });
  });

  it("redeems the code with the verifier, reads users/me and revokes the token", async () => {
    const x = fakeX();
    const provider = createXOAuthProvider({
      clientId: "client-1",
      clientSecret: "s3cret",
      redirectUrl: REDIRECT,
      fetch: x.fetch,
    });
    expect(await provider.complete("good-code", "verifier-123")).toEqual({
      username: "Oauth_User",
      avatarUrl: "https://pbs.twimg.com/profile_images/1/a_normal.jpg",
    });
    const [token, me] = x.requests;
    expect(token?.url).toBe("https://api.x.com/2/oauth2/token");
    expect(token?.method).toBe("POST");
    expect(token?.headers["authorization"]).toBe(
      `Basic ${Buffer.from("client-1:s3cret").toString("base64")}`,
    );
    expect(Object.fromEntries(token?.body ?? [])).toEqual({
      grant_type: "authorization_code",
      code: "good-code",
      redirect_uri: REDIRECT,
      code_verifier: "verifier-123",
      client_id: "client-1",
    });
    expect(me?.url).toBe("https://api.x.com/2/users/me?user.fields=profile_image_url");
    await vi.waitFor(() =>
      expect(x.requests.map((request) => request.url)).toContain(X_OAUTH_ENDPOINTS.revoke),
    );
  });

  it("sends no Basic header for a public client and drops a non-https avatar", async () => {
    const x = fakeX({ avatar: "http://insecure.example/a.jpg" });
    const provider = createXOAuthProvider({ clientId: "client-1", redirectUrl: REDIRECT, fetch: x.fetch });
    expect((await provider.complete("good-code", "v")).avatarUrl).toBe("");
    expect(x.requests[0]?.headers["authorization"]).toBeUndefined();
  });

  it("maps X's refusals to 400 and its failures to 503", async () => {
    const refuse = createXOAuthProvider({ clientId: "c", redirectUrl: REDIRECT, fetch: fakeX().fetch });
    await expect(refuse.complete("bad-code", "v")).rejects.toMatchObject({ kind: "bad_request" });
    for (const options of [{ tokenStatus: 500 }, { meStatus: 503 }, { username: "not a valid name" }]) {
      const provider = createXOAuthProvider({
        clientId: "c",
        redirectUrl: REDIRECT,
        fetch: fakeX(options).fetch,
      });
      await expect(provider.complete("good-code", "v")).rejects.toMatchObject({ kind: "unavailable" });
    }
    const offline = createXOAuthProvider({
      clientId: "c",
      redirectUrl: REDIRECT,
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    await expect(offline.complete("good-code", "v")).rejects.toMatchObject({ kind: "unavailable" });
  });
});

describe("X OAuth through the API (X_CLIENT_ID configured)", () => {
  let test: TestApp;
  let apiKey: string;
  let alice: SignedIn;
  let bob: SignedIn;
  let x: ReturnType<typeof fakeX>;

  beforeAll(async () => {
    test = await setupApp({ env: { X_CLIENT_ID: "mkt-client", X_REDIRECT_URL: REDIRECT } });
    apiKey = (await test.createKey({ multiplier: 100 })).key;
    alice = await signIn(test, 1, { apiKey });
    bob = await signIn(test, 2, { apiKey });
  });
  afterAll(() => test.close());
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const connect = async (who: SignedIn) => {
    const response = await accountAction(test, who, { kind: "x-connect", username: "ignored_name" });
    expect(response.statusCode).toBe(200);
    const result = response.json().result;
    expect(result).toMatchObject({ mode: "oauth", expiresAt: expect.any(Number) });
    const url = new URL(result.authorizeUrl);
    expect(url.searchParams.get("client_id")).toBe("mkt-client");
    expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT);
    return { state: url.searchParams.get("state")!, challenge: url.searchParams.get("code_challenge")! };
  };
  const callback = (who: SignedIn | undefined, query: string) =>
    test.app.server.inject({
      method: "GET",
      url: `/market/account/social/x/callback?${query}`,
      headers: who ? who.headers : { "api-key": apiKey },
    });

  it("connects and verifies the account that started it", async () => {
    x = fakeX();
    vi.stubGlobal("fetch", x.fetch);
    const { state, challenge } = await connect(alice);
    // Nothing is verified before X answers.
    expect((await lookup(test, "ignored_name", apiKey)).statusCode).toBe(404);

    expect((await callback(undefined, `code=good-code&state=${state}`)).statusCode).toBe(401);
    const done = await callback(alice, `code=good-code&state=${state}`);
    expect(done.statusCode).toBe(200);
    expect(done.headers["cache-control"]).toBe("no-store");
    expect(done.json()).toEqual({
      ok: true,
      profile: expect.objectContaining({
        address: alice.address,
        xUsername: "Oauth_User",
        xAvatarUrl: "https://pbs.twimg.com/profile_images/1/a_normal.jpg",
        xVerified: true,
      }),
    });
    const verifier = x.requests
      .find((request) => request.url === X_OAUTH_ENDPOINTS.token)
      ?.body?.get("code_verifier");
    expect(
      createHash("sha256")
        .update(verifier ?? "")
        .digest("base64url"),
    ).toBe(challenge);
    expect((await lookup(test, "oauth_user", apiKey)).json().profile.address).toBe(alice.address);

    const replay = await callback(alice, `code=good-code&state=${state}`);
    expect(replay.statusCode).toBe(400);
    // Credentials of the flow never reach a log line.
    for (const secret of [state, "good-code", "x-access-token", verifier ?? "verifier"]) {
      expect(test.logs.text()).not.toContain(secret);
    }
  });

  it("refuses another account's state, a malformed one, a declined consent and a bad code", async () => {
    x = fakeX({ username: "Bob_Real" });
    vi.stubGlobal("fetch", x.fetch);
    const started = await connect(bob);
    const hijack = await callback(alice, `code=good-code&state=${started.state}`);
    expect(hijack.statusCode).toBe(403);
    expect(x.requests).toHaveLength(0);

    expect((await callback(bob, "code=good-code&state=short")).statusCode).toBe(400);
    const declined = await connect(bob);
    const denied = await callback(bob, `error=access_denied&state=${declined.state}`);
    expect(denied.statusCode).toBe(400);
    expect(denied.json().error).toMatch(/access_denied/);
    const bad = await connect(bob);
    expect((await callback(bob, `code=wrong-code&state=${bad.state}`)).statusCode).toBe(400);
    expect((await lookup(test, "bob_real", apiKey)).statusCode).toBe(404);
  });

  it("answers 503 when X is down, leaving the connection unverified", async () => {
    vi.stubGlobal("fetch", fakeX({ tokenStatus: 502 }).fetch);
    const { state } = await connect(bob);
    const response = await callback(bob, `code=good-code&state=${state}`);
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBeDefined();
    expect((await lookup(test, "bob_real", apiKey)).statusCode).toBe(404);
  });
});
