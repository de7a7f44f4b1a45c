import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { createManualClock } from "../_test/app.ts";
import { MAX_REMEMBERED_URL_LENGTH, MAX_REMEMBERED_URLS, readCacheKeys } from "./pipeline-read-cache.ts";
import { createReadCache, createRevisions, strongEtag } from "./read-cache.ts";
import { cache, declareRoutes, defineRoute } from "./route.ts";

const entry = (body: string, counters: readonly { value: number }[], maxAgeMs = 60_000) => ({
  body,
  contentType: "application/json",
  etag: strongEtag(body),
  counters,
  built: counters.map((counter) => counter.value),
  maxAgeMs,
});

describe("read cache", () => {
  it("serves an entry until one of its sources moves", () => {
    const clock = createManualClock();
    const revisions = createRevisions();
    const readCache = createReadCache({ clock });
    const counters = revisions.counters(["catalog", "indexer:8453:runtime:a"]);
    readCache.set("k", entry("{}", counters));
    expect(readCache.get("k")?.body.toString()).toBe("{}");
    revisions.moved("unrelated");
    expect(readCache.get("k")?.body.toString()).toBe("{}");
    revisions.moved("indexer:8453:runtime:a");
    expect(readCache.get("k")).toBeUndefined();
  });

  it("drops an entry built before its source moved, even when stored after", () => {
    const clock = createManualClock();
    const revisions = createRevisions();
    const readCache = createReadCache({ clock });
    const counters = revisions.counters(["catalog"]);
    const built = counters.map((counter) => counter.value);
    revisions.moved("catalog"); // the data changed while the body was being built
    readCache.set("k", { ...entry("{}", counters), built });
    expect(readCache.get("k")).toBeUndefined();
  });

  it("expires entries after the route's max-age", () => {
    const clock = createManualClock();
    const readCache = createReadCache({ clock });
    readCache.set("k", entry("{}", [], 5_000));
    clock.advance(4_999);
    expect(readCache.get("k")).toBeDefined();
    clock.advance(1);
    expect(readCache.get("k")).toBeUndefined();
  });

  it("keeps to its byte budget, least recently used out first", () => {
    const clock = createManualClock();
    const readCache = createReadCache({ clock, maxBytes: 1_000 });
    const body = "x".repeat(100); // (1 + 100) * 2 bytes per entry
    for (const key of ["a", "b", "c", "d"]) readCache.set(key, entry(body, []));
    expect(readCache.get("a")).toBeDefined(); // a is now the most recently used
    readCache.set("e", entry(body, []));
    expect(readCache.stats().bytes).toBeLessThanOrEqual(1_000);
    expect(readCache.get("b")).toBeUndefined();
    expect(readCache.get("a")).toBeDefined();
    expect(readCache.get("e")).toBeDefined();
  });

  it("keeps least-recently-used order through repeated hits and stale drops", () => {
    const clock = createManualClock();
    const revisions = createRevisions();
    const readCache = createReadCache({ clock, maxBytes: 1_000 });
    const body = "x".repeat(100); // (1 + 100) * 2 bytes per entry, four fit
    const moving = revisions.counters(["moving"]);
    readCache.set("a", entry(body, []));
    readCache.set("b", entry(body, moving));
    readCache.set("c", entry(body, []));
    // Hits in a row on one entry, then on another: the last one hit is the most recent.
    for (let i = 0; i < 3; i++) expect(readCache.get("a")).toBeDefined();
    expect(readCache.get("c")).toBeDefined();
    expect(readCache.get("a")).toBeDefined();
    // b was the most recently stored; once stale it is dropped, and a rebuilt b is the newest again.
    revisions.moved("moving");
    expect(readCache.get("b")).toBeUndefined();
    readCache.set("b", entry(body, moving));
    readCache.set("d", entry(body, []));
    readCache.set("e", entry(body, [])); // over budget: c, the least recently used, goes first
    expect(readCache.get("c")).toBeUndefined();
    for (const key of ["a", "b", "d", "e"]) expect(readCache.get(key), key).toBeDefined();
  });

  it("gives equal bodies equal strong tags and different bodies different ones", () => {
    expect(strongEtag('{"a":1}')).toBe(strongEtag('{"a":1}'));
    expect(strongEtag('{"a":1}')).not.toBe(strongEtag('{"a":2}'));
  });
});

