import type { FastifyRequest } from "fastify";
import type { ClassicAccountContext } from "../auth/index.ts";

/** The signed-in account of a bearer route; the pipeline has set it before any handler runs. */
export const accountOf = (request: FastifyRequest) => request.classicAccount as ClassicAccountContext;

/** The access paragraph of every "API-KEY and bearer" route of this area. */
export const keyAndBearer =
  "Access: API-KEY and bearer (section 5): both headers, the key checked first (the classic 429 without a valid key, whatever the token), then `Authorization: Bearer <accessToken>` from `POST /classic/auth/sign-in` (401 `UNAUTHORIZED` when missing, expired, signed out or invalid).";
