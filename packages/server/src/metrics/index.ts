import { readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { Counter, Gauge, type Histogram, Registry } from "prom-client";
import type { PoolStats } from "../db/index.ts";

export interface MetricsSources {
  poolStats(): PoolStats;
  keyCacheSize(): number;
  inFlight(): number;
  /** This replica's id (`Config.replicaId`), the label of `mkt_replica_info`. */
  replica?: string;
}

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface RequestLabels {
  surface: string;
  route: string;
  method: string;
  status: number;
}

type DurationLabels = Omit<RequestLabels, "status">;

/** The latency of one (surface, route, method): a count per bucket (the last one is +Inf), their sum and total. */
interface DurationSeries {
  labels: DurationLabels;
  counts: Float64Array;
  sum: number;
  count: number;
}

/** One (surface, route, method, status): its request count and the latency series it adds to. */
interface RequestSeries {
  labels: RequestLabels;
  count: number;
  duration: DurationSeries;
}

/** A value as prom-client's registry formats it: the metric's own labels plus shared (series) ones. */
interface ExportedValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/**
 * The request counter and latency histogram, kept as plain numbers per label
 * set and turned into Prometheus values only when scraped. prom-client's own
 * `inc` and `observe` validate and hash their labels on every call (about
 * 3 µs per answered request, measured), the largest cost of the API-key hot
 * path after the socket write; here a request adds to numbers it found with
 * one map lookup.
 *
 * The two metrics are registered as the plain metric objects prom-client's
 * registry reads (`name`, `help`, `type`, `aggregator`, `get()`, `reset()`),
 * so `/metrics` and `getSingleMetricAsString` print them like any other.
 */
function createRequestMetrics(registry: Registry) {
  const requests = new Map<string, RequestSeries>();
  const durations = new Map<string, DurationSeries>();

  const seriesFor = (surface: string, route: string, method: string, status: number): RequestSeries => {
    const id = `${surface}\u0000${route}\u0000${method}\u0000${status}`;
    let series = requests.get(id);
    if (series === undefined) {
      const durationId = `${surface}\u0000${route}\u0000${method}`;
      let duration = durations.get(durationId);
      if (duration === undefined) {
        duration = {
          labels: { surface, route, method },
          counts: new Float64Array(DURATION_BUCKETS.length + 1),
          sum: 0,
          count: 0,
        };
        durations.set(durationId, duration);
      }
      series = { labels: { surface, route, method, status }, count: 0, duration };
      requests.set(id, series);
    }
    return series;
  };

  const add = (series: RequestSeries, seconds: number) => {
    series.count += 1;
    const duration = series.duration;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket += 1;
    duration.counts[bucket]! += 1;
    duration.sum += seconds;
    duration.count += 1;
  };
  const record = (surface: string, route: string, method: string, status: number, seconds: number) =>
    add(seriesFor(surface, route, method, status), seconds);
  /** A recorder bound to one route: its series per status are looked up once, then kept. */
  const routeRecorder = (surface: string, route: string, method: string) => {
    const byStatus = new Map<number, RequestSeries>();
    return (status: number, seconds: number) => {
      let series = byStatus.get(status);
      if (series === undefined) {
        series = seriesFor(surface, route, method, status);
        byStatus.set(status, series);
      }
      add(series, seconds);
    };
  };

  const counter = {
    name: "mkt_http_requests_total",
    help: "HTTP requests answered, by surface, route, method and status.",
    type: "counter",
    aggregator: "sum",
    async get() {
      const values: ExportedValue[] = [];
      for (const series of requests.values())
        values.push({ labels: { ...series.labels }, value: series.count });
      return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
    },
    reset() {
      for (const series of requests.values()) series.count = 0;
    },
  };
  const histogram = {
    name: "mkt_http_request_duration_seconds",
    help: "Time from request to response, by surface and route.",
    type: "histogram",
    aggregator: "sum",
    async get() {
      const values: ExportedValue[] = [];
      const bucketName = `${this.name}_bucket`;
      for (const series of durations.values()) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((bound, index) => {
          cumulative += series.counts[index]!;
          values.push({ labels: { le: bound, ...series.labels }, value: cumulative, metricName: bucketName });
        });
        values.push({
          labels: { le: "+Inf", ...series.labels },
          value: series.count,
          metricName: bucketName,
        });
        values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` });
        values.push({ labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
      }
      return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
    },
    reset() {
      for (const series of durations.values()) {
        series.counts.fill(0);
        series.sum = 0;
        series.count = 0;
      }
    },
  };
  // The registry's typings list prom-client's own classes; it only reads the members above.
  registry.registerMetric(counter as unknown as Histogram);
  registry.registerMetric(histogram as unknown as Histogram);
  return { record, routeRecorder };
}

export interface Metrics {
  /** This process's registry: what `/metrics` serves. */
  registry: Registry;
  /** Requests refused by a credential or budget check, by surface and reason. */
  quotaRejections: Counter<"reason" | "surface">;
  /** Times the key cache was cleared because the LISTEN connection was re-established. */
  keyCacheFlushes: Counter<string>;
  /** Counts an answered request and its latency. */
  recordRequest(surface: string, route: string, method: string, status: number, seconds: number): void;
  /** `recordRequest` bound to one (surface, route, method), for the route's own response hook. */
  routeRecorder(surface: string, route: string, method: string): (status: number, seconds: number) => void;
  /** Starts sampling the event-loop delay (with the app's background work). */
  start(): void;
  /** Stops sampling it. */
  stop(): void;
}

/** One registry per process (not prom-client's global one), so tests and replicas never share counters. */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  const requestMetrics = createRequestMetrics(registry);
  if (sources.replica !== undefined) {
    new Gauge({
      name: "mkt_replica_info",
      help: "Always 1; its label names this replica (MKT_REPLICA_ID, else <hostname>-<pid>).",
      labelNames: ["replica"] as const,
      registers: [registry],
    }).set({ replica: sources.replica }, 1);
  }
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
  // The process's own health, read when scraped: what a soak watches for growth.
  new Gauge({
    name: "process_resident_memory_bytes",
    help: "Resident memory of this process (RSS).",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: "nodejs_heap_used_bytes",
    help: "V8 heap in use (the JavaScript share of the resident memory).",
    registers: [registry],
    collect() {
      this.set(getHeapStatistics().used_heap_size);
    },
  });
  new Gauge({
    name: "process_open_fds",
    help: "Open file descriptors of this process (sockets included); absent without /proc.",
    registers: [registry],
    collect() {
      const open = openFileDescriptors();
      if (open !== undefined) this.set(open);
    },
  });
  new Gauge({
    name: "process_threads",
    help: "Threads of this process (the dev chains' EDR threads included, when it runs them); absent without /proc.",
    registers: [registry],
    collect() {
      const threads = threadCount();
      if (threads !== undefined) this.set(threads);
    },
  });
  // Sampled every 10 ms while the app runs (`start`); each scrape reads the delays since the
  // previous one and starts a new window, so the quantiles describe the last scrape interval.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  new Gauge({
    name: "mkt_event_loop_delay_seconds",
    help: "Event-loop delay since the previous scrape, by quantile (1 is the maximum); 0 before any sample.",
    labelNames: ["quantile"] as const,
    registers: [registry],
    collect() {
      const sampled = loopDelay.count > 0;
      for (const quantile of [0.5, 0.99, 1])
        this.set(
          { quantile: String(quantile) },
          sampled ? (quantile === 1 ? loopDelay.max : loopDelay.percentile(quantile * 100)) / 1e9 : 0,
        );
      loopDelay.reset();
    },
  });
  const keyCacheFlushes = new Counter({
    name: "mkt_api_key_cache_flushes_total",
    help: "Times the key cache was cleared because the LISTEN connection was re-established.",
    registers: [registry],
  });
  return {
    registry,
    quotaRejections,
    keyCacheFlushes,
    recordRequest: requestMetrics.record,
    routeRecorder: requestMetrics.routeRecorder,
    start: () => void loopDelay.enable(),
    stop: () => void loopDelay.disable(),
  };
}

/** This process's open file descriptors, from /proc (Linux); undefined elsewhere. */
function openFileDescriptors(): number | undefined {
  try {
    // The listing itself holds one descriptor open while it reads.
    return readdirSync("/proc/self/fd").length - 1;
  } catch {
    return undefined;
  }
}

function threadCount(): number | undefined {
  try {
    const found = /^Threads:\s+(\d+)$/m.exec(readFileSync("/proc/self/status", "utf8"));
    return found ? Number(found[1]) : undefined;
  } catch {
    return undefined;
  }
}
