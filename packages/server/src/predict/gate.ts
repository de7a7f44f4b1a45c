import type { PredictStaleReason } from "@mkt/protocol";
import type { FastifyRequest } from "fastify";
import { AppError } from "../errors.ts";
import type { PredictFreshnessService } from "./freshness.ts";
import type { PredictFlags, PredictSettings } from "./settings.ts";

/** Seconds a client waits before asking again: switches change rarely, freshness returns with the next block. */
const RETRY_SWITCHED_OFF_SECONDS = 60;
const RETRY_STALE_SECONDS = 5;

const STALE_MESSAGES: Record<PredictStaleReason, string> = {
  NOT_INDEXED: "the projection holds no finalized block yet",
  NOT_OBSERVED: "the indexer has not observed the chain recently",
  BLOCK_TOO_OLD: "the newest finalized block is too old",
  TOO_FAR_BEHIND: "the projection is too far behind the chain",
};

const unavailable = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError("unavailable", message, { code, retryAfterSeconds });

/**
 * Whether the feed serves this caller now, in order: the product is on
 * (`FEED_DISABLED`), it is public or the key is first-party
 * (`FEED_NOT_PUBLIC`), the projection is within its freshness bounds
 * (`PROJECTION_STALE`; only asked once the switches let the caller in). Each
 * refusal is a 503 the predict surface renders as `{error, message}` with
 * `Cache-Control: no-store`. Plain values in, so the rule is tested without HTTP.
 */
export function switchRefusal(flags: PredictFlags, firstParty: boolean): AppError | undefined {
  if (!flags.enabled)
    return unavailable(
      "FEED_DISABLED",
      "the prediction feed is disabled on this deployment",
      RETRY_SWITCHED_OFF_SECONDS,
    );
  if (!flags.publicEnabled && !firstParty)
    return unavailable(
      "FEED_NOT_PUBLIC",
      "the prediction feed is not open to third-party keys at the moment",
      RETRY_SWITCHED_OFF_SECONDS,
    );
  return undefined;
}

export function staleRefusal(reason: PredictStaleReason | null): AppError | undefined {
  if (reason === null) return undefined;
  return unavailable(
    "PROJECTION_STALE",
    `the prediction feed's projection is stale: ${STALE_MESSAGES[reason]}`,
    RETRY_STALE_SECONDS,
  );
}

const checkFresh = (reason: PredictStaleReason | null) => {
  const refusal = staleRefusal(reason);
  if (refusal) throw refusal;
};

/**
 * The feed's gate, the pipeline step of every route its table declares with
 * `gate: "feed"`: after the key check (it needs the key's first-party flag),
 * before the read cache, so a refusal is never cached and a cached answer is
 * never served past it. Synchronous while the replica's switches and head row
 * are current (both kept in memory), so it costs no query per request, and it
 * judges staleness from numbers worked out once per head row.
 */
export function createFeedGate({
  settings,
  freshness,
}: {
  settings: PredictSettings;
  freshness: PredictFreshnessService;
}) {
  const decide = (flags: PredictFlags, request: FastifyRequest): void | Promise<void> => {
    const refusal = switchRefusal(flags, request.apiKey?.firstParty === true);
    if (refusal) throw refusal;
    // The verdict only: the gate runs on every feed request and needs no freshness document.
    const reason = freshness.staleReason();
    if (reason instanceof Promise) return reason.then(checkFresh);
    checkFresh(reason);
  };
  return (request: FastifyRequest): void | Promise<void> => {
    const flags = settings.flags();
    return flags instanceof Promise ? flags.then((value) => decide(value, request)) : decide(flags, request);
  };
}

/**
 * The feed's gate for an open stream (`StreamChecks` of the live hub): the
 * switches only, checked again every round with the key's current
 * first-party flag. A switch turned off ends the stream (`feed-disabled`,
 * `feed-not-public`); a stale projection does not: the stream stays and its
 * `head` events resume with the indexer.
 */
export function createFeedStreamCheck(settings: PredictSettings) {
  const decide = (flags: PredictFlags, firstParty: boolean) => {
    const refusal = switchRefusal(flags, firstParty);
    if (refusal === undefined) return undefined;
    return refusal.code === "FEED_DISABLED" ? ("feed-disabled" as const) : ("feed-not-public" as const);
  };
  return (firstParty: boolean) => {
    const flags = settings.flags();
    return flags instanceof Promise
      ? flags.then((value) => decide(value, firstParty))
      : decide(flags, firstParty);
  };
}
