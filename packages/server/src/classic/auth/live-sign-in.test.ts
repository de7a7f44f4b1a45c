import { randomUUID } from "node:crypto";
import {
  CLASSIC_ACCESS_TOKEN_LIFETIME_MS,
  CLASSIC_LIVE_CHALLENGE_LIFETIME_MS,
  classicLiveSignInMessage,
  classicSignInMessage,
} from "@mkt/protocol";
import { sql } from "kysely";
import { type Address, type LocalAccount, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { withContractWallets } from "../../_test/contract-wallets.ts";

const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;
/** Every access token and signature sent or issued in this file: none may reach a log line. */
const secrets: string[] = [];

beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

const wallet = () => privateKeyToAccount(generatePrivateKey());

interface Challenge {
  success: true;
  message: string;
  nonce: string;
  expiresAt: string;
  address: string;
  chainId: number;
}

const getMessage = (address: string, headers: Record<string, string> = { "api-key": apiKey }) =>
  test.app.server.inject({ method: "GET", url: `/classic/auth/message/${address}`, headers });

async function challengeFor(account: { address: Address }): Promise<Challenge> {
  const response = await getMessage(account.address);
  expect(response.statusCode).toBe(200);
  return response.json() as Challenge;
}

const verify = (body: unknown, headers: Record<string, string> = { "api-key": apiKey }) => {
  const signature = (body as { signature?: unknown }).signature;
  // Signatures long enough to be one (a malformed "0x123" is no secret and occurs in any log).
  if (typeof signature === "string" && signature.length >= 132) secrets.push(signature);
  return test.app.server.inject({
    method: "POST",
    url: "/classic/auth/verify-signature",
    headers,
    payload: body as object,
  });
};

async function signChallenge(account: LocalAccount, challenge: Challenge) {
  return account.signMessage({ message: challenge.message });
}

const session = (token: string) =>
  test.app.server.inject({
    method: "GET",
    url: "/classic/auth/session",
    headers: { "api-key": apiKey, authorization: `Bearer ${token}` },
  });

const expectRefused = (response: { statusCode: number; json(): unknown }, status: number, error: string) => {
  expect({ status: response.statusCode, body: response.json() }).toMatchObject({
    status,
    body: { success: false, error },
  });
  expect(typeof (response.json() as { message: unknown }).message).toBe("string");
};

const challengeRows = async (address: string) =>
  (
    await sql<{ nonce: string }>`
      SELECT nonce FROM classic_sign_in_challenges WHERE address = ${address.toLowerCase()} ORDER BY id`.execute(
      test.db.kysely,
    )
  ).rows.map((row) => row.nonce);

describe("GET /classic/auth/message/{address}", () => {
  it("answers our three-line message, a 64-hex nonce and an expiry 10 minutes ahead, and keeps the challenge", async () => {
    const account = wallet();
    const response = await getMessage(account.address);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const body = response.json() as Challenge;
    const address = account.address.toLowerCase();
    const expiresAt = new Date(clock.now() + CLASSIC_LIVE_CHALLENGE_LIFETIME_MS).toISOString();
    expect(body).toEqual({
      success: true,
      message: [
        `Sign in to the mkt Classic API as wallet ${address} on chain 8453.`,
        `Nonce: ${body.nonce}`,
        `Expires: ${expiresAt}`,
      ].join("\n"),
      nonce: body.nonce,
      expiresAt,
      address,
      chainId: 8453,
    });
    expect(body.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(body.message).toBe(
      classicLiveSignInMessage({ address, chainId: 8453, nonce: body.nonce, expiresAt }),
    );
    expect(await challengeRows(address)).toEqual([body.nonce]);
  });

  it("refuses a malformed address (400) and a missing key (the classic 429)", async () => {
    expectRefused(await getMessage("0x1234"), 400, "VALIDATION_ERROR");
    expectRefused(await getMessage(wallet().address, {}), 429, "RATE_LIMITED");
  });

  it("keeps at most 5 unexpired challenges per wallet: a sixth drops the oldest", async () => {
    const account = wallet();
    const issued: Challenge[] = [];
    for (let i = 0; i < 6; i += 1) issued.push(await challengeFor(account));
    expect(await challengeRows(account.address)).toEqual(issued.slice(1).map((c) => c.nonce));

    // The evicted (first) challenge no longer signs in; the second still does.
    const evicted = await verify({
      address: account.address,
      signature: await signChallenge(account, issued[0]!),
    });
    expectRefused(evicted, 401, "UNAUTHORIZED");
    const second = await verify({
      address: account.address,
      signature: await signChallenge(account, issued[1]!),
    });
    expect(second.statusCode).toBe(200);
    secrets.push(second.json().accessToken);
    expect(await challengeRows(account.address)).toEqual(issued.slice(2).map((c) => c.nonce));
  });

  it("deletes expired challenges of every wallet on the way", async () => {
    const early = wallet();
    await challengeFor(early);
    clock.advance(CLASSIC_LIVE_CHALLENGE_LIFETIME_MS);
    await challengeFor(wallet());
    expect(await challengeRows(early.address)).toEqual([]);
  });
});

describe("POST /classic/auth/verify-signature", () => {
  it("signs a viem local account in: the same bearer token as sign-in, with userId and user", async () => {
    const account = wallet();
    const address = account.address.toLowerCase();
    const challenge = await challengeFor(account);
    const response = await verify({
      address: account.address,
      signature: await signChallenge(account, challenge),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const body = response.json();
    secrets.push(body.accessToken);
    expect(body).toEqual({
      success: true,
      accessToken: body.accessToken,
      tokenType: "Bearer",
      expiresAt: new Date(clock.now() + CLASSIC_ACCESS_TOKEN_LIFETIME_MS).toISOString(),
      address,
      account: { id: body.userId, wallets: [address] },
      userId: body.userId,
      user: {
        id: body.userId,
        primaryAddress: address,
        wallets: [address],
        username: "",
        displayName: "",
        profileImage: null,
      },
    });
    expect(body.accessToken).toMatch(/^mktb_[A-Za-z0-9_-]{43}$/);
    expect(body.userId).toMatch(/^acct_/);

    // The token works where classic bearer tokens work.
    const current = await session(body.accessToken);
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({ address, account: { id: body.userId, wallets: [address] } });

    // The challenge is spent; the signature is no credential any more.
    expect(await challengeRows(address)).toEqual([]);
    const replay = await verify({ address, signature: await signChallenge(account, challenge) });
    expectRefused(replay, 401, "UNAUTHORIZED");
    expect(replay.json().message).toMatch(/no unexpired sign-in message/);
  });

  it("signs in to the account the wallet already has (the same account as POST /classic/auth/sign-in)", async () => {
    const account = wallet();
    const fields = {
      address: account.address.toLowerCase(),
      chainId: 8453,
      nonce: randomUUID(),
      expires: clock.now() + 60_000,
    };
    const first = await test.app.server.inject({
      method: "POST",
      url: "/classic/auth/sign-in",
      headers: { "api-key": apiKey },
      payload: { ...fields, signature: await account.signMessage({ message: classicSignInMessage(fields) }) },
    });
    expect(first.statusCode).toBe(200);
    secrets.push(first.json().accessToken);
    const challenge = await challengeFor(account);
    const live = await verify({
      address: account.address,
      signature: await signChallenge(account, challenge),
      chainId: 8453,
      type: "evm",
    });
    expect(live.statusCode).toBe(200);
    secrets.push(live.json().accessToken);
    expect(live.json().userId).toBe(first.json().account.id);
    expect(live.json().accessToken).not.toBe(first.json().accessToken);
  });

  it("tries the wallet's challenges newest first and spends only the one signed", async () => {
    const account = wallet();
    const older = await challengeFor(account);
    const newer = await challengeFor(account);
    const response = await verify({
      address: account.address,
      signature: await signChallenge(account, older),
    });
    expect(response.statusCode).toBe(200);
    secrets.push(response.json().accessToken);
    expect(await challengeRows(account.address)).toEqual([newer.nonce]);
  });

  it("refuses an expired challenge (401)", async () => {
    const account = wallet();
    const challenge = await challengeFor(account);
    const signature = await signChallenge(account, challenge);
    clock.advance(CLASSIC_LIVE_CHALLENGE_LIFETIME_MS - 1);
    clock.advance(1);
    expectRefused(await verify({ address: account.address, signature }), 401, "UNAUTHORIZED");
  });

  it("refuses another wallet's signature, a signature over other text, and a wallet never challenged (401)", async () => {
    const victim = wallet();
    const intruder = wallet();
    const challenge = await challengeFor(victim);
    // The intruder signs the victim's challenge.
    const forged = await verify({
      address: victim.address,
      signature: await signChallenge(intruder, challenge),
    });
    expectRefused(forged, 401, "UNAUTHORIZED");
    expect(forged.json().message).toMatch(/not valid/);
    // The victim signs something else.
    const other = await verify({
      address: victim.address,
      signature: await victim.signMessage({ message: "hello" }),
    });
    expectRefused(other, 401, "UNAUTHORIZED");
    // 65 bytes that are no signature at all.
    expectRefused(
      await verify({ address: victim.address, signature: toHex(new Uint8Array(65)) }),
      401,
      "UNAUTHORIZED",
    );
    // The victim's own signature, posted for the intruder (who has no challenge).
    const never = await verify({
      address: intruder.address,
      signature: await signChallenge(victim, challenge),
    });
    expectRefused(never, 401, "UNAUTHORIZED");
    // Nothing was spent: the victim still signs in.
    const ok = await verify({ address: victim.address, signature: await signChallenge(victim, challenge) });
    expect(ok.statusCode).toBe(200);
    secrets.push(ok.json().accessToken);
  });

  it("answers 400 in the classic body for missing, malformed and unknown fields, and another chain", async () => {
    const account = wallet();
    const challenge = await challengeFor(account);
    const signature = await signChallenge(account, challenge);
    for (const body of [
      {},
      { address: account.address },
      { signature },
      { address: "0x1234", signature },
      { address: account.address, signature: "0x123" },
      { address: account.address, signature: "not hex" },
      { address: account.address, signature: `0x${"ab".repeat(5000)}` },
      { address: account.address, signature, nonce: challenge.nonce },
      { address: account.address, signature, chainId: 1 },
    ]) {
      expectRefused(await verify(body), 400, "VALIDATION_ERROR");
    }
    // None of them spent the challenge.
    expect(await challengeRows(account.address)).toEqual([challenge.nonce]);
  });

  it("needs the API key (the classic 429 without it, whatever the signature)", async () => {
    const account = wallet();
    const challenge = await challengeFor(account);
    const response = await verify(
      { address: account.address, signature: await signChallenge(account, challenge) },
      {},
    );
    expectRefused(response, 429, "RATE_LIMITED");
    expect(await challengeRows(account.address)).toEqual([challenge.nonce]);
  });

  it("shares the failed-verification budget with POST /classic/auth/sign-in; the wallet's own signature still passes", async () => {
    const account = wallet();
    const intruder = wallet();
    const challenge = await challengeFor(account);
    const forged = await signChallenge(intruder, challenge);
    for (let i = 0; i < 10; i += 1)
      expectRefused(await verify({ address: account.address, signature: forged }), 401, "UNAUTHORIZED");
    const spent = await verify({ address: account.address, signature: forged });
    expect(spent.statusCode).toBe(429);
    // The same budget refuses the other sign-in for this wallet.
    const fields = {
      address: account.address.toLowerCase(),
      chainId: 8453,
      nonce: randomUUID(),
      expires: clock.now() + 60_000,
    };
    const signIn = await test.app.server.inject({
      method: "POST",
      url: "/classic/auth/sign-in",
      headers: { "api-key": apiKey },
      payload: {
        ...fields,
        signature: await intruder.signMessage({ message: classicSignInMessage(fields) }),
      },
    });
    expect(signIn.statusCode).toBe(429);
    // An EOA cannot be locked out: its own signature recovers locally.
    const own = await verify({
      address: account.address,
      signature: await signChallenge(account, challenge),
    });
    expect(own.statusCode).toBe(200);
    secrets.push(own.json().accessToken);
  });
});

describe("contract wallets on the dev chain", () => {
  it("signs in a deployed ERC-1271 wallet and a counterfactual ERC-6492 one; refuses another owner", async () => {
    await withContractWallets(
      { clock, salt: 11 },
      async ({ app, key, owner, intruder, deployed, counterfactual, wrap }) => {
        const challenge = async (address: string) =>
          (
            await app.app.server.inject({
              method: "GET",
              url: `/classic/auth/message/${address}`,
              headers: { "api-key": key },
            })
          ).json() as Challenge;
        const postTo = (payload: unknown) =>
          app.app.server.inject({
            method: "POST",
            url: "/classic/auth/verify-signature",
            headers: { "api-key": key },
            payload: payload as object,
          });

        const deployedChallenge = await challenge(deployed);
        const refused = await postTo({
          address: deployed,
          signature: await intruder.signMessage({ message: deployedChallenge.message }),
        });
        expect(refused.statusCode).toBe(401);
        const erc1271 = await postTo({
          address: deployed,
          signature: await owner.signMessage({ message: deployedChallenge.message }),
        });
        expect(erc1271.statusCode).toBe(200);
        expect(erc1271.json().account.wallets).toEqual([deployed.toLowerCase()]);

        const counterfactualChallenge = await challenge(counterfactual);
        const inner = await owner.signMessage({ message: counterfactualChallenge.message });
        const erc6492 = await postTo({ address: counterfactual, signature: wrap(inner) });
        expect(erc6492.statusCode).toBe(200);
        expect(erc6492.json().address).toBe(counterfactual.toLowerCase());
      },
    );
  });
});

describe("published document", () => {
  it("tags both routes Live-compatible and states their access", async () => {
    const doc = (await test.app.server.inject({ method: "GET", url: "/openapi/classic.json" })).json();
    const message = doc.paths["/classic/auth/message/{address}"].get;
    const verifyRoute = doc.paths["/classic/auth/verify-signature"].post;
    expect(message.tags).toEqual(["Authentication", "Live-compatible"]);
    expect(verifyRoute.tags).toEqual(["Authentication", "Live-compatible"]);
    expect(message.security).toEqual([{ ApiKey: [] }]);
    expect(verifyRoute.security).toEqual([{ ApiKey: [] }]);
    expect(message.description).toContain("/vibe/auth/message/{address}");
    expect(verifyRoute.description).toContain("/vibe/auth/verify-signature");
  });
});

describe("secrets", () => {
  it("never logs a token or a signature", async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(20);
    const logs = test.logs.text();
    expect(logs).toContain("/classic/auth/verify-signature");
    for (const secret of secrets) {
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(secret.startsWith("mktb_") ? secret.slice(5) : secret.slice(2));
    }
  });
});
