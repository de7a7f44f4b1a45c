import { MAX_SIGNATURE_BYTES } from "@mkt/protocol";
import fc from "fast-check";
import {
  bytesToHex,
  custom,
  type Hex,
  hashMessage,
  hexToBytes,
  numberToHex,
  recoverAddress,
  recoverMessageAddress,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createManualClock } from "../_test/app.ts";
import { AppError, UnavailableError } from "../errors.ts";
import {
  CODE_CACHE_TTL_MS,
  createWalletVerifier,
  ERC6492_MAGIC_SUFFIX,
  recoverSigner,
  VERIFICATION_GAS_LIMIT,
} from "./wallet-signatures.ts";

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const privateKeyArb = fc
  .bigInt({ min: 1n, max: CURVE_ORDER - 1n })
  .map((key) => numberToHex(key, { size: 32 }));

/** viem's answer, or undefined where viem throws. */
async function viemRecovers(hash: Hex, signature: Hex): Promise<string | undefined> {
  try {
    return (await recoverAddress({ hash, signature })).toLowerCase();
  } catch {
    return undefined;
  }
}

/** The same signature with v as 0/1, and its high-s twin (s' = n - s, the other parity). */
function variants(signature: Hex): Hex[] {
  const bytes = hexToBytes(signature);
  const v = bytes[64]!;
  const parity = v >= 27 ? v - 27 : v;
  const yParityForm = new Uint8Array(bytes);
  yParityForm[64] = parity;
  const s = BigInt(bytesToHex(bytes.subarray(32, 64)));
  const highS = new Uint8Array(bytes);
  highS.set(hexToBytes(numberToHex(CURVE_ORDER - s, { size: 32 })), 32);
  highS[64] = 27 + (1 - parity);
  return [bytesToHex(yParityForm), bytesToHex(highS)];
}

