import {
  type AccountActionInput,
  accountActionResultSchema,
  deletionMessage,
  deletionResultSchema,
  sessionCreatedSchema,
  sessionStateSchema,
  signInMessage,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";

/** Anything that signs an EIP-191 message as a wallet: a viem account or wallet client, a browser wallet. */
export type MessageSigner = (message: string) => Promise<string>;

export interface SignInOptions {
  /** The first-party website origin the session is for; the request is sent with this Origin. */
  origin: string;
  /** The wallet that signs (for a contract wallet, its address; the signer is its owner). */
  address: string;
  signMessage: MessageSigner;
  /** Seconds the signed message stays valid (at most 300). */
  ttlSeconds?: number;
  now?: () => number;
}

export interface MarketSessionCredentials {
  address: string;
  token: string;
  expiresAt: number;
  origin: string;
}

/** The envelope of a signed message, built with the same builders the server verifies with. */
async function signEnvelope(
  build: typeof signInMessage,
  { origin, address, signMessage, ttlSeconds = 120, now = Date.now }: SignInOptions,
) {
  if (ttlSeconds <= 0 || ttlSeconds > 300) throw new RangeError("ttlSeconds must be in (0, 300]");
  const fields = {
    origin,
    address: address.toLowerCase(),
    nonce: crypto.randomUUID(),
    expires: now() + ttlSeconds * 1000,
  };
  return { ...fields, signature: await signMessage(build(fields)) };
}

export function accountApi(request: Transport) {
  return {
    /**
     * Signs in with a wallet (`POST /market/account/session`): builds
     * `signInMessage` from `@mkt/protocol`, asks the signer for a signature and
     * returns the session credentials. Keep the token out of URLs and logs.
     */
    async signIn(options: SignInOptions): Promise<MarketSessionCredentials> {
      const envelope = await signEnvelope(signInMessage, options);
      const { body } = await request<unknown>({
        method: "POST",
        path: "/market/account/session",
        body: envelope,
        headers: { origin: options.origin },
      });
      return { ...sessionCreatedSchema.parse(body), origin: options.origin };
    },

    /** The calls an account session can make, with its Origin and X-MKT-Wallet binding. */
    session(credentials: MarketSessionCredentials) {
      const headers = {
        authorization: `Bearer ${credentials.token}`,
        origin: credentials.origin,
        "x-mkt-wallet": credentials.address,
      };
      return {
        async state() {
          const { body } = await request<unknown>({
            method: "GET",
            path: "/market/account/session",
            headers,
          });
          return sessionStateSchema.parse(body);
        },
        async signOut(): Promise<void> {
          await request({ method: "DELETE", path: "/market/account/session", headers });
        },
        /** One `POST /market/account` action; retries reuse one Idempotency-Key. */
        async action(action: AccountActionInput) {
          const { body } = await request<unknown>({
            method: "POST",
            path: "/market/account",
            body: action,
            headers,
          });
          return accountActionResultSchema.parse(body);
        },
        dm: {
          threads: async (query: { cursor?: string; limit?: number } = {}) =>
            (await request<unknown>({ method: "GET", path: "/market/dm/threads", query, headers })).body,
          messages: async (query: { with: string; cursor?: string; limit?: number }) =>
            (await request<unknown>({ method: "GET", path: "/market/dm/messages", query, headers })).body,
          unread: async () =>
            (await request<unknown>({ method: "GET", path: "/market/dm/unread", headers })).body,
        },
        /**
         * Deletes the hosted account (`POST /market/account/delete`) with a fresh
         * signature of `deletionMessage`, never the sign-in signature.
         */
        async deleteAccount(signMessage: MessageSigner, options: { now?: () => number } = {}) {
          const envelope = await signEnvelope(deletionMessage, {
            origin: credentials.origin,
            address: credentials.address,
            signMessage,
            ...options,
          });
          const { body } = await request<unknown>({
            method: "POST",
            path: "/market/account/delete",
            body: envelope,
            headers,
          });
          return deletionResultSchema.parse(body);
        },
      };
    },
  };
}
