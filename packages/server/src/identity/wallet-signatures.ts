import { MAX_SIGNATURE_BYTES } from "@mkt/protocol";
import * as secp256k1 from "tiny-secp256k1";
import {
  type Address,
  BaseError,
  bytesToHex,
  type Client,
  createClient,
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  type Hex,
  HttpRequestError,
  hashMessage,
  hexToBool,
  hexToBytes,
  http,
  isHex,
  keccak256,
  TimeoutError,
  type Transport,
} from "viem";
import { call, getCode } from "viem/actions";
import { createTtlCache } from "../cache/ttl-cache.ts";
import { badRequest, UnavailableError } from "../errors.ts";
import { type Clock, systemClock } from "../quotas/limiter.ts";

/** The 32 bytes an ERC-6492 wrapped (counterfactual wallet) signature ends with. */
export const ERC6492_MAGIC_SUFFIX = "6492649264926492649264926492649264926492649264926492649264926492";

/**
 * The gas an on-chain verification may burn. The call runs a factory and
 * calldata the signer chose (ERC-6492), so it is capped: room for a
 * counterfactual smart wallet's deployment and a passkey (P-256) check in
 * Solidity, far below a block. A call that needs more is an invalid signature.
 */
export const VERIFICATION_GAS_LIMIT = 1_000_000n;

/** How long a replica trusts what `eth_getCode` said about an address (code or none). */
export const CODE_CACHE_TTL_MS = 60_000;

/** Hooks of one verification, for the caller's budgets. */
export interface VerificationHooks {
  /** Called once before the first RPC (code lookup or `eth_call`); may throw to refuse. */
  beforeChain?: () => void;
}

/** Checks that `signature` is `address`'s EIP-191 signature of `message`. */
export interface WalletSignatureVerifier {
  verify(
    input: { address: string; message: string; signature: string },
    hooks?: VerificationHooks,
  ): Promise<boolean>;
  /**
   * Which of `messages` `signature` is `address`'s EIP-191 signature of: the
   * index of the first in order, or -1. Every message is tried locally
   * before the chain is asked about any (one code lookup for all of them).
   */
  verifyAny(
    input: { address: string; messages: readonly string[]; signature: string },
    hooks?: VerificationHooks,
  ): Promise<number>;
}

const recoveryIds: Record<number, 0 | 1> = { 0: 0, 1: 1, 27: 0, 28: 1 };

/**
 * The lowercase address whose key made the 65-byte `r || s || v` signature
 * over the 32-byte `hash` (v is 27/28 or 0/1), or undefined when it recovers
 * to nothing. Same answers as viem's `recoverAddress`, several times faster
 * (libsecp256k1 in WebAssembly): EIP-2098 64-byte compact signatures are not
 * accepted (viem does not accept them either), and high-s signatures are
 * accepted as viem and the EVM's `ecrecover` accept them. Malleability does
 * not matter here: what is single-use is the signed nonce, not the signature.
 */
export function recoverSigner(hash: Uint8Array, signature: Uint8Array): string | undefined {
  if (hash.length !== 32 || signature.length !== 65) return undefined;
  const recoveryId = recoveryIds[signature[64]!];
  if (recoveryId === undefined) return undefined;
  let publicKey: Uint8Array | null;
  try {
    publicKey = secp256k1.recover(hash, signature.subarray(0, 64), recoveryId, false);
  } catch {
    // r or s zero or not below the curve order.
    return undefined;
  }
  if (publicKey === null) return undefined;
  return bytesToHex(keccak256(publicKey.subarray(1), "bytes").subarray(12));
}

export const isErc6492Signature = (signature: string) =>
  signature.length >= 66 && signature.slice(-64).toLowerCase() === ERC6492_MAGIC_SUFFIX;

export interface WalletVerifierOptions {
  /**
   * JSON-RPC of the chain whose contract wallets may sign in (8453). Without
   * it only EOAs can sign in: contract-wallet signatures need the chain.
   */
  rpcUrl?: string;
  /** Instead of `rpcUrl`: the viem transport to ask (tests count the calls with `custom`). */
  transport?: Transport;
  timeoutMs?: number;
  clock?: Clock;
}

