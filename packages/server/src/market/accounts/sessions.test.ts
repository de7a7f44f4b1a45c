import { randomUUID } from "node:crypto";
import { ACCOUNT_ACTION_KINDS, SIGN_IN_CONSENT, signInMessage } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  accountAction,
  type Envelope,
  signDeletion,
  signEnvelope,
  signIn,
  TEST_ORIGIN,
  testWallet,
} from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { withContractWallets } from "../../_test/contract-wallets.ts";
import { setupDatabase } from "../../_test/database.ts";
import { hashSecret } from "../../keys/secrets.ts";

const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;
beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

const post = (envelope: Partial<Envelope>, headers: Record<string, string> = {}) =>
  test.app.server.inject({
    method: "POST",
    url: "/market/account/session",
    headers: { "api-key": apiKey, origin: TEST_ORIGIN, ...headers },
    payload: envelope,
  });
const sign = (
  index: number,
  options: Parameters<typeof signEnvelope>[1] extends infer O ? Partial<O> : never = {},
) => signEnvelope(testWallet(index), { now: clock.now(), ...options });
const get = (url: string, headers: Record<string, string>) =>
  test.app.server.inject({ method: "GET", url, headers });

describe("sign-in rules", () => {
  it("signs an EOA in: token shown once, stored only hashed, valid for 30 days", async () => {
    const envelope = await sign(3);
    const response = await post(envelope);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { address: string; token: string; expiresAt: number };
    expect(body.address).toBe(testWallet(3).address.toLowerCase());
    expect(body.token).toMatch(/^mkts_[A-Za-z0-9_-]{43}$/);
    expect(body.expiresAt).toBe(clock.now() + 30 * 24 * 3_600_000);
    expect(response.headers["cache-control"]).toBe("no-store");

    const rows = await test.db.kysely.selectFrom("sessions").selectAll().execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(body.token);
    expect(rows.some((row) => row.token_hash === hashSecret(body.token))).toBe(true);
    expect(stored).not.toContain(envelope.signature.slice(2, 40));
  });

  it("refuses an origin outside ALLOWED_ORIGINS, a docs site included, even when signed for it", async () => {
    for (const origin of ["https://evil.example", "https://docs.mkt.example"]) {
      const response = await post(await sign(3, { origin }), { origin });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatch(/may not sign in/);
    }
  });

  it("refuses a request whose Origin is not the signed origin, and a missing Origin", async () => {
    const envelope = await sign(3, { origin: "http://127.0.0.1:8080" });
    const mismatch = await post(envelope, { origin: TEST_ORIGIN });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().error).toMatch(/does not equal the origin in the signed message/);
    const missing = await test.app.server.inject({
      method: "POST",
      url: "/market/account/session",
      headers: { "api-key": apiKey },
      payload: await sign(3),
    });
    expect(missing.statusCode).toBe(403);
  });

  it("refuses a reused nonce", async () => {
    const nonce = randomUUID();
    expect((await post(await sign(4, { nonce }))).statusCode).toBe(200);
    const again = await post(await sign(4, { nonce }));
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toMatch(/nonce was already used/);
  });

  it("opens an account for a new wallet, finds it on every later sign-in, and writes nothing for a reused nonce", async () => {
    const wallet = testWallet(7).address.toLowerCase();
    const nonce = randomUUID();
    const first = (await post(await sign(7, { nonce }))).json() as { token: string };
    const second = (await post(await sign(7))).json() as { token: string };
    const reused = await post(await sign(7, { nonce }));
    expect(reused.statusCode).toBe(401);
    const accounts = await test.db.kysely
      .selectFrom("account_wallets")
      .innerJoin("accounts", "accounts.id", "account_wallets.account_id")
      .select(["accounts.id", "accounts.primary_address"])
      .where("account_wallets.address", "=", wallet)
      .execute();
    expect(accounts).toEqual([{ id: expect.stringMatching(/^acct_/), primary_address: wallet }]);
    const sessions = await test.db.kysely
      .selectFrom("sessions")
      .select(["token_hash", "account_id", "wallet", "origin", "kind"])
      .where("wallet", "=", wallet)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(new Set(sessions.map((row) => row.token_hash))).toEqual(
      new Set([hashSecret(first.token), hashSecret(second.token)]),
    );
    for (const row of sessions)
      expect(row).toMatchObject({ account_id: accounts[0]!.id, origin: TEST_ORIGIN, kind: "account" });
    const spent = await test.db.kysely
      .selectFrom("used_nonces")
      .select(["purpose"])
      .where("nonce", "=", nonce)
      .execute();
    expect(spent).toEqual([{ purpose: "sign-in" }]);
  });

  it("consumes a nonce only after the signature verifies: nobody can burn another wallet's nonce", async () => {
    const nonce = randomUUID();
    const victim = await sign(5, { nonce });
    const forged = { ...victim, signature: (await sign(6, { nonce })).signature };
    expect((await post(forged)).statusCode).toBe(401);
    expect((await post(victim)).statusCode).toBe(200);
  });

  it("refuses a nonce that is not a UUID v4", async () => {
    for (const nonce of ["not-a-uuid", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "123"]) {
      const response = await post(await sign(3, { nonce }));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/UUID v4/);
    }
  });

  it("refuses an expired message and one more than five minutes ahead", async () => {
    const expired = await post(await sign(3, { expires: clock.now() - 1 }));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toMatch(/expired/);
    const now = await post(await sign(3, { expires: clock.now() }));
    expect(now.statusCode).toBe(401);
    const far = await post(await sign(3, { expires: clock.now() + 5 * 60_000 + 1 }));
    expect(far.statusCode).toBe(400);
    expect(far.json().error).toMatch(/five minutes/);
    expect((await post(await sign(3, { expires: clock.now() + 5 * 60_000 }))).statusCode).toBe(200);
  });

  it("refuses a signature by another wallet, and one over another message", async () => {
    const envelope = await sign(3);
    const other = await testWallet(7).signMessage({ message: signInMessage(envelope) });
    expect((await post({ ...envelope, signature: other })).statusCode).toBe(401);
    const tampered = await post({ ...envelope, expires: envelope.expires - 1 });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().error).toMatch(/not valid for this wallet/);
  });

  it("validates the body in the market error shape", async () => {
    const response = await post({ address: "0x123", origin: TEST_ORIGIN });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(["error"]);
    expect((await post({ ...(await sign(3)), extra: 1 } as Partial<Envelope>)).statusCode).toBe(400);
  });

  it("needs the API key in addition to the signature", async () => {
    const response = await test.app.server.inject({
      method: "POST",
      url: "/market/account/session",
      headers: { origin: TEST_ORIGIN },
      payload: await sign(3),
    });
    expect(response.statusCode).toBe(401);
  });
});

