import type { ResponseSpec } from "../http/route.ts";

/** The one 429 of every key-gated classic route (sections 7 and 8): missing key, invalid key and spent budget alike. */
export const keyRefused: ResponseSpec = {
  description: "API key missing or invalid, or quota exhausted (one identical response).",
};
