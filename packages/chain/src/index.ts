export { DEV_ACCOUNT_COUNT, DEV_ACCOUNT_ROLES, DEV_MNEMONIC, deriveDevAccounts } from "./accounts.ts";
export type { Allowlist } from "./allowlist.ts";
export { buildAllowlist } from "./allowlist.ts";
export type {
  ChainConfigFile,
  ChainDeployment,
  ContractDeployment,
  RuntimeDeployment,
} from "./chain-config.ts";
export {
  ChainConfigError,
  parseChainConfig,
  parseChainDeployment,
  readChainConfig,
  writeChainConfig,
} from "./chain-config.ts";
export type {
  CardDraw,
  CardRange,
  DrawCardInput,
  FoilName,
  WearName,
} from "./classic-cards.ts";
export {
  cardRoll,
  drawCard,
  FIRST_EDITION_PACKS,
  FOIL_THRESHOLDS,
  WEAR_BANDS,
  WEAR_SCALE,
  wearName,
} from "./classic-cards.ts";
export type { CurveState, RarityCode, RarityDraw, RarityOdds, RarityOffers } from "./classic-math.ts";
export {
  curveAfterBuy,
  curveAfterSell,
  curveAfterTokenBuy,
  curveMarketCap,
  curveQuoteBuy,
  curveQuoteSell,
  curveSpotPrice,
  curveTokenBuyCost,
  DEFAULT_ODDS_BPS,
  DEFAULT_OFFER_BPS,
  defaultOffers,
  deriveRarity,
  graduationTokenLiquidity,
  RARITY,
  RARITY_NAMES,
  RARITY_ROLL_BOUNDS_BPS,
  rarityRollBounds,
} from "./classic-math.ts";
export type { ChainClients, ChainClientsOptions, ChainPublicClient, ChainWalletClient } from "./clients.ts";
export { createChainClients, waitForSuccess } from "./clients.ts";
export type { CompiledArtifacts, ContractArtifact, ContractName } from "./compile.ts";
export { CONTRACT_NAMES, checkArtifacts, compileContracts, compileSource } from "./compile.ts";
export type { DeployOptions } from "./deploy.ts";
export {
  CLASSIC_CHAIN_ID,
  DEFAULT_METADATA_BASE_URI,
  DEV_ALLOWLIST_ACCOUNT_INDICES,
  DEV_RUNTIMES,
  deployReferenceContracts,
  deployRuntime,
  devAllowlist,
  dropBaseUri,
  PREDICT_CHAIN_ID,
  PREDICT_RUNTIME,
  SAMPLE_BIG_FIRST_TOKEN_ID,
  SAMPLE_MAX_DROP_ID,
  SAMPLE_VIRTUAL_ETH,
  SAMPLE_VIRTUAL_TOKENS,
} from "./deploy.ts";
export type { DevChain, DevChainOptions, Eip1193Provider } from "./dev-chain/index.ts";
export { startDevChain } from "./dev-chain/index.ts";
export type { FulfilEntropyOptions, FulfilledRequest } from "./entropy.ts";
export { DEV_ENTROPY_FEE, entropyFor, fulfilEntropy, startEntropyFulfiller } from "./entropy.ts";
export {
  boosterDropAbi,
  boosterTokenAbi,
  boosterTokenDeployerAbi,
  claimDropsAbi,
  dropFactoryAbi,
  entropyProviderAbi,
  graduationPoolAbi,
  marketAbi,
  marketFactoryAbi,
  runtimeRegistryAbi,
  smartWalletAbi,
  smartWalletFactoryAbi,
  wethAbi,
} from "./generated/abis.ts";
export { liveBoosterDropAbi, liveBoosterTokenAbi, liveDropCreatorAbi } from "./live-abi.ts";
export type { ChainLogger } from "./logger.ts";
export type { BuyQuote, BuyRefusal, BuyState, PoolBalances, SellQuote, Side } from "./predict-math.ts";
export {
  BPS,
  BuyRefusedError,
  MAX_UINT256,
  maxSellReturn,
  probabilityBps,
  quoteBuy,
  quoteBuyChecked,
  quoteSell,
  SIDE,
  seededPool,
} from "./predict-math.ts";
export type { Repeating } from "./repeat.ts";
export type {
  ActionReport,
  ChainSimulation,
  ChainSimulationOptions,
  SimulatorOptions,
} from "./simulator/index.ts";
export { createChainSimulation, SIMULATOR_STEP_MS, startSimulator } from "./simulator/index.ts";
export { createPrng, type Prng } from "./simulator/prng.ts";
export type {
  DeploySmartWalletFactoryOptions,
  DeploySmartWalletOptions,
  SmartWalletRef,
} from "./smart-wallet.ts";
export {
  deploySmartWallet,
  deploySmartWalletFactory,
  predictSmartWallet,
  wrapErc6492Signature,
} from "./smart-wallet.ts";
