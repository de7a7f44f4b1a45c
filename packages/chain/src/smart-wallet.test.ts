import type { Address, Hex } from "viem";
import {
  concat,
  encodeFunctionData,
  hashMessage,
  hexToBigInt,
  numberToHex,
  pad,
  parseErc6492Signature,
  parseEther,
  slice,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import type { ChainClients } from "./clients.ts";
import { createChainClients, waitForSuccess } from "./clients.ts";
import { CLASSIC_CHAIN_ID } from "./deploy.ts";
import type { DevChain } from "./dev-chain/index.ts";
import { startDevChain } from "./dev-chain/index.ts";
import { smartWalletAbi, smartWalletFactoryAbi } from "./generated/abis.ts";
import {
  deploySmartWallet,
  deploySmartWalletFactory,
  predictSmartWallet,
  wrapErc6492Signature,
} from "./smart-wallet.ts";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const ERC1271_MAGIC_VALUE = "0x1626ba7e";
const ERC1271_INVALID = "0xffffffff";
const message = "Sign in to mkt\nnonce: 7f3a9c";

let chain: DevChain;
let clients: ChainClients;
let factory: Address;
let owner: Address;

const ownerWallet = () => clients.wallet(DEV_ACCOUNT_ROLES.firstUser);
const strangerWallet = () => clients.wallet(DEV_ACCOUNT_ROLES.firstUser + 1);
const saltOf = (n: number): Hex => pad(numberToHex(n), { size: 32 });

beforeAll(async () => {
  chain = await startDevChain({ chainId: CLASSIC_CHAIN_ID, port: 0, intervalMs: 0 });
  clients = createChainClients({ rpcUrl: chain.rpcUrl, chainId: CLASSIC_CHAIN_ID, pollingIntervalMs: 20 });
  factory = await deploySmartWalletFactory({ clients });
  owner = ownerWallet().account.address;
});
afterAll(async () => {
  await chain?.close();
});

describe("SmartWalletFactory", () => {
  it("deploys a wallet at the predicted address for its owner, once", async () => {
    const { publicClient } = clients;
    const ref = { factory, owner, salt: saltOf(1) };
    const predicted = predictSmartWallet(ref);
    expect(
      await publicClient.readContract({
        address: factory,
        abi: smartWalletFactoryAbi,
        functionName: "predict",
        args: [owner, ref.salt],
      }),
    ).toBe(predicted);
    expect(predictSmartWallet({ ...ref, salt: saltOf(2) })).not.toBe(predicted);
    expect(predictSmartWallet({ ...ref, owner: strangerWallet().account.address })).not.toBe(predicted);
    expect(await publicClient.getCode({ address: predicted })).toBeUndefined();

    // Anyone may deploy; the owner comes from the arguments, not the sender.
    expect(await deploySmartWallet({ clients, ...ref, from: DEV_ACCOUNT_ROLES.firstUser + 2 })).toBe(
      predicted,
    );
    expect(await publicClient.getCode({ address: predicted })).toMatch(/^0x[0-9a-f]{10,}/);
    expect(
      await publicClient.readContract({ address: predicted, abi: smartWalletAbi, functionName: "owner" }),
    ).toBe(owner);
    expect(await deploySmartWallet({ clients, ...ref })).toBe(predicted);

    const events = await publicClient.getContractEvents({
      address: factory,
      abi: smartWalletFactoryAbi,
      eventName: "WalletDeployed",
      args: { owner },
      fromBlock: 0n,
    });
    expect(events.map((event) => event.args)).toEqual([{ wallet: predicted, owner, salt: ref.salt }]);
  });
});

describe("ERC-1271 on a deployed wallet", () => {
  let wallet: Address;
  beforeAll(async () => {
    wallet = await deploySmartWallet({ clients, factory, owner, salt: saltOf(10) });
  });

  it("accepts the owner's EIP-191 signature and refuses another EOA's", async () => {
    const { publicClient } = clients;
    const signature = await ownerWallet().signMessage({ message });
    const strangers = await strangerWallet().signMessage({ message });
    expect(await publicClient.verifyMessage({ address: wallet, message, signature })).toBe(true);
    expect(await publicClient.verifyMessage({ address: wallet, message, signature: strangers })).toBe(false);
    expect(await publicClient.verifyMessage({ address: wallet, message: `${message}!`, signature })).toBe(
      false,
    );
    // A verifier handed a wrapped signature after deployment still gets the wallet's answer.
    const wrapped = wrapErc6492Signature({ factory, owner, salt: saltOf(10), signature });
    expect(await publicClient.verifyMessage({ address: wallet, message, signature: wrapped })).toBe(true);
  });

  it("answers 0xffffffff for malleable, invalid-v and malformed signatures", async () => {
    const hash = hashMessage(message);
    const signature = await ownerWallet().signMessage({ message });
    const r = slice(signature, 0, 32);
    const s = hexToBigInt(slice(signature, 32, 64));
    const v = hexToBigInt(slice(signature, 64, 65));
    const highS = pad(numberToHex(SECP256K1_N - s), { size: 32 });
    const twinV = v === 27n ? 28 : 27;
    const malleable = concat([r, highS, numberToHex(twinV, { size: 1 })]);

    // The malleable twin recovers the owner with the bare precompile, so only the wallet's s check refuses it.
    const { data: recovered } = await clients.publicClient.call({
      to: "0x0000000000000000000000000000000000000001",
      data: concat([hash, pad(numberToHex(twinV)), r, highS]),
    });
    expect(recovered).toBe(pad(owner.toLowerCase() as Hex));

    const isValid = (sig: Hex) =>
      clients.publicClient.readContract({
        address: wallet,
        abi: smartWalletAbi,
        functionName: "isValidSignature",
        args: [hash, sig],
      });
    expect(await isValid(signature)).toBe(ERC1271_MAGIC_VALUE);
    expect(await isValid(malleable)).toBe(ERC1271_INVALID);
    expect(
      await isValid(concat([r, slice(signature, 32, 64), numberToHex(Number(v) - 27, { size: 1 })])),
    ).toBe(ERC1271_INVALID);
    expect(await isValid(slice(signature, 0, 64))).toBe(ERC1271_INVALID);
    expect(await isValid("0x")).toBe(ERC1271_INVALID);
  });

  it("executes calls for the owner only", async () => {
    const { publicClient } = clients;
    await waitForSuccess(
      publicClient,
      await ownerWallet().sendTransaction({ to: wallet, value: parseEther("1") }),
    );
    expect(await publicClient.getBalance({ address: wallet })).toBe(parseEther("1"));

    const recipient = clients.accounts[DEV_ACCOUNT_ROLES.firstUser + 3]!.address;
    const before = await publicClient.getBalance({ address: recipient });
    await waitForSuccess(
      publicClient,
      await ownerWallet().writeContract({
        address: wallet,
        abi: smartWalletAbi,
        functionName: "execute",
        args: [recipient, parseEther("0.25"), "0x"],
      }),
    );
    expect(await publicClient.getBalance({ address: recipient })).toBe(before + parseEther("0.25"));
    expect(await publicClient.getBalance({ address: wallet })).toBe(parseEther("0.75"));

    await expect(
      strangerWallet().writeContract({
        address: wallet,
        abi: smartWalletAbi,
        functionName: "execute",
        args: [recipient, parseEther("0.25"), "0x"],
      }),
    ).rejects.toThrow(/Wallet: not owner/);

    // A failing inner call reverts the whole execution with the callee's reason.
    await expect(
      ownerWallet().writeContract({
        address: wallet,
        abi: smartWalletAbi,
        functionName: "execute",
        args: [
          wallet,
          0n,
          encodeFunctionData({ abi: smartWalletAbi, functionName: "execute", args: [recipient, 0n, "0x"] }),
        ],
      }),
    ).rejects.toThrow(/Wallet: not owner/);
  });
});

describe("ERC-6492 on a counterfactual wallet", () => {
  const salt = saltOf(20);
  let wallet: Address;
  beforeAll(() => {
    wallet = predictSmartWallet({ factory, owner, salt });
  });

  it("wraps the signature with the factory's deploy call and the magic suffix", async () => {
    const signature = await ownerWallet().signMessage({ message });
    const wrapped = wrapErc6492Signature({ factory, owner, salt, signature });
    expect(wrapped.endsWith("6492".repeat(16))).toBe(true);
    expect(parseErc6492Signature(wrapped)).toEqual({
      address: factory,
      data: encodeFunctionData({ abi: smartWalletFactoryAbi, functionName: "deploy", args: [owner, salt] }),
      signature,
    });
  });

  it("accepts the owner's wrapped signature and refuses another EOA's, without deploying", async () => {
    const { publicClient } = clients;
    expect(await publicClient.getCode({ address: wallet })).toBeUndefined();
    const signature = await ownerWallet().signMessage({ message });
    const strangers = await strangerWallet().signMessage({ message });

    const wrapped = wrapErc6492Signature({ factory, owner, salt, signature });
    expect(await publicClient.verifyMessage({ address: wallet, message, signature: wrapped })).toBe(true);
    const wrappedStrangers = wrapErc6492Signature({ factory, owner, salt, signature: strangers });
    expect(await publicClient.verifyMessage({ address: wallet, message, signature: wrappedStrangers })).toBe(
      false,
    );
    // A stranger cannot claim the wallet by wrapping with themselves as owner: that is another address.
    const strangerAsOwner = wrapErc6492Signature({
      factory,
      owner: strangerWallet().account.address,
      salt,
      signature: strangers,
    });
    expect(await publicClient.verifyMessage({ address: wallet, message, signature: strangerAsOwner })).toBe(
      false,
    );
    // Unwrapped, nothing onchain answers for the address.
    expect(await publicClient.verifyMessage({ address: wallet, message, signature })).toBe(false);

    expect(await publicClient.getCode({ address: wallet })).toBeUndefined();
  });
});
