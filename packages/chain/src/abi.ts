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
  wethAbi,
} from "./generated/abis.ts";
