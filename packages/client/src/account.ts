import {
  type AccountActionInputOf,
  type AccountActionKind,
  type AccountActionResponse,
  type AccountActionResult,
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
  type ReleaseList,
  releaseListSchema,
  type SessionCreated,
  type SessionState,
  sessionCreatedSchema,
  sessionStateSchema,
  signInMessage,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";
import { type MktSigner, type SigningOptions, signFields } from "./signer.ts";

export interface SignInOptions extends SigningOptions {
  /** The first-party website origin the session is for; the request is sent with this Origin. */
  origin: string;
}

/**
 * A market session as `signIn` returns it: the server's answer (`address`,
 * `token`, `expiresAt` in Unix epoch milliseconds) and the origin it is bound to.
 */
export type MarketSessionCredentials = SessionCreated & { origin: string };

/** The envelope of a signed message, built with the same builders the server verifies with. */
const signEnvelope = (build: typeof signInMessage, signer: MktSigner, { origin, ...timing }: SignInOptions) =>
  signFields(signer, (fields) => build({ origin, ...fields }), timing).then((signed) => ({
    origin,
    ...signed,
  }));

/** The calls of one account session, each with its Origin and X-MKT-Wallet binding. */
export interface MarketSession {
  /** The session's state (`GET /market/account/session`): its account, wallet and expiry. */
  state(): Promise<SessionState>;
  /** Ends the session (`DELETE /market/account/session`); its token stops working at once. */
  signOut(): Promise<void>;
  /**
   * One `POST /market/account` action; retries (a network failure included)
   * reuse one Idempotency-Key, so the action is done once.
   * The answer's `result` has the type of the kind given.
   *
   * @example
   * ```ts
   * const { result } = await session.action({ kind: "dm", to: "0x…", body: "hello" });
   * console.log(result.threadId);
   * ```
   */
  action<K extends AccountActionKind>(
    input: { kind: K } & AccountActionInputOf<K>,
  ): Promise<AccountActionResponse<K>>;
  /** The release catalog as this account sees it: its wishlist filled in. */
  releases: {
    /**
     * One page of the public catalog (`GET /market/releases`) read with
     * the session, so `wishlist` holds the ids on the account's wishlist
     * (oldest wish first, the same on every page) and `wishedReleases`
     * a summary of each. The answer is private (never from a shared cache).
     *
     * @example
     * ```ts
     * const page = await session.releases.list();
     * console.log(page.wishedReleases.map((release) => release.name));
     * ```
     */
    list(query?: { offset?: number }): Promise<ReleaseList>;
    /**
     * Puts a release on the account's wishlist (`wishlist-add`). Adding a
     * listed release changes nothing; an id the account cannot see (unknown,
     * or another owner's draft) is an `MktApiError` 404, a full wishlist 409.
     *
     * @example
     * ```ts
     * await session.releases.wish("rel_abc");
     * ```
     */
    wish(releaseId: string): Promise<AccountActionResult<"wishlist-add">>;
    /**
     * Takes a release off the account's wishlist (`wishlist-remove`);
     * `removed` is false when it was not on it.
     *
     * @example
     * ```ts
     * const { removed } = await session.releases.unwish("rel_abc");
     * ```
     */
    unwish(releaseId: string): Promise<AccountActionResult<"wishlist-remove">>;
  };
  /** The account's direct messages. */
  dm: {
    /** The caller's conversations, newest first (`GET /market/dm/threads`). */
    threads(query?: PageQuery): Promise<DmThreadList>;
    /** One conversation's messages, newest first (`GET /market/dm/messages`). */
    messages(query: DmMessagesQuery): Promise<DmMessageList>;
    /** Unread messages and conversations (`GET /market/dm/unread`). */
    unread(): Promise<DmUnread>;
  };
  /**
   * Deletes the hosted account (`POST /market/account/delete`) with a fresh
   * signature of `deletionMessage` by the session's wallet, never the
   * sign-in signature.
   *
   * @example
   * ```ts
   * const { deleted } = await session.deleteAccount(account);
   * ```
   */
  deleteAccount(signer: MktSigner, options?: SigningOptions): Promise<DeletionResult>;
}

export interface AccountApi {
  /**
   * Signs in with a wallet (`POST /market/account/session`): builds
   * `signInMessage` from `@mkt/protocol` for the signer's address, has the
   * signer sign it and returns the session credentials (`expiresAt` in Unix
   * epoch milliseconds, 30 days ahead). Keep the token out of URLs and logs.
   *
   * @example
   * ```ts
   * import { privateKeyToAccount } from "viem/accounts";
   * const credentials = await client.market.signIn(privateKeyToAccount(privateKey), {
   *   origin: "https://app.example",
   * });
   * const session = client.market.session(credentials);
   * ```
   */
  signIn(signer: MktSigner, options: SignInOptions): Promise<MarketSessionCredentials>;
  /** The calls an account session can make, with its Origin and X-MKT-Wallet binding. */
  session(credentials: MarketSessionCredentials): MarketSession;
}

export function accountApi(request: Transport): AccountApi {
  return {
    async signIn(signer: MktSigner, options: SignInOptions): Promise<MarketSessionCredentials> {
      const envelope = await signEnvelope(signInMessage, signer, options);
      const { body } = await request<unknown>({
        method: "POST",
        path: "/market/account/session",
        body: envelope,
        headers: { origin: options.origin },
      });
      return { ...sessionCreatedSchema.parse(body), origin: options.origin };
    },

    session(credentials: MarketSessionCredentials): MarketSession {
      const headers = {
        authorization: `Bearer ${credentials.token}`,
        origin: credentials.origin,
        "x-mkt-wallet": credentials.address,
      };
      async function action<K extends AccountActionKind>(
        input: { kind: K } & AccountActionInputOf<K>,
      ): Promise<AccountActionResponse<K>> {
        const { body } = await request<unknown>({
          method: "POST",
          path: "/market/account",
          body: input,
          headers,
          idempotent: true,
        });
        return accountActionResponseSchemas[input.kind].parse(body);
      }
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
        action,
        releases: {
          list: async (query: { offset?: number } = {}): Promise<ReleaseList> =>
            releaseListSchema.parse(
              (await request<unknown>({ method: "GET", path: "/market/releases", query, headers })).body,
            ),
          wish: async (releaseId: string): Promise<AccountActionResult<"wishlist-add">> =>
            (await action({ kind: "wishlist-add", releaseId })).result,
          unwish: async (releaseId: string): Promise<AccountActionResult<"wishlist-remove">> =>
            (await action({ kind: "wishlist-remove", releaseId })).result,
        },
        dm: {
          threads: async (query: PageQuery = {}): Promise<DmThreadList> =>
            dmThreadListSchema.parse(
              (await request<unknown>({ method: "GET", path: "/market/dm/threads", query, headers })).body,
            ),
          messages: async (query: DmMessagesQuery): Promise<DmMessageList> =>
            dmMessageListSchema.parse(
              (await request<unknown>({ method: "GET", path: "/market/dm/messages", query, headers })).body,
            ),
          unread: async (): Promise<DmUnread> =>
            dmUnreadSchema.parse(
              (await request<unknown>({ method: "GET", path: "/market/dm/unread", headers })).body,
            ),
        },
        async deleteAccount(signer: MktSigner, options: SigningOptions = {}): Promise<DeletionResult> {
          const envelope = await signEnvelope(deletionMessage, signer, {
            origin: credentials.origin,
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
