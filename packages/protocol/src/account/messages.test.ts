import { describe, expect, it } from "vitest";
import {
  DELETION_CONSENT,
  deletionMessage,
  SIGN_IN_CONSENT,
  SIGN_IN_LIMITS,
  signInMessage,
} from "./messages.ts";

const fields = {
  origin: "https://mkt.example",
  address: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  nonce: "0b7f7c1e-3c0f-4a9e-8d2b-7a4c9f1e2d3c",
  expires: 1_790_000_000_000,
};

describe("signed messages", () => {
  it("builds the sign-in message line by line, address lowercased, no trailing newline", () => {
    const text = signInMessage(fields);
    expect(text.split("\n")).toEqual([
      "mkt marketplace: sign in",
      "Website: https://mkt.example",
      "Wallet: 0xabcdef0123456789abcdef0123456789abcdef01",
      "Nonce: 0b7f7c1e-3c0f-4a9e-8d2b-7a4c9f1e2d3c",
      "Expires: 1790000000000",
      "",
      SIGN_IN_CONSENT,
      "",
      SIGN_IN_LIMITS,
    ]);
    expect(text.endsWith("\n")).toBe(false);
    expect(SIGN_IN_CONSENT).toMatch(/30 days/);
  });

  it("makes the deletion message distinct from sign-in, so one signature never serves both", () => {
    const text = deletionMessage(fields);
    expect(text.split("\n")[0]).toBe("mkt marketplace: delete account");
    expect(text).toContain(DELETION_CONSENT);
    expect(text).not.toBe(signInMessage(fields));
    expect(text.endsWith("\n")).toBe(false);
  });

  it("refuses a non-integer expiry rather than signing an ambiguous text", () => {
    expect(() => signInMessage({ ...fields, expires: 1.5 })).toThrow(TypeError);
  });
});
