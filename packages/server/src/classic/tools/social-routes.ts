import {
  CLASSIC_REACTION_KINDS,
  CLASSIC_REFRESH_COOLDOWN_SECONDS,
  CLASSIC_REFRESHES_PER_HOUR,
  CLASSIC_REPORT_DETAILS_MAX,
  CLASSIC_REPORT_REASONS,
  CLASSIC_REPORTS_PER_HOUR,
  classicAccountStatsQuerySchema,
  classicAccountStatsSchema,
  classicReactionRequestSchema,
  classicReactionsQuerySchema,
  classicReactionsSchema,
  classicRefreshRequestSchema,
  classicRefreshSchema,
  classicReportRequestSchema,
  classicReportSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { signedInAccount } from "../../identity/index.ts";
import { keyAndBearerAccess as keyAndBearer, keyRefused } from "../responses.ts";
import type { ClassicAccountStatsService } from "./account-stats.ts";
import type { ClassicReactionsService } from "./reactions.ts";
import type { ClassicRefreshesService } from "./refreshes.ts";
import type { ClassicReportsService } from "./reports.ts";

const kinds = CLASSIC_REACTION_KINDS.map((kind) => `\`${kind}\``).join(", ");
const target =
  "The target is a game (`contractAddress`, its booster drop address; slugs are not taken) or one pack of it (`tokenId` as well); `chainId` defaults to 8453. An unknown game is 404 `GAME_NOT_FOUND`, a pack never minted 404 `PACK_NOT_FOUND`.";

const errors = {
  400: { description: "A field is missing or malformed (`VALIDATION_ERROR`)." },
  401: { description: "Bearer token missing, expired or invalid (`UNAUTHORIZED`)." },
  404: { description: "No such game (`GAME_NOT_FOUND`) or pack (`PACK_NOT_FOUND`)." },
  503: { description: "The database is unavailable (`SERVICE_UNAVAILABLE`)." },
};

export interface ClassicSocialRouteDeps {
  reactions: ClassicReactionsService;
  reports: ClassicReportsService;
  refreshes: ClassicRefreshesService;
  accountStats: ClassicAccountStatsService;
}

/** Reactions, reports, refreshes and the signed-in account's statistics (classic/tools). */
export function classicSocialRoutes({
  reactions,
  reports,
  refreshes,
  accountStats,
}: ClassicSocialRouteDeps): RouteSpec[] {
  return [
    defineRoute({
      method: "PUT",
      path: "/reactions",
      operationId: "classicSetReaction",
      summary: "Set or clear one reaction on a game or pack",
      description: `Sets (\`active: true\`) or clears (\`active: false\`) one reaction kind of the signed-in account on a target; the kinds are ${kinds}, and an account holds at most one of each per target (several kinds at once are allowed). Idempotent: repeating a call changes nothing. Answers the target's counts and the account's own kinds; the counts of \`GET /classic/reactions\` move at once on every replica. ${target} ${keyAndBearer}`,
      tags: ["Social"],
      request: { body: classicReactionRequestSchema },
      responses: {
        200: { description: "The counts after the change.", schema: classicReactionsSchema },
        ...errors,
        429: keyRefused,
      },
      handler: (request) => {
        const { kind, active, ...rest } = request.body;
        return reactions.set(signedInAccount(request).id, rest, kind, active);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/reactions",
      operationId: "classicReactions",
      summary: "Reaction counts of a game or pack",
      description: `Accounts per reaction kind (${kinds}; every kind present) on a target. ${target} Access: API-KEY (read budget); shared-cached for 5 seconds, rebuilt at once when a reaction changes.`,
      tags: ["Social"],
      request: { query: classicReactionsQuerySchema },
      responses: {
        200: { description: "The counts.", schema: classicReactionsSchema },
        400: errors[400],
        404: errors[404],
        429: keyRefused,
      },
      handler: (request) => reactions.counts(request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/reactions/mine",
      operationId: "classicMyReactions",
      summary: "Reaction counts with the signed-in account's own",
      description: `The counts of \`GET /classic/reactions\` and \`mine\`, the kinds the signed-in account has set on the target. Never cached. ${target} ${keyAndBearer}`,
      tags: ["Social"],
      request: { query: classicReactionsQuerySchema },
      responses: {
        200: { description: "The counts and the account's kinds.", schema: classicReactionsSchema },
        ...errors,
        429: keyRefused,
      },
      handler: (request) => reactions.counts(request.query, signedInAccount(request).id),
    }),
    defineRoute({
      method: "POST",
      path: "/reports",
      operationId: "classicReport",
      summary: "Report a game or pack to the operators",
      description: `Files a report for the operators (listed on the operator listener, \`GET /admin/classic/reports\`). \`reason\`: ${CLASSIC_REPORT_REASONS.map((reason) => `\`${reason}\``).join(", ")}; \`details\` optional, at most ${CLASSIC_REPORT_DETAILS_MAX} characters. ${target}

Limits, counted in the database so they hold across replicas:
- at most ${CLASSIC_REPORTS_PER_HOUR} reports per account in any rolling hour, then 429 \`{success:false, message, error:"REPORT_LIMIT"}\` with \`Retry-After\` (seconds until the oldest of them leaves the hour);
- a duplicate (the same account reporting the same target while its earlier report is still open, that is until an operator resolves or dismisses it) is 429 \`{success:false, message, error:"DUPLICATE_REPORT"}\` and is not counted.
The duplicate rule is checked first. ${keyAndBearer}`,
      tags: ["Social"],
      request: { body: classicReportRequestSchema },
      responses: {
        200: { description: "Filed; `remaining` reports this hour.", schema: classicReportSchema },
        ...errors,
        429: {
          description:
            "`DUPLICATE_REPORT` (an open report of yours on this target), `REPORT_LIMIT` (10 in the last hour; `Retry-After`), or the classic key refusal (`RATE_LIMITED`).",
        },
      },
      handler: (request) => {
        const { reason, details, ...rest } = request.body;
        return reports.file(signedInAccount(request).id, rest, reason, details);
      },
    }),
    defineRoute({
      method: "POST",
      path: "/refresh",
      operationId: "classicRefresh",
      summary: "Refresh a game's or pack's metadata",
      description: `Asks every replica to rebuild what it serves of a game or pack: the classic read-cache sources (the projection's and the metadata's) move on this replica and are announced to every other, so each cached classic answer (games, packs, holdings, metadata views, token JSON) is rebuilt from the database on its next read; the answer reports how far the classic indexer has applied the chain (\`indexedThroughBlock\`). A state the indexer missed is repaired by \`GET /classic/events/{txHash}\`, not by a refresh. Proxied images are kept (the proxy's per-replica cache holds an image for up to an hour).

Cooldown: one refresh per target every ${CLASSIC_REFRESH_COOLDOWN_SECONDS} seconds, for everybody (held in the database). Inside it the answer is a 200 with \`refreshed: false\` and \`cooldownUntil\`, and nothing is done or counted. Each account performs at most ${CLASSIC_REFRESHES_PER_HOUR} refreshes in any rolling hour, then 429 \`{success:false, message, error:"REFRESH_LIMIT"}\` with \`Retry-After\`. ${target} ${keyAndBearer}`,
      tags: ["Social"],
      request: { body: classicRefreshRequestSchema },
      responses: {
        200: { description: "Refreshed, or the cooldown state.", schema: classicRefreshSchema },
        ...errors,
        429: {
          description:
            "`REFRESH_LIMIT` (the account's hourly refreshes spent; `Retry-After`), or the classic key refusal (`RATE_LIMITED`).",
        },
      },
      handler: (request) => refreshes.refresh(signedInAccount(request).id, request.body),
    }),
    defineRoute({
      method: "GET",
      path: "/stats/me",
      operationId: "classicMyStats",
      summary: "The signed-in account's figures beside the platform's",
      description: `The signed-in account's own figures on a chain across every wallet linked to it now (packs held, opened and sold back, Wei spent and received, games created) and its reactions and reports, beside the platform totals of \`GET /classic/stats\`. Never cached. 503 \`PRICE_UNAVAILABLE\` without an ETH/USD price (the platform totals carry \`mintVolumeUsd\`). ${keyAndBearer}`,
      tags: ["Statistics"],
      request: { query: classicAccountStatsQuerySchema },
      responses: {
        200: { description: "The account's and the platform's figures.", schema: classicAccountStatsSchema },
        400: errors[400],
        401: errors[401],
        429: keyRefused,
        503: { description: "No ETH/USD price (`PRICE_UNAVAILABLE`), or the database is down." },
      },
      handler: (request) => accountStats.of(signedInAccount(request), request.query.chainId),
    }),
  ];
}
