import { createKeyRequestSchema, createKeyResponseSchema } from "@mkt/protocol";
import { unauthorized } from "../errors.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";
import type { KeyService } from "./service.ts";

/** Platform routes at `/keys`, shared by the three APIs (their `{key_create_url}`). */
export function keyRoutes({ keys }: { keys: KeyService }): RouteSpec[] {
  return [
    defineRoute({
      method: "POST",
      path: "/keys",
      operationId: "createApiKey",
      summary: "Create an API key",
      description:
        "Creates a key that works at once on all three APIs at multiplier 1. The key is returned only in this response and stored only as a hash; keep it out of source control, URLs and logs. Limited to 10 keys per hour per client IP (an IPv6 /64 counts as one client; an IPv4-mapped IPv6 address as its IPv4 address).",
      tags: ["API keys"],
      request: { body: createKeyRequestSchema },
      responses: {
        201: {
          description:
            "The new key (`CreatedKey`). A retry with the same `Idempotency-Key` and body within 24 hours answers `ReplayedKey` instead, marked `Idempotent-Replayed: true`: the same key without its secret, which is shown only once and never stored, not even sealed. A client that lost the first answer revokes that key by id through its operator or creates another.",
          schema: createKeyResponseSchema,
        },
        400: { description: "description or email missing or invalid." },
        422: { description: "The Idempotency-Key was already used with another body." },
        429: { description: "Too many keys created from this client IP." },
        503: { description: "The database is unavailable." },
      },
      handler: async (request, reply) => {
        const created = await keys.create(request.body);
        return reply.code(201).send(created);
      },
    }),
    defineRoute({
      method: "DELETE",
      path: "/keys/current",
      operationId: "revokeCurrentApiKey",
      summary: "Revoke the API key sent in the API-KEY header",
      description:
        "Lets a key's holder revoke it with the key itself, for example after a leak. Takes effect at once on this replica and within a second on every other. Answers 204 with an empty body. Limited to 10 attempts per minute per client (an IPv6 /64 is one client), checked before the key is looked up; an unknown key counts as a failed API key attempt of the client, like anywhere else.",
      tags: ["API keys"],
      responses: {
        204: { description: "The key is revoked." },
        401: { description: "API-KEY missing, malformed, unknown or already revoked." },
        429: {
          description:
            "Too many revocation attempts from this client, or too many failed API key attempts (20 per minute).",
        },
        503: { description: "The database is unavailable." },
      },
      handler: async (request, reply) => {
        const header = request.headers["api-key"];
        const presented = Array.isArray(header) ? header[0] : header;
        if (!presented) throw unauthorized("API key missing: send it in the API-KEY header");
        await keys.revokeSelf(presented);
        return reply.code(204).send();
      },
    }),
  ];
}
