import type { Abi, Address, Hex, TransactionReceipt } from "viem";
import { getAddress, maxUint256, parseEther, zeroHash } from "viem";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import type { Allowlist } from "./allowlist.ts";
import { buildAllowlist } from "./allowlist.ts";
import type { ChainDeployment, ContractDeployment, RuntimeDeployment } from "./chain-config.ts";
import type { RarityOdds } from "./classic-math.ts";
import { DEFAULT_ODDS_BPS, defaultOffers } from "./classic-math.ts";
import type { ChainClients } from "./clients.ts";
import { createChainClients, waitForSuccess } from "./clients.ts";
import { DEV_ENTROPY_FEE } from "./entropy.ts";
import {
  boosterTokenDeployerAbi,
  claimDropsAbi,
  dropFactoryAbi,
  entropyProviderAbi,
  marketFactoryAbi,
  runtimeRegistryAbi,
  wethAbi,
} from "./generated/abis.ts";
import {
  boosterTokenDeployerBytecode,
  claimDropsBytecode,
  dropFactoryBytecode,
  entropyProviderBytecode,
  marketFactoryBytecode,
  runtimeRegistryBytecode,
  wethBytecode,
} from "./generated/bytecode.ts";
import type { ChainLogger } from "./logger.ts";
import { createSilentLogger } from "./logger.ts";

export const CLASSIC_CHAIN_ID = 8453;
export const PREDICT_CHAIN_ID = 4663;

/** Current-generation runtimes deployed on the classic chain, oldest first. */
export const DEV_RUNTIMES = [
  { id: "r1", version: 1 },
  { id: "r2", version: 2 },
] as const;
/** The prediction feed's contract generation, listed as a runtime of its chain. */
export const PREDICT_RUNTIME = { id: "v9", version: 9 } as const;

/** Mnemonic accounts on the sample allowlisted game's list (users 3 to 10). */
export const DEV_ALLOWLIST_ACCOUNT_INDICES = [3, 4, 5, 6, 7, 8, 9, 10] as const;

export function devAllowlist(clients: Pick<ChainClients, "accounts">): Allowlist {
  return buildAllowlist(
    DEV_ALLOWLIST_ACCOUNT_INDICES.map((index) => {
      const account = clients.accounts[index];
      if (account === undefined) throw new Error(`dev account ${index} is not derived`);
      return account.address;
    }),
  );
}

/** A drop id with all 78 decimal digits, to keep indexers honest about uint256 ids. */
export const SAMPLE_MAX_DROP_ID = maxUint256;

/** The first pack id of the sample game "Deep Booster": above 2^64, so its ids pass no JavaScript number. */
export const SAMPLE_BIG_FIRST_TOKEN_ID = 2n ** 64n + 1n;

/** The sample games' virtual curve: 1 ETH against 10^9 tokens, so a token starts at 10^-9 ETH. */
export const SAMPLE_VIRTUAL_ETH = parseEther("1");
export const SAMPLE_VIRTUAL_TOKENS = parseEther("1000000000");

/**
 * A drop's `baseURI`: `<metadataBaseUrl><slug>/`, with the API's default slug for a game (its name in
 * lowercase words joined by dashes, at most 40 characters, then `-<gameId>`), so that `tokenURI` lands on
 * the API's `/metadata/<slug>/<tokenId>` route.
 */
export function dropBaseUri(metadataBaseUrl: string, nftName: string, gameId: bigint): string {
  const words =
    nftName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/g, "") || "game";
  return `${metadataBaseUrl}${words}-${gameId}/`;
}

/** The drop factory's `metadataBaseURI` unless told otherwise, the prefix of the sample drops' `baseURI`: the API's metadata routes on the default port. */
export const DEFAULT_METADATA_BASE_URI = "http://127.0.0.1:8080/classic/metadata/";

export interface DeployOptions {
  rpcUrl: string;
  chainId: number;
  mnemonic?: string;
  /** Written into the deployment for the indexer; dev chains default to 2. */
  finalityDepth?: number;
  /** The drop factory's `metadataBaseURI` and the sample drops' `baseURI` prefix (8453 only): `${PUBLIC_URL}/classic/metadata/`; defaults to DEFAULT_METADATA_BASE_URI. */
  metadataBaseUrl?: string;
  logger?: ChainLogger;
}

/**
 * Deploys the reference contracts for `chainId` (8453: entropy, drop factory, two runtimes and sample
 * games and drops; 4663: WETH, market factory and a sample market) from the mnemonic's accounts and
 * describes them in the MKT_CONFIG shape.
 *
 * @example
 * const chain = await startDevChain({ chainId: 8453, port: 0 });
 * const deployment = await deployReferenceContracts({ rpcUrl: chain.rpcUrl, chainId: 8453 });
 */
