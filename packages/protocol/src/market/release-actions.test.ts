import fc from "fast-check";
import { recoverMessageAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ACTION_LIMITS, RELEASE_ACTION_TITLE, releaseActionMessage } from "./action-messages.ts";
import {
  InvalidActionError,
  parseReleaseAction,
  releaseActionJson,
  releaseActionRequestSchema,
  safeParseReleaseAction,
} from "./release-actions.ts";
import {
  RELEASE_LIMITS,
  RELEASE_STATES_DOC,
  RELEASE_STATUSES,
  RELEASE_TRANSITIONS,
  releaseDraftSchema,
} from "./releases.ts";

// Characters that exercise trimming and NFC: "e\u0301" composes to "é", "\u00a0" is trimmed at the ends.
const unit = fc.constantFrom("a", "Z", "0", " ", "é", "e\u0301", "日", "-", "!", "ß", "🙂", "\u00a0");
const line = (max: number) =>
  fc
    .string({ unit, minLength: 1, maxLength: Math.floor(max / 2) })
    .filter((value) => value.normalize("NFC").trim().length > 0);
const paragraph = (max: number) =>
  fc.array(line(40), { maxLength: Math.max(1, Math.floor(max / 100)) }).map((lines) => lines.join("\r\n"));
const url = fc
  .tuple(fc.domain(), fc.stringMatching(/^[a-z0-9/_-]{0,40}$/))
  .map(([host, path]) => `https://${host}/${path}`)
  .filter((value) => value.length <= RELEASE_LIMITS.url);
const optionalUrl = fc.oneof(url, fc.constant(""));
const color = fc.stringMatching(/^#[0-9a-fA-F]{6}$/);
const mask = fc.constantFrom("full", "rounded", "circle", "hexagon", "arch");

const card = (id: string) =>
  fc.record(
    {
      id: fc.constant(id),
      name: line(RELEASE_LIMITS.cardName),
      description: paragraph(RELEASE_LIMITS.cardDescription),
      image: optionalUrl,
      attributes: fc.array(
        fc.record({ trait_type: line(RELEASE_LIMITS.traitType), value: line(RELEASE_LIMITS.traitValue) }),
        { maxLength: 3 },
      ),
      mask,
      firstEditionImage: optionalUrl,
    },
    { requiredKeys: ["id", "name"] },
  );

const tiers = fc
  .array(fc.nat({ max: 3 }), { maxLength: 3 })
  .chain((sizes) =>
    fc.tuple(
      ...sizes.map((size, t) => fc.tuple(...Array.from({ length: size }, (_, c) => card(`card-${t}-${c}`)))),
    ),
  );

const design = tiers.chain((cardsByRarity) =>
  fc.record(
    {
      accent: color,
      pattern: fc.constantFrom("solid", "gradient", "dots", "stripes", "checker"),
      mask,
      cardsByRarity: fc.constant(cardsByRarity),
      strokes: fc.array(
        fc
          .array(fc.tuple(fc.nat({ max: 4095 }), fc.nat({ max: 4095 })), { minLength: 1, maxLength: 4 })
          .map((points) => points.flat()),
        { maxLength: 3 },
      ),
      tierImages: fc.oneof(
        fc.constant([]),
        fc.array(url, { minLength: cardsByRarity.length, maxLength: cardsByRarity.length }),
      ),
      cardImage: optionalUrl,
      tierMasks: fc.oneof(
        fc.constant([]),
        fc.array(mask, { minLength: cardsByRarity.length, maxLength: cardsByRarity.length }),
      ),
    },
    // cardsByRarity stays when tier images or masks are drawn, which must match it.
    { requiredKeys: ["cardsByRarity"] },
  ),
);

const draft = fc.record(
  {
    name: line(RELEASE_LIMITS.name),
    symbol: fc.stringMatching(/^[A-Za-z0-9]{1,11}$/),
    image: optionalUrl,
    color,
    baseURI: optionalUrl,
    description: paragraph(RELEASE_LIMITS.description),
    links: fc.record({ website: optionalUrl, x: optionalUrl, telegram: optionalUrl }, { requiredKeys: [] }),
    design,
  },
  { requiredKeys: ["name", "symbol"] },
);

const releaseId = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const revision = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const launchAt = fc.integer({ min: 1, max: 253_402_300_799_999 });

const action = fc.oneof(
  fc.record({ kind: fc.constant("create"), draft }),
  fc.record({ kind: fc.constant("edit"), releaseId, revision, draft }),
  fc.record({ kind: fc.constant("announce"), releaseId, revision, launchAt }),
  fc.record({ kind: fc.constant("reschedule"), releaseId, revision, launchAt }),
  fc.record({ kind: fc.constant("cancel"), releaseId, revision }),
  fc.record({
    kind: fc.constant("link"),
    releaseId,
    revision,
    version: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
    dropId: fc.stringMatching(/^[1-9][0-9]{0,77}$/),
  }),
  fc.record({ kind: fc.constant("delete"), releaseId, revision }),
);

/** A copy with every object's keys in an order drawn from `random`. */
function shuffleKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, random));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([key, item]) => [key, shuffleKeys(item, random)] as const);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [
      entries[j] as (typeof entries)[number],
      entries[i] as (typeof entries)[number],
    ];
  }
  return Object.fromEntries(entries);
}

