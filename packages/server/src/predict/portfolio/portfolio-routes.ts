import {
  PREDICT_PORTFOLIO_LIMIT,
  predictAddressParamsSchema,
  predictErrorSchema,
  predictPortfolioQuerySchema,
  predictPortfolioSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { keyRefused, projectionUnavailable } from "../responses.ts";
import type { PortfolioService } from "./portfolio.ts";

/** `GET /predict/v9/portfolio/{address}`. */
export function portfolioRoutes({ portfolio }: { portfolio: PortfolioService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/portfolio/:address",
      operationId: "predictPortfolio",
      summary: "An address's positions and redeemable winnings",
      description: `The positions of \`address\` (markets where it holds YES or NO shares, or has redeemed), ${PREDICT_PORTFOLIO_LIMIT.max} at most per page (default ${PREDICT_PORTFOLIO_LIMIT.default}), by market address ascending; follow \`nextCursor\` until null. Each position carries its market's state and outcome, a value estimate and the redeemable winnings; \`totals\` sum every position of the address, not only the page. Every value, and \`block\`, come from one snapshot of the finalized projection.

Rules (integer Wei, never rounded up):
- Open or paused market: \`valueWeth = floor(yesShares × noPool / (yesPool + noPool)) + floor(noShares × yesPool / (yesPool + noPool))\`: shares times the side's marginal price, each side rounded down; 0 once liquidity was collected (both pools empty). \`redeemableWeth\` is 0.
- Resolved market: \`redeemableWeth\` = the winning side's shares not yet redeemed (1 Wei per share; a redemption takes all of them), and \`valueWeth\` equals it; losing shares are worth 0.
- \`redeemedWeth\`: WETH already redeemed from the market.

A value estimate is not a quote: selling moves the price (use \`/quote\` for a buy preview).`,
      tags: ["Portfolio"],
      request: { params: predictAddressParamsSchema, query: predictPortfolioQuerySchema },
      responses: {
        200: {
          description: "One page of positions with the address's totals.",
          schema: predictPortfolioSchema,
        },
        400: {
          description: "`address`, `cursor` or `limit` is invalid (`INVALID_INPUT`).",
          schema: predictErrorSchema,
        },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: (request) =>
        portfolio.portfolio(request.params.address, {
          cursor: request.query.cursor,
          limit: request.query.limit,
        }),
    }),
  ];
}
