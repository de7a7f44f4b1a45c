import type { FastifyReply, FastifyRequest } from "fastify";
import { unauthorized } from "../../errors.ts";
import { tokenKind } from "../../market/accounts/tokens.ts";
import type { ClassicAccountContext, ClassicAuthService } from "./service.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in account on classic bearer routes (`session: "classic"`), as plain values. */
    classicAccount: ClassicAccountContext | undefined;
  }
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
export function createClassicBearerAuth(auth: ClassicAuthService) {
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
