import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { createJsonRpcHttpHandler, type RawRequest, type SingleRequestHandler } from "./json-rpc-http.ts";

/** The EIP-1193 request function of a provider. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | undefined }): Promise<unknown>;
}

/** Hardhat's provider also emits EIP-1193 `message` events for `eth_subscribe` subscriptions. */
export interface SubscribingProvider extends Eip1193Provider {
  on(
    event: "message",
    listener: (message: { type: string; data: { subscription: string; result: unknown } }) => void,
  ): unknown;
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
  ): Promise<SubscribingProvider>;
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
    JsonRpcHandler: new (provider: Eip1193Provider) => { _handleSingleRequest: SingleRequestHandler };
  };
  return {
    createHardhatNetworkProvider: providerModule.createHardhatNetworkProvider,
    defaultChains: defaults.defaultHardhatNetworkParams.chains,
    createJsonRpcHandler: (provider) => {
      const handler = new handlerModule.JsonRpcHandler(provider);
      return createJsonRpcHttpHandler(
        (request) => handler._handleSingleRequest(request),
        edrRequestOf(provider),
      );
    },
  };
}

/**
 * EDR's request function behind Hardhat's provider wrapper, when this Hardhat version has it where
 * expected: it answers with the JSON text of the response. Without it every request takes Hardhat's path.
 */
function edrRequestOf(provider: Eip1193Provider): RawRequest | undefined {
  const edr = (provider as { _provider?: { handleRequest?: unknown } })._provider;
  if (!edr || typeof edr.handleRequest !== "function") return undefined;
  const handleRequest = edr.handleRequest.bind(edr) as (json: string) => Promise<{ data?: unknown }>;
  return async (method, params) => {
    const response = await handleRequest(JSON.stringify({ method, params }));
    return typeof response.data === "string" ? response.data : undefined;
  };
}
