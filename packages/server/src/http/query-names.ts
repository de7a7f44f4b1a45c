import type { z } from "zod";
import { type AppError, badRequest } from "../errors.ts";

/** A parameter name is quoted in an error message up to this many characters, and this many names. */
const MAX_QUOTED_NAME = 64;
const MAX_QUOTED_NAMES = 5;

const quoted = (name: string) =>
  JSON.stringify(name.length > MAX_QUOTED_NAME ? `${name.slice(0, MAX_QUOTED_NAME)}…` : name);

/**
 * The query rule every route shares, compiled once per route from its query
 * schema: a request may name only the parameters the route declares (none
 * when it declares no query), each at most once. Anything else is a 400 that
 * names the parameter, so a misspelt or unsupported filter is never silently
 * ignored and a repeated one is never silently resolved to one of its values.
 * The pipeline checks it after the route's access rule, session and gate (a
 * keyless request still gets the surface's own key refusal, as its document
 * requires, and a signed-out one its 401), and before the read cache.
 */
export function compileQueryNames(query: z.ZodObject | undefined): (parsed: unknown) => AppError | undefined {
  const known = new Set(Object.keys(query?.shape ?? {}));
  const takes =
    known.size === 0 ? "this route takes no query parameters" : `this route takes ${[...known].join(", ")}`;
  return (parsed) => {
    if (parsed === null || typeof parsed !== "object") return undefined;
    const unknown: string[] = [];
    let repeated: string | undefined;
    // The parsed query is a null-prototype object: `for…in` walks its own names only.
    for (const name in parsed) {
      if (!known.has(name)) unknown.push(name);
      else if (repeated === undefined && Array.isArray((parsed as Record<string, unknown>)[name]))
        repeated = name;
    }
    if (unknown.length > 0) {
      const named = unknown.slice(0, MAX_QUOTED_NAMES).map(quoted).join(", ");
      const more = unknown.length > MAX_QUOTED_NAMES ? ` and ${unknown.length - MAX_QUOTED_NAMES} more` : "";
      return badRequest(`query: unknown parameter${unknown.length > 1 ? "s" : ""} ${named}${more}; ${takes}`);
    }
    return repeated === undefined ? undefined : repeatedParameter(repeated);
  };
}

/** The refusal of a query parameter given more than once (`?limit=1&limit=2`). */
export const repeatedParameter = (name: string) =>
  badRequest(`query: parameter ${quoted(name)} is given more than once; give it once`);
