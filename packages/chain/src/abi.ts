export {
  boosterDropAbi,
  boosterTokenAbi,
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
