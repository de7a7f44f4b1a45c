import { describe, expect, it } from "vitest";
import { classicSignInMessage, classicSignInRequestSchema } from "../classic/auth.ts";
import { packEditMessage, releaseActionMessage } from "../market/action-messages.ts";
import { packEditRequestSchema } from "../market/pack-edits.ts";
import { releaseActionRequestSchema } from "../market/release-actions.ts";
import { accountActionSchemas } from "./actions.ts";
import { deletionMessage, signInMessage } from "./messages.ts";
import { deletionRequestSchema, nonceSchema, signedEnvelopeSchema } from "./schemas.ts";

/** A UUID v4 as Swift's `uuidString` writes one: uppercase. */
const UPPER = "0B7F7C1E-3C0F-4A9E-8D2B-7A4C9F1E2D3C";
const MIXED = "0b7f7C1E-3c0f-4A9e-8d2b-7a4c9F1e2d3c";
const address = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01";
const expires = 1_790_000_000_000;
const signature = `0x${"11".repeat(65)}`;
const origin = "https://mkt.example";

interface Family {
  name: string;
  /** The body a client posts with this nonce. */
  body(nonce: string): Record<string, unknown>;
  /** The text signed over a body: by the client over the posted body, by the server over the parsed one. */
  text(body: never): string;
  /** The route's request schema. */
  parse(body: Record<string, unknown>): unknown;
}

const family = <B extends Record<string, unknown>>(
  name: string,
  body: (nonce: string) => B,
  parse: (body: NoInfer<B>) => unknown,
  text: (body: NoInfer<B>) => string,
): Family => ({ name, body, parse: parse as Family["parse"], text });

const envelope = (nonce: string) => ({ origin, address, nonce, expires, signature });

/** Every signed message a route verifies. */
const families: Family[] = [
  family("market sign-in", envelope, (body) => signedEnvelopeSchema.parse(body), signInMessage),
  family(
    "wallet-link proof",
    envelope,
    (proof) => accountActionSchemas["wallet-link"].parse({ kind: "wallet-link", proof }).proof,
    signInMessage,
  ),
  family("deletion", envelope, (body) => deletionRequestSchema.parse(body), deletionMessage),
  family(
    "release action",
    (nonce: string) => ({
      address,
      nonce,
      expires,
      action: { kind: "cancel", releaseId: "rel_abc", revision: 4 },
      signature,
    }),
    (body) => releaseActionRequestSchema.parse(body),
    releaseActionMessage,
  ),
  family(
    "pack edit",
    (nonce: string) => ({
      address,
      nonce,
      expires,
      action: { kind: "set-name", packId: "7", name: "Rare pulls" },
      signature,
    }),
    (body) => packEditRequestSchema.parse(body),
    (body) => packEditMessage({ ...body, version: "r2" }),
  ),
  family(
    "classic sign-in",
    (nonce: string) => ({ address, chainId: 8453, nonce, expires, origin, signature }),
    (body) => classicSignInRequestSchema.parse(body),
    classicSignInMessage,
  ),
];

describe("the nonce of every signed message", () => {
  it("accepts a UUID v4 in either letter case and keeps it exactly as given", () => {
    for (const nonce of [UPPER, MIXED, UPPER.toLowerCase()]) expect(nonceSchema.parse(nonce)).toBe(nonce);
    expect(nonceSchema.safeParse("0B7F7C1E-3C0F-1A9E-8D2B-7A4C9F1E2D3C").success).toBe(false);
  });

  for (const family of families) {
    it(`${family.name}: the server's text from the parsed body is the client's text, nonce as signed`, () => {
      for (const nonce of [UPPER, MIXED]) {
        const body = family.body(nonce);
        // What the client signs: the builder over the fields it posts.
        const signed = family.text(body as never);
        // What the server verifies: the builder over the parsed body.
        const rebuilt = family.text(family.parse(body) as never);
        expect(rebuilt).toBe(signed);
        expect(rebuilt.split("\n")).toContain(`Nonce: ${nonce}`);
      }
    });
  }
});
