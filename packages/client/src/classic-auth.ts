import {
  CLASSIC_DEFAULT_CHAIN_ID,
  type ClassicSession,
  type ClassicSignIn,
  classicSessionSchema,
  classicSignInMessage,
  classicSignInResponseSchema,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";
import { type ActionOptions, type ActionSigner, signAction } from "./signed-actions.ts";

/**
 * A wallet that signs the sign-in message: a viem `LocalAccount`
 * (`privateKeyToAccount`, `mnemonicToAccount`) as it is, or any object with
 * the wallet's address and an EIP-191 `signMessage` (see `ActionSigner`).
 */
export type ClassicSigner = ActionSigner;

export interface ClassicSignInOptions extends ActionOptions {
  /** The website asking, for a browser application: named in the message and sent as Origin. */
  origin?: string;
  /** The chain named in the message; the classic chain (8453) by default. */
  chainId?: number;
}

/** Where the classic API keeps its access token between calls: one per client. */
export interface ClassicCredential {
  token: string | undefined;
}

/** The `Authorization` header of a classic call, once signed in. */
export const bearerHeaders = (credential: ClassicCredential): Record<string, string> =>
  credential.token === undefined ? {} : { authorization: `Bearer ${credential.token}` };

/** The Classic API's bearer sign-in (`/classic/auth`). */
export function classicAuthApi(request: Transport, credential: ClassicCredential) {
  return {
    /**
     * Signs in with a wallet (`POST /classic/auth/sign-in`): builds
     * `classicSignInMessage` with a fresh nonce, has the wallet sign it, and
     * keeps the access token: every later classic call of this client sends
     * it as `Authorization: Bearer` beside the API key. The token lasts 24
     * hours; keep it out of URLs and logs.
     *
     * @example
     * ```ts
     * import { privateKeyToAccount } from "viem/accounts";
     * const { account } = await client.classic.auth.signIn(privateKeyToAccount(privateKey));
     * console.log(account.id, account.wallets);
     * ```
     */
    async signIn(signer: ClassicSigner, options: ClassicSignInOptions = {}): Promise<ClassicSignIn> {
      const { origin, chainId = CLASSIC_DEFAULT_CHAIN_ID, ...timing } = options;
      const signed = await signAction(
        signer,
        (fields) => classicSignInMessage({ ...fields, chainId, origin }),
        timing,
      );
      const { body } = await request<unknown>({
        method: "POST",
        path: "/classic/auth/sign-in",
        body: { ...signed, chainId, ...(origin !== undefined ? { origin } : {}) },
        ...(origin !== undefined ? { headers: { origin } } : {}),
      });
      const signedIn = classicSignInResponseSchema.parse(body);
      credential.token = signedIn.accessToken;
      return signedIn;
    },

    /**
     * The signed-in account and its linked wallets (`GET /classic/auth/session`);
     * an `MktApiError` 401 once the token is expired or signed out.
     *
     * @example
     * ```ts
     * const { account } = await client.classic.auth.session();
     * ```
     */
    async session(): Promise<ClassicSession> {
      const { body } = await request<unknown>({
        method: "GET",
        path: "/classic/auth/session",
        headers: bearerHeaders(credential),
      });
      return classicSessionSchema.parse(body);
    },

    /**
     * Revokes the access token (`POST /classic/auth/sign-out`) and forgets it.
     * The token is forgotten even when the server refuses it (already expired).
     *
     * @example
     * ```ts
     * await client.classic.auth.signOut();
     * ```
     */
    async signOut(): Promise<void> {
      if (credential.token === undefined) return;
      const headers = bearerHeaders(credential);
      credential.token = undefined;
      await request({ method: "POST", path: "/classic/auth/sign-out", headers, authenticated: false });
    },

    /** Whether this client holds an access token (it may still have expired). */
    get signedIn(): boolean {
      return credential.token !== undefined;
    },

    /** Uses a token obtained earlier (kept by the application), or forgets it with `undefined`. */
    useToken(token: string | undefined): void {
      credential.token = token;
    },
  };
}
