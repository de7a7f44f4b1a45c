import { z } from "zod";
import { signedActionRequestSchema } from "../account/schemas.ts";
import { dropIdSchema, releaseDraftSchema, releaseIdSchema, runtimeVersionSchema } from "./releases.ts";

/**
 * The signed actions of `POST /market/releases` and the shared parser that is
 * the only way an action becomes the JSON a wallet signs. The parser is pure
 * (no clock): whether `launchAt` is still in the future, whether `revision`
 * is current and whether the status allows the action are the server's
 * checks at acceptance, so the SDK and the server always agree on the text.
 */

/** Latest `launchAt` accepted: the last millisecond of year 9999. */
export const MAX_LAUNCH_AT = 253_402_300_799_999;

const revision = z
  .number()
  .int("revision must be an integer")
  .min(1, "revision starts at 1")
  .max(Number.MAX_SAFE_INTEGER)
  .describe("The revision the action is based on; 409 when the release has moved on.");

const launchAt = z
  .number()
  .int("launchAt must be an integer of Unix milliseconds")
  .min(1)
  .max(MAX_LAUNCH_AT, "launchAt must be before year 10000")
  .describe("Unix milliseconds; must be in the future when the server accepts the action.");

const onRelease = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ kind: z.literal(kind), releaseId: releaseIdSchema, revision, ...shape }).strict();

export const releaseActionSchemas = {
  create: z.object({ kind: z.literal("create"), draft: releaseDraftSchema }).strict(),
  edit: onRelease("edit", { draft: releaseDraftSchema }),
  announce: onRelease("announce", { launchAt }),
  reschedule: onRelease("reschedule", { launchAt }),
  cancel: onRelease("cancel", {}),
  link: onRelease("link", {
    version: runtimeVersionSchema.describe("The runtime id (from `GET /market/runtime`) the drop lives in."),
    dropId: dropIdSchema.describe("The drop id in that runtime, as a decimal string."),
  }),
  delete: onRelease("delete", {}),
} as const;

export type ReleaseActionKind = keyof typeof releaseActionSchemas;
export const RELEASE_ACTION_KINDS = Object.keys(releaseActionSchemas) as ReleaseActionKind[];

export const releaseActionSchema = z
  .discriminatedUnion("kind", [
    releaseActionSchemas.create,
    releaseActionSchemas.edit,
    releaseActionSchemas.announce,
    releaseActionSchemas.reschedule,
    releaseActionSchemas.cancel,
    releaseActionSchemas.link,
    releaseActionSchemas.delete,
  ])
  .meta({ id: "ReleaseAction" });

/** A parsed action: every key present, in canonical order. */
export type ReleaseAction = z.output<typeof releaseActionSchema>;
/** An action as a client may write it (defaults not yet applied, any key order, untrimmed strings). */
export type ReleaseActionInput = z.input<typeof releaseActionSchema>;

/** An action that does not parse; `issues` are zod's, with paths into the action. */
export class InvalidActionError extends Error {
  readonly code = "invalid_action";
  readonly issues: z.core.$ZodIssue[];

  constructor(what: string, issues: z.core.$ZodIssue[]) {
    const first = issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join(".")}: ` : "";
    super(`invalid ${what}: ${where}${first?.message ?? "does not parse"}`);
    this.name = "InvalidActionError";
    this.issues = issues;
  }
}

/**
 * Parses a release action: trims and NFC-normalises strings, lowercases
 * colours, fills defaults, refuses unknown keys and oversized fields, and
 * returns a plain object whose keys are in canonical order, so that
 * `JSON.stringify(parseReleaseAction(x))` is the text that is signed.
 * Idempotent: parsing a parsed action returns an equal value.
 *
 * @throws {InvalidActionError} with the zod issues.
 * @example
 * const action = parseReleaseAction({ kind: "announce", releaseId: "rel_1", revision: 3, launchAt: Date.now() + 86_400_000 });
 */
export function parseReleaseAction(input: unknown): ReleaseAction {
  const result = releaseActionSchema.safeParse(input);
  if (!result.success) throw new InvalidActionError("release action", result.error.issues);
  return result.data;
}

/** `parseReleaseAction` without throwing. */
export function safeParseReleaseAction(
  input: unknown,
): { success: true; data: ReleaseAction } | { success: false; error: InvalidActionError } {
  const result = releaseActionSchema.safeParse(input);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, error: new InvalidActionError("release action", result.error.issues) };
}

/** The canonical JSON of an action, as on the `Action:` line: parsed first, so any input gives the signed form. */
export function releaseActionJson(action: unknown): string {
  return JSON.stringify(parseReleaseAction(action));
}

/** The body of `POST /market/releases` (CONTRACT.md): the message's fields, the parsed action and the signature. */
export const releaseActionRequestSchema = signedActionRequestSchema(
  releaseActionSchema,
  "EIP-191 signature over `releaseActionMessage({address, nonce, expires, action})`, the action as `parseReleaseAction` returns it.",
).meta({ id: "ReleaseActionRequest" });

export type ReleaseActionRequest = z.input<typeof releaseActionRequestSchema>;
export type ParsedReleaseActionRequest = z.output<typeof releaseActionRequestSchema>;
