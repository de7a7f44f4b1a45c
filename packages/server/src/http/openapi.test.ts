import { compileErrors, dereference, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { setupApp, type TestApp } from "../_test/app.ts";
import { CLASSIC_ROUTES } from "../classic/routes.ts";
import { SESSION_COOKIES } from "../identity/index.ts";
import { MARKET_ROUTES } from "../market/routes.ts";
import { PLATFORM_ROUTES } from "../platform/routes.ts";
import { PREDICT_ROUTES } from "../predict/routes.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { defineRoute, type RouteDeclaration, type RouteDefinition, type RouteTable } from "./route.ts";
import { marketSurface } from "./surfaces.ts";

type JsonObject = Record<string, unknown>;
/** The parser's document type; the published JSON is checked by the parser itself, not by this cast. */
type ParserDocument = Exclude<Parameters<typeof validate>[0], string>;
const NAMES = ["market", "classic", "predict"] as const;

/** Every `$ref` of a document with where it stands. */
function refsOf(value: unknown, at = "#"): Array<{ at: string; ref: string }> {
  if (Array.isArray(value)) return value.flatMap((item, index) => refsOf(item, `${at}/${index}`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === "$ref" && typeof item === "string" ? [{ at, ref: item }] : refsOf(item, `${at}/${key}`),
  );
}

/** The value a local `#/…` reference points at, or undefined. */
function resolvePointer(document: unknown, ref: string): unknown {
  let node = document;
  for (const segment of ref.slice(2).split("/")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as JsonObject)[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

interface Operation {
  operationId: string;
  parameters?: JsonObject[];
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonObject }> }>;
  security: Array<Record<string, string[]>>;
}

function operationsOf(document: JsonObject) {
  return Object.entries(document["paths"] as Record<string, Record<string, Operation>>).flatMap(
    ([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, ...operation })),
  );
}

/** Every `example` and `examples` of a document with the JSON pointer of the schema it must satisfy. */
function examplesOf(value: unknown, at = "#"): Array<{ at: string; schemaAt: string; example: unknown }> {
  if (Array.isArray(value)) return value.flatMap((item, index) => examplesOf(item, `${at}/${index}`));
  if (value === null || typeof value !== "object") return [];
  const node = value as JsonObject;
  const found: Array<{ at: string; schemaAt: string; example: unknown }> = [];
  // A parameter, header or media type: its examples are checked against its `schema`.
  const schemaAt = "schema" in node ? `${at}/schema` : at;
  if ("example" in node) found.push({ at: `${at}/example`, schemaAt, example: node["example"] });
  const examples = node["examples"];
  if (Array.isArray(examples))
    examples.forEach((example, index) => {
      found.push({ at: `${at}/examples/${index}`, schemaAt, example });
    });
  else if (examples !== null && typeof examples === "object")
    for (const [name, example] of Object.entries(examples as Record<string, JsonObject>))
      found.push({ at: `${at}/examples/${name}`, schemaAt, example: example["value"] });
  for (const [key, item] of Object.entries(node))
    if (key !== "example" && key !== "examples")
      found.push(...examplesOf(item, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`));
  return found;
}

const toOpenApiPath = (prefix: string, path: string) =>
  `${prefix}${path}`.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

/** Type-checks generated declarations with the TypeScript compiler, in memory. */
function typeErrors(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  const directories = new Set(Object.keys(files).map((name) => name.slice(0, name.lastIndexOf("/"))));
  host.fileExists = (name) => name in files || ts.sys.fileExists(name);
  host.directoryExists = (name) => directories.has(name) || ts.sys.directoryExists(name);
  host.readFile = (name) => files[name] ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) =>
    name in files
      ? ts.createSourceFile(name, files[name] ?? "", language)
      : getSourceFile(name, language, ...rest);
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("published OpenAPI documents", () => {
  let t: TestApp;
  const documents: Partial<Record<(typeof NAMES)[number], JsonObject>> = {};
  beforeAll(async () => {
    t = await setupApp();
    for (const name of NAMES) {
      const response = await t.app.server.inject({ url: `/openapi/${name}.json` });
      expect(response.statusCode).toBe(200);
      documents[name] = response.json() as JsonObject;
    }
  });
  afterAll(() => t.close());
  const documentOf = (name: (typeof NAMES)[number]) => {
    const document = documents[name];
    if (!document) throw new Error(`${name} document not loaded`);
    return structuredClone(document);
  };

  it.each(NAMES)("%s: every $ref points into #/components/ and resolves", (name) => {
    const document = documentOf(name);
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter(({ ref }) => !ref.startsWith("#/components/"))).toEqual([]);
    expect(refs.filter(({ ref }) => resolvePointer(document, ref) === undefined)).toEqual([]);
    for (const name of Object.keys((document["components"] as { schemas: JsonObject }).schemas))
      expect(name).toMatch(/^[a-zA-Z0-9._-]+$/);
  });

  it.each(NAMES)("%s: validates as OpenAPI 3.1 and dereferences", async (name) => {
    const result = await validate(documentOf(name) as ParserDocument);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.specification).toBe("OpenAPI");
    const dereferenced = await dereference(documentOf(name) as ParserDocument);
    expect(refsOf(dereferenced)).toEqual([]);
  });

  it.each(NAMES)("%s: no text cites a numbered section or a document its reader does not have", (name) => {
    // Every description states its rule itself: the specification documents behind the API are
    // not published with it, so a numbered section or a specification file would point a reader nowhere.
    const texts: Array<{ at: string; text: string }> = [];
    const collect = (value: unknown, at: string): void => {
      if (typeof value === "string") texts.push({ at, text: value });
      else if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) collect(item, `${at}/${index}`);
      } else if (value && typeof value === "object")
        for (const [key, item] of Object.entries(value)) collect(item, `${at}/${key}`);
    };
    collect(documentOf(name), "#");
    expect(texts.length).toBeGreaterThan(100);
    const citations =
      /\bsections? \d|\b(?:market|classic|predict)-api\.md\b|live-classic-facts|live-contracts\.md/i;
    expect(texts.filter(({ text }) => citations.test(text))).toEqual([]);
  });

  it.each(NAMES)("%s: the description is a short introduction, then one headed section per topic", (name) => {
    const description = (documentOf(name)["info"] as { description: string }).description;
    const [introduction = "", ...sections] = description.split(/^## /m);
    // The API's summary, then where the references are; each section below is a table-of-contents entry.
    const paragraphs = introduction.trim().split("\n\n");
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[1]).toContain(
      "Interactive references: [market](https://api.mkt.test/docs/market) · [classic](https://api.mkt.test/docs/classic) · [predict](https://api.mkt.test/docs/predict).",
    );
    const shared = [
      "Idempotency",
      "CORS",
      "Caching",
      "Outages and indexed data",
      "Security headers",
      "Request rules",
    ];
    const own = {
      market: [
        "API keys",
        "Rate limits",
        "Public reads",
        "Accounts and sessions",
        "First-party website proxy",
      ],
      classic: ["API keys", "Rate limits", "Clients of the live service"],
      predict: ["API keys", "Rate limits", "Errors"],
    }[name];
    expect(sections.map((section) => section.slice(0, section.indexOf("\n")))).toEqual([...own, ...shared]);
    // Short: no paragraph or list item runs on (the one long block of prose it replaced had paragraphs of 1,000 characters).
    const blocks = description.split(/\n\n|\n- /);
    expect(blocks.filter((block) => block.length > 750)).toEqual([]);
  });

  it("the reads built from an indexed projection, and only they, document the Indexed-* headers on 200 and 304", () => {
    const indexed = (name: (typeof NAMES)[number]) =>
      operationsOf(documentOf(name))
        .filter((operation) => {
          const headers = (operation.responses["200"] as { headers?: JsonObject } | undefined)?.headers ?? {};
          return "Indexed-Age" in headers && "Indexed-Block" in headers && "Indexed-Lag" in headers;
        })
        .map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
    expect(indexed("market")).toEqual(
      expect.arrayContaining([
        "GET /market/runtime",
        "GET /market/runtime/{version}",
        "GET /app/api/runtime",
      ]),
    );
    expect(indexed("market")).not.toContain("GET /market/releases");
    expect(indexed("classic")).toEqual(expect.arrayContaining(["GET /classic/games", "GET /classic/range"]));
    expect(indexed("classic")).not.toContain("GET /classic/reactions");
    expect(indexed("predict")).toContain("GET /predict/v9/markets");
    const games = operationsOf(documentOf("classic")).find(
      (operation) => operation.path === "/classic/games" && operation.method === "get",
    )!;
    expect((games.responses["304"] as unknown as { headers: JsonObject }).headers).toMatchObject({
      "Indexed-Age": { $ref: "#/components/headers/IndexedAge" },
    });
    expect(
      ((documentOf("classic")["components"] as JsonObject)["headers"] as JsonObject)["IndexedAge"],
    ).toMatchObject({ schema: { type: "integer", minimum: 0 } });
  });

  it.each(NAMES)("%s: operationIds are unique", (name) => {
    const ids = operationsOf(documentOf(name)).map((operation) => operation.operationId);
    expect(ids.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("no two paths of a document differ only by their parameters' names", () => {
    for (const name of NAMES) {
      const byShape = new Map<string, string[]>();
      for (const path of Object.keys(documentOf(name)["paths"] as JsonObject)) {
        const shape = path.replace(/\{[^}]+\}/g, "{}");
        byShape.set(shape, [...(byShape.get(shape) ?? []), path]);
      }
      expect([...byShape.values()].filter((paths) => paths.length > 1)).toEqual([]);
    }
  });

  it.each(NAMES)("%s: every example validates against its schema", (name) => {
    const document = documentOf(name);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajvFormats.default(ajv);
    // The whole document is one resource: each example's schema is a pointer into it, refs included.
    ajv.addSchema(document, "mkt:openapi", undefined, false);
    const examples = examplesOf(document);
    if (name === "market") expect(examples.length).toBeGreaterThan(5);
    const failures = examples.flatMap(({ at, schemaAt, example }) => {
      const check = ajv.compile({ $ref: `mkt:openapi${schemaAt}` });
      return check(example) ? [] : [`${at}: ${ajv.errorsText(check.errors)}`];
    });
    expect(failures).toEqual([]);
  });

  /** Every route table, where its routes are published, and whether they are the proxy's copies. */
  const tables: Array<{ name: (typeof NAMES)[number]; prefix: string; table: RouteTable; proxied?: true }> = [
    { name: "market", prefix: "/market", table: MARKET_ROUTES },
    {
      name: "market",
      prefix: "/app/api",
      table: Object.fromEntries(
        Object.entries(MARKET_ROUTES as RouteTable).filter(([, declaration]) => declaration.proxy === true),
      ),
      proxied: true,
    },
    { name: "classic", prefix: "/classic", table: CLASSIC_ROUTES },
    { name: "predict", prefix: "/predict/v9", table: PREDICT_ROUTES },
    ...NAMES.map((name) => ({
      name,
      prefix: "",
      table: Object.fromEntries(Object.entries(PLATFORM_ROUTES).filter(([key]) => key.includes(" /keys"))),
    })),
  ];
  const declaredOperations = () =>
    tables.flatMap(({ name, prefix, table, proxied }) => {
      const paths = documentOf(name)["paths"] as Record<string, Record<string, Operation>>;
      return Object.entries(table).map(([key, declaration]: [string, RouteDeclaration]) => {
        const [method = "", path = ""] = key.split(" ");
        const at = toOpenApiPath(prefix, path);
        const operation = paths[at]?.[method.toLowerCase()];
        if (!operation) throw new Error(`${name}: ${method} ${at} is not published`);
        return { name, where: `${name}: ${method} ${at}`, method, declaration, operation, proxied };
      });
    });
  const headerNames = (operation: Operation, document: JsonObject) =>
    (operation.parameters ?? [])
      .map((parameter) =>
        parameter["$ref"] ? (resolvePointer(document, String(parameter["$ref"])) as JsonObject) : parameter,
      )
      .filter((parameter) => parameter["in"] === "header")
      .map((parameter) => ({
        name: String(parameter["name"]).toLowerCase(),
        required: parameter["required"],
      }));

  it("every route declares the headers its declaration reads and every error status it can answer", () => {
    const errorSchema = { market: "MarketError", classic: "ClassicError", predict: "PredictError" };
    const checked = declaredOperations();
    expect(checked.length).toBeGreaterThan(140);
    const documents = Object.fromEntries(NAMES.map((name) => [name, documentOf(name)]));
    for (const { name, where, method, declaration, operation, proxied } of checked) {
      const headers = headerNames(operation, documents[name] ?? {});
      const header = (wanted: string) => headers.find((entry) => entry.name === wanted);
      const statuses = Object.keys(operation.responses);
      const expected = ["400", "408", "414", "429", "431", "503"];
      if (method !== "GET") expected.push("413", "415");
      if (declaration.idempotent) expected.push("409", "422");
      if (declaration.session || (declaration.access.kind === "market" && !proxied)) expected.push("401");
      if (proxied || (declaration.session && declaration.session !== "classic")) expected.push("403");
      expect(statuses, where).toEqual(expect.arrayContaining(expected));
      const keyRoute = where.includes(" /keys");
      for (const status of expected.filter((status) => status !== "429"))
        expect(
          operation.responses[status]?.content?.["application/json"]?.schema,
          `${where} ${status}`,
        ).toEqual({
          $ref: `#/components/schemas/${keyRoute ? "MarketError" : errorSchema[name]}`,
        });
      expect(operation.responses["429"]?.content?.["application/json"]?.schema, where).toEqual({
        $ref: `#/components/schemas/${name === "predict" && !keyRoute ? "PredictRateLimited" : keyRoute ? "MarketError" : errorSchema[name]}`,
      });

      expect(header("x-request-id"), where).toEqual({ name: "x-request-id", required: false });
      expect(Boolean(header("idempotency-key")), where).toBe(Boolean(declaration.idempotent));
      expect(Boolean(header("last-event-id")), where).toBe(Boolean(declaration.stream));
      expect(Boolean(header("if-none-match")), where).toBe(declaration.cache.kind === "shared");
      const walletSession = declaration.session === "account" || declaration.session === "chat";
      expect(header("x-mkt-wallet"), where).toEqual(
        walletSession ? { name: "x-mkt-wallet", required: !declaration.sessionOptional } : undefined,
      );
      if (proxied) {
        expect(header("origin"), where).toEqual({ name: "origin", required: method !== "GET" });
        expect(header("sec-fetch-site"), where).toEqual({ name: "sec-fetch-site", required: false });
      } else {
        expect(header("origin"), where).toEqual(
          walletSession ? { name: "origin", required: !declaration.sessionOptional } : undefined,
        );
      }
    }
  });

  it("every route's security requirements say which credentials it needs (AND within, OR between)", () => {
    const security = Object.fromEntries(
      declaredOperations().map(({ where, operation }) => [where, operation.security]),
    );
    // One route of each rule.
    expect({
      runtime: security["market: GET /market/runtime"],
      releases: security["market: GET /market/releases"],
      releasesViaProxy: security["market: GET /app/api/releases"],
      account: security["market: POST /market/account"],
      accountViaProxy: security["market: POST /app/api/account"],
      room: security["market: POST /market/rooms/{roomId}/messages"],
      roomViaProxy: security["market: POST /app/api/rooms/{roomId}/messages"],
      access: security["market: GET /market/access/session"],
      accessViaProxy: security["market: GET /app/api/access/session"],
      signInViaProxy: security["market: POST /app/api/account/session"],
      createKey: security["market: POST /keys"],
      revokeKey: security["classic: DELETE /keys/current"],
      classicRead: security["classic: GET /classic/games"],
      classicMetadata: security["classic: GET /classic/metadata/{addressOrSlug}"],
      classicKeyAndBearer: security["classic: POST /classic/chat/{contractAddress}"],
      classicBearerOnly: security["classic: PUT /classic/metadata/{addressOrSlug}"],
      predict: security["predict: GET /predict/v9/markets"],
    }).toEqual({
      runtime: [{ ApiKey: [] }],
      releases: [{ ApiKey: [], AccountSession: [] }, { ApiKey: [] }],
      releasesViaProxy: [{ AccountSessionCookie: [] }, {}],
      account: [{ ApiKey: [], AccountSession: [] }],
      accountViaProxy: [{ AccountSessionCookie: [] }],
      room: [{ ApiKey: [], ChatSession: [] }],
      roomViaProxy: [{ ChatSessionCookie: [] }],
      access: [{ ApiKey: [], AccessSession: [] }],
      accessViaProxy: [{ AccessSessionCookie: [] }],
      signInViaProxy: [],
      createKey: [],
      revokeKey: [{ ApiKey: [] }],
      classicRead: [{ ApiKey: [] }],
      classicMetadata: [],
      classicKeyAndBearer: [{ ApiKey: [], ClassicBearer: [] }],
      classicBearerOnly: [{ ClassicBearer: [] }],
      predict: [{ ApiKey: [] }],
    });
    // Every route: the key wherever the declaration needs it (never through the proxy), and its session's scheme.
    const sessionScheme = {
      account: "AccountSession",
      chat: "ChatSession",
      access: "AccessSession",
      classic: "ClassicBearer",
    };
    for (const { where, declaration, operation, proxied } of declaredOperations()) {
      const access = declaration.access;
      const key =
        !proxied &&
        (access.kind === "market" ||
          access.kind === "predict" ||
          access.kind === "key-holder" ||
          (access.kind === "classic" && access.key));
      const session =
        declaration.session && `${sessionScheme[declaration.session]}${proxied ? "Cookie" : ""}`;
      const required = [...(key ? ["ApiKey"] : []), ...(session ? [session] : [])].sort();
      const alternatives = operation.security.map((requirement) => Object.keys(requirement).sort());
      expect(alternatives[0] ?? [], where).toEqual(required);
      expect(alternatives.slice(1), where).toEqual(
        declaration.sessionOptional ? [required.filter((scheme) => scheme !== session)] : [],
      );
    }
    const schemes = (documentOf("market")["components"] as { securitySchemes: JsonObject }).securitySchemes;
    expect(schemes).toMatchObject({
      ApiKey: { type: "apiKey", in: "header", name: "API-KEY" },
      AccountSession: { type: "http", scheme: "bearer" },
      ChatSession: { type: "http", scheme: "bearer" },
      AccessSession: { type: "apiKey", in: "header", name: "X-MKT-Session" },
      AccountSessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIES.account },
      ChatSessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIES.chat },
      AccessSessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIES.access },
    });
    expect(
      Object.keys(
        (documentOf("classic")["components"] as { securitySchemes: JsonObject }).securitySchemes,
      ).sort(),
    ).toEqual(["ApiKey", "ClassicBearer"]);
  });

  it("publishes the first-party proxy's routes, and only those, under /app/api", () => {
    const proxied = operationsOf(documentOf("market")).filter(({ path }) => path.startsWith("/app/api"));
    const declared = Object.entries(MARKET_ROUTES as RouteTable)
      .filter(([, declaration]) => declaration.proxy === true)
      .map(([key]) => {
        const [method = "", path = ""] = key.split(" ");
        return `${method.toLowerCase()} ${toOpenApiPath("/app/api", path)}`;
      });
    expect(proxied.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(declared.sort());
    expect(proxied.find(({ path }) => path === "/app/api/runtime")).toMatchObject({
      operationId: "listRuntimesViaProxy",
      tags: ["First-party proxy"],
    });
  });

  it("a write without a body schema still answers 413 and 415, as its document says", async () => {
    const { key } = await t.createKey();
    const operation = (documentOf("market")["paths"] as Record<string, Record<string, Operation>>)[
      "/keys/current"
    ]?.["delete"];
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(["413", "415"]));
    const send = (contentType: string, payload: string) =>
      t.app.server.inject({
        method: "DELETE",
        url: "/keys/current",
        headers: { "api-key": key, "content-type": contentType },
        payload,
      });
    const unsupported = await send("text/plain", "hello");
    expect([unsupported.statusCode, unsupported.json()]).toEqual([
      415,
      { error: "unsupported Content-Type; send application/json" },
    ]);
    const large = await send("application/json", JSON.stringify({ a: "x".repeat(1_100_000) }));
    expect([large.statusCode, large.json()]).toEqual([413, { error: "the request body is too large" }]);
  });

  it("generate client types that name every path and operation and type-check", async () => {
    const files: Record<string, string> = {};
    for (const name of NAMES) {
      const document = documentOf(name);
      const source = astToString(await openapiTS(document as never, { silent: true }));
      for (const { path, operationId } of operationsOf(document)) {
        expect(source).toContain(`"${path}": {`);
        expect(source).toContain(`operations["${operationId}"]`);
      }
      files[`/generated/${name}.ts`] = source;
    }
    // Uses the generated types the way a client would, so an empty or `unknown` output fails.
    files["/generated/use.ts"] = [
      `import type { operations } from "./market.ts";`,
      `type Created = operations["createApiKey"]["responses"][201]["content"]["application/json"];`,
      `export const created: Created = { id: "key_1", key: "mkt_x", multiplier: 1, createdAt: "2026-01-01T00:00:00Z" };`,
      `// @ts-expect-error the multiplier is a number`,
      `export const wrong: Created = { id: "key_1", key: "mkt_x", multiplier: "1", createdAt: "" };`,
    ].join("\n");
    expect(typeErrors(files)).toEqual([]);
  }, 60_000);
});

