import {
  adminClassicGameFlagsSchema,
  adminClassicReportPatchSchema,
  adminClassicUnboxingSchema,
  adminIndexerHandOffRequestSchema,
  adminInviteRequestSchema,
  adminKeyPatchSchema,
  adminPredictMarketMediaSchema,
  adminPredictRuntimePatchSchema,
  adminXVerifyRequestSchema,
  classicErrorSchema,
  marketErrorSchema,
  predictErrorSchema,
} from "@mkt/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type SignedIn, signIn, TEST_ORIGIN } from "../_test/accounts.ts";
import { TEST_ADMIN_TOKEN, type TestApp } from "../_test/app.ts";
import { type ClassicSignedIn, signInClassic } from "../_test/classic.ts";
import { PREDICT_HEAD_TIME, setPredictHead, setupPredictApp } from "../_test/predict.ts";
import { openChatSession } from "../market/social/test-helpers.ts";
import type { QuotaPolicies } from "../quotas/policies.ts";
import { findRefusedText } from "./input-text.ts";
import type { RouteDefinition } from "./route.ts";
import type { SurfaceName } from "./surfaces.ts";

// ----------------------------------------------------------------- characters

/** Each refused character and how a 400 names it. */
const REFUSED: Array<[string, string]> = [
  ["\u0000", "U+0000 (NUL)"],
  ["\ud800", "an unpaired UTF-16 surrogate (U+D800)"],
  ["\udbff", "an unpaired UTF-16 surrogate (U+DBFF)"],
  ["\udc00", "an unpaired UTF-16 surrogate (U+DC00)"],
  ["\udfff", "an unpaired UTF-16 surrogate (U+DFFF)"],
  ...["202A", "202B", "202C", "202D", "202E", "2066", "2067", "2068", "2069"].map((hex): [string, string] => [
    String.fromCharCode(Number.parseInt(hex, 16)),
    `the bidirectional control U+${hex}`,
  ]),
];
/**
 * What the rule leaves alone: surrogate pairs, the direction marks, the code points next to the
 * refused ranges, and other controls (a field's own schema refuses those where it must).
 */
const ALLOWED = [
  "😀",
  "𝒜",
  "\u200e",
  "\u200f",
  "\u061c",
  "\u2029",
  "\u2065",
  "\u206a",
  "\u2029",
  "\t",
  "\u0001",
];

const refusedCharacter = fc.constantFrom(...REFUSED);
/** Whether text survives UTF-8 (an unpaired surrogate does not). */
const wellFormed = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text;
/** Text without a refused character, whole graphemes (so a surrogate pair is never split). */
const cleanText = fc
  .string({ unit: "grapheme", maxLength: 12 })
  .filter((text) => !REFUSED.some(([character]) => text.includes(character)) && wellFormed(text));

describe("findRefusedText", () => {
  it("finds each refused character anywhere in a string, with the path to it", () => {
    fc.assert(
      fc.property(cleanText, refusedCharacter, cleanText, (before, [character, named], after) => {
        const value = { a: [1, { b: `${before}${character}${after}` }], c: "fine" };
        expect(findRefusedText(value)).toEqual({
          path: ["a", 1, "b"],
          inPropertyName: false,
          character: named,
        });
      }),
    );
  });

  it("finds them in property names, naming the object that holds the name", () => {
    fc.assert(
      fc.property(cleanText, refusedCharacter, (before, [character, named]) => {
        const value = { list: [{ [`${before}${character}`]: 1 }] };
        expect(findRefusedText(value)).toEqual({ path: ["list", 0], inPropertyName: true, character: named });
      }),
    );
  });

  it("leaves any other text alone, surrogate pairs and direction marks included", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "grapheme" }), (value) => {
        const text = JSON.stringify(value) ?? "";
        fc.pre(!REFUSED.some(([character]) => text.includes(character)) && wellFormed(text));
        expect(findRefusedText(value)).toBeUndefined();
      }),
    );
    expect(findRefusedText({ [ALLOWED.join("")]: ALLOWED })).toBeUndefined();
  });

  it("walks a deeply nested value without recursion", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findRefusedText(deep)?.path).toHaveLength(200_000);
  });
});

