// What each surface gives the scale benchmark (`npm run bench -- scale`): a loader that fills a
// migrated, empty PostgreSQL database with its production volumes times SCALE, a check that a sample
// of what the loader wrote is what the projection (or the service) would have written, and the read
// routes to measure, each at its first page and at a deep page.
import type { ChainDeployment } from "../../packages/chain/src/index.ts";
import type { Database } from "../../packages/server/src/db/index.ts";

export interface ScaleLoadContext {
  /** The bench database: migrated; empty before `load`. */
  db: Database;
  /** Its URL, for bulk loaders that want their own connections (COPY). */
  url: string;
  /** The SCALE multiplier (default 1). */
  scale: number;
  /** A volume at this scale: `Math.max(1, Math.round(base * scale))`. */
  count(base: number): number;
  /** A progress line on stderr. */
  log(line: string): void;
}

export interface ScaleRoutesContext extends ScaleLoadContext {
  /**
   * One request to the running API server, with the harness's API key (a key whose multiplier
   * lets the benchmark's load through) added unless `headers` name another. For walking to a deep
   * cursor and for signing in before measuring a session-bound read.
   */
  fetch(
    path: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<Response>;
}

export interface ScaleRoute {
  /** The route as documented, e.g. `GET /classic/games`. */
  route: string;
  page: "first" | "deep";
  /** The volume behind the read, as printed: `2,000,000 packs`. */
  volume: string;
  /** Path and query of the measured request. */
  path: string;
  /** Extra headers (a session bearer); the harness adds its API key. */
  headers?: Record<string, string>;
}

export interface ScaleSurface {
  id: "market" | "classic" | "predict";
  /**
   * The contracts whose scopes the API server serves without indexing (no chain behind them; see
   * `benchDeployment` in bench/claims-seed.ts): fixed addresses, so a kept database is served again.
   */
  deployment: ChainDeployment;
  /** Fills the database with this surface's volumes at `ctx.scale`. */
  load(ctx: ScaleLoadContext): Promise<void>;
  /** Throws unless a sample of the loaded rows equals what the projection or service would write. */
  checkSample(ctx: ScaleLoadContext): Promise<void>;
  /** The reads to measure, once the API server runs over the loaded database. */
  routes(ctx: ScaleRoutesContext): Promise<ScaleRoute[]>;
  /**
   * Optional work beside serving, in every process that serves the surface's rows (the API server
   * and the harness's in-process capture app), e.g. keeping a seeded head fresh so reads that answer
   * 503 once stale keep answering; returns its stop.
   */
  serve?(db: Database): () => void;
}
