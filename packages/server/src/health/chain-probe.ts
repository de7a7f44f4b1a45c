import type { AdminChainHealth } from "@mkt/protocol";
import type { Logger } from "pino";
import { Gauge, type Registry } from "prom-client";
import type { Clock } from "../quotas/limiter.ts";

/** How often each chain's RPC is probed. */
export const CHAIN_PROBE_INTERVAL_MS = 5_000;
/** A probe that has not answered by then failed (`timeout`). */
export const CHAIN_PROBE_TIMEOUT_MS = 3_000;

/** What one chain's probe last saw (the wire shape of `GET /admin/health`'s `chains`). */
export type ChainProbeState = AdminChainHealth;

/**
 * This replica's own view of each chain's JSON-RPC: an `eth_blockNumber`
 * every `intervalMs`, whether or not this replica indexes (the indexer's
 * writer may be another replica, and the classic draft reads, the wallet
 * verifier and recovery call the RPC from every replica).
 */
export interface ChainProbes {
  /** Every probed chain's state, in the order of the deployments. */
  states(): ChainProbeState[];
  /** The probed chains whose last probe failed or that were never probed successfully. */
  unreachable(): number[];
  /** Probes every chain now and waits for the answers. */
  probeNow(): Promise<void>;
  /** Starts probing (at once, then every `intervalMs`). */
  start(): void;
  /** Stops probing, once the running round has finished. */
  stop(): Promise<void>;
}

export interface ChainProbeOptions {
  chains: readonly { chainId: number; rpcUrl: string }[];
  clock: Clock;
  logger: Logger;
  registry: Registry;
  intervalMs?: number;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** Node's fetch wraps the socket error in `cause`; its code names the class of failure. */
const NETWORK_CLASSES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  UND_ERR_SOCKET: "connection reset",
  EPIPE: "connection reset",
  ENOTFOUND: "name not resolved",
  EAI_AGAIN: "name not resolved",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "host unreachable",
  ETIMEDOUT: "timeout",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_HEADERS_TIMEOUT: "timeout",
  CERT_HAS_EXPIRED: "tls error",
  DEPTH_ZERO_SELF_SIGNED_CERT: "tls error",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "tls error",
};

/** A failed call as a short class: never the URL (a provider's key may be in it) nor the provider's text. */
export function failureClass(error: unknown): string {
  if (error instanceof ProbeAnswerError) return error.kind;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return "timeout";
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth += 1) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code && NETWORK_CLASSES[code]) return NETWORK_CLASSES[code];
    cause = cause.cause;
  }
  return "network error";
}

/** The RPC answered, but not with a block number. */
class ProbeAnswerError extends Error {
  constructor(readonly kind: string) {
    super(kind);
  }
}

export function createChainProbes({
  chains,
  clock,
  logger,
  registry,
  intervalMs = CHAIN_PROBE_INTERVAL_MS,
  timeoutMs = CHAIN_PROBE_TIMEOUT_MS,
  fetch = globalThis.fetch,
}: ChainProbeOptions): ChainProbes {
  const log = logger.child({ area: "chain-health" });
  const states = new Map<number, ChainProbeState>(
    chains.map((chain) => [
      chain.chainId,
      {
        chainId: chain.chainId,
        up: null,
        head: null,
        lastSuccessAt: null,
        lastErrorAt: null,
        lastError: null,
      },
    ]),
  );

  new Gauge({
    name: "mkt_rpc_up",
    help: "1 when this replica's last probe of the chain's JSON-RPC answered, 0 when it failed; absent before the first probe.",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      for (const state of states.values())
        if (state.up !== null) this.set({ chain: String(state.chainId) }, state.up ? 1 : 0);
    },
  });
  new Gauge({
    name: "mkt_rpc_last_success_timestamp_seconds",
    help: "When this replica's probe of the chain's JSON-RPC last answered (Unix seconds).",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      for (const state of states.values())
        if (state.lastSuccessAt !== null)
          this.set({ chain: String(state.chainId) }, state.lastSuccessAt / 1000);
    },
  });
  new Gauge({
    name: "mkt_chain_head_block",
    help: "The chain's newest block at this replica's last successful probe.",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      for (const state of states.values())
        if (state.head !== null) this.set({ chain: String(state.chainId) }, state.head);
    },
  });

  const blockNumber = async (rpcUrl: string): Promise<number> => {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ProbeAnswerError(`http ${response.status}`);
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch (error) {
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
        throw error;
      throw new ProbeAnswerError("invalid answer");
    }
    const { result, error } = (answer ?? {}) as { result?: unknown; error?: { code?: unknown } };
    if (error !== undefined)
      throw new ProbeAnswerError(
        typeof error?.code === "number" && Number.isInteger(error.code)
          ? `rpc error ${error.code}`
          : "rpc error",
      );
    if (typeof result !== "string" || !/^0x[0-9a-fA-F]{1,16}$/.test(result))
      throw new ProbeAnswerError("invalid answer");
    return Number(BigInt(result));
  };

  const probe = async (chain: { chainId: number; rpcUrl: string }) => {
    const state = states.get(chain.chainId)!;
    try {
      const head = await blockNumber(chain.rpcUrl);
      if (state.up === false) log.info({ msg: "chain RPC reachable again", chainId: chain.chainId });
      Object.assign(state, { up: true, head, lastSuccessAt: clock.now() });
    } catch (error) {
      const kind = failureClass(error);
      // Logged on the change only: a chain down for an hour writes one line, not one per probe.
      if (state.up !== false || state.lastError !== kind)
        log.warn({ msg: "chain RPC unreachable", chainId: chain.chainId, reason: kind });
      Object.assign(state, { up: false, lastErrorAt: clock.now(), lastError: kind });
    }
  };

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const round = () => {
    running ??= Promise.all(chains.map(probe)).then(
      () => {
        running = undefined;
      },
      () => {
        running = undefined;
      },
    );
    return running;
  };

  return {
    states: () => chains.map((chain) => ({ ...states.get(chain.chainId)! })),
    unreachable: () =>
      chains.filter((chain) => states.get(chain.chainId)?.up !== true).map((chain) => chain.chainId),
    async probeNow() {
      // A round already in flight may have started before the caller's change: run a new one after it.
      await running;
      await round();
    },
    start() {
      if (timer || chains.length === 0) return;
      void round();
      timer = setInterval(() => void round(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
