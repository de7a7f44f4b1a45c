import {
  CLASSIC_DEFAULT_CHAIN_ID,
  classicSignInMessage,
  classicSignInResponseSchema,
  sessionCreatedSchema,
  signInMessage,
} from "@mkt/protocol";
import type { LocalAccount } from "viem/accounts";
import type { Context } from "./context.ts";
import { shaped } from "./http.ts";

/** Seconds a signed sign-in message stays valid: long enough for a slow link, far below the server's five minutes. */
const SIGNATURE_TTL_SECONDS = 120;

/** A session as the CLI shows it, whichever surface issued it. */
export interface SignedIn {
  surface: "market" | "classic";
  address: string;
  token: string;
  /** ISO 8601. */
  expiresAt: string;
  /** The website origin the session is bound to (market sessions; classic ones only when one was signed). */
  origin?: string;
  /** The classic account the wallet belongs to. */
  accountId?: string;
}

/** The signed envelope's common fields: the lowercase wallet, a fresh UUID v4 nonce, an expiry two minutes ahead. */
function envelopeFields(context: Context, account: LocalAccount) {
  return {
    address: account.address.toLowerCase(),
    nonce: crypto.randomUUID(),
    expires: context.io.now() + SIGNATURE_TTL_SECONDS * 1000,
  };
}

/**
 * Signs in to the market (`POST /market/account/session`) with the message `signInMessage` of
 * @mkt/protocol builds; the session is bound to `origin`, which must be one of the server's
 * ALLOWED_ORIGINS, and is used with `Origin` and `X-MKT-Wallet` headers.
 */
export async function signInMarket(
  context: Context,
  account: LocalAccount,
  origin: string,
): Promise<SignedIn> {
  const fields = { origin, ...envelopeFields(context, account) };
  const signature = await account.signMessage({ message: signInMessage(fields) });
  const { body } = await context.call(context.api("required", "market sign-in"), {
    method: "POST",
    path: "/market/account/session",
    body: { ...fields, signature },
    headers: { origin },
  });
  const session = shaped(sessionCreatedSchema, body, "POST /market/account/session");
  context.secrets.add(session.token);
  return {
    surface: "market",
    address: session.address,
    token: session.token,
    expiresAt: new Date(session.expiresAt).toISOString(),
    origin,
  };
}

/** Signs in to the classic API (`POST /classic/auth/sign-in`) for its bearer token. */
export async function signInClassic(
  context: Context,
  account: LocalAccount,
  {
    origin,
    chainId = CLASSIC_DEFAULT_CHAIN_ID,
  }: { origin?: string | undefined; chainId?: number | undefined },
): Promise<SignedIn> {
  const fields = envelopeFields(context, account);
  const signature = await account.signMessage({
    message: classicSignInMessage({ ...fields, chainId, origin }),
  });
  const { body } = await context.call(context.api("required", "classic sign-in"), {
    method: "POST",
    path: "/classic/auth/sign-in",
    body: { ...fields, signature, chainId, ...(origin !== undefined ? { origin } : {}) },
    ...(origin !== undefined ? { headers: { origin } } : {}),
  });
  const signedIn = shaped(classicSignInResponseSchema, body, "POST /classic/auth/sign-in");
  context.secrets.add(signedIn.accessToken);
  return {
    surface: "classic",
    address: signedIn.address,
    token: signedIn.accessToken,
    expiresAt: signedIn.expiresAt,
    ...(origin !== undefined ? { origin } : {}),
    accountId: signedIn.account.id,
  };
}
