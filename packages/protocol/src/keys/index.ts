import { z } from "zod";
import { integerParam } from "../params/index.ts";

/** The prefix every mkt API key starts with, so a leaked key is easy to recognise and scan for. */
export const API_KEY_PREFIX = "mkt_";
/** `mkt_` followed by 43 base64url characters (32 random bytes). */
export const apiKeyPattern = /^mkt_[A-Za-z0-9_-]{43}$/;

export const createKeyRequestSchema = z
  .object({
    description: z
      .string({ error: "description is required and must be a string" })
      .trim()
      .min(1, "description must be 1 to 500 characters")
      .max(500, "description must be 1 to 500 characters")
      .describe("Project name and what the key is for (1 to 500 characters)."),
    email: z
      .email({ error: "email must be a valid e-mail address" })
      .max(254, "email must be at most 254 characters")
      .describe("Contact address of the key holder."),
  })
  .strict()
  .meta({ id: "CreateKeyRequest" });

export const createdKeySchema = z
  .object({
    id: z.string().describe("Stable identifier of the key, safe to log and to show."),
    key: z.string().describe("The secret key. Shown only in this response; mkt stores only its hash."),
    multiplier: z.number().int().min(1).describe("Quota multiplier; a new key starts at 1."),
    createdAt: z.iso.datetime().describe("ISO 8601 creation time."),
  })
  .meta({ id: "CreatedKey" });

/**
 * The answer to a retried `POST /keys` with the same `Idempotency-Key` and body (marked
 * `Idempotent-Replayed: true`): the key that request created, without its secret, which is shown
 * once and never stored.
 */
export const replayedKeySchema = createdKeySchema.omit({ key: true }).meta({ id: "ReplayedKey" });

/** What `POST /keys` answers: a new key, or (on an idempotent replay) the same key without its secret. */
export const createKeyResponseSchema = z.union([createdKeySchema, replayedKeySchema]);

export const adminKeySchema = z
  .object({
    id: z.string(),
    prefix: z.string().describe("The first characters of the key, to tell keys apart; never the whole key."),
    description: z.string(),
    email: z.string(),
    multiplier: z.number().int().min(1),
    firstParty: z
      .boolean()
      .describe("Marked by the operator: the key uses the prediction feed while it is not public."),
    revoked: z.boolean(),
    revokedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "AdminKey" });

export const adminKeyListSchema = z.object({
  keys: z.array(adminKeySchema),
  next: z.string().nullable().describe("Opaque cursor of the next page; null on the last page."),
});

/** `GET /admin/keys` on the operator listener. */
export const adminKeyListQuerySchema = z.object({
  limit: integerParam("limit", { min: 1, max: 500, default: 100 }),
  cursor: z.string().max(500).optional().describe("The `next` of the previous page."),
});

/** `PATCH /admin/keys/{id}` on the operator listener. */
export const adminKeyParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const adminKeyPatchSchema = z
  .object({
    multiplier: z.number().int().min(1).max(1_000_000).optional(),
    revoked: z.boolean().optional(),
    firstParty: z.boolean().optional(),
  })
  .strict()
  .refine(
    (value) =>
      value.multiplier !== undefined || value.revoked !== undefined || value.firstParty !== undefined,
    { message: "give multiplier, revoked, firstParty or a combination" },
  );

export type CreateKeyRequest = z.infer<typeof createKeyRequestSchema>;
export type CreatedKey = z.infer<typeof createdKeySchema>;
export type ReplayedKey = z.infer<typeof replayedKeySchema>;
export type AdminKey = z.infer<typeof adminKeySchema>;
export type AdminKeyPatch = z.infer<typeof adminKeyPatchSchema>;