// ------------------------------------------------------------ every route

/** The parts of JSON Schema the request schemas use. */
interface Node {
  $ref?: string;
  type?: string;
  description?: string;
  anyOf?: Node[];
  oneOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  properties?: Record<string, Node>;
  items?: Node;
  prefixItems?: Node[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  $defs?: Record<string, Node>;
}

const FORMAT_EXAMPLES: Record<string, string> = {
  email: "dev@example.com",
  uri: "https://example.com/a.png",
  url: "https://example.com/a.png",
  "date-time": "2026-01-01T00:00:00.000Z",
  uuid: "4d3c1b2a-0000-4000-8000-000000000000",
};
const STRING_CANDIDATES = [
  "Text",
  "Some text",
  `0x${"ab".repeat(20)}`,
  `0x${"ab".repeat(32)}`,
  "ab".repeat(12),
  "4d3c1b2a-0000-4000-8000-000000000000",
  "room_abc",
  "https://example.com/a.png",
  "abcdefgh",
  "ABC",
  "1",
];
const fits = (node: Node, value: string) =>
  (node.minLength === undefined || value.length >= node.minLength) &&
  (node.maxLength === undefined || value.length <= node.maxLength) &&
  (node.pattern === undefined || new RegExp(node.pattern, "u").test(value));

/** Strings for fields whose rule is a refinement JSON Schema cannot state, told by their description. */
const DESCRIBED_EXAMPLES: Array<[RegExp, string]> = [
  [/URL/, "https://example.com/a.png"],
  [/#rrggbb/, "#aabbcc"],
];

/** Values of fields whose rule spans the field (a sum), by property name. */
const FIELD_EXAMPLES: Record<string, unknown> = { oddsBps: [6000, 2500, 1000, 400, 100] };

/**
 * Values of a schema with every optional property present (so every string
 * field has a place to carry a refused character): one with the first branch
 * of every union, and one more for each other branch of each union.
 */
function examplesOf(schema: z.ZodType): unknown[] {
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Node;
  const resolve = (node: Node): Node => {
    let at = node;
    while (at.$ref !== undefined) at = root.$defs?.[at.$ref.replace("#/$defs/", "")] ?? {};
    return at;
  };
  const stringOf = (node: Node): string => {
    const known = node.format === undefined ? undefined : FORMAT_EXAMPLES[node.format];
    if (known !== undefined) return known;
    const described = DESCRIBED_EXAMPLES.find(([about]) => about.test(node.description ?? ""));
    const candidates = [...(described ? [described[1]] : []), ...STRING_CANDIDATES];
    const candidate = candidates.find((value) => fits(node, value));
    if (candidate !== undefined) return candidate;
    if (node.pattern === undefined) return "a".repeat(node.minLength ?? 1);
    const pattern = new RegExp(node.pattern, "u");
    return fc.sample(
      fc.stringMatching(pattern).filter((value) => fits(node, value)),
      { numRuns: 1, seed: 1 },
    )[0]!;
  };
  const build = (raw: Node): unknown[] => {
    const node = resolve(raw);
    if (node.const !== undefined) return [node.const];
    if (node.enum) return [node.enum[0]];
    const branches = node.anyOf ?? node.oneOf;
    if (branches) {
      const valued = branches.filter((branch) => resolve(branch).type !== "null");
      return (valued.length > 0 ? valued : branches).flatMap(build);
    }
    switch (node.type) {
      case "object": {
        const fields = Object.entries(node.properties ?? {}).map(
          ([name, field]) => [name, name in FIELD_EXAMPLES ? [FIELD_EXAMPLES[name]] : build(field)] as const,
        );
        const first = Object.fromEntries(fields.map(([name, values]) => [name, values[0]]));
        return [
          first,
          ...fields.flatMap(([name, values]) =>
            values.slice(1).map((value) => ({ ...first, [name]: value })),
          ),
        ];
      }
      case "array": {
        if (node.prefixItems) return [node.prefixItems.map((item) => build(item)[0])];
        const count = Math.max(node.minItems ?? 0, 1);
        return build(node.items ?? {}).map((item) => Array.from({ length: count }, () => item));
      }
      case "string":
        return [stringOf(node)];
      case "integer":
      case "number":
        return [node.minimum ?? (node.exclusiveMinimum === undefined ? 1 : node.exclusiveMinimum + 1)];
      case "boolean":
        return [true];
      case "null":
        return [null];
      default:
        return ["text"];
    }
  };
  return build(root);
}

/** Every string of a value and every object in it, by path. */
function placesOf(
  value: unknown,
  path: Array<string | number> = [],
): Array<{ path: Array<string | number>; object: boolean }> {
  if (typeof value === "string") return [{ path, object: false }];
  if (Array.isArray(value)) return value.flatMap((item, index) => placesOf(item, [...path, index]));
  if (value !== null && typeof value === "object")
    return [
      { path, object: true },
      ...Object.entries(value).flatMap(([key, item]) => placesOf(item, [...path, key])),
    ];
  return [];
}

function withText(value: unknown, path: Array<string | number>, change: (old: unknown) => unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return change(value);
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = withText(copy[head], rest, change);
  return copy;
}

/** `text` with `character` inserted at a position `at` picks. */
const inserted = (text: string, character: string, at: number) => {
  const index = at % (text.length + 1);
  return `${text.slice(0, index)}${character}${text.slice(index)}`;
};

/** The message of a surface's error body, checked against that surface's error schema. */
function errorMessage(surface: SurfaceName, body: unknown): string {
  switch (surface) {
    case "classic": {
      const error = classicErrorSchema.parse(body);
      expect(error.error).toBe("VALIDATION_ERROR");
      return error.message;
    }
    case "predict": {
      const error = predictErrorSchema.parse(body);
      expect(error.error).toBe("INVALID_INPUT");
      return error.message;
    }
    default:
      return marketErrorSchema.strict().parse(body).error;
  }
}

/** Budgets no walk over every route spends (budgets are not what these tests are about). */
const plenty = { limit: 1_000_000, windowMs: 60_000 };
const UNLIMITED: QuotaPolicies = {
  market: { read: plenty, write: plenty, stream: plenty },
  classic: { read: plenty, search: plenty, metadata: plenty, report: plenty, stream: plenty },
  predict: { all: plenty, stream: plenty },
  proxyAnonymous: { read: plenty, write: plenty, stream: plenty },
  keyCreation: plenty,
  keyRevocation: plenty,
  failedKeyAttempts: plenty,
};

const NOW = Date.parse(PREDICT_HEAD_TIME) + 1_000;
const label = (surface: SurfaceName, route: RouteDefinition) => `${surface} ${route.method} ${route.path}`;

describe("every route of every surface refuses refused text with a 400 in its error body", () => {
  let t: TestApp;
  let key: string;
  let market: SignedIn;
  let chat: Record<string, string>;
  let classic: ClassicSignedIn;
  beforeAll(async () => {
    ({ t } = await setupPredictApp({ policies: UNLIMITED }));
    await setPredictHead(t.db);
    key = (await t.createKey()).key;
    market = await signIn(t, 3, { apiKey: key, now: NOW });
    chat = await openChatSession(t, market);
    classic = await signInClassic(t.app.server, { apiKey: key, walletIndex: 4, now: NOW });
  });
  afterAll(() => t.close());

  /** The credentials a route takes, so that the request reaches the input checks. */
  const headersFor = (surface: SurfaceName, route: RouteDefinition): Record<string, string> => {
    const token = (headers: Record<string, string>) => headers["authorization"]!.slice("Bearer ".length);
    switch (surface) {
      case "classic":
        return route.session === "classic" ? classic.headers : { "api-key": key };
      case "app":
        return {
          origin: TEST_ORIGIN,
          ...(route.session ? { "x-mkt-wallet": market.address } : {}),
          ...(route.session === "account" ? { cookie: `mkt-session=${token(market.headers)}` } : {}),
          ...(route.session === "chat" ? { cookie: `mkt-chat=${token(chat)}` } : {}),
        };
      case "market":
        if (route.session === "access")
          throw new Error(`${label(surface, route)}: sign in an access session here`);
        return route.session === "chat" ? chat : market.headers;
      default:
        return { "api-key": key, origin: TEST_ORIGIN };
    }
  };

  /** A URL of the route: each path parameter an example of its schema, or `params` where given. */
  const urlOf = (
    surface: SurfaceName,
    route: RouteDefinition,
    params: Record<string, string> = {},
    query = "",
  ) => {
    const prefix = {
      platform: "",
      market: "/market",
      classic: "/classic",
      predict: "/predict/v9",
      app: "/app/api",
    }[surface];
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
      const value =
        params[name] ?? String(examplesOf(route.request!.params!.shape[name] as z.ZodType)[0] ?? "x");
      return encodeURIComponent(value);
    });
    return `${prefix}${path}${query}`;
  };

  const send = (
    surface: SurfaceName,
    route: RouteDefinition,
    options: { url?: string; body?: unknown } = {},
  ) =>
    t.app.server.inject({
      method: route.method,
      url: options.url ?? urlOf(surface, route),
      headers: headersFor(surface, route),
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });

  const surfaceRoutes = () =>
    Object.entries(t.app.routes).flatMap(([surface, routes]) =>
      routes.map((route) => ({ surface: surface as SurfaceName, route })),
    );

  it("in every string and property name of every body", async () => {
    const withBody = surfaceRoutes().filter(({ route }) => route.request?.body !== undefined);
    // Every surface with a body route is walked: the public three, `POST /keys` and the proxy.
    expect(new Set(withBody.map(({ surface }) => surface))).toEqual(
      new Set(["platform", "market", "classic", "app"]),
    );
    for (const { surface, route } of withBody) {
      const schema = route.documentedBody ?? route.request!.body!;
      const examples = examplesOf(schema);
      // Otherwise valid: only the refused character is wrong.
      for (const example of examples)
        expect(
          schema.safeParse(example).error,
          `${label(surface, route)} ${JSON.stringify(example)}`,
        ).toBeUndefined();
      const seen = new Set<string>();
      const places = examples.flatMap((example) =>
        placesOf(example)
          .filter((place) => {
            const id = `${place.object} ${place.path.join(".")}`;
            return !seen.has(id) && seen.add(id);
          })
          .map((place) => ({ example, place })),
      );
      expect(places.length).toBeGreaterThan(1);
      await fc.assert(
        fc.asyncProperty(refusedCharacter, fc.nat(), async ([character, named], at) => {
          for (const { example, place } of places) {
            const field = ["body", ...place.path].join(".");
            const body = place.object
              ? withText(example, place.path, (object) => ({
                  ...(object as object),
                  [inserted("key", character, at)]: 1,
                }))
              : withText(example, place.path, (text) => inserted(String(text), character, at));
            const response = await send(surface, route, { body });
            const where = `${label(surface, route)} ${field} ${named}: ${response.body}`;
            expect(response.statusCode, where).toBe(400);
            expect(errorMessage(surface, response.json()), where).toContain(
              place.object
                ? `${field}: property names must not contain ${named}`
                : `${field}: must not contain ${named}`,
            );
          }
        }),
        // NUL in every field first, then other refused characters at other places.
        { numRuns: 3, examples: [[REFUSED[0]!, 2]] },
      );
    }
  });

  it("takes bodies as JSON only: another content type is a 415 in the surface's error body, never parsed", async () => {
    for (const { surface, route } of surfaceRoutes().filter(
      ({ route }) => route.request?.body !== undefined,
    )) {
      for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/octet-stream"]) {
        const response = await t.app.server.inject({
          method: route.method,
          url: urlOf(surface, route),
          headers: { ...headersFor(surface, route), "content-type": type },
          payload: '--x\r\nContent-Disposition: form-data; name="text"\r\n\r\na\u0000b\r\n--x--',
        });
        expect(response.statusCode, `${label(surface, route)} ${type}: ${response.body}`).toBe(415);
        const message =
          surface === "classic"
            ? classicErrorSchema.parse(response.json()).message
            : marketErrorSchema.strict().parse(response.json()).error;
        expect(message).toBe("unsupported Content-Type; send application/json");
      }
    }
  });

