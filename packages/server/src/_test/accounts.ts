import { randomUUID } from "node:crypto";
import { deletionMessage, type SignedEnvelope, signInMessage } from "@mkt/protocol";
import { type HDAccount, mnemonicToAccount } from "viem/accounts";
import type { Database } from "../db/index.ts";
import { createEnvelopeChecks, createWalletVerifier } from "../identity/index.ts";
import { type Clock, createSlidingWindowLimiter } from "../quotas/limiter.ts";
import type { TestApp } from "./app.ts";

const MNEMONIC = "test test test test test test test test test test test junk";
/** The first allowed origin of the default configuration. */
export const TEST_ORIGIN = "http://localhost:8080";

/** A dev-mnemonic account by index (EOA; no chain needed to sign). */
export function testWallet(index: number): HDAccount {
  return mnemonicToAccount(MNEMONIC, { addressIndex: index });
}

export type Envelope = SignedEnvelope;

/** A signed sign-in (or deletion) envelope, with overridable fields for negative tests. */
export async function signEnvelope(
  wallet: HDAccount,
  options: {
    now: number;
    origin?: string;
    nonce?: string;
    expires?: number;
    message?: typeof signInMessage;
  },
): Promise<Envelope> {
  const fields = {
    origin: options.origin ?? TEST_ORIGIN,
    address: wallet.address.toLowerCase(),
    nonce: options.nonce ?? randomUUID(),
    expires: options.expires ?? options.now + 60_000,
  };
  const signature = await wallet.signMessage({ message: (options.message ?? signInMessage)(fields) });
  return { ...fields, signature };
}

export const signDeletion = (wallet: HDAccount, options: { now: number; origin?: string; nonce?: string }) =>
  signEnvelope(wallet, { ...options, message: deletionMessage });

export interface SignedIn {
  address: string;
  token: string;
  /** Headers of an authenticated direct request: API key, bearer token, Origin, X-MKT-Wallet. */
  headers: Record<string, string>;
}

/**
 * Signs a dev wallet in through the first-party proxy (`POST /app/api/account/session`, no key):
 * the headers of a website request carrying its session cookie.
 */
export async function signInViaProxy(
  test: TestApp,
  walletIndex: number,
  options: { now?: number } = {},
): Promise<{ origin: string; cookie: string; "x-mkt-wallet": string }> {
  const envelope = await signEnvelope(testWallet(walletIndex), { now: options.now ?? Date.now() });
  const response = await test.app.server.inject({
    method: "POST",
    url: "/app/api/account/session",
    headers: { origin: TEST_ORIGIN },
    payload: envelope,
  });
  if (response.statusCode !== 200)
    throw new Error(`proxy sign-in failed: ${response.statusCode} ${response.body}`);
  const setCookie = String(response.headers["set-cookie"]);
  return {
    origin: TEST_ORIGIN,
    cookie: setCookie.slice(0, setCookie.indexOf(";")),
    "x-mkt-wallet": envelope.address,
  };
}

/** Signs a dev wallet in through `POST /market/account/session` with an API key. */
export async function signIn(
  test: TestApp,
  walletIndex: number,
  options: { apiKey: string; now?: number; origin?: string },
): Promise<SignedIn> {
  const wallet = testWallet(walletIndex);
  const origin = options.origin ?? TEST_ORIGIN;
  const envelope = await signEnvelope(wallet, { now: options.now ?? Date.now(), origin });
  const response = await test.app.server.inject({
    method: "POST",
    url: "/market/account/session",
    headers: { "api-key": options.apiKey, origin },
    payload: envelope,
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const { token, address } = response.json() as { token: string; address: string };
  return {
    address,
    token,
    headers: { "api-key": options.apiKey, authorization: `Bearer ${token}`, origin, "x-mkt-wallet": address },
  };
}

/** `POST /market/account` with a session. */
export async function accountAction(test: TestApp, who: SignedIn, body: Record<string, unknown>) {
  return test.app.server.inject({
    method: "POST",
    url: "/market/account",
    headers: who.headers,
    payload: body,
  });
}

/** The signed-envelope checks on a test database: EOA verification only, no first-party origins. */
export function testEnvelopeChecks(db: Database, clock: Clock) {
  return createEnvelopeChecks({
    db,
    clock,
    verifier: createWalletVerifier({ clock }),
    allowedOrigins: [],
    limiter: createSlidingWindowLimiter({ clock }),
  });
}
