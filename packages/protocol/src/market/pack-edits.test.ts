import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACTION_LIMITS, PACK_EDIT_TITLE, packEditMessage, releaseActionMessage } from "./action-messages.ts";
import {
  PACK_EDIT_LIMITS,
  packEditActionJson,
  packEditRequestSchema,
  parsePackEditAction,
} from "./pack-edits.ts";
import { InvalidActionError } from "./release-actions.ts";

const fields = {
  address: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  nonce: "0b7f7c1e-3c0f-4a9e-8d2b-7a4c9f1e2d3c",
  expires: 1_790_000_000_000,
};

const unit = fc.constantFrom("a", "Z", "0", " ", "é", "e\u0301", "日", "!", "🙂");
const text = (max: number) =>
  fc
    .string({ unit, minLength: 1, maxLength: Math.floor(max / 2) })
    .filter((value) => value.normalize("NFC").trim().length > 0);
const packId = fc.stringMatching(/^[1-9][0-9]{0,77}$/);
const edit = fc.oneof(
  fc.record({
    kind: fc.constant("set-name"),
    packId,
    name: fc.option(text(PACK_EDIT_LIMITS.name), { nil: null }),
  }),
  fc.record({
    kind: fc.constant("set-note"),
    packId,
    note: fc.option(text(PACK_EDIT_LIMITS.note), { nil: null }),
  }),
);

describe("parsePackEditAction", () => {
  it("is idempotent and independent of key order and surrounding whitespace", () => {
    fc.assert(
      fc.property(edit, (input) => {
        const once = parsePackEditAction(input);
        expect(parsePackEditAction(once)).toEqual(once);
        const reordered = Object.fromEntries(Object.entries(input).reverse());
        expect(packEditActionJson(reordered)).toBe(JSON.stringify(once));
        const padded = Object.fromEntries(
          Object.entries(input).map(([key, value]) => [
            key,
            typeof value === "string" && key !== "kind" && key !== "packId" ? `  ${value}\t` : value,
          ]),
        );
        expect(packEditActionJson(padded)).toBe(JSON.stringify(once));
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ["an unknown kind", { kind: "burn", packId: "7" }],
    ["an unknown key", { kind: "set-name", packId: "7", name: "x", color: "red" }],
    ["a name over the limit", { kind: "set-name", packId: "7", name: "n".repeat(PACK_EDIT_LIMITS.name + 1) }],
    ["an empty name (clear with null)", { kind: "set-name", packId: "7", name: "  " }],
    ["a note on two lines", { kind: "set-note", packId: "7", note: "a\nb" }],
    ["a packId of 0", { kind: "set-note", packId: "0", note: "x" }],
    ["a numeric packId", { kind: "set-note", packId: 7, note: "x" }],
    ["a missing name", { kind: "set-name", packId: "7" }],
  ])("refuses %s", (_, input) => {
    expect(() => parsePackEditAction(input)).toThrow(InvalidActionError);
  });
});

describe("packEditMessage", () => {
  it("states the runtime, so a signature for one runtime or for the release catalog never serves another", () => {
    const action = { name: " Rare pulls ", packId: "7", kind: "set-name" };
    const text = packEditMessage({ ...fields, version: "r2", action });
    expect(text.split("\n")).toEqual([
      PACK_EDIT_TITLE,
      "Wallet: 0xabcdef0123456789abcdef0123456789abcdef01",
      "Runtime: r2",
      "Nonce: 0b7f7c1e-3c0f-4a9e-8d2b-7a4c9f1e2d3c",
      "Expires: 1790000000000",
      'Action: {"kind":"set-name","packId":"7","name":"Rare pulls"}',
      ACTION_LIMITS,
    ]);
    expect(packEditMessage({ ...fields, version: "r1", action })).not.toBe(text);
    expect(() => packEditMessage({ ...fields, version: "../r2", action })).toThrow(TypeError);
    expect(() => releaseActionMessage({ ...fields, action })).toThrow(InvalidActionError);
  });

  it("accepts as a request body exactly what the builder signed", () => {
    const body = packEditRequestSchema.parse({
      ...fields,
      action: parsePackEditAction({ kind: "set-note", packId: "12", note: "keep sealed" }),
      signature: `0x${"ab".repeat(65)}`,
    });
    expect(packEditMessage({ ...body, version: "r2" })).toBe(
      packEditMessage({
        ...fields,
        version: "r2",
        action: { kind: "set-note", packId: "12", note: " keep sealed " },
      }),
    );
    expect(() => packEditRequestSchema.parse({ ...body, origin: "https://mkt.example" })).toThrow();
  });
});
