import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PoolStats } from "../db/index.ts";

export interface MetricsSources {
  poolStats(): PoolStats;
  keyCacheSize(): number;
  inFlight(): number;
}

/** One registry per process (not prom-client's global one), so tests and replicas never share counters. */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  const httpRequests = new Counter({
    name: "mkt_http_requests_total",
    help: "HTTP requests answered, by surface, route, method and status.",
    labelNames: ["surface", "route", "method", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "mkt_http_request_duration_seconds",
    help: "Time from request to response, by surface and route.",
    labelNames: ["surface", "route", "method"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const quotaRejections = new Counter({
    name: "mkt_quota_rejections_total",
    help: "Requests refused by a credential or budget check, by surface and reason.",
    labelNames: ["surface", "reason"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "mkt_db_pool_connections",
    help: "Database connections by state (PGlite has one).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const stats = sources.poolStats();
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
  new Gauge({
    name: "mkt_api_key_cache_entries",
    help: "API key lookups cached on this replica.",
    registers: [registry],
    collect() {
      this.set(sources.keyCacheSize());
    },
  });
  new Gauge({
    name: "mkt_http_in_flight_requests",
    help: "Requests being handled now on this replica.",
    registers: [registry],
    collect() {
      this.set(sources.inFlight());
    },
  });
  const keyCacheFlushes = new Counter({
    name: "mkt_api_key_cache_flushes_total",
    help: "Times the key cache was cleared because the LISTEN connection was re-established.",
    registers: [registry],
  });
  // Label lookups hash the label object on every call; the answered-request
  // path resolves each label set once and keeps the child.
  const requestChildren = new Map<
    string,
    { count: { inc(): void }; duration: { observe(value: number): void } }
  >();
  const recordRequest = (surface: string, route: string, method: string, status: number, seconds: number) => {
    const id = `${surface}\u0000${route}\u0000${method}\u0000${status}`;
    let children = requestChildren.get(id);
    if (!children) {
      children = {
        count: httpRequests.labels({ surface, route, method, status }),
        duration: httpDuration.labels({ surface, route, method }),
      };
      requestChildren.set(id, children);
    }
    children.count.inc();
    children.duration.observe(seconds);
  };
  return { registry, httpRequests, httpDuration, quotaRejections, keyCacheFlushes, recordRequest };
}

export type Metrics = ReturnType<typeof createMetrics>;