describe("buildOpenApiDocument", () => {
  const surface = marketSurface();
  const build = (routes: RouteDefinition[]) =>
    buildOpenApiDocument(surface, [{ prefix: surface.prefix, routes }], {
      publicUrl: "https://api.mkt.test",
      publicReads: "key",
    });
  const route = (overrides: Partial<RouteDefinition>): RouteDefinition => ({
    ...defineRoute({
      method: "GET",
      path: "/thing",
      operationId: "getThing",
      summary: "A thing",
      tags: ["test"],
      responses: { 200: { description: "ok" } },
      handler: () => undefined,
    }),
    access: { kind: "none" },
    cache: { kind: "no-store" },
    ...overrides,
  });

  const Leaf = z.object({ value: z.string() }).meta({ id: "Leaf" });
  const Branch = z.object({ leaves: z.array(Leaf) }).meta({ id: "Branch" });
  const Tree = z.object({ branch: Branch, firstLeaf: Leaf.optional() }).meta({ id: "Tree" });

  it("hoists named schemas from any depth into one component each, and every reference resolves", () => {
    const document = build([
      route({ responses: { 200: { description: "ok", schema: Tree } } }),
      route({
        path: "/wrapped",
        operationId: "getWrapped",
        responses: { 200: { description: "ok", schema: z.object({ trees: z.array(Tree) }) } },
      }),
      route({
        path: "/leaf",
        operationId: "getLeaf",
        responses: { 200: { description: "ok", schema: Leaf } },
      }),
    ]);
    expect(Object.keys(document.components.schemas).sort()).toEqual([
      "Branch",
      "Leaf",
      "MarketError",
      "Tree",
    ]);
    expect(document.components.schemas["Branch"]).toMatchObject({
      properties: { leaves: { type: "array", items: { $ref: "#/components/schemas/Leaf" } } },
    });
    expect(JSON.stringify(document)).not.toContain("$defs");
    for (const { ref } of refsOf(document)) expect(resolvePointer(document, ref), ref).toBeDefined();
  });

  it("publishes the input form of a schema that differs from its output as <id>Input", () => {
    const Settings = z.object({ theme: z.string().default("dark") }).meta({ id: "Settings" });
    const Holder = z.object({ settings: Settings }).meta({ id: "Holder" });
    const document = build([
      route({
        method: "PUT",
        request: { body: Holder },
        responses: { 200: { description: "ok", schema: Holder } },
      }),
    ]);
    const schemas = document.components.schemas;
    expect(Object.keys(schemas).sort()).toEqual([
      "Holder",
      "HolderInput",
      "MarketError",
      "Settings",
      "SettingsInput",
    ]);
    expect(schemas["Settings"]?.["required"]).toEqual(["theme"]);
    expect(schemas["SettingsInput"]?.["required"]).toBeUndefined();
    expect(schemas["HolderInput"]).toMatchObject({
      properties: { settings: { $ref: "#/components/schemas/SettingsInput" } },
    });
    const operation = document.paths["/market/thing"]?.["put"] as JsonObject;
    expect(JSON.stringify(operation["requestBody"])).toContain('"#/components/schemas/HolderInput"');
    expect(JSON.stringify(operation["responses"])).toContain('"#/components/schemas/Holder"');
  });

  it("refuses two different schemas with one id", () => {
    const first = z.object({ a: z.string() }).meta({ id: "Clash" });
    const second = z.object({ b: z.number() }).meta({ id: "Clash" });
    expect(() =>
      build([
        route({ responses: { 200: { description: "ok", schema: z.object({ first }) } } }),
        route({
          path: "/other",
          operationId: "getOther",
          responses: { 200: { description: "ok", schema: z.object({ second }) } },
        }),
      ]),
    ).toThrow(/the id "Clash" \(as output\): one in GET \/market\/thing, another in GET \/market\/other/);
  });

  it("refuses two paths that differ only by their parameters' names", () => {
    const params = (name: string) => z.object({ [name]: z.string() });
    expect(() =>
      build([
        route({ path: "/things/:id", request: { params: params("id") } }),
        route({
          method: "PUT",
          path: "/things/:name",
          operationId: "putThing",
          request: { params: params("name") },
        }),
      ]),
    ).toThrow("/market/things/{name} and /market/things/{id} differ only by parameter names");
  });

  it("declares every error a route can answer from its declaration, with the surface's error body", () => {
    const document = build([
      route({
        method: "POST",
        idempotent: true,
        access: { kind: "market", bucket: "write" },
        session: "chat",
        request: { body: z.object({ text: z.string() }) },
        responses: { 201: { description: "made" }, 404: { description: "No such thing." } },
      }),
    ]);
    const operation = document.paths["/market/thing"]?.["post"] as unknown as Operation;
    expect(Object.keys(operation.responses)).toEqual([
      "201",
      "400",
      "401",
      "403",
      "404",
      "408",
      "409",
      "413",
      "414",
      "415",
      "422",
      "429",
      "431",
      "503",
    ]);
    expect(operation.responses["404"]?.description).toBe("No such thing.");
    expect(operation.responses["401"]?.description).toBe(
      "`API-KEY` is missing, malformed or not a valid key; or the session token is missing, malformed, expired or signed out, or `X-MKT-Wallet` or `Origin` does not match it.",
    );
    expect(operation.responses["415"]?.content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/MarketError" } },
    });
    expect(operation.security).toEqual([{ ApiKey: [], ChatSession: [] }]);
  });

  it("refuses what OpenAPI would reject or ignore", () => {
    const ok = route({});
    expect(() => build([ok, route({ path: "/other" })])).toThrow(/operationId "getThing"/);
    expect(() => build([route({ path: "/things/:id" })])).toThrow(/path parameters/);
    expect(() => build([route({ request: { headers: z.object({ Authorization: z.string() }) } })])).toThrow(
      /header parameter Authorization/,
    );
    expect(() =>
      build([
        route({
          responses: { 200: { description: "ok", schema: z.object({ a: z.string() }).meta({ id: "a b" }) } },
        }),
      ]),
    ).toThrow(/not a valid component name/);
    expect(() => build([ok])).not.toThrow();
  });
});
