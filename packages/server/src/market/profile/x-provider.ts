import { usernameSchema } from "@mkt/protocol";
import { z } from "zod";
import { badRequest, UnavailableError } from "../../errors.ts";

/** The X account a completed OAuth authorization proved. */
export interface XAccount {
  username: string;
  /** The X profile image URL, or "" when X reports none. */
  avatarUrl: string;
}

/**
 * Connects X accounts through OAuth 2.0 with PKCE. `authorizeUrl` is where the
 * user's browser goes to consent; `complete` redeems the code X sent back to
 * the redirect URL and says which account consented.
 */
export interface XAccountProvider {
  /** The consent page's URL, carrying `state` and the PKCE challenge. */
  authorizeUrl(state: string, codeChallenge: string): string;
  /** Redeems the code X sent back, with its PKCE verifier; the account that consented. */
  complete(code: string, codeVerifier: string): Promise<XAccount>;
}

export const X_OAUTH_ENDPOINTS = {
  authorize: "https://x.com/i/oauth2/authorize",
  token: "https://api.x.com/2/oauth2/token",
  revoke: "https://api.x.com/2/oauth2/revoke",
  me: "https://api.x.com/2/users/me?user.fields=profile_image_url",
} as const;

/** `users/me` needs both scopes; nothing is posted or read beyond the profile. */
const SCOPES = "tweet.read users.read";

export interface XOAuthOptions {
  clientId: string;
  /** Set for a confidential client (HTTP Basic at the token endpoint); a public client sends only its id. */
  clientSecret?: string | undefined;
  redirectUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const tokenSchema = z.object({ access_token: z.string().min(1), token_type: z.string() });
const meSchema = z.object({
  data: z.object({
    username: usernameSchema,
    profile_image_url: z.string().optional(),
  }),
});

/** The X OAuth 2.0 authorization-code flow with PKCE (S256), as X documents it. */
export function createXOAuthProvider(options: XOAuthOptions): XAccountProvider {
  // Looked up per call, so a test can stand in for X with a stubbed global fetch.
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const clientAuth: Record<string, string> = options.clientSecret
    ? {
        authorization: `Basic ${Buffer.from(
          `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
        ).toString("base64")}`,
      }
    : {};

  const call = async (url: string, init: RequestInit): Promise<Response> => {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new UnavailableError("X could not be reached; try again", { cause: error, retryAfterSeconds: 5 });
    }
  };
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...clientAuth },
    body: new URLSearchParams(fields).toString(),
  });

  return {
    authorizeUrl(state, codeChallenge) {
      const url = new URL(X_OAUTH_ENDPOINTS.authorize);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: options.clientId,
        redirect_uri: options.redirectUrl,
        scope: SCOPES,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },

    async complete(code, codeVerifier) {
      const tokenResponse = await call(
        X_OAUTH_ENDPOINTS.token,
        form({
          grant_type: "authorization_code",
          code,
          redirect_uri: options.redirectUrl,
          code_verifier: codeVerifier,
          client_id: options.clientId,
        }),
      );
      if (tokenResponse.status === 400) {
        throw badRequest(
          "X refused the authorization code: it is expired, used, or not from this connection",
        );
      }
      if (!tokenResponse.ok) {
        throw new UnavailableError(`X's token endpoint answered ${tokenResponse.status}`, {
          retryAfterSeconds: 5,
        });
      }
      const token = tokenSchema.safeParse(await tokenResponse.json().catch(() => undefined));
      if (!token.success) throw new UnavailableError("X's token endpoint answered without an access token");
      const accessToken = token.data.access_token;
      try {
        const meResponse = await call(X_OAUTH_ENDPOINTS.me, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        if (!meResponse.ok) {
          throw new UnavailableError(`X's users/me answered ${meResponse.status}`, { retryAfterSeconds: 5 });
        }
        const me = meSchema.safeParse(await meResponse.json().catch(() => undefined));
        if (!me.success) throw new UnavailableError("X answered users/me without a valid username");
        const avatar = me.data.data.profile_image_url ?? "";
        return { username: me.data.data.username, avatarUrl: avatar.startsWith("https://") ? avatar : "" };
      } finally {
        // The token was needed for one read; revoking it is a courtesy, so its failure is ignored.
        void call(
          X_OAUTH_ENDPOINTS.revoke,
          form({ token: accessToken, token_type_hint: "access_token", client_id: options.clientId }),
        ).catch(() => {});
      }
    },
  };
}
