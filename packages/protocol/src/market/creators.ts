import { z } from "zod";
import { sharedProfileSchema } from "../account/profile.ts";
import { addressSchema } from "../account/schemas.ts";
import { releaseSchema } from "./release-resource.ts";

/**
 * Creators: a wallet's public page. A creator is
 * named by a wallet; the profile, follows and releases belong to the account
 * holding it, the onchain drops to the wallet itself.
 */

export const creatorParamsSchema = z.object({
  address: addressSchema.describe("The creator's wallet (0x, 40 hex digits)."),
});

const decimal = (what: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/)
    .describe(`${what}, a decimal string.`);

export const creatorSchema = z
  .object({
    address: z.string().describe("The wallet asked for, lowercase."),
    profile: sharedProfileSchema
      .nullable()
      .describe("The shared profile of the account holding the wallet; null when no account holds it."),
    followers: z.number().int().describe("Accounts following the creator's account (0 without an account)."),
    following: z.number().int().describe("Accounts the creator's account follows (0 without an account)."),
    releases: z
      .number()
      .int()
      .describe("Public releases (announced, cancelled, live) of the creator's account; drafts never count."),
    drops: z.number().int().describe("Drops this wallet created in the market runtimes, as indexed."),
  })
  .meta({
    id: "Creator",
    examples: [
      {
        address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        profile: null,
        followers: 0,
        following: 0,
        releases: 0,
        drops: 2,
      },
    ],
  });

export const creatorDropSchema = z
  .object({
    version: z.string().describe("The runtime id (`{version}` of the runtime routes)."),
    dropId: decimal("The drop id (uint256)"),
    creator: z.string().describe("The wallet that created the drop, lowercase."),
    price: decimal("Price per pack in wei"),
    maxSupply: decimal("Pack supply; 0 means unlimited"),
    claimed: decimal("Packs claimed so far"),
    createdBlock: z.number().int().describe("Block of the `DropCreated` event."),
    releaseId: z.string().nullable().describe("The public release linked to this drop (`link`), else null."),
  })
  .meta({ id: "CreatorDrop" });

export const creatorDropListSchema = z
  .object({
    address: z.string(),
    drops: z.array(creatorDropSchema).describe("Newest drop first (by creation block, then runtime and id)."),
    next: z
      .string()
      .nullable()
      .describe("Opaque cursor of the next page (pass it as `cursor`); null on the last page."),
  })
  .meta({
    id: "CreatorDropList",
    examples: [
      {
        address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        drops: [
          {
            version: "r2",
            dropId: "7",
            creator: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
            price: "100000000000000",
            maxSupply: "1000",
            claimed: "12",
            createdBlock: 41,
            releaseId: null,
          },
        ],
        next: null,
      },
    ],
  });

export const creatorReleaseListSchema = z
  .object({
    address: z.string(),
    releases: z
      .array(releaseSchema)
      .describe("Summaries (`cardsOmitted: true`) of the account's public releases, last changed first."),
    next: z
      .string()
      .nullable()
      .describe("Opaque cursor of the next page (pass it as `cursor`); null on the last page."),
  })
  .meta({ id: "CreatorReleaseList" });

export type Creator = z.output<typeof creatorSchema>;
export type CreatorDrop = z.output<typeof creatorDropSchema>;
export type CreatorDropList = z.output<typeof creatorDropListSchema>;
export type CreatorReleaseList = z.output<typeof creatorReleaseListSchema>;
