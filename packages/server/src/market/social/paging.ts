import { z } from "zod";
import { badRequest } from "../../errors.ts";
import { findRefusedText } from "../../http/input-text.ts";

/**
 * Opaque page cursors: base64url of the JSON of the last item's sort key.
 * Clients never look inside; the server checks the key's shape on the way
 * back, so a cursor it did not issue is a 400, never a query error.
 */
export interface CursorCodec<T> {
  encode(key: T): string;
  decode(cursor: string): T;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function cursorCodec<T>(key: z.ZodType<T>): CursorCodec<T> {
  return {
    encode: (value) => Buffer.from(JSON.stringify(value)).toString("base64url"),
    decode(cursor) {
      let raw: unknown;
      if (BASE64URL.test(cursor)) {
        try {
          raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
        } catch {
          raw = undefined;
        }
      }
      const parsed = key.safeParse(raw);
      // The decoded key reaches SQL: the request input's text rules hold inside it too.
      if (!parsed.success || findRefusedText(parsed.data) !== undefined)
        throw badRequest("cursor is not a cursor this API returned for this list");
      return parsed.data;
    },
  };
}

/** Lists ordered by a 64-bit serial id (messages, threads by their newest message). */
export const idCursor = cursorCodec(z.string().regex(/^[1-9][0-9]{0,18}$/));

/** Lists ordered by a time, ties broken by an id (follows). */
export const timeCursor = cursorCodec(z.tuple([z.number().int().nonnegative(), z.string().min(1).max(100)]));

/** Lists ordered by a unique text key (rooms by slug). */
export const textCursor = cursorCodec(z.string().min(1).max(100));

export interface PageRequest {
  cursor?: string | undefined;
  limit: number;
}

/**
 * One page from `limit + 1` rows read past the cursor: the extra row only
 * tells whether another page exists.
 */
export function toPage<Row, Item, Key>(
  rows: Row[],
  limit: number,
  item: (row: Row) => Item,
  codec: CursorCodec<Key>,
  keyOf: (row: Row) => Key,
): { items: Item[]; next: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(item),
    next: rows.length > limit && last !== undefined ? codec.encode(keyOf(last)) : null,
  };
}