  it("is published in the description of each API document", async () => {
    for (const name of ["market", "classic", "predict"]) {
      const document = (await t.app.server.inject({ url: `/openapi/${name}.json` })).json() as {
        info: { description: string };
      };
      expect(document.info.description).toContain(
        'no string of a request (a value or property name anywhere in the body, a query or path parameter), on any route, may contain U+0000 (NUL), an unpaired UTF-16 surrogate (a JSON escape such as "\\ud800" alone) or a bidirectional embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069)',
      );
      expect(document.info.description).toContain('"body.bio: must not contain U+0000 (NUL)"');
    }
  });

  it("in every path parameter and query parameter", async () => {
    // A URL cannot carry an unpaired surrogate (percent-decoding gives U+FFFD); the others it can.
    const inUrl = REFUSED.filter(([character]) => wellFormed(character));
    const withUrlInput = surfaceRoutes().filter(({ route }) => route.request?.params || route.request?.query);
    expect(withUrlInput.length).toBeGreaterThan(20);
    // Fastify checks the body before the query: a valid one, so the query's refusal is the one answered.
    const bodyOf = (route: RouteDefinition) =>
      route.request?.body ? examplesOf(route.documentedBody ?? route.request.body)[0] : undefined;
    for (const { surface, route } of withUrlInput) {
      const names = [
        ...Object.keys(route.request?.params?.shape ?? {}).map((name) => ({ part: "params", name })),
        ...Object.keys(route.request?.query?.shape ?? {}).map((name) => ({ part: "query", name })),
      ];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...inUrl), fc.nat(), async ([character, named], at) => {
          for (const { part, name } of names) {
            const value = inserted("value", character, at);
            const url =
              part === "params"
                ? urlOf(surface, route, { [name]: value })
                : urlOf(surface, route, {}, `?${new URLSearchParams({ [name]: value })}`);
            const response = await send(surface, route, { url, body: bodyOf(route) });
            const where = `${label(surface, route)} ${part}.${name} ${named}: ${response.body}`;
            expect(response.statusCode, where).toBe(400);
            const message = errorMessage(surface, response.json());
            // The access rule reads `GET /market/api-key`'s bucket before the input checks: a 400 of its own.
            if (route.access.kind === "market" && route.access.bucket === "query" && name === "bucket")
              expect(message, where).toMatch(/^bucket is required/);
            else expect(message, where).toContain(`${part}.${name}: must not contain ${named}`);
          }
        }),
        { numRuns: 2, examples: [[inUrl[0]!, 2]] },
      );
    }
  });
});

