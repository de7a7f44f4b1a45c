import { describe, expect, it } from "vitest";
import { z } from "zod";
import { integerParam } from "./index.ts";

const NOT_DIGITS = "limit must be an integer in decimal digits (no sign, exponent, spaces or leading zero)";

describe("integerParam", () => {
  const limit = integerParam("limit", { min: 1, max: 100, default: 20 });
  const messages = (value: unknown) => limit.safeParse(value).error?.issues.map((issue) => issue.message);

  it("reads canonical decimal digits and answers the number", () => {
    expect(limit.parse("1")).toBe(1);
    expect(limit.parse("100")).toBe(100);
    expect(integerParam("offset", { min: 0, max: 10 }).parse("0")).toBe(0);
  });

  it.each([
    "1e3",
    "1E2",
    "0x10",
    "0b1",
    "0o7",
    " 5",
    "5 ",
    "+5",
    "-5",
    "5.0",
    "5.",
    ".5",
    "05",
    "00",
    "",
    "1_000",
    "Infinity",
    "NaN",
    "٣",
  ])("refuses %j with one message naming the parameter", (value) => {
    expect(messages(value)).toEqual([NOT_DIGITS]);
  });

  it("refuses a repeated parameter (an array) and non-integer numbers", () => {
    expect(messages(["1", "2"])).toEqual([NOT_DIGITS]);
    expect(messages(7.5)).toEqual([NOT_DIGITS]);
    expect(limit.parse(7)).toBe(7);
  });

  it("checks the range after reading, with one message", () => {
    expect(messages("0")).toEqual(["limit must be 1 to 100"]);
    expect(messages("101")).toEqual(["limit must be 1 to 100"]);
    expect(messages("9".repeat(400))).toEqual(["limit must be 1 to 100"]);
    const chainId = integerParam("chainId", { min: 1 });
    expect(chainId.safeParse("0").error?.issues.map((issue) => issue.message)).toEqual([
      "chainId must be at least 1",
    ]);
    expect(chainId.safeParse("9007199254740992").error?.issues.map((issue) => issue.message)).toEqual([
      "chainId must be at most 9007199254740991",
    ]);
    expect(
      integerParam("offset", { min: 0, max: 10, rangeMessage: "offset is 0 to 10" }).safeParse("11").error
        ?.issues[0]?.message,
    ).toBe("offset is 0 to 10");
  });

  it("answers the default when absent, and documents an integer with its bounds and default", () => {
    expect(limit.parse(undefined)).toBe(20);
    expect(integerParam("rarity", { min: 0, max: 4 }).optional().parse(undefined)).toBeUndefined();
    const json = z.toJSONSchema(z.object({ limit: limit.describe("Page size.") }), { io: "input" });
    expect(json.properties?.["limit"]).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 20,
      description: "Page size.",
    });
  });
});
