import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CardRange } from "./classic-cards.ts";
import {
  cardRoll,
  drawCard,
  FIRST_EDITION_PACKS,
  FOIL_THRESHOLDS,
  WEAR_BANDS,
  WEAR_SCALE,
  wearName,
} from "./classic-cards.ts";
import { deriveRarity } from "./classic-math.ts";

/** Common: ids 1..3 and 5..9 (two cards, listed out of id order with the Mythic between), Rare: 4, Mythic: 10. */
const CARDS: CardRange[] = [
  { startId: 5, endId: 9, rarity: 1 },
  { startId: 4, endId: 4, rarity: 2 },
  { startId: 10, endId: 10, rarity: 5 },
  { startId: 1, endId: 3, rarity: 1 },
];

const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const rarity = fc.integer({ min: 1, max: 5 });

/** A game's cards: consecutive ranges from id 1, each of a random rarity and width, listed in random order. */
const cardSet = fc
  .array(fc.record({ width: fc.integer({ min: 1, max: 50 }), rarity }), { minLength: 1, maxLength: 12 })
  .chain((specs) => {
    let next = 1;
    const cards = specs.map(({ width, rarity }) => {
      const card = { startId: next, endId: next + width - 1, rarity };
      next += width;
      return card;
    });
    return fc.shuffledSubarray(cards, { minLength: cards.length, maxLength: cards.length });
  });

describe("drawCard: known answers", () => {
  it("draws from packs the chain seeded (batch random number 42, default odds)", () => {
    const draws = [1n, 2n, 1001n].map((tokenId) => {
      const { tokenSeed, rarity } = deriveRarity(42n, tokenId);
      return drawCard({ tokenSeed, tokenId, rarity, cards: CARDS, firstTokenId: 1n });
    });
    expect(draws).toEqual([
      {
        cardIndex: 0,
        cardId: 9,
        wearValue: 0.399504,
        wear: "Lightly Played",
        foil: "None",
        isFirstEdition: true,
      },
      {
        cardIndex: 0,
        cardId: 7,
        wearValue: 0.990253,
        wear: "Heavily Played",
        foil: "None",
        isFirstEdition: true,
      },
      {
        cardIndex: 0,
        cardId: 7,
        wearValue: 0.721764,
        wear: "Moderately Played",
        foil: "None",
        isFirstEdition: false,
      },
    ]);
  });

  it("gives each foil from the seeds whose third roll falls in its band", () => {
    const draw = (tokenSeed: bigint) =>
      drawCard({ tokenSeed, tokenId: 5n, rarity: 1, cards: CARDS, firstTokenId: 1n });
    expect(draw(0n)).toEqual({
      cardIndex: 3,
      cardId: 2,
      wearValue: 0.284475,
      wear: "Lightly Played",
      foil: "None",
      isFirstEdition: true,
    });
    expect(draw(7n)).toMatchObject({ cardIndex: 0, cardId: 8, wearValue: 0.637157, foil: "Standard" });
    expect(draw(46n)).toMatchObject({ cardIndex: 3, cardId: 1, wearValue: 0.218522, foil: "Prize" });
    expect(cardRoll(7n, 3n) % FOIL_THRESHOLDS.roll).toBeGreaterThanOrEqual(FOIL_THRESHOLDS.prize);
    expect(cardRoll(7n, 3n) % FOIL_THRESHOLDS.roll).toBeLessThan(FOIL_THRESHOLDS.standard);
  });

  it("rolls h(n) as the contract hashes abi.encode(uint256, uint256)", () => {
    // BoosterDrop's tokenSeed is keccak256(abi.encode(R, tokenId)): the same encoding, checked onchain.
    fc.assert(
      fc.property(uint256, fc.bigInt({ min: 1n, max: 3n }), (seed, n) => {
        expect(cardRoll(seed, n)).toBe(deriveRarity(seed, n).tokenSeed);
      }),
      { numRuns: 50 },
    );
  });
});

