import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMetrics } from "./index.ts";

const sources = {
  poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
  keyCacheSize: () => 0,
  inFlight: () => 0,
};

describe("request metrics", () => {
  it("counts requests by surface, route, method and status", async () => {
    const metrics = createMetrics(sources);
    metrics.recordRequest("market", "/market/api-key", "GET", 204, 0.0002);
    metrics.recordRequest("market", "/market/api-key", "GET", 204, 0.0002);
    metrics.recordRequest("market", "/market/api-key", "GET", 429, 0.0002);
    const text = await metrics.registry.getSingleMetricAsString("mkt_http_requests_total");
    expect(text).toContain("# TYPE mkt_http_requests_total counter");
    expect(text).toContain(
      'mkt_http_requests_total{surface="market",route="/market/api-key",method="GET",status="204"} 2',
    );
    expect(text).toContain(
      'mkt_http_requests_total{surface="market",route="/market/api-key",method="GET",status="429"} 1',
    );
  });

  it("keeps a cumulative latency histogram per surface, route and method, whatever the status", async () => {
    const metrics = createMetrics(sources);
    metrics.recordRequest("market", "/market/api-key", "GET", 204, 0.0005);
    metrics.recordRequest("market", "/market/api-key", "GET", 429, 0.003);
    metrics.recordRequest("market", "/market/api-key", "GET", 204, 7);
    const lines = (await metrics.registry.getSingleMetricAsString("mkt_http_request_duration_seconds")).split(
      "\n",
    );
    const series = 'surface="market",route="/market/api-key",method="GET"';
    const bucket = (le: string) =>
      lines.find((line) => line.startsWith(`mkt_http_request_duration_seconds_bucket{le="${le}",${series}}`));
    expect(lines).toContain("# TYPE mkt_http_request_duration_seconds histogram");
    // A value on a bound counts in that bound's bucket (le means "less than or equal").
    expect(bucket("0.0005")).toMatch(/ 1$/);
    expect(bucket("0.0025")).toMatch(/ 1$/);
    expect(bucket("0.005")).toMatch(/ 2$/);
    expect(bucket("5")).toMatch(/ 2$/);
    expect(bucket("+Inf")).toMatch(/ 3$/);
    expect(lines).toContain(`mkt_http_request_duration_seconds_count{${series}} 3`);
    expect(lines).toContain(`mkt_http_request_duration_seconds_sum{${series}} 7.0035`);
  });

  it("serves the request metrics in the registry's full output and resets them with it", async () => {
    const metrics = createMetrics(sources);
    metrics.recordRequest("platform", "/healthz", "GET", 200, 0.001);
    const all = await metrics.registry.metrics();
    expect(all).toContain(
      'mkt_http_requests_total{surface="platform",route="/healthz",method="GET",status="200"} 1',
    );
    expect(all).toContain(
      'mkt_http_request_duration_seconds_count{surface="platform",route="/healthz",method="GET"} 1',
    );
    metrics.registry.resetMetrics();
    expect(await metrics.registry.getSingleMetricAsString("mkt_http_requests_total")).toContain(
      'status="200"} 0',
    );
  });
});

describe("process metrics", () => {
  it("reports resident memory, the V8 heap, open file descriptors and the event-loop delay since the previous scrape", async () => {
    const metrics = createMetrics(sources);
    metrics.start();
    try {
      // Let the sampler take its first samples, block the loop for a measurable while, then let
      // the sampler's timer see it.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const until = performance.now() + 60;
      while (performance.now() < until) {}
      await new Promise((resolve) => setTimeout(resolve, 30));
      const value = (text: string, series: string) =>
        Number(
          text
            .split("\n")
            .find((line) => line.startsWith(`${series} `))
            ?.split(" ")[1],
        );
      const first = await metrics.registry.metrics();
      expect(value(first, 'mkt_event_loop_delay_seconds{quantile="1"}')).toBeGreaterThanOrEqual(0.05);
      const rss = process.memoryUsage.rss();
      expect(value(first, "process_resident_memory_bytes")).toBeGreaterThan(rss * 0.9);
      expect(value(first, "process_resident_memory_bytes")).toBeLessThan(rss * 1.1);
      expect(value(first, "process_open_fds")).toBeGreaterThan(2);
      // The process's threads, as the kernel lists them (give or take one started or ended meanwhile).
      expect(
        Math.abs(value(first, "process_threads") - readdirSync("/proc/self/task").length),
      ).toBeLessThanOrEqual(2);
      expect(value(first, "nodejs_heap_used_bytes")).toBeGreaterThan(0);
      expect(value(first, "nodejs_heap_used_bytes")).toBeLessThan(rss);
      // The scrape started a new window: the block is no longer in it.
      const second = await metrics.registry.metrics();
      expect(value(second, 'mkt_event_loop_delay_seconds{quantile="1"}')).toBeLessThan(0.05);
    } finally {
      metrics.stop();
    }
  });
});
