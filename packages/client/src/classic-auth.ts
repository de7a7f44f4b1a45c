import {
  CLASSIC_DEFAULT_CHAIN_ID,
  type ClassicSession as ClassicSessionBody,
  type ClassicSignIn as ClassicSignInBody,
  type ClassicVerifySignature as ClassicVerifySignatureBody,
  classicLiveMessageSchema,
  classicLiveSignInMessage,
  classicSessionSchema,
  classicSignInMessage,
  classicSignInResponseSchema,
  classicVerifySignatureResponseSchema,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";
import { type MktSigner, type SigningOptions, signFields, toMessageSigning } from "./signer.ts";

/**
 * The classic sign-in's answer, its times in Unix epoch milliseconds like every
 * expiry the SDK returns (the classic wire's ISO 8601 strings, converted).
 */
export type ClassicSignIn = Omit<ClassicSignInBody, "expiresAt"> & {
  /** When the token stops working (Unix epoch milliseconds), 24 hours after sign-in. */
  expiresAt: number;
};

/**
 * The live-compatible sign-in's answer (`POST /classic/auth/verify-signature`):
 * the sign-in's fields plus `userId` and `user`, `expiresAt` in Unix epoch milliseconds.
 */
export type ClassicChallengeSignIn = Omit<ClassicVerifySignatureBody, "expiresAt"> & {
  /** When the token stops working (Unix epoch milliseconds), 24 hours after sign-in. */
  expiresAt: number;
};

/** The signed-in account (`GET /classic/auth/session`), its times in Unix epoch milliseconds. */
export type ClassicSession = Omit<ClassicSessionBody, "createdAt" | "expiresAt"> & {
  /** When the token was issued (Unix epoch milliseconds). */
  createdAt: number;
  /** When the token stops working (Unix epoch milliseconds). */
  expiresAt: number;
};

/** An instant of the classic wire (ISO 8601) in Unix epoch milliseconds. */
export function epochMs(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new TypeError(`the server sent a time that is not ISO 8601: ${iso}`);
  return ms;
}

export interface ClassicSignInOptions extends SigningOptions {
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

export interface ClassicAuthApi {
  /**
   * Signs in with a wallet (`POST /classic/auth/sign-in`): builds
   * `classicSignInMessage` with a fresh nonce, has the wallet sign it, and
   * keeps the access token: every later classic call of this client sends
   * it as `Authorization: Bearer` beside the API key. The token lasts 24
   * hours (`expiresAt`, Unix epoch milliseconds); keep it out of URLs and logs.
   *
   * @example
   * ```ts
   * import { privateKeyToAccount } from "viem/accounts";
   * const { account } = await client.classic.auth.signIn(privateKeyToAccount(privateKey));
   * console.log(account.id, account.wallets);
   * ```
   */
  signIn(signer: MktSigner, options?: ClassicSignInOptions): Promise<ClassicSignIn>;
  /**
   * Signs in through the live-compatible routes: asks the server for a
   * challenge (`GET /classic/auth/message/{address}`), checks that its text
   * is `classicLiveSignInMessage` of the answered fields for this wallet
   * and the classic chain (so the wallet never signs server-chosen text),
   * signs it and posts the signature (`POST /classic/auth/verify-signature`).
   * The same token as `signIn`; the server keeps the challenge and its
   * expiry (10 minutes), so this client's clock does not matter. Also
   * answers `userId` and `user` (the shared market profile).
   *
   * @example
   * ```ts
   * import { privateKeyToAccount } from "viem/accounts";
   * const { userId, user } = await client.classic.auth.signInWithChallenge(privateKeyToAccount(privateKey));
   * ```
   */
  signInWithChallenge(signer: MktSigner, options?: { chainId?: number }): Promise<ClassicChallengeSignIn>;
  /**
   * The signed-in account and its linked wallets (`GET /classic/auth/session`);
   * an `MktApiError` 401 once the token is expired or signed out.
   *
   * @example
   * ```ts
   * const { account } = await client.classic.auth.session();
   * ```
   */
  session(): Promise<ClassicSession>;
  /**
   * Revokes the access token (`POST /classic/auth/sign-out`) and forgets it.
   * The token is forgotten even when the server refuses it (already expired).
   *
   * @example
   * ```ts
   * await client.classic.auth.signOut();
   * ```
   */
  signOut(): Promise<void>;
  /** Whether this client holds an access token (it may still have expired). */
  readonly signedIn: boolean;
  /** Uses a token obtained earlier (kept by the application), or forgets it with `undefined`. */
  useToken(token: string | undefined): void;
}

/** The Classic API's bearer sign-in (`/classic/auth`). */
export function classicAuthApi(request: Transport, credential: ClassicCredential): ClassicAuthApi {
  return {
    async signIn(signer: MktSigner, options: ClassicSignInOptions = {}): Promise<ClassicSignIn> {
      const { origin, chainId = CLASSIC_DEFAULT_CHAIN_ID, ...timing } = options;
      const signed = await signFields(
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
      return { ...signedIn, expiresAt: epochMs(signedIn.expiresAt) };
    },

    async signInWithChallenge(
      signer: MktSigner,
      { chainId = CLASSIC_DEFAULT_CHAIN_ID }: { chainId?: number } = {},
    ): Promise<ClassicChallengeSignIn> {
      const signing = toMessageSigning(signer);
      const { body: issued } = await request<unknown>({
        method: "GET",
        path: `/classic/auth/message/${encodeURIComponent(signing.address)}`,
      });
      const challenge = classicLiveMessageSchema.parse(issued);
      const expected = classicLiveSignInMessage({
        address: signing.address,
        chainId,
        nonce: challenge.nonce,
        expiresAt: challenge.expiresAt,
      });
      if (challenge.message !== expected)
        throw new Error(
          "the server's sign-in message is not the documented text for this wallet and chain; not signing it",
        );
      const { body } = await request<unknown>({
        method: "POST",
        path: "/classic/auth/verify-signature",
        body: { address: signing.address, signature: await signing.sign(challenge.message) },
      });
      const signedIn = classicVerifySignatureResponseSchema.parse(body);
      credential.token = signedIn.accessToken;
      return { ...signedIn, expiresAt: epochMs(signedIn.expiresAt) };
    },

    async session(): Promise<ClassicSession> {
      const { body } = await request<unknown>({
        method: "GET",
        path: "/classic/auth/session",
        headers: bearerHeaders(credential),
      });
      const session = classicSessionSchema.parse(body);
      return { ...session, createdAt: epochMs(session.createdAt), expiresAt: epochMs(session.expiresAt) };
    },

    async signOut(): Promise<void> {
      if (credential.token === undefined) return;
      const headers = bearerHeaders(credential);
      credential.token = undefined;
      await request({ method: "POST", path: "/classic/auth/sign-out", headers, authenticated: false });
    },

    get signedIn(): boolean {
      return credential.token !== undefined;
    },

    useToken(token: string | undefined): void {
      credential.token = token;
    },
  };
}
