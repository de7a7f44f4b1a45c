import { randomUUID } from "node:crypto";
import {
  classicSignInMessage,
  type ReleaseActionInput,
  releaseActionMessage,
  signInMessage,
} from "@mkt/protocol";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { hashSecret } from "../../keys/secrets.ts";

/**
 * A wallet no account holds gets its account from whichever request comes
 * first: a market sign-in, a classic sign-in, a signed release. When several
 * arrive at once (a client that retries, two tabs, a bot), every one of them
 * succeeds and they all land in the same single account. On PostgreSQL the
 * requests run concurrently, so a check-then-insert would let two of them
 * race to open the account and one would fail on the wallet's unique key.
 */

let test: TestApp;
let apiKey: string;

beforeAll(async () => {
  test = await setupApp();
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

const expires = () => Date.now() + 60_000;

async function marketSignIn(wallet: PrivateKeyAccount, n: number) {
  const fields = {
    origin: TEST_ORIGIN,
    address: wallet.address.toLowerCase(),
    nonce: randomUUID(),
    expires: expires(),
  };
  const signature = await wallet.signMessage({ message: signInMessage(fields) });
  const response = await test.app.server.inject({
    method: "POST",
    url: "/market/account/session",
    remoteAddress: `198.51.100.${n}`,
    headers: { "api-key": apiKey, origin: TEST_ORIGIN },
    payload: { ...fields, signature },
  });
  // The answer names no account: the session row does.
  const session = await test.db.kysely
    .selectFrom("sessions")
    .select("account_id")
    .where("wallet", "=", fields.address)
    .where("kind", "=", "account")
    .where("token_hash", "=", hashSecret(String(response.json<{ token?: string }>().token)))
    .executeTakeFirst();
  return { status: response.statusCode, body: response.body, accountId: session?.account_id ?? undefined };
}

async function classicSignIn(wallet: PrivateKeyAccount, n: number) {
  const fields = {
    address: wallet.address.toLowerCase(),
    chainId: 8453,
    nonce: randomUUID(),
    expires: expires(),
  };
  const signature = await wallet.signMessage({ message: classicSignInMessage(fields) });
  const response = await test.app.server.inject({
    method: "POST",
    url: "/classic/auth/sign-in",
    remoteAddress: `198.51.100.${n}`,
    headers: { "api-key": apiKey },
    payload: { ...fields, signature },
  });
  return {
    status: response.statusCode,
    body: response.body,
    accountId: response.json<{ account?: { id: string } }>().account?.id,
  };
}

async function releaseCreate(wallet: PrivateKeyAccount, n: number) {
  const action: ReleaseActionInput = {
    kind: "create",
    draft: {
      name: `Race release ${n}`,
      symbol: "RACE",
      image: "https://img.mkt.test/race.png",
      design: { cardsByRarity: [[{ id: `c${n}`, name: "Card", image: "https://img.mkt.test/c.png" }]] },
    },
  };
  const fields = { address: wallet.address.toLowerCase(), nonce: randomUUID(), expires: expires() };
  const signature = await wallet.signMessage({ message: releaseActionMessage({ ...fields, action }) });
  const response = await test.app.server.inject({
    method: "POST",
    url: "/market/releases",
    remoteAddress: `198.51.100.${n}`,
    headers: { "api-key": apiKey },
    payload: { ...fields, action, signature },
  });
  const created = await test.db.kysely
    .selectFrom("releases")
    .select("owner_id")
    .where("id", "=", String(response.json<{ id?: string }>().id))
    .executeTakeFirst();
  return { status: response.statusCode, body: response.body, accountId: created?.owner_id };
}

describe("a new wallet's first requests, all at once", () => {
  it("all succeed and open exactly one account, the one every session and release names", async () => {
    const firstRequests = [marketSignIn, classicSignIn, releaseCreate];
    for (let round = 0; round < 8; round++) {
      const wallet = privateKeyToAccount(generatePrivateKey());
      // Four of each kind, interleaved, started together.
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, n) => firstRequests[n % firstRequests.length]!(wallet, n + 1)),
      );
      expect(
        answers.filter((answer) => answer.status >= 300).map(({ status, body }) => ({ status, body })),
      ).toEqual([]);
      const held = await test.db.kysely
        .selectFrom("account_wallets")
        .select("account_id")
        .where("address", "=", wallet.address.toLowerCase())
        .execute();
      expect(held).toHaveLength(1);
      const accountId = held[0]!.account_id;
      expect(new Set(answers.map((answer) => answer.accountId))).toEqual(new Set([accountId]));
      // No account was opened for the wallet and left without it.
      const opened = await test.db.kysely
        .selectFrom("accounts")
        .select("id")
        .where("primary_address", "=", wallet.address.toLowerCase())
        .execute();
      expect(opened.map((row) => row.id)).toEqual([accountId]);
    }
  });
});