function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Every object node of a value, with its path. */
function objectNodes(value: unknown, path: (string | number)[] = []): Array<(string | number)[]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectNodes(item, [...path, i]));
  if (value === null || typeof value !== "object") return [];
  return [path, ...Object.entries(value).flatMap(([key, item]) => objectNodes(item, [...path, key]))];
}

function withExtraKey(value: unknown, path: (string | number)[], key: string): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path) node = node[step] as Record<string | number, unknown>;
  node[key] = "x";
  return copy;
}

/** Pads every string of a value with whitespace at both ends. */
function padStrings(value: unknown): unknown {
  if (typeof value === "string") return ` \t${value}\n `;
  if (Array.isArray(value)) return value.map(padStrings);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, padStrings(item)]));
}

const fields = {
  address: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  nonce: "0B7F7C1E-3C0F-4A9E-8D2B-7A4C9F1E2D3C",
  expires: 1_790_000_000_000,
};

describe("parseReleaseAction properties", () => {
  it("is idempotent: parse(parse(x)) deep-equals parse(x) and serialises identically", () => {
    fc.assert(
      fc.property(action, (input) => {
        const once = parseReleaseAction(input);
        const twice = parseReleaseAction(once);
        expect(twice).toEqual(once);
        expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
        expect(releaseActionJson(input)).toBe(JSON.stringify(once));
      }),
      { numRuns: 200 },
    );
  });

  it("gives the same canonical JSON whatever the key order of the input", () => {
    fc.assert(
      fc.property(action, fc.integer(), (input, seed) => {
        const shuffled = shuffleKeys(input, seeded(seed));
        expect(releaseActionJson(shuffled)).toBe(releaseActionJson(input));
      }),
      { numRuns: 200 },
    );
  });

  it("gives the same canonical JSON when text fields carry whitespace around them (ids and enums excluded)", () => {
    fc.assert(
      fc.property(fc.record({ kind: fc.constant("create"), draft }), (input) => {
        const parsed = releaseDraftSchema.parse(input.draft);
        const { pattern, mask, tierMasks, cardsByRarity, ...paddable } = parsed.design;
        const padded = {
          kind: "create",
          draft: {
            ...(padStrings({ ...parsed, design: undefined }) as object),
            design: {
              ...(padStrings(paddable) as object),
              pattern,
              mask,
              tierMasks,
              cardsByRarity: cardsByRarity.map((tier) =>
                tier.map(({ mask: cardMask, ...rest }) => ({
                  ...(padStrings(rest) as object),
                  mask: cardMask,
                })),
              ),
            },
          },
        };
        expect(releaseActionJson(padded)).toBe(releaseActionJson(input));
      }),
      { numRuns: 100 },
    );
  });

  it("refuses an unknown key anywhere in the action", () => {
    fc.assert(
      fc.property(action, fc.nat(), (input, pick) => {
        const parsed = parseReleaseAction(input);
        const nodes = objectNodes(parsed);
        const path = nodes[pick % nodes.length] ?? [];
        expect(() => parseReleaseAction(withExtraKey(parsed, path, "unexpected"))).toThrow(
          InvalidActionError,
        );
      }),
      { numRuns: 200 },
    );
  });

  it("builds one message per action whatever form the action was given in", () => {
    fc.assert(
      fc.property(action, fc.integer(), (input, seed) => {
        const parsed = parseReleaseAction(input);
        const message = releaseActionMessage({ ...fields, action: parsed });
        expect(releaseActionMessage({ ...fields, action: input })).toBe(message);
        expect(releaseActionMessage({ ...fields, action: shuffleKeys(input, seeded(seed)) })).toBe(message);
        expect(message.split("\n")[4]).toBe(`Action: ${JSON.stringify(parsed)}`);
      }),
      { numRuns: 100 },
    );
  });

  it("accepts as a request body exactly the action the builder signed", () => {
    fc.assert(
      fc.property(action, (input) => {
        const body = releaseActionRequestSchema.parse({
          ...fields,
          action: parseReleaseAction(input),
          signature: `0x${"11".repeat(65)}`,
        });
        expect(releaseActionMessage(body)).toBe(releaseActionMessage({ ...fields, action: input }));
      }),
      { numRuns: 100 },
    );
  });
});

