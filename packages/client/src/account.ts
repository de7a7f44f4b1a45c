import {
  type AccountActionInputOf,
  type AccountActionKind,
  type AccountActionResponse,
  accountActionResponseSchemas,
  type DeletionResult,
  type DmMessageList,
  type DmMessagesQuery,
  type DmThreadList,
  type DmUnread,
  deletionMessage,
  deletionResultSchema,
  dmMessageListSchema,
  dmThreadListSchema,
  dmUnreadSchema,
  type PageQuery,
  type SessionCreated,
  type SessionState,
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

/** A session as `signIn` returns it: the server's answer and the origin it is bound to. */
export type MarketSessionCredentials = SessionCreated & { origin: string };

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
        async state(): Promise<SessionState> {
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
        /**
         * One `POST /market/account` action; retries reuse one Idempotency-Key.
         * The answer's `result` has the type of the kind given.
         *
         * @example
         * ```ts
         * const { result } = await session.action({ kind: "dm", to: "0x…", body: "hello" });
         * console.log(result.threadId);
         * ```
         */
        async action<K extends AccountActionKind>(
          action: { kind: K } & AccountActionInputOf<K>,
        ): Promise<AccountActionResponse<K>> {
          const { body } = await request<unknown>({
            method: "POST",
            path: "/market/account",
            body: action,
            headers,
          });
          return accountActionResponseSchemas[action.kind].parse(body);
        },
        dm: {
          /** The caller's conversations, newest first (`GET /market/dm/threads`). */
          threads: async (query: PageQuery = {}): Promise<DmThreadList> =>
            dmThreadListSchema.parse(
              (await request<unknown>({ method: "GET", path: "/market/dm/threads", query, headers })).body,
            ),
          /** One conversation's messages, newest first (`GET /market/dm/messages`). */
          messages: async (query: DmMessagesQuery): Promise<DmMessageList> =>
            dmMessageListSchema.parse(
              (await request<unknown>({ method: "GET", path: "/market/dm/messages", query, headers })).body,
            ),
          /** Unread messages and conversations (`GET /market/dm/unread`). */
          unread: async (): Promise<DmUnread> =>
            dmUnreadSchema.parse(
              (await request<unknown>({ method: "GET", path: "/market/dm/unread", headers })).body,
            ),
        },
        /**
         * Deletes the hosted account (`POST /market/account/delete`) with a fresh
         * signature of `deletionMessage`, never the sign-in signature.
         */
        async deleteAccount(
          signMessage: MessageSigner,
          options: { now?: () => number } = {},
        ): Promise<DeletionResult> {
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
