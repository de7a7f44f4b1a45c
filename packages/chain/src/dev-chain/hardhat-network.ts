import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";

/** The EIP-1193 request function of a provider. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | undefined }): Promise<unknown>;
}

/**
 * The part of Hardhat 2's in-process network (EDR) used here. These are internal modules: going through
 * them avoids loading the Hardhat runtime, which insists on a Hardhat project and config file.
 */
interface HardhatNetworkModules {
  createHardhatNetworkProvider(
    config: {
      hardfork: string;
      chainId: number;
      networkId: number;
      blockGasLimit: number;
      minGasPrice: bigint;
      automine: boolean;
      intervalMining: number;
      mempoolOrder: "priority" | "fifo";
      chains: unknown;
      genesisAccounts: { privateKey: string; balance: bigint }[];
      allowUnlimitedContractSize: boolean;
      throwOnTransactionFailures: boolean;
      throwOnCallFailures: boolean;
      allowBlocksWithSameTimestamp: boolean;
      enableTransientStorage: boolean;
      enableRip7212: boolean;
    },
    loggerConfig: { enabled: boolean },
  ): Promise<Eip1193Provider>;
  defaultChains: unknown;
  createJsonRpcHandler(
    provider: Eip1193Provider,
  ): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

export function loadHardhatNetwork(): HardhatNetworkModules {
  const require = createRequire(import.meta.url);
  const providerModule = require("hardhat/internal/hardhat-network/provider/provider") as Pick<
    HardhatNetworkModules,
    "createHardhatNetworkProvider"
  >;
  const defaults = require("hardhat/internal/core/config/default-config") as {
    defaultHardhatNetworkParams: { chains: unknown };
  };
  const handlerModule = require("hardhat/internal/hardhat-network/jsonrpc/handler") as {
    JsonRpcHandler: new (
      provider: Eip1193Provider,
    ) => { handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> };
  };
  return {
    createHardhatNetworkProvider: providerModule.createHardhatNetworkProvider,
    defaultChains: defaults.defaultHardhatNetworkParams.chains,
    createJsonRpcHandler: (provider) => new handlerModule.JsonRpcHandler(provider).handleHttp,
  };
}
