import { ACCOUNT_ACTION_KINDS, type AccountActionKind, accountActionSchemas } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";

/**
 * Junk never gets a 2xx, nor a 5xx: for every kind of the allowlist, every
 * field of its schema (nested ones included) is sent with values derived from
 * the schema itself (wrong JSON types, out-of-range numbers, strings too long,
 * too short, off-pattern or off-enum), each in an otherwise valid body; and
 * bodies missing a required field or carrying a surplus one. Every one must
 * be refused with a 4xx in the market `{error}` body. Each junk body is first
 * checked against the schema, so the generator cannot send valid input by
 * mistake, and a new field is covered the day it is added.
 */
let test: TestApp;
let alice: SignedIn;
beforeAll(async () => {
  test = await setupApp();
  const { key } = await test.createKey({ multiplier: 1000 });
  alice = await signIn(test, 3, { apiKey: key });
});
afterAll(() => test.close());

/** The parts of JSON Schema the action schemas use. */
interface Node {
  $ref?: string;
  type?: string;
  anyOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Node>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $defs?: Record<string, Node>;
}

const jsonSchemaOf = (kind: AccountActionKind) =>
  z.toJSONSchema(accountActionSchemas[kind], { io: "input", unrepresentable: "any" }) as Node;

function resolver(root: Node) {
  return (node: Node): Node => {
    if (node.$ref === undefined) return node;
    const name = node.$ref.replace("#/$defs/", "");
    const target = root.$defs?.[name];
    if (!target) throw new Error(`unresolved ${node.$ref}`);
    return target;
  };
}

const branches = (node: Node): Node[] => node.anyOf ?? [node];
const typesOf = (node: Node) => new Set(branches(node).map((branch) => branch.type));

/** Strings tried, in order, for a valid value of a string field; the first the field accepts wins. */
const STRING_CANDIDATES = [
  `0x${"ab".repeat(20)}`,
  "4d3c1b2a-0000-4000-8000-000000000000",
  "room_abc",
  "img_abc",
  "inv_abc",
  "abcdefgh",
  "1",
];

const fitsString = (node: Node, value: string) =>
  (node.minLength === undefined || value.length >= node.minLength) &&
  (node.maxLength === undefined || value.length <= node.maxLength) &&
  (node.pattern === undefined || new RegExp(node.pattern).test(value));

/** A value the field accepts; objects get their required fields only. */
function validValue(node: Node, resolve: (node: Node) => Node, path: string): unknown {
  const field = resolve(node);
  if (field.const !== undefined) return field.const;
  if (field.enum) return field.enum[0];
  const branch = branches(field).find((candidate) => candidate.type !== "null") ?? field;
  switch (branch.type) {
    case "object":
      return Object.fromEntries(
        (branch.required ?? []).map((name) => [
          name,
          validValue(branch.properties?.[name] ?? {}, resolve, `${path}.${name}`),
        ]),
      );
    case "string": {
      const value = STRING_CANDIDATES.find((candidate) => fitsString(branch, candidate));
      if (value === undefined) throw new Error(`add a valid example for ${path} (${branch.pattern})`);
      return value;
    }
    case "integer":
    case "number":
      return branch.minimum ?? (branch.exclusiveMinimum ?? 0) + 1;
    case "boolean":
      return true;
    default:
      throw new Error(`no valid value for ${path} of type ${branch.type}`);
  }
}

const WRONG_TYPES: [string, unknown][] = [
  ["null", null],
  ["boolean", true],
  ["integer", 7],
  ["number", 1.5],
  ["string", "x"],
  ["array", []],
  ["object", {}],
];

/** Values the field must refuse, derived from its schema. */
function junkFor(node: Node): unknown[] {
  const types = typesOf(node);
  const accepts = (type: string) => types.has(type) || (type === "integer" && types.has("number"));
  const junk: unknown[] = WRONG_TYPES.filter(([type]) => !accepts(type)).map(([, value]) => value);
  for (const branch of branches(node)) {
    if (branch.const !== undefined) junk.push(`${String(branch.const)}-other`);
    if (branch.enum) junk.push(`${String(branch.enum[0])}-not-listed`, "");
    if (branch.type === "string") {
      if (branch.minLength !== undefined && branch.minLength > 0) junk.push("a".repeat(branch.minLength - 1));
      const oversized = "a".repeat((branch.maxLength ?? 5_000) + 1);
      if (branch.maxLength !== undefined || !fitsString(branch, oversized)) junk.push(oversized);
      if (branch.pattern !== undefined) {
        const offPattern = ["!", " ", "", "a\u0000b"].find(
          (value) => !new RegExp(branch.pattern ?? "").test(value),
        );
        if (offPattern !== undefined) junk.push(offPattern);
      }
    }
    if (branch.type === "integer" || branch.type === "number") {
      if (branch.minimum !== undefined) junk.push(branch.minimum - 1);
      if (branch.exclusiveMinimum !== undefined) junk.push(branch.exclusiveMinimum);
      if (branch.maximum !== undefined) junk.push(branch.maximum + 1);
      if (branch.exclusiveMaximum !== undefined) junk.push(branch.exclusiveMaximum);
      if (branch.type === "integer") junk.push((branch.minimum ?? 0) + 0.5);
    }
  }
  return [...new Map(junk.map((value) => [JSON.stringify(value), value])).values()];
}

