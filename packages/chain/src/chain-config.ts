import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Address, Hex } from "viem";
import { getAddress, isAddress } from "viem";

/**
 * Where one contract lives and the first block an indexer must read for it. Block numbers are plain
 * numbers: they stay far below 2^53 and this shape is written to and read from JSON.
 */
export interface ContractDeployment {
  address: Address;
  startBlock: number;
}

/** One versioned set of current-generation contracts; clients select it by `id`. */
export interface RuntimeDeployment {
  id: string;
  version: number;
  contracts: Record<string, Address>;
  startBlock: number;
}

/** One chain as the indexer sees it; the dev chains write it, real chains get it from MKT_CONFIG. */
export interface ChainDeployment {
  chainId: number;
  rpcUrl: string;
  /** Blocks behind the head that are treated as final. */
  finalityDepth: number;
  /** Hash of block 0; a different value at the same RPC URL means the chain was reset. */
  genesisHash: Hex;
  contracts: Record<string, ContractDeployment>;
  runtimes: RuntimeDeployment[];
  /**
   * Classic drops indexed by address, beside (or instead of) those a `DropFactory` creates: drops
   * deployed by a contract the indexer does not follow (the live creation contract's drops created
   * before its start block, a drop created elsewhere). Each drop's token is found through the drop's
   * `boosterTokenAddress()`. Absent when empty.
   */
  classicDrops?: ContractDeployment[];
}

export interface ChainConfigFile {
  chains: ChainDeployment[];
}

export class ChainConfigError extends Error {
  override readonly name = "ChainConfigError";
  readonly code = "INVALID_CHAIN_CONFIG";
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`invalid chain config at ${path}: ${problem}`);
  }
}

type Json = Record<string, unknown>;

function expectObject(value: unknown, path: string, keys: readonly string[]): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ChainConfigError(path, "expected an object");
  }
  const unknownKey = Object.keys(value).find((key) => !keys.includes(key));
  if (unknownKey !== undefined) {
    throw new ChainConfigError(`${path}.${unknownKey}`, `unknown field (allowed: ${keys.join(", ")})`);
  }
  return value as Json;
}

