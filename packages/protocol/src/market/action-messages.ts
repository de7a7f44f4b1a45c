/**
 * The texts a wallet signs for one offchain action (docs/market.md,
 * Release actions and pack edits: what is signed): a title line, `Wallet:`, `Nonce:`,
 * `Expires:`, `Action:` with the canonical JSON of the parsed action, and a
 * closing line. Lines joined by "\n", no trailing newline, as `signInMessage`.
 * The builders parse the action themselves, so a hand-serialised action can
 * never reach the text: the SDK signs and the server verifies the same bytes.
 */

import { MARKETPLACE_NAME } from "../account/messages.ts";
import { nonceSchema, signedEnvelopeSchema } from "../account/schemas.ts";
import { packEditActionJson } from "./pack-edits.ts";
import { releaseActionJson } from "./release-actions.ts";
import { runtimeVersionSchema } from "./releases.ts";

export const RELEASE_ACTION_TITLE = `${MARKETPLACE_NAME} marketplace: offchain release catalog`;
export const PACK_EDIT_TITLE = `${MARKETPLACE_NAME} marketplace: pack edit`;

/** The closing line of both action messages. */
export const ACTION_LIMITS =
  "This signature changes offchain catalog data only: it cannot launch a pool, spend tokens, grant allowances, transfer assets or send transactions.";

/** What an action message states besides the action. */
export interface ActionMessageFields {
  address: string;
  nonce: string;
  /** Unix milliseconds. */
  expires: number;
}

function headerLines(title: string, { address, nonce, expires }: ActionMessageFields) {
  const wallet = signedEnvelopeSchema.shape.address.safeParse(address);
  if (!wallet.success) throw new TypeError("address must be a 0x-prefixed 20-byte hex address");
  // The nonce is checked, never rewritten: the message states it as the body does.
  if (!nonceSchema.safeParse(nonce).success) throw new TypeError("nonce must be a UUID v4");
  if (!Number.isSafeInteger(expires)) throw new TypeError("expires must be an integer of Unix milliseconds");
  return {
    title,
    wallet: `Wallet: ${wallet.data}`,
    nonce: `Nonce: ${nonce}`,
    expires: `Expires: ${expires}`,
  };
}

/**
 * The exact text a wallet signs for `POST /market/releases`.
 *
 * @throws {InvalidActionError} when the action does not parse.
 * @example
 * const message = releaseActionMessage({ address, nonce: crypto.randomUUID(), expires: Date.now() + 60_000, action: { kind: "cancel", releaseId, revision: 4 } });
 * const signature = await account.signMessage({ message });
 */
export function releaseActionMessage(fields: ActionMessageFields & { action: unknown }): string {
  const head = headerLines(RELEASE_ACTION_TITLE, fields);
  return [
    head.title,
    head.wallet,
    head.nonce,
    head.expires,
    `Action: ${releaseActionJson(fields.action)}`,
    ACTION_LIMITS,
  ].join("\n");
}

/**
 * The exact text a wallet signs for `POST /market/runtime/{version}/pack-edit`;
 * the runtime id is on its own `Runtime:` line after `Wallet:`, so a signature
 * for one runtime never applies to another.
 *
 * @throws {InvalidActionError} when the action does not parse.
 * @example
 * const message = packEditMessage({ address, nonce: crypto.randomUUID(), expires: Date.now() + 60_000, version: "r2", action: { kind: "set-name", packId: "7", name: "Rare pulls" } });
 */
export function packEditMessage(fields: ActionMessageFields & { version: string; action: unknown }): string {
  const head = headerLines(PACK_EDIT_TITLE, fields);
  if (!runtimeVersionSchema.safeParse(fields.version).success) {
    throw new TypeError("version must be a runtime id");
  }
  return [
    head.title,
    head.wallet,
    `Runtime: ${fields.version}`,
    head.nonce,
    head.expires,
    `Action: ${packEditActionJson(fields.action)}`,
    ACTION_LIMITS,
  ].join("\n");
}
