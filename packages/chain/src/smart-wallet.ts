import type { Address, Hex } from "viem";
import {
  concat,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
} from "viem";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import type { ChainClients } from "./clients.ts";
import { waitForSuccess } from "./clients.ts";
import { smartWalletAbi, smartWalletFactoryAbi } from "./generated/abis.ts";
import { smartWalletBytecode, smartWalletFactoryBytecode } from "./generated/bytecode.ts";

/** ERC-6492's suffix: a signature ending in it carries the factory call that deploys its signer. */
const ERC6492_MAGIC_SUFFIX: Hex = "0x6492649264926492649264926492649264926492649264926492649264926492";

export interface DeploySmartWalletFactoryOptions {
  clients: ChainClients;
  /** Mnemonic account that sends the transaction; defaults to the deployer. */
  from?: number;
}

/** Which SmartWallet: its factory, its owner EOA and the CREATE2 salt. */
export interface SmartWalletRef {
  factory: Address;
  owner: Address;
  salt: Hex;
}

export interface DeploySmartWalletOptions extends SmartWalletRef {
  clients: ChainClients;
  /** Mnemonic account that sends the transaction (anyone may deploy any wallet); defaults to the deployer. */
  from?: number;
}

/**
 * Deploys a SmartWalletFactory and returns its address. Not part of `deployReferenceContracts`: tests
 * that need smart-contract wallets deploy one on their own chain.
 *
 * @example
 * const factory = await deploySmartWalletFactory({ clients });
 */
export async function deploySmartWalletFactory(options: DeploySmartWalletFactoryOptions): Promise<Address> {
  const { clients } = options;
  const hash = await clients.wallet(options.from ?? DEV_ACCOUNT_ROLES.deployer).deployContract({
    abi: smartWalletFactoryAbi,
    bytecode: smartWalletFactoryBytecode,
  });
  const receipt = await waitForSuccess(clients.publicClient, hash);
  if (!receipt.contractAddress) throw new Error(`deployment ${hash} created no contract`);
  return getAddress(receipt.contractAddress);
}

/**
 * Deploys the SmartWallet of (`owner`, `salt`) through `factory` and returns its address, which is
 * `predictSmartWallet` of the same arguments. Deploying an existing wallet is a no-op returning it.
 *
 * @example
 * const wallet = await deploySmartWallet({ clients, factory, owner: clients.accounts[3]!.address, salt: zeroHash });
 */
export async function deploySmartWallet(options: DeploySmartWalletOptions): Promise<Address> {
  const { clients, factory, owner, salt } = options;
  const wallet = clients.wallet(options.from ?? DEV_ACCOUNT_ROLES.deployer);
  const { request, result } = await clients.publicClient.simulateContract({
    account: wallet.account,
    address: factory,
    abi: smartWalletFactoryAbi,
    functionName: "deploy",
    args: [owner, salt],
  });
  await waitForSuccess(clients.publicClient, await wallet.writeContract(request));
  return result;
}

/**
 * The address `factory` deploys the wallet of (`owner`, `salt`) at, computed offchain (CREATE2 over the
 * wallet's creation code with the owner as constructor argument), the same as the factory's `predict`.
 */
export function predictSmartWallet({ factory, owner, salt }: SmartWalletRef): Address {
  return getContractAddress({
    opcode: "CREATE2",
    from: factory,
    salt,
    bytecode: encodeDeployData({ abi: smartWalletAbi, bytecode: smartWalletBytecode, args: [owner] }),
  });
}

/**
 * Wraps the owner's `signature` for the not yet deployed wallet of (`owner`, `salt`) as ERC-6492 does:
 * `abi.encode(factory, factoryCalldata, signature) ++ 0x6492…6492`, where `factoryCalldata` is
 * `deploy(owner, salt)`. A verifier runs that call first, then asks the new wallet (ERC-1271).
 *
 * @example
 * const signature = await clients.wallet(3).signMessage({ message });
 * const wrapped = wrapErc6492Signature({ factory, owner: clients.accounts[3]!.address, salt, signature });
 * await clients.publicClient.verifyMessage({ address: predictSmartWallet({ factory, owner, salt }), message, signature: wrapped });
 */
export function wrapErc6492Signature({
  factory,
  owner,
  salt,
  signature,
}: SmartWalletRef & { signature: Hex }): Hex {
  const factoryCalldata = encodeFunctionData({
    abi: smartWalletFactoryAbi,
    functionName: "deploy",
    args: [owner, salt],
  });
  return concat([
    encodeAbiParameters(
      [{ type: "address" }, { type: "bytes" }, { type: "bytes" }],
      [factory, factoryCalldata, signature],
    ),
    ERC6492_MAGIC_SUFFIX,
  ]);
}