/** Every body of the operator listener, by route: its routes are outside the surfaces' route tables. */
const ADMIN_BODIES: Record<string, z.ZodType> = {
  "PATCH /admin/keys/:id": adminKeyPatchSchema,
  "POST /admin/invites": adminInviteRequestSchema,
  "POST /admin/social/x/verify": adminXVerifyRequestSchema,
  "PUT /admin/classic/unboxing-disallowed": adminClassicUnboxingSchema,
  "PATCH /admin/classic/games/:chainId/:address": adminClassicGameFlagsSchema,
  "PATCH /admin/classic/reports/:id": adminClassicReportPatchSchema,
  "PUT /admin/predict/runtime": adminPredictRuntimePatchSchema,
  "PUT /admin/predict/markets/:address/media": adminPredictMarketMediaSchema,
  "POST /admin/indexer/handoff": adminIndexerHandOffRequestSchema,
  "POST /admin/indexer/:scope/handoff": adminIndexerHandOffRequestSchema,
};
/** The operator listener's query parameters, by route. */
const ADMIN_QUERIES: Record<string, string[]> = {
  "GET /admin/keys": ["cursor"],
  "GET /admin/classic/reports": ["status"],
};
const ADMIN_PARAMS: Record<string, string> = {
  id: "x1",
  chainId: "8453",
  address: `0x${"ab".repeat(20)}`,
  scope: "8453:registry:x1",
};

