import { pbkdf2Sync } from "node:crypto";
import type { HDAccount, Hex } from "viem";
import { toHex } from "viem";
import { HDKey, hdKeyToAccount } from "viem/accounts";

/** The standard development mnemonic; its accounts are public knowledge, never use them on a real chain. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
export const DEV_ACCOUNT_COUNT = 20;

/**
 * Which mnemonic account plays which part on a dev chain. Keeping the roles on separate accounts keeps
 * their nonces independent, so the entropy fulfiller never races the deployer or the demo users.
 */
export const DEV_ACCOUNT_ROLES = {
  deployer: 0,
  entropyFulfiller: 1,
  marketOperator: 2,
  firstUser: 3,
} as const;

/**
 * The mnemonic's accounts on the standard path m/44'/60'/0'/0/i. The BIP-39 seed is computed once, with
 * node's native PBKDF2: viem's mnemonicToAccount recomputes it in JavaScript for every account, which
 * costs about half a second for 20 accounts.
 */
export function deriveDevAccounts(
  mnemonic: string = DEV_MNEMONIC,
  count: number = DEV_ACCOUNT_COUNT,
): HDAccount[] {
  const seed = pbkdf2Sync(mnemonic.normalize("NFKD"), "mnemonic", 2048, 64, "sha512");
  const root = HDKey.fromMasterSeed(seed);
  return Array.from({ length: count }, (_, addressIndex) => hdKeyToAccount(root, { addressIndex }));
}

export function accountPrivateKey(account: HDAccount): Hex {
  const key = account.getHdKey().privateKey;
  if (key === null) throw new Error(`account ${account.address} has no private key`);
  return toHex(key);
}

export function devAccount(accounts: readonly HDAccount[], index: number): HDAccount {
  const account = accounts[index];
  if (account === undefined) throw new Error(`dev account ${index} is not derived (only ${accounts.length})`);
  return account;
}
