import { randomUUID } from "node:crypto";
import {
  CLASSIC_ACCESS_TOKEN_LIFETIME_MS,
  CLASSIC_SIGN_IN_CONSENT,
  type ClassicSignInRequest,
  classicSignInMessage,
} from "@mkt/protocol";
import type { HDAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, signEnvelope, signIn, TEST_ORIGIN, testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { withContractWallets } from "../../_test/contract-wallets.ts";
import { hashSecret } from "../../keys/secrets.ts";

const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;
/** Every access token issued in this file: none may ever reach a log line. */
const issued: string[] = [];

beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

/** A signed classic sign-in body, with overridable fields for negative tests. */
async function signClassic(
  wallet: HDAccount,
  options: {
    chainId?: number;
    signedChainId?: number;
    origin?: string;
    nonce?: string;
    expires?: number;
  } = {},
): Promise<ClassicSignInRequest> {
  const fields = {
    address: wallet.address.toLowerCase(),
    chainId: options.chainId ?? 8453,
    nonce: options.nonce ?? randomUUID(),
    expires: options.expires ?? clock.now() + 60_000,
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
  };
  const message = classicSignInMessage({ ...fields, chainId: options.signedChainId ?? fields.chainId });
  return { ...fields, signature: await wallet.signMessage({ message }) };
}

const postSignIn = (body: unknown, headers: Record<string, string> = {}) =>
  test.app.server.inject({
    method: "POST",
    url: "/classic/auth/sign-in",
    headers: { "api-key": apiKey, ...headers },
    payload: body as object,
  });

async function classicSignIn(walletIndex: number) {
  const response = await postSignIn(await signClassic(testWallet(walletIndex)));
  expect(response.statusCode).toBe(200);
  const body = response.json() as {
    accessToken: string;
    expiresAt: string;
    address: string;
    account: { id: string; wallets: string[] };
  };
  issued.push(body.accessToken);
  return body;
}

const session = (headers: Record<string, string>) =>
  test.app.server.inject({ method: "GET", url: "/classic/auth/session", headers });
const signOut = (headers: Record<string, string>) =>
  test.app.server.inject({ method: "POST", url: "/classic/auth/sign-out", headers });

const expectUnauthorized = (response: { statusCode: number; json(): unknown }) => {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toMatchObject({ success: false, error: "UNAUTHORIZED" });
  expect(typeof (response.json() as { message: unknown }).message).toBe("string");
};

describe("classic sign-in", () => {
  it("answers a nonce and the exact message to sign, with the API key only", async () => {
    const address = testWallet(40).address;
    const response = await test.app.server.inject({
      method: "GET",
      url: `/classic/auth/nonce?address=${address}`,
      headers: { "api-key": apiKey },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, address: address.toLowerCase(), chainId: 8453 });
    expect(body.nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
    expect(body.expires).toBe(clock.now() + 5 * 60_000);
    expect(body.message).toBe(
      classicSignInMessage({ address, chainId: 8453, nonce: body.nonce, expires: body.expires }),
    );
    expect(body.message).not.toContain("Website:");
    expect(response.headers["cache-control"]).toBe("no-store");

    // The answer's fields, signed, sign in.
    const signature = await testWallet(40).signMessage({ message: body.message });
    const signedIn = await postSignIn({
      address,
      chainId: 8453,
      nonce: body.nonce,
      expires: body.expires,
      signature,
    });
    expect(signedIn.statusCode).toBe(200);
    issued.push(signedIn.json().accessToken);

    const keyless = await test.app.server.inject({
      method: "GET",
      url: `/classic/auth/nonce?address=${address}`,
    });
    expect(keyless.statusCode).toBe(429);
    expect(keyless.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
  });

  it("signs an EOA in: a bearer token of 24 hours, the account and its wallets, stored only hashed", async () => {
    const before = await test.db.kysely.selectFrom("accounts").select("id").execute();
    const body = await classicSignIn(41);
    const address = testWallet(41).address.toLowerCase();
    expect(body).toMatchObject({ success: true, tokenType: "Bearer", address });
    expect(body.accessToken).toMatch(/^mktb_[A-Za-z0-9_-]{43}$/);
    expect(body.expiresAt).toBe(new Date(clock.now() + CLASSIC_ACCESS_TOKEN_LIFETIME_MS).toISOString());
    expect(body.account.id).toMatch(/^acct_/);
    expect(body.account.wallets).toEqual([address]);
    // A new wallet gets a market account: the same table, no second user store.
    const after = await test.db.kysely.selectFrom("accounts").select("id").execute();
    expect(after.length).toBe(before.length + 1);

    const rows = await test.db.kysely
      .selectFrom("sessions")
      .selectAll()
      .where("kind", "=", "classic")
      .execute();
    expect(JSON.stringify(rows)).not.toContain(body.accessToken);
    expect(rows.some((row) => row.token_hash === hashSecret(body.accessToken))).toBe(true);
  });

  it("signs in to the market account the wallet is linked to, with every linked wallet", async () => {
    const market = await signIn(test, 42, { apiKey, now: clock.now() });
    const proof = await signEnvelope(testWallet(43), { now: clock.now() });
    expect((await accountAction(test, market, { kind: "wallet-link", proof })).statusCode).toBe(200);
    const state = (
      await test.app.server.inject({ method: "GET", url: "/market/account/session", headers: market.headers })
    ).json();

    const body = await classicSignIn(43);
    expect(body.account.id).toBe(state.accountId);
    expect(body.account.wallets).toEqual([market.address, testWallet(43).address.toLowerCase()]);
    expect(body.address).toBe(testWallet(43).address.toLowerCase());

    // Unlinking the signing wallet revokes its classic token too.
    const headers = { "api-key": apiKey, authorization: `Bearer ${body.accessToken}` };
    expect((await session(headers)).statusCode).toBe(200);
    const unlinked = await accountAction(test, market, { kind: "wallet-unlink", address: body.address });
    expect(unlinked.statusCode).toBe(200);
    expectUnauthorized(await session(headers));
  });

  it("refuses a replayed nonce", async () => {
    const signed = await signClassic(testWallet(44));
    expect((await postSignIn(signed)).statusCode).toBe(200);
    const replay = await postSignIn(signed);
    expectUnauthorized(replay);
    expect(replay.json().message).toMatch(/nonce/);
  });

  it("refuses another chain, a signature over another chain, and another wallet's signature", async () => {
    const otherChain = await postSignIn(await signClassic(testWallet(45), { chainId: 1 }));
    expect(otherChain.statusCode).toBe(400);
    expect(otherChain.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });

    // Signed for chain 1, posted as 8453: not a signature of this message.
    expectUnauthorized(await postSignIn(await signClassic(testWallet(45), { signedChainId: 1 })));

    // Signed by wallet 46, posted as wallet 45.
    const forged = await signClassic(testWallet(46));
    expectUnauthorized(await postSignIn({ ...forged, address: testWallet(45).address }));

    // A market sign-in signature is not a classic one.
    const market = await signEnvelope(testWallet(45), { now: clock.now() });
    expectUnauthorized(
      await postSignIn({
        address: market.address,
        chainId: 8453,
        nonce: market.nonce,
        expires: market.expires,
        signature: market.signature,
      }),
    );
  });

  it("refuses an expired message and one expiring more than five minutes ahead", async () => {
    expectUnauthorized(await postSignIn(await signClassic(testWallet(47), { expires: clock.now() - 1 })));
    const far = await postSignIn(await signClassic(testWallet(47), { expires: clock.now() + 6 * 60_000 }));
    expect(far.statusCode).toBe(400);
  });

  it("binds a browser sign-in to the origin it names", async () => {
    const origin = "https://creator-tool.example";
    const signed = await signClassic(testWallet(48), { origin });
    const elsewhere = await postSignIn(signed, { origin: TEST_ORIGIN });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toMatchObject({ success: false, error: "FORBIDDEN" });
    expect((await postSignIn(signed)).statusCode).toBe(403);
    const ok = await postSignIn(signed, { origin });
    expect(ok.statusCode).toBe(200);
    issued.push(ok.json().accessToken);
  });

  it("needs the API key: without it the classic 429, whatever the signature", async () => {
    const response = await test.app.server.inject({
      method: "POST",
      url: "/classic/auth/sign-in",
      payload: await signClassic(testWallet(49)),
    });
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
  });
});

describe("API-KEY and bearer (GET /classic/auth/session)", () => {
  it("answers the signed-in account and its wallets with both credentials", async () => {
    const body = await classicSignIn(50);
    const response = await session({ "api-key": apiKey, authorization: `Bearer ${body.accessToken}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      address: body.address,
      account: body.account,
      createdAt: new Date(clock.now()).toISOString(),
      expiresAt: body.expiresAt,
    });
    expect(response.headers["cache-control"]).toBe("private, no-store");
  });

  it("answers 401 in the classic body for a missing, malformed, foreign or unknown token", async () => {
    const market = await signIn(test, 51, { apiKey, now: clock.now() });
    const market401 = await session({ "api-key": apiKey, authorization: `Bearer ${market.token}` });
    expectUnauthorized(market401);
    for (const authorization of [
      undefined,
      "Basic dXNlcjpwYXNz",
      "Bearer",
      "Bearer not-a-token",
      `Bearer mktb_${"A".repeat(43)}`,
    ]) {
      const headers: Record<string, string> = { "api-key": apiKey };
      if (authorization !== undefined) headers["authorization"] = authorization;
      expectUnauthorized(await session(headers));
    }
  });

  it("answers the classic 429 without a valid key, even with a valid bearer", async () => {
    const body = await classicSignIn(52);
    const bearer = `Bearer ${body.accessToken}`;
    const attempts: Record<string, string>[] = [
      { authorization: bearer },
      { authorization: bearer, "api-key": "mkt_not-a-key" },
    ];
    for (const headers of attempts) {
      const response = await session(headers);
      expect(response.statusCode).toBe(429);
      expect(response.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
    }
  });

  it("refuses a classic token on the market's session routes", async () => {
    const body = await classicSignIn(53);
    const response = await test.app.server.inject({
      method: "GET",
      url: "/market/account/session",
      headers: {
        "api-key": apiKey,
        authorization: `Bearer ${body.accessToken}`,
        origin: TEST_ORIGIN,
        "x-mkt-wallet": body.address,
      },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatch(/Classic API access token/);
  });

  it("expires the token after 24 hours", async () => {
    const body = await classicSignIn(54);
    const headers = { "api-key": apiKey, authorization: `Bearer ${body.accessToken}` };
    expect((await session(headers)).statusCode).toBe(200);
    clock.advance(CLASSIC_ACCESS_TOKEN_LIFETIME_MS);
    expectUnauthorized(await session(headers));
  });
});

describe("bearer only (POST /classic/auth/sign-out)", () => {
  it("revokes the token at once, without an API key", async () => {
    const body = await classicSignIn(55);
    const bearer = { authorization: `Bearer ${body.accessToken}` };
    const out = await signOut(bearer);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true, message: "signed out" });
    expectUnauthorized(await session({ "api-key": apiKey, ...bearer }));
    expectUnauthorized(await signOut(bearer));
    const row = await test.db.kysely
      .selectFrom("sessions")
      .select(["revoked_at", "revoked_reason"])
      .where("token_hash", "=", hashSecret(body.accessToken))
      .executeTakeFirstOrThrow();
    expect(row.revoked_reason).toBe("signed-out");
  });

  it("answers 401 without a token", async () => {
    expectUnauthorized(await signOut({}));
  });
});

describe("contract wallets on the dev chain", () => {
  it("signs in a deployed ERC-1271 wallet and a counterfactual ERC-6492 one; refuses another owner", async () => {
    await withContractWallets(
      { clock, salt: 9 },
      async ({ app, key, owner, intruder, deployed, counterfactual, wrap }) => {
        const bodyFor = async (address: string, signer = owner) => {
          const fields = {
            address: address.toLowerCase(),
            chainId: 8453,
            nonce: randomUUID(),
            expires: clock.now() + 60_000,
          };
          return {
            ...fields,
            signature: await signer.signMessage({ message: classicSignInMessage(fields) }),
          };
        };
        const postTo = (payload: unknown) =>
          app.app.server.inject({
            method: "POST",
            url: "/classic/auth/sign-in",
            headers: { "api-key": key },
            payload: payload as object,
          });

        const erc1271 = await postTo(await bodyFor(deployed));
        expect(erc1271.statusCode).toBe(200);
        expect(erc1271.json().account.wallets).toEqual([deployed.toLowerCase()]);

        const inner = await bodyFor(counterfactual);
        const erc6492 = await postTo({ ...inner, signature: wrap(inner.signature) });
        expect(erc6492.statusCode).toBe(200);
        expect(erc6492.json().address).toBe(counterfactual.toLowerCase());

        expectUnauthorized(await postTo(await bodyFor(deployed, intruder)));
      },
    );
  });
});

describe("published document", () => {
  it("states API-KEY and bearer, and bearer only, as security requirements", async () => {
    const doc = (await test.app.server.inject({ method: "GET", url: "/openapi/classic.json" })).json();
    expect(doc.components.securitySchemes.ClassicBearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/classic/auth/session"].get.security).toEqual([{ ApiKey: [], ClassicBearer: [] }]);
    expect(doc.paths["/classic/auth/sign-out"].post.security).toEqual([{ ClassicBearer: [] }]);
    expect(doc.paths["/classic/auth/sign-in"].post.security).toEqual([{ ApiKey: [] }]);
    expect(doc.paths["/classic/auth/sign-in"].post.description).toContain(CLASSIC_SIGN_IN_CONSENT);
  });
});

describe("secrets", () => {
  it("never logs an access token", async () => {
    expect(issued.length).toBeGreaterThanOrEqual(8);
    const logs = test.logs.text();
    // The capture saw the requests that carried the tokens.
    expect(logs).toContain("/classic/auth/session");
    for (const token of issued) {
      expect(logs).not.toContain(token);
      expect(logs).not.toContain(token.slice(5));
    }
  });
});
