import { z } from "zod";
import type { Database } from "../db/index.ts";
import { badRequest } from "../errors.ts";
import type { Clock } from "../quotas/limiter.ts";
import type { CursorSigner } from "./cursor-signer.ts";

/**
 * Opaque page cursors of one list: the last item's sort key, signed by the
 * deployment's cursor signer for the list's binding (its name and whatever
 * selects it: the caller's account, the other party, the room). A cursor
 * this API did not return for this very list (hand-made, altered, or another
 * list's or another caller's) is a 400, never a query error.
 */
export interface CursorCodec<T> {
  encode(key: T): string;
  decode(cursor: string): T;
}

/** A kind of sort key, made into one list's codec by `for(signer, ...binding)`. */
export interface CursorKind<T> {
  for(signer: CursorSigner, ...binding: string[]): CursorCodec<T>;
}

export function cursorKind<T>(key: z.ZodType<T>): CursorKind<T> {
  return {
    for: (signer, ...binding) => ({
      encode: (value) => signer.sign(binding, value),
      decode(cursor) {
        const parsed = key.safeParse(signer.open(binding, cursor));
        if (!parsed.success) throw badRequest("cursor is not a cursor this API returned for this list");
        return parsed.data;
      },
    }),
  };
}

/** Lists ordered by a 64-bit serial id (messages, threads by their newest message). */
export const idCursor = cursorKind(z.string().regex(/^[1-9][0-9]{0,18}$/));

/** Lists ordered by a time, ties broken by an id (follows). */
export const timeCursor = cursorKind(z.tuple([z.number().int().nonnegative(), z.string().min(1).max(100)]));

/** Lists ordered by a unique text key (rooms by slug). */
export const textCursor = cursorKind(z.string().min(1).max(100));

/** What a service with paged lists is built from. */
export interface PagedServiceDeps {
  db: Database;
  clock: Clock;
  /** Signs the lists' page cursors. */
  cursors: CursorSigner;
}

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
