import { type ClassicPagination, type ClassicUnboxing, classicUnboxingSchema } from "@mkt/protocol";
import type { Transport } from "./http.ts";

/**
 * Restores the exact integers of a classic answer. The server writes a
 * uint256 the document calls integer (`tokenId`) as an exact JSON integer
 * with a decimal-string twin (`tokenIdString`); `JSON.parse` rounds the
 * former past 2^53, so every field that has a twin is rebuilt from it as a
 * `bigint`, at any depth.
 */
export function exactIntegers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(exactIntegers);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(record)) {
    const twin = record[`${name}String`];
    out[name] =
      typeof twin === "string" &&
      /^\d+$/.test(twin) &&
      (typeof field === "number" || typeof field === "bigint")
        ? BigInt(twin)
        : exactIntegers(field);
  }
  return out;
}

/**
 * Every item of a page-based classic list, from page 1 to the `totalPages`
 * the server reports on each page (re-read every page, so a list that grows
 * while it is walked is followed to its new end).
 */
export async function* everyPageItem<Page extends { pagination: ClassicPagination }, Item>(
  read: (page: number) => Promise<Page>,
  items: (page: Page) => Item[],
): AsyncGenerator<Item> {
  for (let page = 1; ; page++) {
    const answer = await read(page);
    yield* items(answer);
    if (page >= answer.pagination.totalPages) return;
  }
}

export type ClassicQuery = Record<
  string,
  string | number | boolean | bigint | readonly (string | bigint)[] | undefined
>;

/** The Classic booster-box API (`/classic`): every read. */
export function classicApi(request: Transport) {
  const read = async <T>(
    path: string,
    schema: { parse(input: unknown): T },
    query: ClassicQuery = {},
    headers?: Record<string, string>,
  ) => {
    const plain: Record<string, string | number | boolean | undefined> = {};
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      plain[name] = Array.isArray(value)
        ? value.map(String).join(",")
        : typeof value === "bigint"
          ? value.toString()
          : (value as string | number | boolean);
    }
    const { body } = await request<unknown>({
      method: "GET",
      path: `/classic${path}`,
      query: plain,
      ...(headers ? { headers } : {}),
    });
    return schema.parse(exactIntegers(body));
  };
  return {
    /**
     * Whether the operator currently disallows unboxing (`GET /classic/unboxing-disallowed`).
     *
     * @example
     * ```ts
     * if ((await client.classic.unboxingDisallowed()).disallowed) console.log("opening is paused");
     * ```
     */
    unboxingDisallowed: (): Promise<ClassicUnboxing> => read("/unboxing-disallowed", classicUnboxingSchema),
  };
}
