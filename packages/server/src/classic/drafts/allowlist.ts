import { type Allowlist, buildAllowlist } from "@mkt/chain";
import type { Address } from "viem";

/**
 * Built allowlist trees by draft and root, per replica. A tree is rebuilt
 * from the stored entries (10,000 at most) whenever it is not here; keying by
 * root means a changed allowlist never serves an old tree.
 */
export function createAllowlistCache(capacity = 16) {
  const trees = new Map<string, Allowlist>();
  return {
    build(addresses: readonly string[]): Allowlist {
      return buildAllowlist(addresses as Address[]);
    },
    async get(draftId: string, root: string, load: () => Promise<readonly string[]>): Promise<Allowlist> {
      const key = `${draftId}:${root}`;
      const cached = trees.get(key);
      if (cached) {
        trees.delete(key);
        trees.set(key, cached);
        return cached;
      }
      const tree = buildAllowlist((await load()) as Address[]);
      trees.set(key, tree);
      if (trees.size > capacity) trees.delete(trees.keys().next().value as string);
      return tree;
    },
  };
}