describe("drawCard: properties", () => {
  it("gives every pack a card of its own tier, inside that card's range", () => {
    fc.assert(
      fc.property(cardSet, uint256, fc.bigInt({ min: 1n, max: 2n ** 70n }), (cards, tokenSeed, tokenId) => {
        for (const tier of new Set(cards.map((card) => card.rarity))) {
          const draw = drawCard({ tokenSeed, tokenId, rarity: tier, cards, firstTokenId: 1n });
          const card = cards[draw.cardIndex!]!;
          expect(card.rarity).toBe(tier);
          expect(draw.cardId).toBeGreaterThanOrEqual(card.startId);
          expect(draw.cardId).toBeLessThanOrEqual(card.endId);
        }
      }),
    );
  });

  it("picks the card id at offset h(1) mod W within the tier's ids in order", () => {
    fc.assert(
      fc.property(cardSet, uint256, rarity, (cards, tokenSeed, tier) => {
        const ids = cards
          .filter((card) => card.rarity === tier)
          .sort((a, b) => a.startId - b.startId)
          .flatMap((card) =>
            Array.from({ length: card.endId - card.startId + 1 }, (_, i) => card.startId + i),
          );
        const draw = drawCard({ tokenSeed, tokenId: 1n, rarity: tier, cards, firstTokenId: 1n });
        const expected = ids.length === 0 ? null : ids[Number(cardRoll(tokenSeed, 1n) % BigInt(ids.length))];
        expect(draw.cardId).toBe(expected);
        if (expected === null) expect(draw.cardIndex).toBeNull();
      }),
    );
  });

  it("keeps the card and edition when wear or foil is disabled, and fixes those to Pristine 0 / None", () => {
    fc.assert(
      fc.property(
        uint256,
        rarity,
        fc.boolean(),
        fc.boolean(),
        (tokenSeed, tier, disableWear, disableFoil) => {
          const input = { tokenSeed, tokenId: 1234n, rarity: tier, cards: CARDS, firstTokenId: 1000n };
          const plain = drawCard(input);
          const flagged = drawCard({ ...input, disableWear, disableFoil });
          expect(flagged).toEqual({
            ...plain,
            ...(disableWear ? { wearValue: 0, wear: "Pristine" } : {}),
            ...(disableFoil ? { foil: "None" } : {}),
          });
        },
      ),
    );
  });

  it("writes wear with at most six decimals, in [0, 1), named by its band", () => {
    fc.assert(
      fc.property(uint256, (tokenSeed) => {
        const { wearValue, wear } = drawCard({
          tokenSeed,
          tokenId: 1n,
          rarity: 1,
          cards: CARDS,
          firstTokenId: 1n,
        });
        expect(Math.round(wearValue * WEAR_SCALE) / WEAR_SCALE).toBe(wearValue);
        expect(wearValue).toBeGreaterThanOrEqual(0);
        expect(wearValue).toBeLessThan(1);
        const band = WEAR_BANDS.find((b) => wearValue >= b.from && wearValue < b.to)!;
        expect(wear).toBe(band.name);
      }),
    );
  });

  it("marks the drop's first 1,000 token ids as first editions, from any first token id (0 = 1)", () => {
    fc.assert(
      fc.property(uint256, fc.bigInt({ min: 0n, max: 2n ** 200n }), (tokenSeed, firstTokenId) => {
        const first = firstTokenId === 0n ? 1n : firstTokenId;
        const edition = (tokenId: bigint) =>
          drawCard({ tokenSeed, tokenId, rarity: 1, cards: CARDS, firstTokenId }).isFirstEdition;
        expect(edition(first)).toBe(true);
        expect(edition(first + FIRST_EDITION_PACKS - 1n)).toBe(true);
        expect(edition(first + FIRST_EDITION_PACKS)).toBe(false);
      }),
      { numRuns: 30 },
    );
  });
});

describe("wearName", () => {
  it("names each band from its lower bound up to just below the next", () => {
    const cases: [number, string][] = [
      [0, "Pristine"],
      [0.049999, "Pristine"],
      [0.05, "Mint"],
      [0.199999, "Mint"],
      [0.2, "Lightly Played"],
      [0.449999, "Lightly Played"],
      [0.45, "Moderately Played"],
      [0.749999, "Moderately Played"],
      [0.75, "Heavily Played"],
      [0.999999, "Heavily Played"],
      [1, "Heavily Played"],
    ];
    expect(cases.map(([value]) => wearName(value))).toEqual(cases.map(([, name]) => name));
  });

  it("agrees with integer comparison of the micro-units on every six-decimal value", () => {
    const boundsMicro = [50_000, 200_000, 450_000, 750_000];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: WEAR_SCALE - 1 }), (micro) => {
        const band = boundsMicro.filter((bound) => micro >= bound).length;
        expect(wearName(micro / WEAR_SCALE)).toBe(WEAR_BANDS[band]!.name);
      }),
    );
  });

  it("refuses values outside [0, 1]", () => {
    for (const value of [-0.000001, 1.000001, Number.NaN]) expect(() => wearName(value)).toThrow(RangeError);
  });
});

describe("drawCard: input checks", () => {
  it("returns no card for a tier without cards, and refuses empty or non-positive ranges", () => {
    const draw = drawCard({ tokenSeed: 1n, tokenId: 1n, rarity: 3, cards: CARDS, firstTokenId: 1n });
    expect([draw.cardIndex, draw.cardId]).toEqual([null, null]);
    expect(() =>
      drawCard({
        tokenSeed: 1n,
        tokenId: 1n,
        rarity: 1,
        cards: [{ startId: 3, endId: 2, rarity: 1 }],
        firstTokenId: 1n,
      }),
    ).toThrow("empty card range 3..2");
    expect(() =>
      drawCard({
        tokenSeed: 1n,
        tokenId: 1n,
        rarity: 1,
        cards: [{ startId: 0, endId: 2, rarity: 1 }],
        firstTokenId: 1n,
      }),
    ).toThrow(RangeError);
  });
});
