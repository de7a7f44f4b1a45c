import {
  PREDICT_LEADERBOARD_LIMIT,
  predictAddressParamsSchema,
  predictErrorSchema,
  predictLeaderboardQuerySchema,
  predictLeaderboardSchema,
  predictPointsSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { keyRefused, projectionUnavailable } from "../responses.ts";
import type { PointsService } from "./points.ts";

const RULE =
  "Points are `floor((buyWeth + sellWeth) / 10^15) + floor(redeemedWeth / 10^15)`: one point per 0.001 WETH traded (buys counted with their fee, sells at the WETH received) plus one per 0.001 WETH redeemed, each sum rounded down once. The sums are kept per trader by the projection in the transaction that indexes each trade, so a read costs the same however long the history. Only finalized trades count, so points never go down except when a reorganisation below the finalized head removes trades.";

/** `GET /predict/v9/points/{address}` and `GET /predict/v9/points`. */
export function pointsRoutes({ points }: { points: PointsService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/points/:address",
      operationId: "predictPoints",
      summary: "An address's points from trading activity",
      description: `${RULE} An address that never traded has 0 points (not 404).`,
      tags: ["Points"],
      request: { params: predictAddressParamsSchema },
      responses: {
        200: {
          description: "The address's points and the sums they come from.",
          schema: predictPointsSchema,
        },
        400: { description: "`address` is not a 0x address (`INVALID_INPUT`).", schema: predictErrorSchema },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: (request) => points.points(request.params.address),
    }),
    defineRoute({
      method: "GET",
      path: "/points",
      operationId: "predictPointsLeaderboard",
      summary: "The points leaderboard",
      description: `The top traders by points, at most ${PREDICT_LEADERBOARD_LIMIT.max} (default ${PREDICT_LEADERBOARD_LIMIT.default}); no further pages. ${RULE}`,
      tags: ["Points"],
      request: { query: predictLeaderboardQuerySchema },
      responses: {
        200: { description: "Most points first, ties by address.", schema: predictLeaderboardSchema },
        400: { description: "`limit` is out of range (`INVALID_INPUT`).", schema: predictErrorSchema },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: (request) => points.leaderboard(request.query.limit),
    }),
  ];
}
