import { timingSafeEqual } from "node:crypto";
import { badRequest } from "../../errors.ts";
import { hmac } from "../../secrets/index.ts";

const PART = /^[A-Za-z0-9_-]+$/;

/**
 * Authenticated keyset cursors. A cursor carries the last item's position
 * (strings) and an HMAC-SHA256, under a per-deployment key, over the
 * position and its binding: the resource, the runtime and the filter the
 * page was read with. A cursor presented with another binding (another
 * owner, drop filter or runtime), or forged, truncated or altered, fails the
 * MAC and is a 400; clients treat cursors as opaque.
 *
 * Form: `base64url(JSON position)` `.` `base64url(MAC)` (43 characters).
 */
export function createCursorCodec({ key }: { key: () => Promise<Buffer> }) {
  const macInput = (binding: readonly string[], payload: string) =>
    // JSON keeps the parts apart whatever characters they hold.
    JSON.stringify([...binding, payload]);
  return {
    async encode(binding: readonly string[], position: readonly string[]): Promise<string> {
      const payload = Buffer.from(JSON.stringify(position)).toString("base64url");
      return `${payload}.${hmac(await key(), macInput(binding, payload))}`;
    },

    /** The position of a cursor this server issued for `binding`; 400 for anything else. */
    async decode(binding: readonly string[], cursor: string, parts: number): Promise<string[]> {
      const refused = () =>
        badRequest("cursor is not a cursor this API returned for this runtime and filter");
      const [payload, mac, extra] = cursor.split(".");
      if (payload === undefined || mac === undefined || extra !== undefined) throw refused();
      if (!PART.test(payload) || !PART.test(mac)) throw refused();
      const expected = Buffer.from(hmac(await key(), macInput(binding, payload)));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
      let position: unknown;
      try {
        position = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        throw refused();
      }
      if (
        !Array.isArray(position) ||
        position.length !== parts ||
        !position.every((part) => typeof part === "string")
      ) {
        throw refused();
      }
      return position;
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
