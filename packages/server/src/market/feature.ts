import type { AccountActionKind } from "@mkt/protocol";
import type { Logger } from "pino";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import type { RouteSpec } from "../http/route.ts";
import type { SessionService } from "../identity/index.ts";
import type { CursorSigner } from "../paging/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import type { Job } from "../shared-services.ts";
import type { ActionHandlers } from "./accounts/actions.ts";

/** What every area of the market's account features is built from. */
export interface FeatureDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Config;
  sessions: SessionService;
  /** Signs the page cursors of the features' lists. */
  cursors: CursorSigner;
}

/**
 * One area of the market's account features (profiles, DMs, rooms, …): its
 * `POST /market/account` kinds, its routes (also served by the first-party
 * proxy when its line in `market/routes.ts` says so), operator routes and jobs.
 */
export interface MarketFeature {
  actions?: Partial<ActionHandlers>;
  /** What each of its kinds answers in `result`, for the published description. */
  actionResults?: Partial<Record<AccountActionKind, string>>;
  routes?: RouteSpec[];
  /** Its operator routes, mounted on the admin listener. */
  adminRoutes?: RouteSpec[];
  jobs?: Job[];
  /** Background work started with the listeners (a job queue worker) and stopped on close. */
  start?(): void;
  stop?(): Promise<void>;
}
