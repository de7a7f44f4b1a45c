import { liveBoosterDropAbi, liveBoosterTokenAbi } from "@mkt/chain";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  parseAbi,
  RpcRequestError,
} from "viem";
import type { ReadContract } from "./projection.ts";
import { describeFailure } from "./rpc.ts";

/**
 * The drop's owner. Not among the views the live clients call, but the live drop is initialized
 * with an owner and the reference drop answers `owner()`; a drop without the view keeps the
 * creator its logs name.
 */
const ownableAbi = parseAbi(["function owner() view returns (address)"]);

/**
 * What a drop is, from its and its token's views: the values `initialize` fixes and nothing changes
 * afterwards, so they are read once, at the latest block (any block answers the same, and a node
 * without archive state can answer). Addresses are lowercase.
 */
export interface DropDescription {
  /** The drop's ERC-721 `name()` and `symbol()`. */
  nftName: string;
  nftSymbol: string;
  /** `boosterTokenAddress()`: the drop's ERC-20. */
  token: string;
  /** The token's `name()` and `symbol()`. */
  tokenName: string;
  tokenSymbol: string;
  /** `tokensPerMint()`: the tokens one pack costs. */
  tokensPerMint: bigint;
  /** `COMMON_OFFER()` … `MYTHIC_OFFER()`: what selling a card of each rarity pays, in token units. */
  offers: readonly [bigint, bigint, bigint, bigint, bigint];
  /** `owner()`; undefined when the drop has no such view. */
  owner: string | undefined;
}

/**
 * True when the contract answered that it has no such function (the call reverted or returned
 * nothing), as viem classifies the node's answer; false when the RPC could not answer.
 */
const isMissingView = (error: unknown) =>
  error instanceof BaseError &&
  error.walk(
    (inner) =>
      inner instanceof ContractFunctionRevertedError ||
      inner instanceof ContractFunctionZeroDataError ||
      (inner instanceof RpcRequestError && /execution reverted/i.test(inner.details)),
  ) !== null;

/**
 * Reads one drop's description: its views in one round, its token's in a second (calls made
 * together travel in one JSON-RPC batch). Throws when a view cannot be read, naming the drop: a
 * drop whose description is unknown cannot be projected, so the caller retries.
 */
export async function describeDrop(read: ReadContract, drop: string): Promise<DropDescription> {
  const address = drop as Address;
  const onDrop = { address, abi: liveBoosterDropAbi } as const;
  try {
    const [nftName, nftSymbol, token, tokensPerMint, common, rare, epic, legendary, mythic, owner] =
      await Promise.all([
        read({ ...onDrop, functionName: "name" }),
        read({ ...onDrop, functionName: "symbol" }),
        read({ ...onDrop, functionName: "boosterTokenAddress" }),
        read({ ...onDrop, functionName: "tokensPerMint" }),
        read({ ...onDrop, functionName: "COMMON_OFFER" }),
        read({ ...onDrop, functionName: "RARE_OFFER" }),
        read({ ...onDrop, functionName: "EPIC_OFFER" }),
        read({ ...onDrop, functionName: "LEGENDARY_OFFER" }),
        read({ ...onDrop, functionName: "MYTHIC_OFFER" }),
        read({ address, abi: ownableAbi, functionName: "owner" }).then(
          (found): Address | undefined => found,
          (error: unknown) => {
            if (isMissingView(error)) return undefined;
            throw error;
          },
        ),
      ]);
    const onToken = { address: token, abi: liveBoosterTokenAbi } as const;
    const [tokenName, tokenSymbol] = await Promise.all([
      read({ ...onToken, functionName: "name" }),
      read({ ...onToken, functionName: "symbol" }),
    ]);
    return {
      nftName,
      nftSymbol,
      token: token.toLowerCase(),
      tokenName,
      tokenSymbol,
      tokensPerMint,
      offers: [common, rare, epic, legendary, mythic],
      owner: owner?.toLowerCase(),
    };
  } catch (error) {
    throw new Error(`drop ${drop}: ${describeFailure(error)}`, { cause: error });
  }
}

/** Drops whose descriptions are kept (well above the drops one range creates or touches). */
const DESCRIPTIONS_KEPT = 10_000;
/** Drops described at once; each is a dozen calls. */
const DESCRIBED_AT_ONCE = 16;

/** The descriptions of drops, read once per process and kept in a bounded map (`describeDrop`). */
export interface DropDescriptions {
  /** The description `describe` read for this drop (lowercase address), if it is kept. */
  get(drop: string): DropDescription | undefined;
  /**
   * Makes sure these drops (lowercase addresses) are described: reads those not kept, a few at a
   * time, then forgets the least recently wanted others beyond the bound. Rejects, keeping what it
   * read, when a view cannot be read.
   */
  describe(read: ReadContract, drops: Iterable<string>): Promise<void>;
}

export function createDropDescriptions({
  kept = DESCRIPTIONS_KEPT,
  atOnce = DESCRIBED_AT_ONCE,
}: {
  kept?: number;
  atOnce?: number;
} = {}): DropDescriptions {
  // Insertion order is recency: a drop wanted again moves to the end.
  const known = new Map<string, DropDescription>();
  return {
    get: (drop) => known.get(drop),
    async describe(read, drops) {
      const wanted = new Set(drops);
      const missing: string[] = [];
      for (const drop of wanted) {
        const found = known.get(drop);
        if (found) {
          known.delete(drop);
          known.set(drop, found);
        } else missing.push(drop);
      }
      for (let i = 0; i < missing.length; i += atOnce) {
        const chunk = missing.slice(i, i + atOnce);
        const described = await Promise.all(chunk.map((drop) => describeDrop(read, drop)));
        chunk.forEach((drop, j) => {
          known.set(drop, described[j]!);
        });
      }
      // The drops wanted now stay whatever the bound: their logs are about to be applied.
      for (const drop of known.keys()) {
        if (known.size <= kept) break;
        if (!wanted.has(drop)) known.delete(drop);
      }
    },
  };
}