const minimalDraft = { name: "Night Garden", symbol: "NGT" };

describe("parseReleaseAction", () => {
  it("fills every default and orders keys as the schema declares them", () => {
    const parsed = parseReleaseAction({
      draft: { symbol: " NGT ", name: "  Night Garden\u00a0", color: "#AABBCC" },
      kind: "create",
    });
    expect(JSON.stringify(parsed)).toBe(
      '{"kind":"create","draft":{"name":"Night Garden","symbol":"NGT","image":"","color":"#aabbcc","baseURI":"","description":"","links":{"website":"","x":"","telegram":""},"design":{"accent":"#000000","pattern":"solid","mask":"full","cardsByRarity":[],"strokes":[],"tierImages":[],"cardImage":"","tierMasks":[]}}}',
    );
  });

  it("returns fresh defaults: mutating one parsed draft never leaks into the next", () => {
    const first = parseReleaseAction({ kind: "create", draft: minimalDraft });
    if (first.kind !== "create") throw new Error("expected create");
    first.draft.design.strokes.push([1, 2]);
    first.draft.links.x = "https://x.example/changed";
    expect(releaseActionJson({ kind: "create", draft: minimalDraft })).not.toContain("changed");
    expect(releaseActionJson({ kind: "create", draft: minimalDraft })).toContain('"strokes":[]');
  });

  it("composes to NFC and turns CRLF into LF", () => {
    const parsed = parseReleaseAction({
      kind: "create",
      draft: { ...minimalDraft, name: "Cafe\u0301", description: "one\r\ntwo\rthree" },
    });
    if (parsed.kind !== "create") throw new Error("expected create");
    expect(parsed.draft.name).toBe("Café");
    expect(parsed.draft.description).toBe("one\ntwo\nthree");
  });

  const invalid: Array<[string, unknown, string]> = [
    ["an unknown kind", { kind: "publish", releaseId: "r1", revision: 1 }, "kind"],
    ["an unknown key", { kind: "cancel", releaseId: "r1", revision: 1, reason: "x" }, ""],
    [
      "a name over the limit",
      { kind: "create", draft: { ...minimalDraft, name: "n".repeat(65) } },
      "draft.name",
    ],
    ["an empty name", { kind: "create", draft: { ...minimalDraft, name: "   " } }, "draft.name"],
    ["a name on two lines", { kind: "create", draft: { ...minimalDraft, name: "a\nb" } }, "draft.name"],
    ["a symbol with a space", { kind: "create", draft: { ...minimalDraft, symbol: "N G" } }, "draft.symbol"],
    [
      "an http image",
      { kind: "create", draft: { ...minimalDraft, image: "http://a.example/x.png" } },
      "draft.image",
    ],
    [
      "a data: image",
      { kind: "create", draft: { ...minimalDraft, image: "data:image/png;base64,AAAA" } },
      "draft.image",
    ],
    [
      "a URL with credentials",
      { kind: "create", draft: { ...minimalDraft, links: { website: "https://u:p@a.example/" } } },
      "draft.links.website",
    ],
    ["a bad colour", { kind: "create", draft: { ...minimalDraft, color: "red" } }, "draft.color"],
    [
      "an unknown pattern",
      { kind: "create", draft: { ...minimalDraft, design: { pattern: "plaid" } } },
      "draft.design.pattern",
    ],
    [
      "too many cards in a tier",
      {
        kind: "create",
        draft: {
          ...minimalDraft,
          design: { cardsByRarity: [Array.from({ length: 101 }, (_, i) => ({ id: `c${i}`, name: "c" }))] },
        },
      },
      "draft.design.cardsByRarity.0",
    ],
    [
      "too many cards over all tiers",
      {
        kind: "create",
        draft: {
          ...minimalDraft,
          design: {
            cardsByRarity: [0, 1, 2].map((t) =>
              Array.from({ length: 70 }, (_, i) => ({ id: `c${t}-${i}`, name: "c" })),
            ),
          },
        },
      },
      "draft.design.cardsByRarity",
    ],
    [
      "a card id used twice",
      {
        kind: "create",
        draft: {
          ...minimalDraft,
          design: { cardsByRarity: [[{ id: "a", name: "x" }], [{ id: "a", name: "y" }]] },
        },
      },
      "draft.design.cardsByRarity.1.0.id",
    ],
    [
      "tier images not matching the tiers",
      {
        kind: "create",
        draft: {
          ...minimalDraft,
          design: {
            cardsByRarity: [[{ id: "a", name: "x" }]],
            tierImages: ["https://a.example/1", "https://a.example/2"],
          },
        },
      },
      "draft.design.tierImages",
    ],
    [
      "a stroke with an odd count",
      { kind: "create", draft: { ...minimalDraft, design: { strokes: [[1, 2, 3]] } } },
      "draft.design.strokes.0",
    ],
    [
      "a fractional stroke coordinate",
      { kind: "create", draft: { ...minimalDraft, design: { strokes: [[1.5, 2]] } } },
      "draft.design.strokes.0.0",
    ],
    ["revision 0", { kind: "cancel", releaseId: "r1", revision: 0 }, "revision"],
    ["a revision as a string", { kind: "cancel", releaseId: "r1", revision: "3" }, "revision"],
    ["a fractional launchAt", { kind: "announce", releaseId: "r1", revision: 1, launchAt: 1.5 }, "launchAt"],
    [
      "an ISO launchAt",
      { kind: "announce", releaseId: "r1", revision: 1, launchAt: "2030-01-01T00:00:00Z" },
      "launchAt",
    ],
    [
      "a dropId with a leading zero",
      { kind: "link", releaseId: "r1", revision: 1, version: "r2", dropId: "01" },
      "dropId",
    ],
    ["a numeric dropId", { kind: "link", releaseId: "r1", revision: 1, version: "r2", dropId: 7 }, "dropId"],
    [
      "a 79-digit dropId",
      { kind: "link", releaseId: "r1", revision: 1, version: "r2", dropId: "1".repeat(79) },
      "dropId",
    ],
    [
      "a runtime id with a slash",
      { kind: "link", releaseId: "r1", revision: 1, version: "a/b", dropId: "7" },
      "version",
    ],
    ["an edit without its revision", { kind: "edit", releaseId: "r1", draft: minimalDraft }, "revision"],
  ];

  it.each(invalid)("refuses %s, naming the field", (_, input, path) => {
    const result = safeParseReleaseAction(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(InvalidActionError);
    expect(result.error.code).toBe("invalid_action");
    expect(result.error.issues.map((issue) => issue.path.join("."))).toContain(path);
    expect(() => parseReleaseAction(input)).toThrow(InvalidActionError);
  });

  it("leaves a launchAt in the past to the server: the parser has no clock", () => {
    expect(parseReleaseAction({ kind: "announce", releaseId: "r1", revision: 2, launchAt: 1 })).toEqual({
      kind: "announce",
      releaseId: "r1",
      revision: 2,
      launchAt: 1,
    });
  });
});

describe("release states", () => {
  it("names only known statuses and documents every action of the table", () => {
    for (const [kind, { from, to }] of Object.entries(RELEASE_TRANSITIONS)) {
      for (const status of [...from, ...(to === null ? [] : [to])])
        expect(RELEASE_STATUSES).toContain(status);
      expect(RELEASE_STATES_DOC).toContain(`| \`${kind}\` |`);
    }
    expect(RELEASE_STATES_DOC).toContain("| `create` |");
  });
});

describe("releaseActionMessage", () => {
  it("builds the lines in spec order, lowercased wallet, the nonce exactly as given, no trailing newline", () => {
    const text = releaseActionMessage({
      ...fields,
      action: { revision: 3, releaseId: "rel_1", kind: "cancel" },
    });
    expect(text.split("\n")).toEqual([
      RELEASE_ACTION_TITLE,
      "Wallet: 0xabcdef0123456789abcdef0123456789abcdef01",
      "Nonce: 0B7F7C1E-3C0F-4A9E-8D2B-7A4C9F1E2D3C",
      "Expires: 1790000000000",
      'Action: {"kind":"cancel","releaseId":"rel_1","revision":3}',
      ACTION_LIMITS,
    ]);
    expect(RELEASE_ACTION_TITLE).toBe("mkt marketplace: offchain release catalog");
    expect(ACTION_LIMITS).toMatch(/cannot launch a pool, spend tokens/);
    expect(text.endsWith("\n")).toBe(false);
  });

  it("refuses to build a text from an action that does not parse, a bad address or a fractional expiry", () => {
    expect(() =>
      releaseActionMessage({
        ...fields,
        action: { kind: "cancel", releaseId: "r1", revision: 1, extra: true },
      }),
    ).toThrow(InvalidActionError);
    expect(() =>
      releaseActionMessage({
        ...fields,
        address: "0x1234",
        action: { kind: "cancel", releaseId: "r1", revision: 1 },
      }),
    ).toThrow(TypeError);
    expect(() =>
      releaseActionMessage({
        ...fields,
        expires: 1.5,
        action: { kind: "cancel", releaseId: "r1", revision: 1 },
      }),
    ).toThrow(TypeError);
    expect(() =>
      releaseActionMessage({
        ...fields,
        nonce: "not-a-uuid",
        action: { kind: "cancel", releaseId: "r1", revision: 1 },
      }),
    ).toThrow(TypeError);
  });

  it("is signed by a viem account and recovers to its address; a hand-serialised action recovers to someone else", async () => {
    const account = privateKeyToAccount(`0x${"42".repeat(32)}`);
    const action = { kind: "create", draft: { name: " Night Garden ", symbol: "NGT", color: "#ABCDEF" } };
    const message = releaseActionMessage({
      address: account.address,
      nonce: fields.nonce,
      expires: fields.expires,
      action,
    });
    const signature = await account.signMessage({ message });
    expect(await recoverMessageAddress({ message, signature })).toBe(account.address);

    const handMade = message.replace(/^Action: .*$/m, `Action: ${JSON.stringify(action)}`);
    expect(handMade).not.toBe(message);
    expect(await recoverMessageAddress({ message: handMade, signature })).not.toBe(account.address);
  });
});
