import { type LocalAccount, mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { integerFlag, type Values } from "./context.ts";
import { UsageError } from "./errors.ts";
import type { Io, Secrets } from "./io.ts";

/**
 * The standard development mnemonic the dev chains fund their first 20 accounts from (the same
 * as `DEV_MNEMONIC` of @mkt/chain). Its keys are public knowledge: only for dev chains.
 */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";

/** The highest non-hardened BIP-32 index. */
const MAX_ADDRESS_INDEX = 2 ** 31 - 1;

export const WALLET_OPTIONS = {
  "dev-wallet": {
    type: "string",
    value: "<index>",
    description: "Sign with the development mnemonic's account <index> (0-19 are funded on dev chains)",
  },
} as const;

/**
 * The wallet a command signs with: `--dev-wallet <index>`, else `MKT_PRIVATE_KEY` (a 0x-prefixed
 * 32-byte hex key; taken from the environment only, so it never shows in the process list).
 */
export function walletFrom(values: Values, env: Io["env"], secrets: Secrets): LocalAccount {
  const index = integerFlag(values, "dev-wallet", 0, MAX_ADDRESS_INDEX);
  if (index !== undefined) return mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
  const raw = env["MKT_PRIVATE_KEY"]?.trim();
  if (raw) {
    secrets.add(raw);
    const hex = raw.startsWith("0x") ? raw : `0x${raw}`;
    secrets.add(hex);
    if (!/^0x[0-9a-fA-F]{64}$/.test(hex))
      throw new UsageError("MKT_PRIVATE_KEY must be a private key: 64 hex digits, 0x-prefixed or not");
    return privateKeyToAccount(hex as `0x${string}`);
  }
  throw new UsageError(
    "a wallet is needed: pass --dev-wallet <index> (the development mnemonic, dev chains only) or set MKT_PRIVATE_KEY",
  );
}
