import { z } from "zod";

/**
 * Pieces of the prediction feed's wire shapes. Amounts are integer strings:
 * WETH values in Wei, shares in share units (one winning share redeems for
 * 1 Wei of WETH). Probabilities and prices are basis points (10000 = 100%).
 */
export const uintString = (description: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,77})$/)
    .describe(description);

export const wei = (description: string) => uintString(`${description} Wei of WETH, as a decimal string.`);

export const shares = (description: string) =>
  uintString(`${description} Share units (1 winning share redeems for 1 Wei of WETH), as a decimal string.`);

export const bps = (description: string) =>
  z.number().int().min(0).max(10_000).describe(`${description} Basis points (10000 = 100%).`);

/** An address as the feed writes it. */
export const address = (description: string) =>
  z
    .string()
    .regex(/^0x[0-9a-f]{40}$/)
    .describe(`${description} (lowercase 0x-prefixed 20-byte address).`);

export const hash = (description: string) =>
  z
    .string()
    .regex(/^0x[0-9a-f]{64}$/)
    .describe(`${description} (0x-prefixed 32-byte hash).`);

/** An address as a client sends it (any case), lowercased. */
export const addressInput = (name: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, `${name} must be a 0x-prefixed 20-byte hex address`)
    .transform((value) => value.toLowerCase());