export async function deployReferenceContracts(options: DeployOptions): Promise<ChainDeployment> {
  const logger = options.logger ?? createSilentLogger();
  const clients = createChainClients({
    rpcUrl: options.rpcUrl,
    chainId: options.chainId,
    ...(options.mnemonic === undefined ? {} : { mnemonic: options.mnemonic }),
  });
  const remoteChainId = await clients.publicClient.getChainId();
  if (remoteChainId !== options.chainId) {
    throw new Error(`RPC ${options.rpcUrl} serves chain ${remoteChainId}, expected ${options.chainId}`);
  }
  const genesis = await clients.publicClient.getBlock({ blockNumber: 0n });
  const deployed =
    options.chainId === CLASSIC_CHAIN_ID
      ? await deployClassic(clients, options.metadataBaseUrl ?? DEFAULT_METADATA_BASE_URI)
      : options.chainId === PREDICT_CHAIN_ID
        ? await deployPredict(clients)
        : undefined;
  if (deployed === undefined) {
    throw new Error(
      `no reference contracts for chain ${options.chainId}; supported: ${CLASSIC_CHAIN_ID}, ${PREDICT_CHAIN_ID}`,
    );
  }
  const deployment: ChainDeployment = {
    chainId: options.chainId,
    rpcUrl: options.rpcUrl,
    finalityDepth: options.finalityDepth ?? 2,
    genesisHash: genesis.hash,
    ...deployed,
  };
  logger.info({
    msg: "reference contracts deployed",
    chainId: options.chainId,
    contracts: Object.fromEntries(Object.entries(deployment.contracts).map(([name, c]) => [name, c.address])),
    runtimes: deployment.runtimes.map((runtime) => runtime.id),
  });
  return deployment;
}

type Deployed = Pick<ChainDeployment, "contracts" | "runtimes">;

/**
 * Deploys a ClaimDrops for runtime `id` at `version` and registers it in the
 * RuntimeRegistry at `registry` (sent by the deployer, the registry's owner;
 * `version` must exceed every registered one). Indexers learn the runtime
 * from the `RuntimeRegistered` event; drops are created after it.
 */
export async function deployRuntime({
  clients,
  registry,
  id,
  version,
}: {
  clients: ChainClients;
  registry: Address;
  id: string;
  version: number;
}): Promise<RuntimeDeployment> {
  const claimDrops = await deployContract(clients, claimDropsAbi, claimDropsBytecode, [id, BigInt(version)]);
  const hash = await clients.wallet(DEV_ACCOUNT_ROLES.deployer).writeContract({
    address: registry,
    abi: runtimeRegistryAbi,
    functionName: "register",
    args: [id, BigInt(version), claimDrops.address],
  });
  await waitForSuccess(clients.publicClient, hash);
  return { id, version, contracts: { ClaimDrops: claimDrops.address }, startBlock: claimDrops.startBlock };
}

async function deployContract(
  clients: ChainClients,
  abi: Abi,
  bytecode: Hex,
  args: readonly unknown[],
): Promise<ContractDeployment> {
  const wallet = clients.wallet(DEV_ACCOUNT_ROLES.deployer);
  const hash = await wallet.deployContract({ abi, bytecode, args });
  const receipt = await waitForSuccess(clients.publicClient, hash);
  if (!receipt.contractAddress) throw new Error(`deployment ${hash} created no contract`);
  return { address: getAddress(receipt.contractAddress), startBlock: Number(receipt.blockNumber) };
}

