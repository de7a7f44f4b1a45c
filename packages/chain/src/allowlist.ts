import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import type { Address, Hex } from "viem";
import { getAddress } from "viem";

export interface Allowlist {
  root: Hex;
  addresses: readonly Address[];
  /** The proof BoosterDrop.mint expects from `address`; undefined when it is not on the list. */
  proofFor(address: Address): Hex[] | undefined;
}

/** A StandardMerkleTree over leaf type ["address"], the encoding BoosterDrop verifies. */
export function buildAllowlist(addresses: readonly Address[]): Allowlist {
  const unique = [...new Set(addresses.map((address) => getAddress(address)))];
  if (unique.length === 0) throw new Error("an allowlist needs at least one address");
  const tree = StandardMerkleTree.of(
    unique.map((address) => [address]),
    ["address"],
  );
  const indexOf = new Map<string, number>();
  for (const [index, [address]] of tree.entries()) indexOf.set(String(address).toLowerCase(), index);
  return {
    root: tree.root as Hex,
    addresses: unique,
    proofFor(address) {
      const index = indexOf.get(address.toLowerCase());
      return index === undefined ? undefined : (tree.getProof(index) as Hex[]);
    },
  };
}
