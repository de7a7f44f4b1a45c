import { z } from "zod";
import { signedActionRequestSchema } from "../account/schemas.ts";
import { InvalidActionError } from "./release-actions.ts";
import { dropIdSchema, lineText, runtimeVersionSchema } from "./releases.ts";

/**
 * The signed edits of `POST /market/runtime/{version}/pack-edit`: offchain
 * labels a wallet puts on a pack it holds in that runtime. `packId` is the
 * onchain id of the pack (in the reference runtime, the drop whose claims
 * the wallet holds). Ownership is checked by the server against the indexer's
 * projection at the current head, never by the parser.
 */

export const PACK_EDIT_LIMITS = { name: 40, note: 280 } as const;

const packId = dropIdSchema.describe("The pack's onchain id, a decimal string.");

export const packEditActionSchemas = {
  "set-name": z
    .object({
      kind: z.literal("set-name"),
      packId,
      name: lineText(PACK_EDIT_LIMITS.name, "name")
        .nullable()
        .describe(`Display name, 1 to ${PACK_EDIT_LIMITS.name} characters; null clears it.`),
    })
    .strict(),
  "set-note": z
    .object({
      kind: z.literal("set-note"),
      packId,
      note: lineText(PACK_EDIT_LIMITS.note, "note")
        .nullable()
        .describe(`A one-line note, 1 to ${PACK_EDIT_LIMITS.note} characters; null clears it.`),
    })
    .strict(),
} as const;

export type PackEditKind = keyof typeof packEditActionSchemas;
export const PACK_EDIT_KINDS = Object.keys(packEditActionSchemas) as PackEditKind[];

export const packEditActionSchema = z
  .discriminatedUnion("kind", [packEditActionSchemas["set-name"], packEditActionSchemas["set-note"]])
  .meta({ id: "PackEditAction" });

export type PackEditAction = z.output<typeof packEditActionSchema>;
export type PackEditActionInput = z.input<typeof packEditActionSchema>;

/**
 * Parses a pack edit the way `parseReleaseAction` parses a release action:
 * trimmed, strict, canonical key order; the only way a pack edit becomes the
 * JSON that is signed.
 *
 * @throws {InvalidActionError} with the zod issues.
 * @example
 * const action = parsePackEditAction({ kind: "set-name", packId: "7", name: "Rare pulls" });
 */
export function parsePackEditAction(input: unknown): PackEditAction {
  const result = packEditActionSchema.safeParse(input);
  if (!result.success) throw new InvalidActionError("pack edit", result.error.issues);
  return result.data;
}

/** The canonical JSON of a pack edit, as on the `Action:` line. */
export function packEditActionJson(action: unknown): string {
  return JSON.stringify(parsePackEditAction(action));
}

/**
 * The body of `POST /market/runtime/{version}/pack-edit` (CONTRACT.md). The
 * runtime `version` comes from the path and is part of the signed message.
 */
export const packEditRequestSchema = signedActionRequestSchema(
  packEditActionSchema,
  "EIP-191 signature over `packEditMessage({address, nonce, expires, version, action})`, with `version` the path's runtime id and the action as `parsePackEditAction` returns it.",
).meta({ id: "PackEditRequest" });

export type PackEditRequest = z.input<typeof packEditRequestSchema>;
export type ParsedPackEditRequest = z.output<typeof packEditRequestSchema>;

/** The path parameters of the pack-edit route. */
export const packEditParamsSchema = z.object({ version: runtimeVersionSchema });

/** A holder's labels on one pack of one runtime, as `POST …/pack-edit` answers them. */
export const packEditSchema = z
  .object({
    version: z.string().describe("The runtime id of the path."),
    packId: z.string().describe("The pack's onchain id, a decimal string."),
    owner: z.string().describe("The holding wallet whose labels these are (lowercase)."),
    name: z.string().nullable().describe("The display name; null when never set or cleared."),
    note: z.string().nullable().describe("The note; null when never set or cleared."),
    updatedAt: z.number().int().describe("Unix milliseconds of the last accepted edit."),
  })
  .meta({ id: "PackEdit" });

export type PackEdit = z.infer<typeof packEditSchema>;