async function deployClassic(clients: ChainClients, metadataBaseUrl: string): Promise<Deployed> {
  const deployer = clients.wallet(DEV_ACCOUNT_ROLES.deployer);
  const fulfiller = clients.wallet(DEV_ACCOUNT_ROLES.entropyFulfiller).account.address;
  const send = async (hash: Promise<Hex>): Promise<TransactionReceipt> =>
    waitForSuccess(clients.publicClient, await hash);

  const entropy = await deployContract(clients, entropyProviderAbi, entropyProviderBytecode, [
    fulfiller,
    DEV_ENTROPY_FEE,
  ]);
  const tokenDeployer = await deployContract(
    clients,
    boosterTokenDeployerAbi,
    boosterTokenDeployerBytecode,
    [],
  );
  const factory = await deployContract(clients, dropFactoryAbi, dropFactoryBytecode, [
    entropy.address,
    tokenDeployer.address,
    metadataBaseUrl,
  ]);
  const registry = await deployContract(clients, runtimeRegistryAbi, runtimeRegistryBytecode, []);

  const runtimes: RuntimeDeployment[] = [];
  for (const { id, version } of DEV_RUNTIMES) {
    runtimes.push(await deployRuntime({ clients, registry: registry.address, id, version }));
  }

  const [oldRuntime, currentRuntime] = runtimes.map((runtime) => runtime.contracts["ClaimDrops"] as Address);
  const sampleDrops: [Address | undefined, bigint, bigint, bigint][] = [
    [oldRuntime, 1n, 0n, 100n],
    [currentRuntime, SAMPLE_MAX_DROP_ID, parseEther("0.0001"), 1000n],
    [currentRuntime, 12345678901234567890123456789n, 0n, 0n],
  ];
  for (const [address, dropId, price, maxSupply] of sampleDrops) {
    if (address === undefined) throw new Error("runtime missing");
    await send(
      deployer.writeContract({
        address,
        abi: claimDropsAbi,
        functionName: "createDrop",
        args: [dropId, price, maxSupply],
      }),
    );
  }

  const allowlist = devAllowlist(clients);
  const sampleGames: {
    nftName: string;
    nftSymbol: string;
    tokenName: string;
    tokenSymbol: string;
    tokensPerMint: bigint;
    merkleRoot: Hex;
    graduationEth: bigint;
    oddsBps: RarityOdds;
    firstTokenId: bigint;
  }[] = [
    {
      nftName: "Genesis Booster",
      nftSymbol: "GENBOX",
      tokenName: "Genesis",
      tokenSymbol: "GEN",
      tokensPerMint: parseEther("1000000"),
      merkleRoot: zeroHash,
      graduationEth: parseEther("0.1"),
      oddsBps: DEFAULT_ODDS_BPS,
      firstTokenId: 0n,
    },
    {
      nftName: "Allowlist Booster",
      nftSymbol: "ALBOX",
      tokenName: "Allowlist",
      tokenSymbol: "ALW",
      tokensPerMint: parseEther("2000000"),
      merkleRoot: allowlist.root,
      graduationEth: parseEther("10"),
      oddsBps: [5000, 3000, 1200, 600, 200],
      firstTokenId: 0n,
    },
    {
      nftName: "Deep Booster",
      nftSymbol: "DEEPBOX",
      tokenName: "Deep",
      tokenSymbol: "DEEP",
      tokensPerMint: parseEther("1500000"),
      merkleRoot: zeroHash,
      graduationEth: parseEther("5"),
      oddsBps: [4000, 3000, 1500, 1000, 500],
      firstTokenId: SAMPLE_BIG_FIRST_TOKEN_ID,
    },
  ];
  for (const [index, game] of sampleGames.entries()) {
    const [commonOffer, rareOffer, epicOffer, legendaryOffer, mythicOffer] = defaultOffers(
      game.tokensPerMint,
    );
    await send(
      deployer.writeContract({
        address: factory.address,
        abi: dropFactoryAbi,
        functionName: "createDropWithExtensions",
        args: [
          game.tokenName,
          game.tokenSymbol,
          game.nftName,
          game.nftSymbol,
          deployer.account.address,
          0n,
          {
            baseURI: dropBaseUri(metadataBaseUrl, game.nftName, BigInt(index + 1)),
            tokensPerMint: game.tokensPerMint,
            commonOffer,
            rareOffer,
            epicOffer,
            legendaryOffer,
            mythicOffer,
          },
          {
            merkleRoot: game.merkleRoot,
            oddsBps: game.oddsBps,
            firstTokenId: game.firstTokenId,
            virtualEth: SAMPLE_VIRTUAL_ETH,
            virtualTokens: SAMPLE_VIRTUAL_TOKENS,
            graduationEth: game.graduationEth,
          },
        ],
      }),
    );
  }

  return {
    contracts: { EntropyProvider: entropy, DropFactory: factory, RuntimeRegistry: registry },
    runtimes,
  };
}

async function deployPredict(clients: ChainClients): Promise<Deployed> {
  const deployer = clients.wallet(DEV_ACCOUNT_ROLES.deployer);
  const operator = clients.wallet(DEV_ACCOUNT_ROLES.marketOperator).account.address;
  const send = async (hash: Promise<Hex>): Promise<TransactionReceipt> =>
    waitForSuccess(clients.publicClient, await hash);

  const weth = await deployContract(clients, wethAbi, wethBytecode, []);
  const factory = await deployContract(clients, marketFactoryAbi, marketFactoryBytecode, [weth.address]);
  await send(
    deployer.writeContract({
      address: factory.address,
      abi: marketFactoryAbi,
      functionName: "setOperator",
      args: [operator, true],
    }),
  );
  const seed = parseEther("1");
  await send(
    deployer.writeContract({ address: weth.address, abi: wethAbi, functionName: "deposit", value: seed }),
  );
  await send(
    deployer.writeContract({
      address: weth.address,
      abi: wethAbi,
      functionName: "approve",
      args: [factory.address, seed],
    }),
  );
  await send(
    deployer.writeContract({
      address: factory.address,
      abi: marketFactoryAbi,
      functionName: "createMarket",
      args: ["Will the sample market resolve YES?", seed, 200n],
    }),
  );
  return {
    contracts: { WETH: weth, MarketFactory: factory },
    runtimes: [
      {
        id: PREDICT_RUNTIME.id,
        version: PREDICT_RUNTIME.version,
        contracts: { WETH: weth.address, MarketFactory: factory.address },
        startBlock: weth.startBlock,
      },
    ],
  };
}