function expectInteger(value: unknown, path: string, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new ChainConfigError(path, `expected an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function expectAddress(value: unknown, path: string): Address {
  if (typeof value !== "string" || !isAddress(value, { strict: false })) {
    throw new ChainConfigError(path, `expected a 0x-prefixed 20-byte address, got ${JSON.stringify(value)}`);
  }
  return getAddress(value);
}

function expectRpcUrl(value: unknown, path: string): string {
  const allowed = ["http:", "https:", "ws:", "wss:"];
  let protocol: string | undefined;
  try {
    protocol = typeof value === "string" ? new URL(value).protocol : undefined;
  } catch {
    protocol = undefined;
  }
  if (protocol === undefined || !allowed.includes(protocol)) {
    throw new ChainConfigError(path, `expected an http(s) or ws(s) URL, got ${JSON.stringify(value)}`);
  }
  return value as string;
}

const RUNTIME_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

function parseNamed<T>(
  value: unknown,
  path: string,
  parse: (entry: unknown, path: string) => T,
): Record<string, T> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ChainConfigError(path, "expected an object keyed by contract name");
  }
  const result: Record<string, T> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (!NAME.test(name)) throw new ChainConfigError(`${path}.${name}`, "contract names are identifiers");
    result[name] = parse(entry, `${path}.${name}`);
  }
  return result;
}

function parseRuntime(value: unknown, path: string): RuntimeDeployment {
  const raw = expectObject(value, path, ["id", "version", "contracts", "startBlock"]);
  if (typeof raw["id"] !== "string" || !RUNTIME_ID.test(raw["id"])) {
    throw new ChainConfigError(`${path}.id`, "expected 1-64 characters of letters, digits, '.', '_' or '-'");
  }
  return {
    id: raw["id"],
    version: expectInteger(raw["version"], `${path}.version`, 0),
    contracts: parseNamed(raw["contracts"], `${path}.contracts`, expectAddress),
    startBlock: expectInteger(raw["startBlock"], `${path}.startBlock`, 0),
  };
}

function parseContract(value: unknown, path: string): ContractDeployment {
  const contract = expectObject(value, path, ["address", "startBlock"]);
  return {
    address: expectAddress(contract["address"], `${path}.address`),
    startBlock: expectInteger(contract["startBlock"], `${path}.startBlock`, 0),
  };
}

/** A list of contracts by address (`classicDrops`); an address listed twice, in any case, is refused. */
function parseContractList(value: unknown, path: string): ContractDeployment[] {
  if (!Array.isArray(value)) throw new ChainConfigError(path, "expected an array");
  const contracts = value.map((entry, i) => parseContract(entry, `${path}[${i}]`));
  const addresses = contracts.map((contract) => contract.address);
  const duplicate = addresses.findIndex((address, i) => addresses.indexOf(address) !== i);
  if (duplicate !== -1)
    throw new ChainConfigError(`${path}[${duplicate}]`, `${addresses[duplicate]} is listed twice`);
  return contracts;
}

export function parseChainDeployment(value: unknown, path = "chain"): ChainDeployment {
  const raw = expectObject(value, path, [
    "chainId",
    "rpcUrl",
    "finalityDepth",
    "genesisHash",
    "contracts",
    "runtimes",
    "classicDrops",
  ]);
  const genesisHash = raw["genesisHash"];
  if (typeof genesisHash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(genesisHash)) {
    throw new ChainConfigError(`${path}.genesisHash`, "expected a 0x-prefixed 32-byte hash");
  }
  if (!Array.isArray(raw["runtimes"])) throw new ChainConfigError(`${path}.runtimes`, "expected an array");
  const runtimes = raw["runtimes"].map((runtime, i) => parseRuntime(runtime, `${path}.runtimes[${i}]`));
  const ids = runtimes.map((runtime) => runtime.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate !== undefined)
    throw new ChainConfigError(`${path}.runtimes`, `duplicate runtime id ${duplicate}`);
  const classicDrops =
    raw["classicDrops"] === undefined ? [] : parseContractList(raw["classicDrops"], `${path}.classicDrops`);
  return {
    chainId: expectInteger(raw["chainId"], `${path}.chainId`, 1),
    rpcUrl: expectRpcUrl(raw["rpcUrl"], `${path}.rpcUrl`),
    finalityDepth: expectInteger(raw["finalityDepth"], `${path}.finalityDepth`, 0),
    genesisHash: genesisHash.toLowerCase() as Hex,
    contracts: parseNamed(raw["contracts"], `${path}.contracts`, parseContract),
    runtimes,
    ...(classicDrops.length > 0 ? { classicDrops } : {}),
  };
}

/**
 * Validates an MKT_CONFIG document (`{ chains: [...] }`, as text or parsed) and returns it normalised
 * (checksummed addresses, lowercase hashes); throws ChainConfigError naming the offending field.
 */
export function parseChainConfig(json: unknown): ChainConfigFile {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new ChainConfigError("$", `not JSON (${(error as Error).message})`);
    }
  }
  const raw = expectObject(value, "$", ["chains"]);
  if (!Array.isArray(raw["chains"])) throw new ChainConfigError("$.chains", "expected an array");
  const chains = raw["chains"].map((chain, i) => parseChainDeployment(chain, `$.chains[${i}]`));
  const chainIds = chains.map((chain) => chain.chainId);
  const duplicate = chainIds.find((id, i) => chainIds.indexOf(id) !== i);
  if (duplicate !== undefined) throw new ChainConfigError("$.chains", `chain ${duplicate} appears twice`);
  return { chains };
}

export async function readChainConfig(path: string): Promise<ChainConfigFile> {
  return parseChainConfig(await readFile(path, "utf8"));
}

/** Writes deployments in the MKT_CONFIG format; an empty `classicDrops` is left out, as files without it read. */
export async function writeChainConfig(path: string, chains: readonly ChainDeployment[]): Promise<void> {
  const file: ChainConfigFile = {
    chains: chains.map(({ classicDrops, ...chain }) =>
      classicDrops && classicDrops.length > 0 ? { ...chain, classicDrops } : chain,
    ),
  };
  parseChainConfig(file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`);
}
