import { randomUUID } from "node:crypto";
import {
  classicSignInMessage,
  deletionMessage,
  packEditMessage,
  releaseActionMessage,
  signInMessage,
} from "@mkt/protocol";
import { sql } from "kysely";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { claimDropsOf, marketDeployment, seedRuntimes } from "../../_test/market.ts";
import { defaultFailedVerificationBudgets } from "../../identity/index.ts";

/**
 * The nonce of every signed message is used exactly as the client sent it
 * (`nonceSchema` in `@mkt/protocol`): a real wallet that signs an uppercase
 * UUID v4, as Swift's `uuidString` writes one, is verified like any other,
 * and a UUID is spent once whatever its letter case.
 */

const clock = createManualClock(Date.now());
const deployment = marketDeployment();
let test: TestApp;
let apiKey: string;

/** The wallet that holds pack 7 of runtime r1. */
const holder = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  test = await setupApp({ clock, deployments: [deployment] });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
  const scope = await seedRuntimes(test.db, deployment);
  const contract = claimDropsOf(deployment, "r1");
  const owner = holder.address.toLowerCase();
  await sql`INSERT INTO market_drops (scope, chain_id, runtime_id, drop_id, contract, creator, price, max_supply, created_block, created_tx, updated_block)
    VALUES (${scope}, 8453, 'r1', 7, ${contract}, ${owner}, 0, 10, 1, '0xa0', 2)`.execute(test.db.kysely);
  await sql`INSERT INTO market_claims (scope, chain_id, runtime_id, block_number, log_index, transaction_hash, block_time, contract, owner, drop_id, quantity, paid, total_claimed)
    VALUES (${scope}, 8453, 'r1', 2, 0, '0xaa', now(), ${contract}, ${owner}, 7, 1, 0, 1)`.execute(
    test.db.kysely,
  );
});
afterAll(() => test.close());

const fresh = () => privateKeyToAccount(generatePrivateKey());
const expiresSoon = () => clock.now() + 60_000;

async function envelope(wallet: PrivateKeyAccount, nonce: string, message = signInMessage) {
  const fields = { origin: TEST_ORIGIN, address: wallet.address, nonce, expires: expiresSoon() };
  return { ...fields, signature: await wallet.signMessage({ message: message(fields) }) };
}

/** Where the requests of the family under test come from: each family counts in its own client group. */
let remoteAddress = "192.0.2.1";

const inject = (method: "POST", url: string, payload: object, headers: Record<string, string> = {}) =>
  test.app.server.inject({
    method,
    url,
    payload,
    remoteAddress,
    headers: { "api-key": apiKey, origin: TEST_ORIGIN, ...headers },
  });

/** Signs `wallet` in with a lowercase nonce; answers the headers of its account session. */
async function sessionOf(wallet: PrivateKeyAccount) {
  const response = await inject("POST", "/market/account/session", await envelope(wallet, randomUUID()));
  expect(response.statusCode, response.body).toBe(200);
  const { token, address } = response.json() as { token: string; address: string };
  return { authorization: `Bearer ${token}`, "x-mkt-wallet": address };
}

interface Family {
  name: string;
  /** Has a real wallet sign this family's message with `nonce` and posts it. */
  send(nonce: string): ReturnType<typeof inject>;
  accepted: number;
}

const linkingAccount = fresh();
const deleting = fresh();
const creator = fresh();
const classicWallet = fresh();

const families: Family[] = [
  {
    name: "market sign-in",
    send: async (nonce) => inject("POST", "/market/account/session", await envelope(fresh(), nonce)),
    accepted: 200,
  },
  {
    name: "wallet-link proof",
    send: async (nonce) =>
      inject(
        "POST",
        "/market/account",
        { kind: "wallet-link", proof: await envelope(fresh(), nonce) },
        await sessionOf(linkingAccount),
      ),
    accepted: 200,
  },
  {
    name: "account deletion",
    // Each attempt signs the wallet in anew (a deleted account's wallet may sign in again).
    send: async (nonce) =>
      inject(
        "POST",
        "/market/account/delete",
        await envelope(deleting, nonce, deletionMessage),
        await sessionOf(deleting),
      ),
    accepted: 200,
  },
  {
    name: "release action",
    async send(nonce) {
      const fields = { address: creator.address, nonce, expires: expiresSoon() };
      const action = { kind: "create", draft: { name: "Night Owls", symbol: "OWL" } };
      const signature = await creator.signMessage({ message: releaseActionMessage({ ...fields, action }) });
      return inject("POST", "/market/releases", { ...fields, action, signature });
    },
    accepted: 201,
  },
  {
    name: "pack edit",
    async send(nonce) {
      const fields = { address: holder.address, nonce, expires: expiresSoon() };
      const action = { kind: "set-name", packId: "7", name: "Rare pulls" };
      const signature = await holder.signMessage({
        message: packEditMessage({ ...fields, version: "r1", action }),
      });
      return inject("POST", "/market/runtime/r1/pack-edit", { ...fields, action, signature });
    },
    accepted: 200,
  },
  {
    name: "classic sign-in",
    async send(nonce) {
      const fields = { address: classicWallet.address, chainId: 8453, nonce, expires: expiresSoon() };
      const signature = await classicWallet.signMessage({ message: classicSignInMessage(fields) });
      return inject("POST", "/classic/auth/sign-in", { ...fields, signature });
    },
    accepted: 200,
  },
];

describe("a nonce in uppercase, signed by a real wallet", () => {
  for (const [index, family] of families.entries()) {
    it(`${family.name}: verifies as signed; the same UUID in lowercase is then a used nonce`, async () => {
      remoteAddress = `198.51.100.${index + 1}`;
      const nonce = randomUUID().toUpperCase();
      const accepted = await family.send(nonce);
      expect(accepted.statusCode, accepted.body).toBe(family.accepted);

      const again = await family.send(nonce.toLowerCase());
      expect(again.statusCode, again.body).toBe(401);
      expect(JSON.stringify(again.json())).toContain("this nonce was already used");

      // Nothing was charged to the client's failed-verification budget.
      const { limit, windowMs } = defaultFailedVerificationBudgets.perClientGroup;
      expect(
        test.app.services.limiter.peek(`sigfail:group:${remoteAddress}`, limit, windowMs).remaining,
      ).toBe(limit);
    });
  }
});
