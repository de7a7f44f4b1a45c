import type { FastifyReply, FastifyRequest } from "fastify";
import { unauthorized } from "../errors.ts";
import type { Session, SessionService } from "./sessions.ts";
import { tokenKind } from "./tokens.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in account on classic bearer routes (`session: "classic"`), as plain values. */
    classicAccount: ClassicAccountContext | undefined;
  }
}

/**
 * The account a Classic access token signed in, as handlers get it: plain
 * values, read for the request (the wallets as linked now, so a wallet linked
 * or unlinked after sign-in counts at once).
 */
export interface ClassicAccountContext {
  /** The account id (the same accounts as the market's sessions). */
  id: string;
  /** The wallet that signed in (lowercase). */
  address: string;
  /** Every wallet linked to the account, in link order, the signing one included. */
  wallets: readonly string[];
  /** The session row behind the token, for sign-out. */
  sessionId: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Classic access tokens are sessions of kind `classic` in the one session
 * table (`mktb_` tokens, stored only as SHA-256): the live classic session a
 * token names, with its account, or undefined (unknown, expired, revoked, or
 * a session of another kind).
 */
function createClassicSessions(sessions: SessionService) {
  const accountOf = async (session: Session): Promise<ClassicAccountContext> => {
    // A classic session always names its account (authenticate drops rows whose account was deleted).
    const id = session.accountId as string;
    return {
      id,
      address: session.wallet ?? "",
      wallets: await sessions.wallets.of(id),
      sessionId: session.id,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
    };
  };
  return {
    async authenticate(token: string): Promise<ClassicAccountContext | undefined> {
      const session = await sessions.authenticate(token);
      if (session?.kind !== "classic" || session.accountId === null) return undefined;
      return accountOf(session);
    },
  };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The pipeline's check of the classic bearer (`session: "classic"` in the
 * classic route table), run after the route's API-key check, so a missing
 * key is the classic 429 whatever the token. The token is read from
 * `Authorization: Bearer` only, never from a URL or a cookie. Every refusal
 * is a 401 in the classic body (`error: "UNAUTHORIZED"`): missing header,
 * malformed header, a token of another kind (a market session), and an
 * unknown, expired or signed-out token alike.
 */
export function createClassicBearerAuth(sessions: SessionService) {
  const auth = createClassicSessions(sessions);
  return async function classicBearer(request: FastifyRequest, _reply: FastifyReply) {
    const header = request.headers.authorization;
    if (!header) {
      throw unauthorized(
        "an access token is required: send `Authorization: Bearer <accessToken>` (POST /classic/auth/sign-in)",
      );
    }
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized("the Authorization header must be `Bearer <accessToken>`");
    if (tokenKind(token) !== "classic") {
      throw unauthorized("this is not a Classic API access token; sign in with POST /classic/auth/sign-in");
    }
    const account = await auth.authenticate(token);
    if (!account) throw unauthorized("the access token is invalid, expired or signed out; sign in again");
    request.classicAccount = account;
  };
}

/** The signed-in account of a bearer route, as plain values for services; the pipeline's bearer step has set it. */
export function signedInAccount(request: FastifyRequest): ClassicAccountContext {
  const account = request.classicAccount;
  if (account === undefined)
    throw new Error(`${request.routeOptions.url} reads the classic account but declares no bearer`);
  return account;
}
