import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixedPriceSource, weiToUsd } from "./price.ts";

describe("weiToUsd", () => {
  it("converts exactly and rounds down to the cent", () => {
    expect(weiToUsd(10n ** 18n, "3000")).toBe("3000.00");
    expect(weiToUsd(10n ** 16n, "3012.55")).toBe("30.12");
    expect(weiToUsd(1n, "3000")).toBe("0.00");
    expect(weiToUsd(0n, "1")).toBe("0.00");
    expect(weiToUsd(123_456_789_000_000_000_000n, "0.5")).toBe("61.72");
  });
  it("matches rational arithmetic for any amount and price", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (wei, priceCents) => {
          const price = `${Math.floor(priceCents / 100)}.${String(priceCents % 100).padStart(2, "0")}`;
          const expected = (wei * BigInt(priceCents)) / 10n ** 18n;
          const [whole, cents] = weiToUsd(wei, price).split(".");
          expect(BigInt(whole!) * 100n + BigInt(cents!)).toBe(expected);
        },
      ),
    );
  });
  it("refuses a source that is not a price", () => {
    expect(() => fixedPriceSource("abc")).toThrow();
  });
});