describe("local recovery", () => {
  it("recovers the signer exactly as viem's recoverMessageAddress, for random keys and messages", async () => {
    await fc.assert(
      fc.asyncProperty(privateKeyArb, fc.string({ maxLength: 300 }), async (privateKey, message) => {
        const account = privateKeyToAccount(privateKey);
        const signature = await account.signMessage({ message });
        const hash = hexToBytes(hashMessage(message));
        expect(recoverSigner(hash, hexToBytes(signature))).toBe(account.address.toLowerCase());
        expect(recoverSigner(hash, hexToBytes(signature))).toBe(
          (await recoverMessageAddress({ message, signature })).toLowerCase(),
        );
        // v as 0/1 and the high-s twin: accepted, as viem and ecrecover accept them.
        for (const variant of variants(signature)) {
          expect(recoverSigner(hash, hexToBytes(variant))).toBe(
            (await recoverMessageAddress({ message, signature: variant })).toLowerCase(),
          );
          expect(recoverSigner(hash, hexToBytes(variant))).toBe(account.address.toLowerCase());
        }
      }),
      { numRuns: 60 },
    );
  });

  it("agrees with viem on arbitrary bytes: the same address, or nothing where viem throws", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.oneof(fc.constantFrom(0, 1, 27, 28), fc.integer({ min: 0, max: 255 })),
        async (hash, rs, v) => {
          const signature = new Uint8Array([...rs, v]);
          expect(recoverSigner(hash, signature)).toBe(await viemRecovers(toHex(hash), bytesToHex(signature)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("takes only 65-byte signatures: EIP-2098 64-byte compact ones are refused, as viem refuses them", async () => {
    const account = privateKeyToAccount(numberToHex(12345n, { size: 32 }));
    const signature = hexToBytes(await account.signMessage({ message: "hi" }));
    const hash = hexToBytes(hashMessage("hi"));
    const compact = signature.slice(0, 64);
    if (signature[64] === 28) compact[32]! |= 0x80;
    expect(recoverSigner(hash, compact)).toBeUndefined();
    expect(await viemRecovers(toHex(hash), bytesToHex(compact))).toBeUndefined();
    expect(recoverSigner(hash, new Uint8Array([...signature, 0]))).toBeUndefined();
  });
});

/** A transport that records every JSON-RPC call and answers from `answers`. */
function recordingTransport(answers: { code?: Hex; call?: Hex | Error } = {}) {
  const calls: { method: string; params: unknown[] }[] = [];
  const transport = custom({
    async request({ method, params }: { method: string; params: unknown[] }) {
      calls.push({ method, params });
      if (method === "eth_getCode") return answers.code ?? "0x";
      if (method === "eth_call") {
        if (answers.call instanceof Error) throw answers.call;
        return answers.call ?? `0x${"00".repeat(32)}`;
      }
      if (method === "eth_chainId") return "0x2105";
      throw new Error(`unexpected ${method}`);
    },
  });
  return { calls, transport, methods: () => calls.map((call) => call.method) };
}

const signer = privateKeyToAccount(numberToHex(777n, { size: 32 }));
const stranger = privateKeyToAccount(numberToHex(778n, { size: 32 }));
const message = "mkt marketplace: sign in";
const wrapped = (inner: Hex) => `${inner}${"00".repeat(96)}${ERC6492_MAGIC_SUFFIX}` as Hex;

describe("the verifier asks the chain only when it must", () => {
  it("accepts an EOA's signature with no RPC call at all", async () => {
    const rpc = recordingTransport();
    const verifier = createWalletVerifier({ transport: rpc.transport });
    const signature = await signer.signMessage({ message });
    expect(await verifier.verify({ address: signer.address, message, signature })).toBe(true);
    expect(rpc.calls).toEqual([]);
  });

  it("refuses a wrong signature for an address without code after eth_getCode only, never eth_call", async () => {
    const clock = createManualClock();
    const rpc = recordingTransport({ code: "0x" });
    const verifier = createWalletVerifier({ transport: rpc.transport, clock });
    const signature = await stranger.signMessage({ message });
    expect(await verifier.verify({ address: signer.address, message, signature })).toBe(false);
    expect(await verifier.verify({ address: signer.address, message, signature })).toBe(false);
    // The code lookup is cached for a while, then asked again.
    expect(rpc.methods()).toEqual(["eth_getCode"]);
    clock.advance(CODE_CACHE_TTL_MS);
    expect(await verifier.verify({ address: signer.address, message, signature })).toBe(false);
    expect(rpc.methods()).toEqual(["eth_getCode", "eth_getCode"]);
  });

  it("asks a deployed contract wallet through eth_call, with the gas cap", async () => {
    const rpc = recordingTransport({ code: "0x6080", call: "0x01" });
    const verifier = createWalletVerifier({ transport: rpc.transport });
    const signature = await signer.signMessage({ message });
    const wallet = "0x00000000000000000000000000000000000000aa";
    expect(await verifier.verify({ address: wallet, message, signature })).toBe(true);
    expect(rpc.methods()).toEqual(["eth_getCode", "eth_call"]);
    const [callRequest] = rpc.calls[1]!.params as [{ gas?: Hex; to?: Hex }];
    expect(callRequest.gas).toBe(numberToHex(VERIFICATION_GAS_LIMIT));
    expect(callRequest.to).toBeUndefined();
  });

  it("sends an ERC-6492 wrapped signature straight to eth_call (no code lookup), with the gas cap", async () => {
    const rpc = recordingTransport({ call: `0x${"00".repeat(31)}01` });
    const verifier = createWalletVerifier({ transport: rpc.transport });
    const signature = wrapped(await signer.signMessage({ message }));
    const wallet = "0x00000000000000000000000000000000000000bb";
    expect(await verifier.verify({ address: wallet, message, signature })).toBe(true);
    expect(rpc.methods()).toEqual(["eth_call"]);
    expect((rpc.calls[0]!.params as [{ gas?: Hex }])[0].gas).toBe(numberToHex(VERIFICATION_GAS_LIMIT));
  });

  it("reads a reverted call as an invalid signature and an unreachable RPC as 503", async () => {
    const reverted = recordingTransport({
      call: Object.assign(new Error("execution reverted"), { code: 3 }),
    });
    const signature = wrapped(await signer.signMessage({ message }));
    const address = "0x00000000000000000000000000000000000000cc";
    expect(
      await createWalletVerifier({ transport: reverted.transport }).verify({ address, message, signature }),
    ).toBe(false);
    const down = createWalletVerifier({ rpcUrl: "http://127.0.0.1:1", timeoutMs: 500 });
    await expect(down.verify({ address, message, signature })).rejects.toBeInstanceOf(UnavailableError);
  });

  it(`refuses a signature over ${MAX_SIGNATURE_BYTES} bytes with a 400 before any RPC`, async () => {
    const rpc = recordingTransport({ call: "0x01" });
    const verifier = createWalletVerifier({ transport: rpc.transport });
    const signature = `0x${"11".repeat(MAX_SIGNATURE_BYTES + 1 - 32)}${ERC6492_MAGIC_SUFFIX}` as Hex;
    const refused = await verifier
      .verify({ address: signer.address, message, signature })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).kind).toBe("bad_request");
    expect(rpc.calls).toEqual([]);
    // At the limit it is still verified.
    const atLimit = `0x${"11".repeat(MAX_SIGNATURE_BYTES - 32)}${ERC6492_MAGIC_SUFFIX}` as Hex;
    expect(await verifier.verify({ address: signer.address, message, signature: atLimit })).toBe(true);
  });

  it("calls beforeChain before the first RPC, and lets it refuse", async () => {
    const rpc = recordingTransport();
    const verifier = createWalletVerifier({ transport: rpc.transport });
    const signature = await stranger.signMessage({ message });
    const refusal = new Error("budget spent");
    await expect(
      verifier.verify(
        { address: signer.address, message, signature },
        {
          beforeChain: () => {
            throw refusal;
          },
        },
      ),
    ).rejects.toBe(refusal);
    expect(rpc.calls).toEqual([]);
  });
});
