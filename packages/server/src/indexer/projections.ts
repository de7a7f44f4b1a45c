import type { ChainDeployment } from "@mkt/chain";
import { chainRoles } from "../chains/index.ts";
import { classicProjection } from "./classic-projection.ts";
import { marketProjection } from "./market-projection.ts";
import { predictProjection } from "./predict-projection.ts";
import type { Projection } from "./projection.ts";

/**
 * Every scope these deployments define, by the role each deployment plays
 * (chains/roles.ts): the classic drop factory, the market's runtime registry
 * (and every ClaimDrops it registers),
 * the prediction feed's market factory.
 */
export function scopesOf(deployments: readonly ChainDeployment[]): Projection[] {
  const roles = chainRoles(deployments);
  return [
    ...(roles.classic ? [classicProjection(roles.classic)] : []),
    ...(roles.market ? [marketProjection(roles.market)] : []),
    ...(roles.predict ? [predictProjection(roles.predict)] : []),
  ];
}
