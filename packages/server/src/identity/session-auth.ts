import type { AnySessionKind, SessionKind } from "@mkt/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "../errors.ts";
import type { Session, SessionService } from "./sessions.ts";
import { tokenKind } from "./tokens.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The session that authorised this request, on session routes. */
    session: Session | undefined;
  }
}

/** Cookies of the first-party proxy, one per session kind; all `Path=/app/api`, HttpOnly, SameSite=Strict. */
export const SESSION_COOKIES: Record<SessionKind, string> = {
  account: "mkt-session",
  chat: "mkt-chat",
  access: "mkt-access",
};

export const PROXY_PREFIX = "/app/api";

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** One cookie's value from the Cookie header (the proxy's own cookies are plain base64url tokens). */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const raw = header(request, "cookie");
  if (!raw) return undefined;
  for (const part of raw.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export function sessionCookie(
  kind: SessionKind,
  token: string,
  { expiresAt, now, secure }: { expiresAt: number; now: number; secure: boolean },
): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - now) / 1000));
  return `${SESSION_COOKIES[kind]}=${token}; Path=${PROXY_PREFIX}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(kind: SessionKind, secure: boolean): string {
  return `${SESSION_COOKIES[kind]}=; Path=${PROXY_PREFIX}; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export const onProxy = (request: FastifyRequest) => request.routeOptions.config.surface === "app";

const CLASSIC_TOKEN = "a Classic API access token authorizes only /classic routes";

const WRONG_KIND: Record<SessionKind, Partial<Record<AnySessionKind, string>>> = {
  account: {
    classic: CLASSIC_TOKEN,
    chat: "a chat session authorizes only the room and follow routes, not account actions or direct messages",
    access: "an access session goes in X-MKT-Session and authorizes only the access area",
  },
  chat: {
    classic: CLASSIC_TOKEN,
    account: "this route takes a chat session (POST /market/chat/session), not the account session",
    access: "an access session goes in X-MKT-Session and authorizes only the access area",
  },
  access: {
    classic: CLASSIC_TOKEN,
    account: "an account session cannot act as an access session",
    chat: "a chat session cannot act as an access session",
  },
};

/** Makes the preHandler hook of a route that requires a session of `required`: it sets `request.session` or throws. */
export type SessionAuth = (
  required: SessionKind,
) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Session authentication of one route. Tokens are
 * read from headers and the proxy's cookies only, never from a URL.
 *
 * - account and chat sessions, direct: `Authorization: Bearer <token>`, with
 *   `Origin` equal to the origin the wallet signed and `X-MKT-Wallet` equal to
 *   the session's wallet (a wallet switch needs a new sign-in).
 * - the same through the first-party proxy: the session cookie, and
 *   `X-MKT-Wallet`; the proxy has validated the origin already.
 * - access sessions: `X-MKT-Session` (or the proxy's access cookie).
 */
export function createSessionAuth(sessions: SessionService): SessionAuth {
  const presented = (request: FastifyRequest, kind: SessionKind): string | undefined => {
    if (onProxy(request)) return readCookie(request, SESSION_COOKIES[kind]);
    if (kind === "access") return header(request, "x-mkt-session");
    const authorization = header(request, "authorization");
    if (!authorization) return undefined;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized("the Authorization header must be `Bearer <session token>`");
    return match[1];
  };

  return (required: SessionKind) =>
    async function sessionHook(request: FastifyRequest, _reply: FastifyReply) {
      const token = presented(request, required);
      if (!token) {
        if (required !== "access" && !onProxy(request) && header(request, "x-mkt-session")) {
          throw unauthorized("this route takes the session in `Authorization: Bearer`, not X-MKT-Session");
        }
        throw unauthorized(
          onProxy(request)
            ? "not signed in"
            : required === "access"
              ? "an access session is required in the X-MKT-Session header"
              : "a session is required: send `Authorization: Bearer <session token>`",
        );
      }
      const claimed = tokenKind(token);
      if (claimed === undefined) throw unauthorized("the session token is malformed");
      if (claimed !== required) throw forbidden(WRONG_KIND[required][claimed] ?? "wrong session kind");
      const session = await sessions.authenticate(token);
      if (!session || session.kind !== required) {
        throw unauthorized("the session is invalid, expired or signed out; sign in again");
      }
      if (required !== "access") {
        if (!onProxy(request) && header(request, "origin") !== session.origin) {
          throw unauthorized("the Origin header must equal the origin the session was signed for");
        }
        const wallet = header(request, "x-mkt-wallet")?.toLowerCase();
        if (wallet === undefined) throw unauthorized("the X-MKT-Wallet header is required with a session");
        if (wallet !== session.wallet) {
          throw unauthorized(
            "X-MKT-Wallet does not match the session's wallet; after a wallet switch, sign in again",
          );
        }
      }
      request.session = session;
    };
}

/**
 * Whether a request presents a credential of `kind`, on a route whose session
 * is optional: through the first-party proxy the kind's cookie; directly
 * `Authorization` (account and chat sessions) or `X-MKT-Session` (access
 * sessions). A request that presents one is authenticated like on a session
 * route, so a malformed, expired or signed-out credential is a 401, never an
 * anonymous answer; one that presents none is anonymous.
 */
export function sessionPresented(kind: AnySessionKind) {
  return (request: FastifyRequest): boolean => {
    // Classic bearer tokens are never cookies (classic routes are not proxied).
    if (onProxy(request) && kind !== "classic") return Boolean(readCookie(request, SESSION_COOKIES[kind]));
    return Boolean(header(request, kind === "access" ? "x-mkt-session" : "authorization"));
  };
}

/**
 * The first-party proxy's own origin check, before anything else: a
 * state-changing request needs an allowlisted `Origin`; a read may instead
 * carry `Sec-Fetch-Site: same-origin` (browsers send no Origin on same-origin
 * GETs). Anything else, another website or a non-browser client, is refused:
 * integrators call `/market` with their own key.
 */
export function createProxyOriginCheck(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (request: FastifyRequest) => {
    const origin = header(request, "origin");
    if (origin !== undefined) {
      if (!allowed.has(origin)) throw forbidden("the first-party proxy serves only the first-party website");
      return;
    }
    const safe = request.method === "GET" || request.method === "HEAD";
    if (safe && header(request, "sec-fetch-site") === "same-origin") return;
    throw forbidden(
      safe
        ? "the first-party proxy needs an allowlisted Origin or Sec-Fetch-Site: same-origin"
        : "state-changing requests to the first-party proxy need an allowlisted Origin",
    );
  };
}
