import type { onSendHookHandler } from "fastify";
import type { Step } from "./pipeline-steps.ts";
import type { RouteDefinition } from "./route.ts";

/** Read-cache sources of indexed projections start with this (`indexer:market`, `indexer:<scope>`). */
export const INDEXER_SOURCE_PREFIX = "indexer:";

/** The response headers that say how current an indexed answer is. */
export const INDEXED_HEADERS = {
  /** The newest block of the chain the projection holds. */
  block: "Indexed-Block",
  /** Blocks between the chain head the indexer last saw and `Indexed-Block`. */
  lag: "Indexed-Lag",
  /** Whole seconds since the indexer last saw the chain head. */
  age: "Indexed-Age",
} as const;

/**
 * This replica's view of the indexer heads the answers are built from, kept
 * in memory (`indexer/indexed-heads.ts`): the pipeline reads it on every
 * answer without a query.
 */
export interface IndexedHeads {
  /**
   * Brings this replica's copy of the source's head up to date when it is missing or the source
   * moved (an indexer commit); starts a refresh in the background when it is merely old. Never
   * fails: while the database cannot answer, the last copy stays (its age keeps growing).
   */
  refresh(source: string): void | Promise<void>;
  /** The `Indexed-*` headers of an answer built from the source now; none before its head is known. */
  headers(source: string): Record<string, string> | undefined;
}

/** The indexed projection a route's answers are built from: the first indexer source its shared cache follows. */
export function indexedSourceOf(route: Pick<RouteDefinition, "cache">): string | undefined {
  return route.cache.kind === "shared"
    ? route.cache.sources.find((source) => source.startsWith(INDEXER_SOURCE_PREFIX))
    : undefined;
}

/**
 * The pipeline's part for a route built from an indexed projection: a step
 * (after the route's checks, before the read cache) that makes the head copy
 * current, and an `onSend` hook that writes the `Indexed-*` headers on every
 * successful answer, read-cache hits and 304s included. Errors never carry them.
 */
export function compileIndexedHead(
  heads: IndexedHeads,
  source: string,
): { refresh: Step; write: onSendHookHandler } {
  return {
    refresh: () => heads.refresh(source),
    write: (_request, reply, payload, done) => {
      if (reply.statusCode === 200 || reply.statusCode === 304) {
        const headers = heads.headers(source);
        if (headers) reply.headers(headers);
      }
      done(null, payload);
    },
  };
}
