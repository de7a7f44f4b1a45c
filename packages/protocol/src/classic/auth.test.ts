import { describe, expect, it } from "vitest";
import { signInMessage } from "../account/messages.ts";
import { CLASSIC_SIGN_IN_CONSENT, CLASSIC_SIGN_IN_LIMITS, classicSignInMessage } from "./auth.ts";

const fields = {
  address: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  chainId: 8453,
  nonce: "0b7f7c1e-3c0f-4a9e-8d2b-7a4c9f1e2d3c",
  expires: 1_790_000_000_000,
};

describe("classicSignInMessage", () => {
  it("builds the message line by line, address lowercased, no Website line without an origin", () => {
    const text = classicSignInMessage(fields);
    expect(text.split("\n")).toEqual([
      "mkt Classic API: sign in",
      "Wallet: 0xabcdef0123456789abcdef0123456789abcdef01",
      "Chain ID: 8453",
      "Nonce: 0b7f7c1e-3c0f-4a9e-8d2b-7a4c9f1e2d3c",
      "Expires: 1790000000000",
      "",
      CLASSIC_SIGN_IN_CONSENT,
      "",
      CLASSIC_SIGN_IN_LIMITS,
    ]);
    expect(text.endsWith("\n")).toBe(false);
    expect(CLASSIC_SIGN_IN_CONSENT).toMatch(/24 hours/);
  });

  it("names the origin when given, and differs from the market's sign-in message", () => {
    const text = classicSignInMessage({ ...fields, origin: "https://tool.example" });
    expect(text.split("\n")[1]).toBe("Website: https://tool.example");
    expect(text).not.toBe(signInMessage({ ...fields, origin: "https://tool.example" }));
    expect(classicSignInMessage({ ...fields, chainId: 1 })).not.toBe(classicSignInMessage(fields));
  });

  it("refuses a non-integer expiry or chain id", () => {
    expect(() => classicSignInMessage({ ...fields, expires: 1.5 })).toThrow(TypeError);
    expect(() => classicSignInMessage({ ...fields, chainId: 0 })).toThrow(TypeError);
  });
});
