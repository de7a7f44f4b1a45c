import { createHash } from "node:crypto";
import { PROFILE_LIMITS } from "@mkt/protocol";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { AppError } from "../../errors.ts";
import { lookup, verifyX } from "./test-fixtures.ts";
import { createXConnections, sealVerifier, unsealVerifier, type XConnections } from "./x-connections.ts";
import type { XAccountProvider } from "./x-provider.ts";

let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;

beforeAll(async () => {
  test = await setupApp();
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  alice = await signIn(test, 1, { apiKey });
  bob = await signIn(test, 2, { apiKey });
  carol = await signIn(test, 3, { apiKey });
});
afterAll(() => test.close());

const connect = (who: SignedIn, username?: string) =>
  accountAction(test, who, { kind: "x-connect", ...(username ? { username } : {}) });
const connectionOf = async (who: SignedIn) =>
  test.db.kysely
    .selectFrom("social_connections")
    .innerJoin("account_wallets", "account_wallets.account_id", "social_connections.account_id")
    .select(["username", "verified", "verified_by"])
    .where("account_wallets.address", "=", who.address)
    .executeTakeFirst();
const accountIdOf = async (who: SignedIn) =>
  (
    await test.db.kysely
      .selectFrom("account_wallets")
      .select("account_id")
      .where("address", "=", who.address)
      .executeTakeFirstOrThrow()
  ).account_id;

describe("without an X provider", () => {
  it("records an unverified claim that the lookup never matches", async () => {
    const missing = await connect(alice);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/username is required/);

    const claimed = await connect(alice, "Alice_On_X");
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json().result).toEqual({ mode: "claim", xUsername: "Alice_On_X", xVerified: false });
    expect(await connectionOf(alice)).toEqual({ username: "Alice_On_X", verified: false, verified_by: null });
    expect((await lookup(test, "alice_on_x", apiKey)).statusCode).toBe(404);

    // Anyone may claim a name; only verification is exclusive.
    expect((await connect(bob, "alice_on_x")).statusCode).toBe(200);
    expect((await lookup(test, "alice_on_x", apiKey)).statusCode).toBe(404);
  });

  it("has no OAuth callback (404)", async () => {
    const response = await test.app.server.inject({
      method: "GET",
      url: `/market/account/social/x/callback?code=abc&state=${"s".repeat(43)}`,
      headers: alice.headers,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatch(/not configured/);
  });

  it("lets only the operator verify, once per X username", async () => {
    const verified = await verifyX(test, {
      address: alice.address.toUpperCase().replace("0X", "0x"),
      username: "Alice_On_X",
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      xUsername: "Alice_On_X",
      xVerified: true,
      verifiedBy: "operator",
    });
    expect(await connectionOf(alice)).toEqual({
      username: "Alice_On_X",
      verified: true,
      verified_by: "operator",
    });
    const found = await lookup(test, "ALICE_ON_X", apiKey);
    expect(found.statusCode).toBe(200);
    expect(found.json().profile).toMatchObject({
      address: alice.address,
      xUsername: "Alice_On_X",
      xVerified: true,
    });

    // Bob claimed the same name; it cannot also be verified for him.
    const second = await verifyX(test, { address: bob.address, username: "ALICE_on_x" });
    expect(second.statusCode).toBe(409);
    expect(await connectionOf(bob)).toMatchObject({ verified: false });

    // Claiming again: the same name keeps the verification; another name needs a disconnect first.
    expect((await connect(alice, "alice_on_x")).json().result).toEqual({
      mode: "claim",
      xUsername: "Alice_On_X",
      xVerified: true,
    });
    expect((await connect(alice, "someone_else")).statusCode).toBe(409);
    expect((await accountAction(test, alice, { kind: "x-disconnect" })).json().result).toEqual({
      disconnected: true,
    });
    expect((await accountAction(test, alice, { kind: "x-disconnect" })).json().result).toEqual({
      disconnected: false,
    });
    expect((await lookup(test, "alice_on_x", apiKey)).statusCode).toBe(404);
    // Freed: now the operator can verify it for Bob.
    expect((await verifyX(test, { address: bob.address, username: "alice_on_x" })).statusCode).toBe(200);
  });

  it("refuses operator verification without the token, of unknown wallets and of bad bodies", async () => {
    expect(
      (await verifyX(test, { address: carol.address, username: "carol" }, "not-the-token-at-all")).statusCode,
    ).toBe(401);
    expect((await verifyX(test, { address: `0x${"ab".repeat(20)}`, username: "nobody" })).statusCode).toBe(
      404,
    );
    expect((await verifyX(test, { address: carol.address, username: "bad-name" })).statusCode).toBe(400);
    expect((await verifyX(test, { address: "carol", username: "carol" })).statusCode).toBe(400);
    expect(await connectionOf(carol)).toBeUndefined();
  });

  it("never marks a connection verified from the account side", async () => {
    const tries = [
      { kind: "x-connect", username: "carol_x", verified: true },
      { kind: "x-connect", username: "carol_x", xVerified: true },
      { kind: "profile-update", xVerified: true },
    ];
    for (const body of tries) expect((await accountAction(test, carol, body)).statusCode).toBe(400);
    await connect(carol, "carol_x");
    await test.app.services.runJobs();
    expect(await connectionOf(carol)).toMatchObject({ verified: false });
  });
});

