import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler as zodValidatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";

/**
 * What no string of a request's decoded input may contain, in any field or
 * property name of the body, query, path parameters or headers, whatever the
 * route or listener:
 *
 * - U+0000 (NUL): PostgreSQL's text and jsonb cannot hold it (the write would
 *   fail), and no text needs it.
 * - An unpaired UTF-16 surrogate (a JSON escape such as `"\ud800"` alone): it
 *   is not a character, and encoding it as UTF-8 for storage would turn it into
 *   U+FFFD, so what is stored would silently differ from what was sent.
 * - The bidirectional embeddings, overrides and isolates, U+202A to U+202E and
 *   U+2066 to U+2069. Text holding them displays in another order than its
 *   characters (a name, link or message that reads as something else, the
 *   "Trojan Source" trick), and one left open reorders the page around it.
 *   They are refused everywhere rather than in chosen display fields because
 *   no field has a use for them: identifiers, addresses, hashes, signatures,
 *   tokens, URLs, enums and base64 never contain them, and right-to-left
 *   display text needs none (the Unicode bidirectional algorithm orders it; the
 *   marks U+200E, U+200F and U+061C, which reorder nothing beyond themselves,
 *   stay allowed). One rule in the shared path also covers text nested in
 *   signed or structured fields and every display field a surface adds later.
 *
 * A `u` expression reads a surrogate pair as one code point, so the surrogate
 * range matches only a surrogate that is not part of a pair.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing NUL is the point
const REFUSED = /[\u0000\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;

/** Where refused text was found: the path to it and which character it holds. */
export interface RefusedText {
  /** Keys and indexes from the root of the value; empty when the value itself is the string. */
  path: Array<string | number>;
  /** Whether a property name at `path` holds it, rather than a string value. */
  inPropertyName: boolean;
  /** The first refused character, named (`U+0000 (NUL)`). */
  character: string;
}

function refusedCharacterIn(text: string): string | undefined {
  const found = REFUSED.exec(text);
  if (found === null) return undefined;
  const code = found[0].codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  if (code === 0) return `${hex} (NUL)`;
  if (code >= 0xd800 && code <= 0xdfff) return `an unpaired UTF-16 surrogate (${hex})`;
  return `the bidirectional control ${hex}`;
}

/**
 * The first string or property name of a decoded JSON-like value that holds a
 * refused character, or undefined. The walk is iterative: a deeply nested body
 * is refused by its schema, never by a stack overflow here.
 */
export function findRefusedText(value: unknown): RefusedText | undefined {
  interface Frame {
    value: unknown;
    key: string | number | undefined;
    parent: Frame | undefined;
  }
  const pathOf = (frame: Frame | undefined) => {
    const path: Array<string | number> = [];
    for (let at = frame; at?.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Frame[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (typeof current === "string") {
      const character = refusedCharacterIn(current);
      if (character !== undefined) return { path: pathOf(frame), inPropertyName: false, character };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index], key: index, parent: frame });
    } else if (current !== null && typeof current === "object") {
      const keys = Object.keys(current);
      for (const key of keys) {
        const character = refusedCharacterIn(key);
        if (character !== undefined) return { path: pathOf(frame), inPropertyName: true, character };
      }
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: frame });
      }
    }
  }
  return undefined;
}

/** The 400 message naming the field: `body.bio: must not contain U+0000 (NUL)`. */
function refusedTextMessage(part: string, refused: RefusedText): string {
  const field = [part, ...refused.path].join(".");
  return refused.inPropertyName
    ? `${field}: property names must not contain ${refused.character}`
    : `${field}: must not contain ${refused.character}`;
}

const PART_NAMES: Record<string, string> = { querystring: "query" };

/**
 * The validator compiler of every listener (the request pipeline's surfaces
 * and the operator listener): each route's zod schemas, checked after the
 * input was scanned for refused text (`REFUSED`). A refusal is a 400 in the
 * surface's error body naming the field, before the schema runs, so it holds
 * whatever the schema allows (free text, records, unknown keys).
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  const part = route.httpPart === undefined ? "request" : (PART_NAMES[route.httpPart] ?? route.httpPart);
  return (data) => {
    const refused = findRefusedText(data);
    if (refused === undefined) return validate(data);
    // A 4xx Fastify error: every surface's error handler renders it as its 400 with this message.
    return { error: Object.assign(new Error(refusedTextMessage(part, refused)), { statusCode: 400 }) };
  };
};