/** `METHOD /path` of every route Fastify prints for an instance (`printRoutes` draws a tree of path segments). */
function printedRoutes(tree: string): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    prefixes[depth] = `${prefixes[depth - 1] ?? ""}${match[2]}`;
    for (const method of (match[3] ?? "").split(", ").filter((name) => /^[A-Z]+$/.test(name)))
      routes.push(`${method} ${prefixes[depth]}`);
  }
  return routes;
}

describe("the operator listener refuses refused text with a 400 in the market's error body", () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await setupPredictApp());
  });
  afterAll(() => t.close());

  const send = (method: string, url: string, body?: unknown) =>
    t.app.admin.inject({
      method: method as "GET",
      url,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const expectRefused = async (method: string, url: string, body: unknown, field: string, named: string) => {
    const response = await send(method, url, body);
    const where = `${method} ${url} ${field} ${named}: ${response.body}`;
    expect(response.statusCode, where).toBe(400);
    expect(marketErrorSchema.strict().parse(response.json()).error, where).toContain(
      `${field}: must not contain ${named}`,
    );
  };
  const urlOf = (path: string, params: Record<string, string> = {}) =>
    path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
      encodeURIComponent(params[name] ?? ADMIN_PARAMS[name]!),
    );

  it("knows every route of the listener that takes a body", () => {
    const printed = printedRoutes(t.app.admin.printRoutes({ commonPrefix: false }));
    expect(printed).toContain("PUT /admin/predict/markets/:address/media");
    expect(printed.filter((route) => /^(POST|PUT|PATCH) /.test(route)).sort()).toEqual(
      Object.keys(ADMIN_BODIES).sort(),
    );
  });

  it("scans a text/plain body (the listener's other body parser) like a JSON one", async () => {
    const response = await t.app.admin.inject({
      method: "PUT",
      url: urlOf("/admin/predict/markets/:address/media"),
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "text/plain" },
      payload: "https://images.example/a\u0000.png",
    });
    expect(response.statusCode).toBe(400);
    expect(marketErrorSchema.strict().parse(response.json()).error).toBe(
      "body: must not contain U+0000 (NUL)",
    );
  });

  it("refuses a key-list cursor whose decoded id holds a refused character, as any cursor it did not issue", async () => {
    for (const [character] of REFUSED) {
      const cursor = Buffer.from(JSON.stringify([new Date(NOW).toISOString(), `key_${character}`])).toString(
        "base64url",
      );
      const response = await send("GET", `/admin/keys?cursor=${cursor}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(marketErrorSchema.strict().parse(response.json()).error).toBe(
        "cursor is not a cursor this API returned",
      );
    }
  });

  it("in every string of every body, every path parameter and every query parameter", async () => {
    const inUrl = REFUSED.filter(([character]) => wellFormed(character));
    await fc.assert(
      fc.asyncProperty(refusedCharacter, fc.constantFrom(...inUrl), fc.nat(), async (inBody, inPath, at) => {
        for (const [route, schema] of Object.entries(ADMIN_BODIES)) {
          const [method, path] = route.split(" ") as [string, string];
          const [example] = examplesOf(schema);
          expect(schema.safeParse(example).error, route).toBeUndefined();
          for (const place of placesOf(example).filter((candidate) => !candidate.object)) {
            const body = withText(example, place.path, (text) => inserted(String(text), inBody[0], at));
            await expectRefused(method, urlOf(path), body, ["body", ...place.path].join("."), inBody[1]);
          }
          for (const [, name] of path.matchAll(/:([A-Za-z]+)/g)) {
            const url = urlOf(path, { [name!]: inserted("x1", inPath[0], at) });
            await expectRefused(method, url, example, `params.${name}`, inPath[1]);
          }
        }
        for (const [route, names] of Object.entries(ADMIN_QUERIES)) {
          const [method, path] = route.split(" ") as [string, string];
          for (const name of names) {
            const url = `${path}?${new URLSearchParams({ [name]: inserted("x1", inPath[0], at) })}`;
            await expectRefused(method, url, undefined, `query.${name}`, inPath[1]);
          }
        }
      }),
      { numRuns: 4, examples: [[REFUSED[0]!, inUrl[0]!, 1]] },
    );
  });
});