describe("session binding", () => {
  it("needs Origin equal to the signed origin and X-MKT-Wallet equal to the session's wallet", async () => {
    const alice = await signIn(test, 8, { apiKey, now: clock.now() });
    expect((await get("/market/account/session", alice.headers)).statusCode).toBe(200);
    const wrongOrigin = await get("/market/account/session", {
      ...alice.headers,
      origin: "http://127.0.0.1:8080",
    });
    expect(wrongOrigin.statusCode).toBe(401);
    expect(wrongOrigin.json().error).toMatch(/Origin/);
    const { origin: _origin, ...noOrigin } = alice.headers;
    expect((await get("/market/account/session", noOrigin)).statusCode).toBe(401);
    const { "x-mkt-wallet": _wallet, ...noWallet } = alice.headers;
    expect((await get("/market/account/session", noWallet)).statusCode).toBe(401);
    const mismatched = await get("/market/account/session", {
      ...alice.headers,
      "x-mkt-wallet": testWallet(9).address,
    });
    expect(mismatched.statusCode).toBe(401);
    expect(mismatched.json().error).toMatch(/wallet switch/);
    // The wallet header is compared case-insensitively (checksummed addresses are fine).
    expect(
      (await get("/market/account/session", { ...alice.headers, "x-mkt-wallet": testWallet(8).address }))
        .statusCode,
    ).toBe(200);
  });

  it("after a wallet switch the old session cannot act as the new wallet; the new wallet signs in anew", async () => {
    const alice = await signIn(test, 10, { apiKey, now: clock.now() });
    const bob = await signIn(test, 11, { apiKey, now: clock.now() });
    const switched = await accountAction(
      test,
      { ...alice, headers: { ...alice.headers, "x-mkt-wallet": bob.address } },
      { kind: "wishlist-list" },
    );
    expect(switched.statusCode).toBe(401);
    const asBob = await get("/market/account/session", bob.headers);
    expect(asBob.json()).toMatchObject({ address: bob.address });
    // Bob's token with Alice's wallet header is refused too.
    expect(
      (await get("/market/account/session", { ...bob.headers, "x-mkt-wallet": alice.address })).statusCode,
    ).toBe(401);
  });

  it("never reads a token from the URL", async () => {
    const alice = await signIn(test, 12, { apiKey, now: clock.now() });
    const { authorization: _authorization, ...rest } = alice.headers;
    const response = await get(
      `/market/account/session?token=${alice.token}&access_token=${alice.token}`,
      rest,
    );
    expect(response.statusCode).toBe(401);
  });

  it("expires after 30 days and is revocable", async () => {
    const local = createManualClock(clock.now());
    const other = await setupApp({ clock: local });
    try {
      const key = (await other.createKey({ multiplier: 100 })).key;
      const alice = await signIn(other, 3, { apiKey: key, now: local.now() });
      const bob = await signIn(other, 4, { apiKey: key, now: local.now() });
      const state = (who: typeof alice) =>
        other.app.server.inject({ method: "GET", url: "/market/account/session", headers: who.headers });
      const signOut = await other.app.server.inject({
        method: "DELETE",
        url: "/market/account/session",
        headers: bob.headers,
      });
      expect(signOut.statusCode).toBe(204);
      expect((await state(bob)).statusCode).toBe(401);
      expect((await state(alice)).statusCode).toBe(200);

      local.advance(30 * 24 * 3_600_000 - 1);
      expect((await state(alice)).statusCode).toBe(200);
      local.advance(1);
      expect((await state(alice)).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe("session kinds", () => {
  it("a chat session authorizes only chat routes; an account session is not a chat session", async () => {
    const alice = await signIn(test, 13, { apiKey, now: clock.now() });
    const opened = await test.app.server.inject({
      method: "POST",
      url: "/market/chat/session",
      headers: alice.headers,
    });
    expect(opened.statusCode).toBe(200);
    const chat = opened.json() as { token: string; expiresAt: number };
    expect(chat.token).toMatch(/^mktc_/);
    expect(chat.expiresAt).toBe(clock.now() + 24 * 3_600_000);
    const chatHeaders = { ...alice.headers, authorization: `Bearer ${chat.token}` };
    expect((await get("/market/chat/session", chatHeaders)).statusCode).toBe(200);

    const onAccount = await get("/market/account/session", chatHeaders);
    expect(onAccount.statusCode).toBe(403);
    expect(onAccount.json().error).toMatch(/chat session/);
    const action = await accountAction(test, { ...alice, headers: chatHeaders }, { kind: "wishlist-list" });
    expect(action.statusCode).toBe(403);
    expect((await get("/market/chat/session", alice.headers)).statusCode).toBe(403);

    // Signing the account session out ends the chat sessions it issued.
    await test.app.server.inject({
      method: "DELETE",
      url: "/market/account/session",
      headers: alice.headers,
    });
    expect((await get("/market/chat/session", chatHeaders)).statusCode).toBe(401);
  });

  it("an access session lives in X-MKT-Session; account and chat tokens cannot act as one", async () => {
    const code = "invite-code-for-tests-0001";
    await test.db.kysely
      .insertInto("invites")
      .values({ id: "inv_test1", code_hash: hashSecret(code), created_by: null, max_uses: 1 })
      .execute();
    const opened = await test.app.server.inject({
      method: "POST",
      url: "/market/access/session",
      headers: { "api-key": apiKey },
      payload: { code },
    });
    expect(opened.statusCode).toBe(200);
    const access = opened.json() as { token: string; invitedBy: string | null };
    expect(access.token).toMatch(/^mkta_/);
    expect(access.invitedBy).toBeNull();
    const used = await test.app.server.inject({
      method: "POST",
      url: "/market/access/session",
      headers: { "api-key": apiKey },
      payload: { code },
    });
    expect(used.statusCode).toBe(403);

    expect(
      (await get("/market/access/session", { "api-key": apiKey, "x-mkt-session": access.token })).statusCode,
    ).toBe(200);
    const alice = await signIn(test, 14, { apiKey, now: clock.now() });
    const accountAsAccess = await get("/market/access/session", {
      "api-key": apiKey,
      "x-mkt-session": alice.token,
    });
    expect(accountAsAccess.statusCode).toBe(403);
    expect(accountAsAccess.json().error).toMatch(/account session cannot act as an access session/);
    const accessAsAccount = await get("/market/account/session", {
      ...alice.headers,
      authorization: `Bearer ${access.token}`,
    });
    expect(accessAsAccount.statusCode).toBe(403);
    const accessInWrongHeader = await get("/market/account/session", {
      "api-key": apiKey,
      origin: TEST_ORIGIN,
      "x-mkt-wallet": alice.address,
      "x-mkt-session": alice.token,
    });
    expect(accessInWrongHeader.statusCode).toBe(401);
  });
});

describe("wallets of an account", () => {
  it("links a second wallet by its own signature; a session still acts only as its own wallet", async () => {
    const alice = await signIn(test, 15, { apiKey, now: clock.now() });
    const proof = await sign(16);
    const linked = await accountAction(test, alice, { kind: "wallet-link", proof });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().result).toMatchObject({ address: proof.address, linked: true });
    // The proof's nonce is spent.
    expect((await post(proof)).statusCode).toBe(401);

    const second = await signIn(test, 16, { apiKey, now: clock.now() });
    const state = (await get("/market/account/session", second.headers)).json();
    const first = (await get("/market/account/session", alice.headers)).json();
    expect(state.accountId).toBe(first.accountId);
    expect(state.address).toBe(second.address);
    expect(state.wallets).toEqual([alice.address, second.address]);

    const unlinked = await accountAction(test, alice, { kind: "wallet-unlink", address: second.address });
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json().result.sessionsRevoked).toBe(1);
    expect((await get("/market/account/session", second.headers)).statusCode).toBe(401);
    expect(
      (await accountAction(test, alice, { kind: "wallet-unlink", address: alice.address })).statusCode,
    ).toBe(409);
  });

  it("refuses a link proof signed for another origin or by another wallet", async () => {
    const alice = await signIn(test, 17, { apiKey, now: clock.now() });
    const foreign = await sign(18, { origin: "http://127.0.0.1:8080" });
    expect((await accountAction(test, alice, { kind: "wallet-link", proof: foreign })).statusCode).toBe(403);
    const proof = await sign(18);
    const forged = { ...proof, signature: (await sign(19, { nonce: proof.nonce })).signature };
    expect((await accountAction(test, alice, { kind: "wallet-link", proof: forged })).statusCode).toBe(401);
  });
});

describe("account deletion", () => {
  it("needs a fresh deletion signature: a sign-in signature is refused", async () => {
    const alice = await signIn(test, 20 - 1, { apiKey, now: clock.now() });
    const signInSignature = await sign(19);
    const response = await test.app.server.inject({
      method: "POST",
      url: "/market/account/delete",
      headers: alice.headers,
      payload: signInSignature,
    });
    expect(response.statusCode).toBe(401);
    expect((await get("/market/account/session", alice.headers)).statusCode).toBe(200);
  });

  it("refuses a deletion signed by another wallet than the session's", async () => {
    const alice = await signIn(test, 1, { apiKey, now: clock.now() });
    const response = await test.app.server.inject({
      method: "POST",
      url: "/market/account/delete",
      headers: alice.headers,
      payload: await signDeletion(testWallet(2), { now: clock.now() }),
    });
    expect(response.statusCode).toBe(403);
  });

  it("deletes the account, signs out every device, keeps only minimal records, and a deleted session is never reused", async () => {
    const phone = await signIn(test, 2, { apiKey, now: clock.now() });
    const laptop = await signIn(test, 2, { apiKey, now: clock.now() });
    const accountId = (await get("/market/account/session", phone.headers)).json().accountId as string;
    const deletion = await signDeletion(testWallet(2), { now: clock.now() });
    const response = await test.app.server.inject({
      method: "POST",
      url: "/market/account/delete",
      headers: phone.headers,
      payload: deletion,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted: true, accountId, sessionsRevoked: 2 });

    for (const device of [phone, laptop]) {
      expect((await get("/market/account/session", device.headers)).statusCode).toBe(401);
      expect((await accountAction(test, device, { kind: "wishlist-list" })).statusCode).toBe(401);
    }
    expect(
      await test.db.kysely.selectFrom("accounts").where("id", "=", accountId).selectAll().execute(),
    ).toEqual([]);
    expect(
      await test.db.kysely
        .selectFrom("account_wallets")
        .where("address", "=", phone.address)
        .selectAll()
        .execute(),
    ).toEqual([]);
    const revoked = await test.db.kysely
      .selectFrom("sessions")
      .selectAll()
      .where("token_hash", "in", [hashSecret(phone.token), hashSecret(laptop.token)])
      .execute();
    expect(revoked).toHaveLength(2);
    for (const row of revoked) {
      expect(row).toMatchObject({
        revoked_reason: "account-deleted",
        wallet: null,
        origin: null,
        account_id: null,
      });
    }
    const audit = await test.db.kysely.selectFrom("account_deletions").selectAll().execute();
    expect(audit.find((row) => row.account_id === accountId)?.sessions_revoked).toBe(2);
    expect(JSON.stringify(audit)).not.toContain(phone.address);

    // The deletion signature cannot be replayed, and the wallet can start a new, empty account.
    const again = await signIn(test, 2, { apiKey, now: clock.now() });
    const state = (await get("/market/account/session", again.headers)).json();
    expect(state.accountId).not.toBe(accountId);
  });
});

describe("first-party website proxy (/app/api)", () => {
  const proxyPost = (url: string, headers: Record<string, string>, payload?: unknown) =>
    test.app.server.inject({
      method: "POST",
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  it("signs in with a cookie, not a token, needs no API key from the page, and validates Origin itself", async () => {
    const envelope = await sign(5);
    const response = await proxyPost("/app/api/account/session", { origin: TEST_ORIGIN }, envelope);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      address: envelope.address,
      expiresAt: clock.now() + 30 * 24 * 3_600_000,
    });
    const cookie = String(response.headers["set-cookie"]);
    expect(cookie).toMatch(/^mkt-session=mkts_[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain("Path=/app/api");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Secure"); // PUBLIC_URL is https in tests
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    const token = cookie.slice("mkt-session=".length, cookie.indexOf(";"));
    expect(response.body).not.toContain(token);

    const wallet = { "x-mkt-wallet": envelope.address, cookie: `mkt-session=${token}` };
    const sameOrigin = await get("/app/api/account/session", { ...wallet, "sec-fetch-site": "same-origin" });
    expect(sameOrigin.statusCode).toBe(200);
    expect((await get("/app/api/account/session", { ...wallet, origin: TEST_ORIGIN })).statusCode).toBe(200);
    // Another site, a cross-site read, a write without Origin: refused before anything else.
    expect(
      (await get("/app/api/account/session", { ...wallet, origin: "https://evil.example" })).statusCode,
    ).toBe(403);
    expect(
      (await get("/app/api/account/session", { ...wallet, "sec-fetch-site": "cross-site" })).statusCode,
    ).toBe(403);
    expect((await get("/app/api/account/session", wallet)).statusCode).toBe(403);
    const noOriginWrite = await proxyPost("/app/api/account", wallet, { kind: "wishlist-list" });
    expect(noOriginWrite.statusCode).toBe(403);
    // The bearer token is not a proxy credential; the cookie is not a direct-API credential.
    expect(
      (
        await get("/app/api/account/session", {
          origin: TEST_ORIGIN,
          "x-mkt-wallet": envelope.address,
          authorization: `Bearer ${token}`,
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await get("/market/account/session", {
          "api-key": apiKey,
          origin: TEST_ORIGIN,
          "x-mkt-wallet": envelope.address,
          cookie: `mkt-session=${token}`,
        })
      ).statusCode,
    ).toBe(401);

    const signOut = await test.app.server.inject({
      method: "DELETE",
      url: "/app/api/account/session",
      headers: { ...wallet, origin: TEST_ORIGIN },
    });
    expect(signOut.statusCode).toBe(204);
    expect(String(signOut.headers["set-cookie"])).toMatch(
      /^mkt-session=; Path=\/app\/api; Max-Age=0; HttpOnly; SameSite=Strict/,
    );
    expect((await get("/app/api/account/session", { ...wallet, origin: TEST_ORIGIN })).statusCode).toBe(401);
  });

  it("answers CORS for the first-party origins only, and never offers the API-key check", async () => {
    const preflight = await test.app.server.inject({
      method: "OPTIONS",
      url: "/app/api/account/session",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    const own = await test.app.server.inject({
      method: "OPTIONS",
      url: "/app/api/account/session",
      headers: { origin: TEST_ORIGIN, "access-control-request-method": "POST" },
    });
    expect(own.headers["access-control-allow-origin"]).toBe(TEST_ORIGIN);
    expect(own.headers["access-control-allow-credentials"]).toBe("true");
    expect((await get("/app/api/api-key?bucket=read", { origin: TEST_ORIGIN })).statusCode).toBe(404);
  });

  it("budgets anonymous proxy traffic per client at 30 reads a minute, well below a key's 100", async () => {
    const read = (ip: string) =>
      test.app.server.inject({
        method: "GET",
        url: "/app/api/runtime",
        headers: { origin: TEST_ORIGIN },
        remoteAddress: ip,
      });
    let last = await read("10.7.0.1");
    expect(last.headers["ratelimit-limit"]).toBe("30");
    for (let i = 1; i < 30; i++) last = await read("10.7.0.1");
    expect(last.statusCode).toBe(200);
    expect(last.headers["ratelimit-remaining"]).toBe("0");
    const refused = await read("10.7.0.1");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect((await read("10.7.0.2")).statusCode).toBe(200);
  });

  it("budgets signed-in proxy traffic per account, at the market's rates, wherever it comes from", async () => {
    const envelope = await sign(9);
    const signedIn = await test.app.server.inject({
      method: "POST",
      url: "/app/api/account/session",
      headers: { origin: TEST_ORIGIN },
      payload: envelope,
      remoteAddress: "10.7.1.1",
    });
    expect(signedIn.statusCode).toBe(200);
    const cookie = String(signedIn.headers["set-cookie"]).split(";")[0] ?? "";
    const state = (ip: string) =>
      test.app.server.inject({
        method: "GET",
        url: "/app/api/account/session",
        headers: { origin: TEST_ORIGIN, cookie, "x-mkt-wallet": envelope.address },
        remoteAddress: ip,
      });
    const first = await state("10.7.1.1");
    expect(first.statusCode).toBe(200);
    expect(first.headers["ratelimit-limit"]).toBe("100");
    expect(first.headers["ratelimit-remaining"]).toBe("99");
    // Another address, the same account: one budget.
    expect((await state("10.7.1.2")).headers["ratelimit-remaining"]).toBe("98");
  });

  it("counts refused session cookies as failed attempts of the client, then refuses it", async () => {
    const forged = (ip: string) =>
      test.app.server.inject({
        method: "GET",
        url: "/app/api/account/session",
        headers: { origin: TEST_ORIGIN, cookie: `mkt-session=mkts_${"F".repeat(43)}`, "x-mkt-wallet": "0x1" },
        remoteAddress: ip,
      });
    for (let i = 0; i < 20; i++) expect((await forged("10.7.2.1")).statusCode).toBe(401);
    const locked = await forged("10.7.2.1");
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: "too many failed sign-in attempts from this client" });
    expect((await forged("10.7.2.2")).statusCode).toBe(401);
  });

  it("does not serve key-only reads such as the X profile lookup", async () => {
    const response = await get("/app/api/support/identity/profiles/x/someone", { origin: TEST_ORIGIN });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: "no route GET /app/api/support/identity/profiles/x/someone" });
  });

  it("sets no Secure flag when PUBLIC_URL is plain http", async () => {
    const plain = await setupApp({ clock, env: { PUBLIC_URL: "http://127.0.0.1:8080" } });
    try {
      const response = await plain.app.server.inject({
        method: "POST",
        url: "/app/api/account/session",
        headers: { origin: TEST_ORIGIN },
        payload: await sign(6),
      });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers["set-cookie"])).not.toContain("Secure");
    } finally {
      await plain.close();
    }
  });
});

describe("secrets stay out of logs", () => {
  it("never logs tokens, cookies or signatures", async () => {
    const envelope = await sign(7);
    const response = await post(envelope);
    const { token } = response.json() as { token: string };
    await get("/market/account/session", {
      "api-key": apiKey,
      authorization: `Bearer ${token}`,
      origin: TEST_ORIGIN,
      "x-mkt-wallet": "0x0",
    });
    await proxyLogin();
    const logs = test.logs.text();
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(envelope.signature.slice(2));
    expect(logs).not.toMatch(/mkt[sca]_[A-Za-z0-9_-]{43}/);
  });
  async function proxyLogin() {
    await test.app.server.inject({
      method: "POST",
      url: "/app/api/account/session",
      headers: { origin: TEST_ORIGIN },
      payload: await sign(8),
    });
  }
});

describe("contract wallets on the dev chain", () => {
  it("signs in a deployed ERC-1271 wallet and a counterfactual ERC-6492 one; refuses another owner", async () => {
    await withContractWallets(
      { clock, salt: 7 },
      async ({ app, key, owner, intruder, deployed, counterfactual, wrap }) => {
        const envelopeFor = async (address: string, signer = owner) => {
          const fields = {
            origin: TEST_ORIGIN,
            address: address.toLowerCase(),
            nonce: randomUUID(),
            expires: clock.now() + 60_000,
          };
          return { ...fields, signature: await signer.signMessage({ message: signInMessage(fields) }) };
        };
        const postTo = (payload: unknown) =>
          app.app.server.inject({
            method: "POST",
            url: "/market/account/session",
            headers: { "api-key": key, origin: TEST_ORIGIN },
            payload: payload as object,
          });

        const erc1271 = await postTo(await envelopeFor(deployed));
        expect(erc1271.statusCode).toBe(200);
        expect(erc1271.json().address).toBe(deployed.toLowerCase());

        const inner = await envelopeFor(counterfactual);
        const erc6492 = await postTo({ ...inner, signature: wrap(inner.signature) });
        expect(erc6492.statusCode).toBe(200);
        expect(erc6492.json().address).toBe(counterfactual.toLowerCase());

        expect((await postTo(await envelopeFor(deployed, intruder))).statusCode).toBe(401);
        const unwrapped = await envelopeFor(counterfactual);
        expect((await postTo(unwrapped)).statusCode).toBe(401);
      },
    );
  });
});

describe("published documents", () => {
  it("document every session route and the whole action allowlist in the market OpenAPI", async () => {
    const doc = (await test.app.server.inject({ method: "GET", url: "/openapi/market.json" })).json();
    expect(Object.keys(doc.paths["/market/account/session"]).sort()).toEqual(["delete", "get", "post"]);
    for (const path of [
      "/market/account",
      "/market/account/delete",
      "/market/chat/session",
      "/market/access/session",
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const body = JSON.stringify(doc.paths["/market/account"].post.requestBody);
    for (const kind of ACCOUNT_ACTION_KINDS)
      expect(body + JSON.stringify(doc.components ?? {})).toContain(`"${kind}"`);
    expect(doc.paths["/market/account/session"].post.description).toContain(SIGN_IN_CONSENT);
  });
});

describe("session cache across replicas", () => {
  it("a sign-out or deletion on one replica reaches a replica that cached the session within a second", async () => {
    const database = await setupDatabase();
    const a = await setupApp({ database });
    const b = await setupApp({ database });
    try {
      const key = (await a.createKey({ multiplier: 100 })).key;
      const alice = await signIn(a, 3, { apiKey: key });
      const bob = await signIn(a, 4, { apiKey: key });
      const onB = (who: typeof alice) =>
        b.app.server.inject({ method: "GET", url: "/market/account/session", headers: who.headers });
      expect((await onB(alice)).statusCode).toBe(200);
      expect((await onB(bob)).statusCode).toBe(200);

      expect(
        (
          await a.app.server.inject({
            method: "DELETE",
            url: "/market/account/session",
            headers: alice.headers,
          })
        ).statusCode,
      ).toBe(204);
      await vi.waitFor(async () => expect((await onB(alice)).statusCode).toBe(401), {
        timeout: 1_000,
        interval: 20,
      });

      const deletion = await signDeletion(testWallet(4), { now: Date.now() });
      expect(
        (
          await a.app.server.inject({
            method: "POST",
            url: "/market/account/delete",
            headers: bob.headers,
            payload: deletion,
          })
        ).statusCode,
      ).toBe(200);
      await vi.waitFor(async () => expect((await onB(bob)).statusCode).toBe(401), {
        timeout: 1_000,
        interval: 20,
      });
    } finally {
      await a.close();
      await b.close();
      await database.close();
    }
  });
});