/** A stand-in for X that records what it was asked and answers as told. */
function fakeProvider(account = { username: "Real_X", avatarUrl: "https://pbs.twimg.com/a.jpg" }) {
  const calls: { code: string; verifier: string }[] = [];
  const provider: XAccountProvider & { calls: typeof calls; account: typeof account } = {
    calls,
    account,
    authorizeUrl: (state, challenge) => `https://x.test/authorize?state=${state}&challenge=${challenge}`,
    async complete(code, verifier) {
      calls.push({ code, verifier });
      if (code === "refused") throw new AppError("bad_request", "X refused the authorization code");
      return provider.account;
    },
  };
  return provider;
}

describe("with an X provider (injected)", () => {
  const start = async (connections: XConnections, who: SignedIn) => {
    const started = await connections.connect(await accountIdOf(who), undefined);
    if (started.mode !== "oauth") throw new Error("expected the OAuth mode");
    const url = new URL(started.authorizeUrl);
    return {
      ...started,
      state: url.searchParams.get("state")!,
      challenge: url.searchParams.get("challenge")!,
    };
  };
  const setup = (clock = createManualClock(Date.now())) => {
    const provider = fakeProvider();
    const connections = createXConnections({
      db: test.db,
      clock,
      logger: pino({ level: "silent" }),
      provider,
    });
    return { provider, connections, clock };
  };

  it("verifies through the provider with the PKCE verifier matching the challenge", async () => {
    const { provider, connections } = setup();
    const dave = await signIn(test, 4, { apiKey });
    const started = await start(connections, dave);
    expect(started.state).toMatch(/^[\w-]{43}$/);
    // Pending: nothing verified, only the state's hash stored.
    const row = await test.db.kysely
      .selectFrom("social_connections")
      .selectAll()
      .where("account_id", "=", await accountIdOf(dave))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ verified: false, username: "" });
    expect(row.state_hash).toBe(createHash("sha256").update(started.state).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(started.state);

    const done = await connections.complete(await accountIdOf(dave), started.state, { code: "good-code" });
    expect(done).toEqual({ xUsername: "Real_X", xAvatarUrl: "https://pbs.twimg.com/a.jpg", xVerified: true });
    const verifier = provider.calls[0]!.verifier;
    expect(provider.calls[0]!.code).toBe("good-code");
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(started.challenge);
    expect(await connectionOf(dave)).toEqual({ username: "Real_X", verified: true, verified_by: "oauth" });
    const profile = (await lookup(test, "real_x", apiKey)).json().profile;
    expect(profile).toMatchObject({
      xUsername: "Real_X",
      xAvatarUrl: "https://pbs.twimg.com/a.jpg",
      xVerified: true,
    });

    // The state is single-use.
    const reused = connections.complete(await accountIdOf(dave), started.state, { code: "good-code" });
    await expect(reused).rejects.toMatchObject({ kind: "bad_request" });
    expect(provider.calls).toHaveLength(1);
  });

  it("refuses a state presented by another account, an expired state and a declined consent", async () => {
    const { provider, connections, clock } = setup();
    const erin = await signIn(test, 5, { apiKey });
    const hijack = await start(connections, erin);
    const byOther = connections.complete(await accountIdOf(carol), hijack.state, { code: "c" });
    await expect(byOther).rejects.toMatchObject({ kind: "forbidden" });
    // The attempt burnt the state: Erin must start again.
    await expect(
      connections.complete(await accountIdOf(erin), hijack.state, { code: "c" }),
    ).rejects.toMatchObject({
      kind: "bad_request",
    });

    const late = await start(connections, erin);
    clock.advance(PROFILE_LIMITS.oauthStateMs);
    await expect(connections.complete(await accountIdOf(erin), late.state, { code: "c" })).rejects.toThrow(
      /expired/,
    );

    const declined = await start(connections, erin);
    await expect(
      connections.complete(await accountIdOf(erin), declined.state, { error: "access_denied" }),
    ).rejects.toThrow(/access_denied/);
    const refused = await start(connections, erin);
    await expect(
      connections.complete(await accountIdOf(erin), refused.state, { code: "refused" }),
    ).rejects.toThrow(/refused/);
    expect(provider.calls.map((call) => call.code)).toEqual(["refused"]);
    expect(await connectionOf(erin)).toMatchObject({ verified: false });
  });

  it("keeps a verified connection while a new authorization is pending, and refuses a name verified elsewhere", async () => {
    const { provider, connections } = setup();
    // Bob holds alice_on_x verified (operator, above); a second account proving the same X account is refused.
    const frank = await signIn(test, 6, { apiKey });
    provider.account = { username: "Frank_X", avatarUrl: "" };
    const first = await start(connections, frank);
    await connections.complete(await accountIdOf(frank), first.state, { code: "ok" });
    const pending = await start(connections, frank);
    expect(await connectionOf(frank)).toEqual({ username: "Frank_X", verified: true, verified_by: "oauth" });
    provider.account = { username: "ALICE_ON_X", avatarUrl: "" };
    await expect(
      connections.complete(await accountIdOf(frank), pending.state, { code: "ok" }),
    ).rejects.toMatchObject({
      kind: "conflict",
    });
    expect(await connectionOf(frank)).toEqual({ username: "Frank_X", verified: true, verified_by: "oauth" });
  });

  it("seals the verifier so that only the state opens it", () => {
    const sealed = sealVerifier("the-verifier", "state-one");
    expect(sealed).not.toContain("the-verifier");
    expect(unsealVerifier(sealed, "state-one")).toBe("the-verifier");
    expect(() => unsealVerifier(sealed, "state-two")).toThrow();
  });
});
