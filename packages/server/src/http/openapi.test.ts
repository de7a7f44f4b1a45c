import { compileErrors, dereference, validate } from "@readme/openapi-parser";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { setupApp, type TestApp } from "../_test/app.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { defineRoute, type RouteDefinition } from "./route.ts";
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

function operationsOf(document: JsonObject) {
  return Object.entries(document["paths"] as Record<string, Record<string, { operationId: string }>>).flatMap(
    ([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, ...operation })),
  );
}

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

  it.each(NAMES)("%s: operationIds are unique", (name) => {
    const ids = operationsOf(documentOf(name)).map((operation) => operation.operationId);
    expect(ids.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
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
    expect(Object.keys(document.components.schemas).sort()).toEqual(["Branch", "Leaf", "Tree"]);
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
    expect(Object.keys(schemas).sort()).toEqual(["Holder", "HolderInput", "Settings", "SettingsInput"]);
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