describe("route tables", () => {
  const spec = (method: "GET" | "POST", path: string) =>
    defineRoute({
      method,
      path,
      operationId: path,
      summary: path,
      tags: [],
      responses: {},
      handler: () => null,
    });
  const read = { kind: "market", bucket: "read" } as const;

  it("join every route with its declaration", () => {
    const routes = declareRoutes("t", { "GET /a": { access: read, cache: cache.noStore, proxy: true } }, [
      spec("GET", "/a"),
    ]);
    expect(routes[0]).toMatchObject({ path: "/a", access: read, proxy: true, cache: { kind: "no-store" } });
  });

  it("refuse a route missing from the table, a stale line, a route defined twice, a shared cache on a session route and a cacheable idempotent route", () => {
    expect(() => declareRoutes("t", {}, [spec("GET", "/a")])).toThrow(/not in the surface's route table/);
    expect(() => declareRoutes("t", { "GET /a": { access: read, cache: cache.noStore } }, [])).toThrow(
      /names routes nobody defines: GET \/a/,
    );
    expect(() =>
      declareRoutes("t", { "GET /a": { access: read, cache: cache.noStore } }, [
        spec("GET", "/a"),
        spec("GET", "/a"),
      ]),
    ).toThrow(/defined twice/);
    expect(() =>
      declareRoutes("t", { "GET /a": { access: read, session: "account", cache: cache.shared(5, []) } }, [
        spec("GET", "/a"),
      ]),
    ).toThrow(/cannot be shared-cached/);
    // Replays (errors included) skip the error renderer: the route's own header must be no-store.
    expect(() =>
      declareRoutes("t", { "POST /a": { access: read, idempotent: true, cache: cache.privateFor(5) } }, [
        spec("POST", "/a"),
      ]),
    ).toThrow(/takes an Idempotency-Key, so its answers must be no-store/);
  });

  it("accept an optional session on a shared-cached route, and refuse an optional session of no kind", () => {
    const [route] = declareRoutes(
      "t",
      {
        "GET /a": {
          access: read,
          session: "account",
          sessionOptional: true,
          cache: cache.shared(5, ["s"]),
        },
      },
      [spec("GET", "/a")],
    );
    expect(route).toMatchObject({ session: "account", sessionOptional: true, cache: { kind: "shared" } });
    expect(() =>
      declareRoutes("t", { "GET /a": { access: read, sessionOptional: true, cache: cache.shared(5, []) } }, [
        spec("GET", "/a"),
      ]),
    ).toThrow(/names no session kind/);
  });

  it("keep the classic bearer to classic routes and classic routes to the classic bearer", () => {
    const classic = { kind: "classic", class: "read", key: true } as const;
    const [route] = declareRoutes(
      "t",
      { "GET /a": { access: classic, session: "classic", cache: cache.private } },
      [spec("GET", "/a")],
    );
    expect(route).toMatchObject({ access: classic, session: "classic" });
    expect(() =>
      declareRoutes("t", { "GET /a": { access: read, session: "classic", cache: cache.private } }, [
        spec("GET", "/a"),
      ]),
    ).toThrow(/classic routes take only the classic bearer/);
    expect(() =>
      declareRoutes("t", { "GET /a": { access: classic, session: "account", cache: cache.private } }, [
        spec("GET", "/a"),
      ]),
    ).toThrow(/classic routes take only the classic bearer/);
  });
});

describe("read-cache keys", () => {
  const request = (url: string, headers: Record<string, string> = {}) => {
    const [path = "", query = ""] = url.split("?");
    return {
      url,
      params: { id: path.split("/").at(-1) },
      query: Object.fromEntries(new URLSearchParams(query)),
      headers,
    } as unknown as FastifyRequest;
  };

  it("keys by parameters, normalised query and varying headers, whether or not the URL was seen", () => {
    const keys = readCacheKeys({
      prefix: "market GET /x/:id\u0000",
      fixed: false,
      vary: ["accept-language"],
    });
    const first = keys.keyOf(request("/x/1?b=2&a=1", { "accept-language": "en" }));
    // The same URL again, remembered: the same key, its varying header still read per request.
    expect(keys.keyOf(request("/x/1?b=2&a=1", { "accept-language": "en" }))).toBe(first);
    expect(keys.keyOf(request("/x/1?b=2&a=1", { "accept-language": "de" }))).not.toBe(first);
    // Another spelling of the same query shares the key; another parameter or query does not.
    expect(keys.keyOf(request("/x/1?a=1&b=2", { "accept-language": "en" }))).toBe(first);
    expect(keys.keyOf(request("/x/2?a=1&b=2", { "accept-language": "en" }))).not.toBe(first);
    expect(keys.keyOf(request("/x/1?a=1&b=3", { "accept-language": "en" }))).not.toBe(first);
  });

  it("remembers a bounded number of URLs, and none too long to be worth it", () => {
    const keys = readCacheKeys({ prefix: "p\u0000", fixed: false, vary: [] });
    const long = `/x/1?q=${"a".repeat(MAX_REMEMBERED_URL_LENGTH)}`;
    expect(keys.keyOf(request(long))).toBe(keys.keyOf(request(long)));
    expect(keys.remembered()).toBe(0);
    for (let i = 0; i < MAX_REMEMBERED_URLS + 10; i++) keys.keyOf(request(`/x/${i}`));
    expect(keys.remembered()).toBe(10);
    expect(keys.keyOf(request("/x/5"))).toBe(`p\u0000${JSON.stringify([["id", "5"]])}\u0000`);
  });

  it("gives a route that answers one body one key", () => {
    const keys = readCacheKeys({ prefix: "p\u0000", fixed: true, vary: [] });
    expect(keys.keyOf(request("/x/1?a=1"))).toBe(keys.keyOf(request("/y")));
    expect(keys.remembered()).toBe(0);
  });
});
