import { isDeepStrictEqual } from "node:util";
import { z } from "zod";

export type JsonObject = Record<string, unknown>;

export type Io = "input" | "output";

/** The named schemas of one document, collected while its operations are built. */
export interface SchemaComponents {
  /** The JSON Schema of `schema` for one route (`where`), its named parts claimed as components. */
  convert(schema: z.ZodType, io: Io, where: string): JsonObject;
  /** Names every component and points every reference of the document at it. */
  resolve<T extends { components: { schemas: Record<string, JsonObject> } }>(document: T): T;
}

/** What `components.schemas` names may look like (OpenAPI 3.1, Components Object). */
const COMPONENT_NAME = /^[a-zA-Z0-9._-]+$/;
/** Stands for a component's final name until every schema of the document is known. */
const PENDING = "#/$pending/";

/**
 * The named schemas of one document. zod converts each route schema on its
 * own and moves every schema that carries `.meta({ id })`, at any depth, into
 * that conversion's `$defs`; each id becomes one entry of `components.schemas`.
 *
 * One id may document differently as input and as output (a field with a
 * default is optional on input; output objects are closed). Then the output
 * keeps the id and the input is published as `<id>Input`; a schema that
 * refers to a split one splits too. Two different schemas that claim the same
 * id stop the build: one of them would silently document the other.
 */
export function createSchemaComponents(): SchemaComponents {
  /** Each id's JSON Schema as input and as output, with the route that first used it. */
  const claimed = new Map<string, Partial<Record<Io, { json: JsonObject; where: string }>>>();

  const claim = (id: string, io: Io, json: JsonObject, where: string) => {
    if (!COMPONENT_NAME.test(id))
      throw new Error(
        `OpenAPI: schema id "${id}" (${where}) is not a valid component name (${COMPONENT_NAME})`,
      );
    const variants = claimed.get(id) ?? {};
    claimed.set(id, variants);
    const known = variants[io];
    if (!known) variants[io] = { json, where };
    else if (!isDeepStrictEqual(known.json, json))
      throw new Error(
        `OpenAPI: two different schemas claim the id "${id}" (as ${io}): one in ${known.where}, another in ${where}`,
      );
  };

  /** The JSON Schema of `schema` for one route (`where`), its named parts claimed as components. */
  const convert = (schema: z.ZodType, io: Io, where: string): JsonObject => {
    const { $defs, ...root } = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
      reused: "inline",
      override: ({ jsonSchema }) => {
        delete (jsonSchema as JsonObject)["$schema"];
      },
    }) as JsonObject;
    delete root["$schema"];
    const pending = (ref: string) => {
      if (!ref.startsWith("#/$defs/"))
        throw new Error(`OpenAPI: unexpected reference ${ref}; a recursive schema needs .meta({ id })`);
      const id = decodePointerSegment(ref.slice("#/$defs/".length));
      if (id.startsWith("__schema"))
        throw new Error("OpenAPI: a schema used twice in a cycle has no id; give it .meta({ id })");
      return `${PENDING}${io}/${id}`;
    };
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonObject>))
      claim(id, io, mapRefs(def, pending), where);
    return mapRefs(root, pending);
  };

  const idOf = (ref: string) => ref.slice(PENDING.length).split("/").slice(1).join("/");
  const refsOf = (json: unknown) => {
    const ids: string[] = [];
    mapRefs(json, (ref) => {
      if (ref.startsWith(PENDING)) ids.push(idOf(ref));
      return ref;
    });
    return ids;
  };
  const withoutIo = (json: JsonObject) => mapRefs(json, (ref) => (ref.startsWith(PENDING) ? idOf(ref) : ref));

  /** Names every component and points every reference of the document at it. */
  const resolve = <T extends { components: { schemas: Record<string, JsonObject> } }>(document: T): T => {
    const split = new Set<string>();
    for (const [id, { input, output }] of claimed)
      if (input && output && !isDeepStrictEqual(withoutIo(input.json), withoutIo(output.json))) split.add(id);
    for (let grown = true; grown; ) {
      grown = false;
      for (const [id, { input, output }] of claimed) {
        if (split.has(id) || !input || !output) continue;
        if ([...refsOf(input.json), ...refsOf(output.json)].some((ref) => split.has(ref))) {
          split.add(id);
          grown = true;
        }
      }
    }
    const nameOf = (id: string, io: Io) => (io === "input" && split.has(id) ? `${id}Input` : id);
    for (const id of split)
      if (claimed.has(nameOf(id, "input")))
        throw new Error(
          `OpenAPI: the input form of "${id}" would take the name of the schema "${nameOf(id, "input")}"`,
        );
    const resolveRef = (ref: string) => {
      if (!ref.startsWith(PENDING)) return ref;
      const [io, ...id] = ref.slice(PENDING.length).split("/");
      return `#/components/schemas/${nameOf(id.join("/"), io as Io)}`;
    };
    const schemas: Record<string, JsonObject> = {};
    for (const [id, variants] of claimed)
      for (const io of ["output", "input"] as const) {
        const variant = variants[io];
        const name = nameOf(id, io);
        if (variant && !schemas[name]) schemas[name] = mapRefs(variant.json, resolveRef);
      }
    const resolved = mapRefs(document, resolveRef);
    resolved.components.schemas = schemas;
    return resolved;
  };

  return { convert, resolve };
}

/** A copy of `value` with every `$ref` passed through `map`. */
function mapRefs<T>(value: T, map: (ref: string) => string): T {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, map)) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === "$ref" && typeof item === "string" ? map(item) : mapRefs(item, map),
    ]),
  ) as T;
}

const decodePointerSegment = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~");
