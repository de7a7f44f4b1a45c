import { timingSafeEqual } from "node:crypto";
import { hmac } from "../secrets/index.ts";

const PART = /^[A-Za-z0-9_-]+$/;

/**
 * Authenticated page cursors. A cursor carries a position (any JSON value:
 * the last item's sort key) and an HMAC-SHA256, under a per-deployment key,
 * over the position and its binding: the list it was issued for and
 * whatever selects that list (the caller's account, the other party, a
 * filter, a runtime). A cursor presented with another binding, or forged,
 * truncated or altered, fails the MAC, so a cursor the server did not issue
 * for this list is always refused before it reaches a query.
 *
 * Form: `base64url(JSON position)` `.` `base64url(MAC)` (43 characters).
 */
export interface CursorSigner {
  /** A cursor carrying `position`, valid only for `binding`. */
  sign(binding: readonly string[], position: unknown): string;
  /** The position of a cursor this signer issued for `binding`; `undefined` for anything else. */
  open(binding: readonly string[], cursor: string): unknown;
}

export function createCursorSigner(key: Buffer): CursorSigner {
  // JSON keeps the binding's parts and the payload apart whatever characters they hold.
  const macOf = (binding: readonly string[], payload: string) =>
    hmac(key, JSON.stringify([...binding, payload]));
  return {
    sign(binding, position) {
      const payload = Buffer.from(JSON.stringify(position)).toString("base64url");
      return `${payload}.${macOf(binding, payload)}`;
    },
    open(binding, cursor) {
      const [payload, mac, extra] = cursor.split(".");
      if (payload === undefined || mac === undefined || extra !== undefined) return undefined;
      if (!PART.test(payload) || !PART.test(mac)) return undefined;
      const expected = Buffer.from(macOf(binding, payload));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        return undefined;
      }
    },
  };
}
