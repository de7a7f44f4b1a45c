/**
 * A wallet that signs offchain actions (release actions, pack edits): a viem
 * `LocalAccount` (from `privateKeyToAccount`, `mnemonicToAccount`…) fits as it
 * is, as does any object with the wallet's address and an EIP-191 `signMessage`.
 */
export interface ActionSigner {
  /** The wallet that signs (for a contract wallet, its address; the signer is its owner). */
  address: string;
  signMessage(args: { message: string }): Promise<string>;
}

export interface ActionOptions {
  /** Seconds the signed action stays valid (at most 300; default 120). */
  ttlSeconds?: number;
  now?: () => number;
}

/** What a signed action states besides the action: the body's `address`, `nonce` and `expires`. */
export interface SignedFields {
  address: string;
  nonce: string;
  expires: number;
}

/**
 * Signs one action: a fresh UUID v4 nonce, an expiry `ttlSeconds` ahead, and
 * the wallet's signature over the text `message` builds from those fields
 * (one of the protocol's builders, which parse the action themselves).
 */
export async function signAction(
  account: ActionSigner,
  message: (fields: SignedFields) => string,
  { ttlSeconds = 120, now = Date.now }: ActionOptions = {},
): Promise<SignedFields & { signature: string }> {
  if (ttlSeconds <= 0 || ttlSeconds > 300) throw new RangeError("ttlSeconds must be in (0, 300]");
  const fields = {
    address: account.address.toLowerCase(),
    nonce: crypto.randomUUID(),
    expires: now() + ttlSeconds * 1000,
  };
  const signature = await account.signMessage({ message: message(fields) });
  return { ...fields, signature };
}