const withValue = (base: unknown, path: string[], value: unknown): unknown => {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const object = { ...(base as Record<string, unknown>) };
  if (rest.length === 0 && value === undefined) delete object[head];
  else object[head] = withValue(object[head], rest, value);
  return object;
};

/** Every junk body of one kind, with what it is for the failure message. */
function junkBodies(kind: AccountActionKind): { why: string; body: unknown }[] {
  const root = jsonSchemaOf(kind);
  const resolve = resolver(root);
  const base = validValue(root, resolve, kind);
  const bodies: { why: string; body: unknown }[] = [];
  const walk = (node: Node, path: string[]) => {
    const object = resolve(node);
    bodies.push({
      why: `surplus field in ${path.join(".") || "the body"}`,
      body: withValue(base, [...path, "unexpected"], 1),
    });
    for (const [name, field] of Object.entries(object.properties ?? {})) {
      if (path.length === 0 && name === "kind") continue;
      const at = [...path, name];
      if (object.required?.includes(name))
        bodies.push({ why: `missing ${at.join(".")}`, body: withValue(base, at, undefined) });
      const resolved = resolve(field);
      for (const value of junkFor(resolved)) {
        bodies.push({
          why: `${at.join(".")} = ${JSON.stringify(value).slice(0, 40)}`,
          body: withValue(base, at, value),
        });
      }
      const inner = branches(resolved).find((branch) => branch.type === "object");
      if (inner) walk(inner, at);
    }
  };
  walk(root, []);
  return bodies;
}

describe("account actions refuse junk derived from their schemas with 4xx", () => {
  it("derives a valid base body for every kind, so each junk body differs from valid input in one place", () => {
    for (const kind of ACCOUNT_ACTION_KINDS) {
      const root = jsonSchemaOf(kind);
      const base = validValue(root, resolver(root), kind);
      expect(accountActionSchemas[kind].safeParse(base).success, `${kind}: ${JSON.stringify(base)}`).toBe(
        true,
      );
    }
  });

  it.each(ACCOUNT_ACTION_KINDS)("%s", async (kind) => {
    const bodies = junkBodies(kind);
    expect(bodies.length).toBeGreaterThan(0);
    for (const { why, body } of bodies) {
      expect(accountActionSchemas[kind].safeParse(body).success, `${kind}: ${why} is not junk`).toBe(false);
      const response = await accountAction(test, alice, body as Record<string, unknown>);
      const context = `${kind}: ${why} → ${response.statusCode} ${response.body.slice(0, 200)}`;
      expect(response.statusCode, context).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, context).toBeLessThan(500);
      expect(Object.keys(response.json()), context).toEqual(["error"]);
      expect(typeof response.json().error, context).toBe("string");
    }
  });

  it("refuses non-object bodies and a missing or non-string kind", async () => {
    for (const payload of [
      "[]",
      "null",
      "1",
      '"dm"',
      '{"kind":1}',
      '{"kind":null}',
      "{}",
      '{"kind":"__proto__"}',
    ]) {
      const response = await test.app.server.inject({
        method: "POST",
        url: "/market/account",
        headers: { ...alice.headers, "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
    }
  });
});

describe("session reads refuse malformed queries with 4xx", () => {
  const queries = [
    "",
    "?with=nope",
    "?with=0x0000000000000000000000000000000000000000",
    "?limit=0",
    "?limit=101",
    "?limit=abc",
    "?cursor=%%%",
    `?cursor=${"a".repeat(600)}`,
    "?cursor=eyJ4IjoxfQ",
    "?with=0x0000000000000000000000000000000000000001&cursor=bad!",
  ];
  for (const path of [
    "/market/dm/threads",
    "/market/dm/messages",
    "/market/dm/unread",
    "/market/rooms",
    "/market/rooms/room_x/messages",
    "/market/accounts/0x1/followers",
  ]) {
    it(path, async () => {
      for (const query of queries) {
        const response = await test.app.server.inject({
          method: "GET",
          url: `${path}${query}`,
          headers: alice.headers,
        });
        expect(response.statusCode, `${path}${query} → ${response.body}`).toBeLessThan(500);
      }
    });
  }
});