/** The transport failed (network, timeout, HTTP status): retrying may help, unlike a reverted call. */
const transportFailed = (error: unknown) =>
  error instanceof BaseError &&
  error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError) !== null;

/**
 * Verification, cheapest first:
 *
 * 1. A 65-byte signature that recovers (locally, no RPC) to the address is
 *    an EOA's: valid.
 * 2. Otherwise the chain is asked only when the address has code (a deployed
 *    contract wallet, ERC-1271) or the signature carries the ERC-6492 suffix
 *    (a counterfactual one). A wrong signature for an address without code
 *    never reaches `eth_call`. ERC-8010 (EIP-7702 pre-delegation) signatures
 *    are not accepted.
 * 3. The chain check is the ERC-6492 universal validator in a deployless
 *    `eth_call` capped at VERIFICATION_GAS_LIMIT: it accepts ERC-1271
 *    signatures of deployed wallets and ERC-6492 wrapped signatures of
 *    counterfactual ones (deploying them in the call's sandbox first). That
 *    is the check the usual SIWE libraries get wrong: they stop after ECDSA
 *    recovery or call `isValidSignature` on an address that has no code yet.
 *
 * Signatures longer than MAX_SIGNATURE_BYTES are refused (400) before any
 * work. An unreachable RPC is a 503 (fail closed), never "signature invalid";
 * a reverted or out-of-gas call is an invalid signature.
 */
export function createWalletVerifier({
  rpcUrl,
  transport,
  timeoutMs = 5_000,
  clock = systemClock,
}: WalletVerifierOptions = {}) {
  const chosen = transport ?? (rpcUrl ? http(rpcUrl, { retryCount: 1, timeout: timeoutMs }) : undefined);
  const client: Client | undefined = chosen ? createClient({ transport: chosen }) : undefined;
  const codeCache = createTtlCache<string, boolean>({ clock, maxEntries: 10_000 });

  const hasCode = async (chain: Client, address: Address) => {
    const cached = codeCache.get(address);
    if (cached !== undefined) return cached;
    const code = await getCode(chain, { address });
    const deployed = code !== undefined && code !== "0x";
    codeCache.set(address, deployed, CODE_CACHE_TTL_MS);
    return deployed;
  };

  const validateOnChain = async (chain: Client, address: Address, hash: Hex, signature: Hex) => {
    try {
      const { data } = await call(chain, {
        data: encodeDeployData({
          abi: erc6492SignatureValidatorAbi,
          args: [address, hash, signature],
          bytecode: erc6492SignatureValidatorByteCode,
        }),
        gas: VERIFICATION_GAS_LIMIT,
      });
      return hexToBool(data ?? "0x0");
    } catch (error) {
      if (transportFailed(error)) throw error;
      // Reverted, out of gas, or a malformed answer: not a valid signature.
      return false;
    }
  };

  const verifyAny: WalletSignatureVerifier["verifyAny"] = async (
    { address, messages, signature },
    hooks = {},
  ) => {
    if (!isHex(signature, { strict: true }) || signature.length % 2 !== 0) return -1;
    if ((signature.length - 2) / 2 > MAX_SIGNATURE_BYTES) {
      throw badRequest(`the signature is longer than ${MAX_SIGNATURE_BYTES} bytes`);
    }
    const hashes = messages.map((message) => hashMessage(message));
    const claimed = address.toLowerCase() as Address;
    const wrapped = isErc6492Signature(signature);
    if (!wrapped) {
      const bytes = hexToBytes(signature);
      const local = hashes.findIndex((hash) => recoverSigner(hexToBytes(hash), bytes) === claimed);
      if (local >= 0) return local;
    }
    if (!client || hashes.length === 0) return -1;
    hooks.beforeChain?.();
    try {
      if (!wrapped && !(await hasCode(client, claimed))) return -1;
      for (const [index, hash] of hashes.entries()) {
        if (await validateOnChain(client, claimed, hash, signature)) return index;
      }
      return -1;
    } catch (error) {
      throw new UnavailableError("the chain RPC could not verify the signature; try again shortly", {
        cause: error,
      });
    }
  };

  return {
    verify: async ({ address, message, signature }, hooks?: VerificationHooks) =>
      (await verifyAny({ address, messages: [message], signature }, hooks)) === 0,
    verifyAny,
  } satisfies WalletSignatureVerifier;
}
