import type { AdminHealth, AdminPriceHealth, AdminScopeHead, AdminScopeHealth } from "@mkt/protocol";
import { Gauge, type Registry } from "prom-client";
import type { Clock } from "../quotas/limiter.ts";
import type { ChainProbes } from "./chain-probe.ts";

/** The ETH/USD price as the health report reads it: where it comes from, and the price in use. */
export interface PriceHealthSource {
  source: AdminPriceHealth["source"];
  quote(): Promise<{ usdPerEth: string; obtainedAt: Date } | undefined>;
}

export interface HealthReportOptions {
  probes: ChainProbes;
  /** The indexer's heads (`IndexerService.heads`); undefined without deployments. */
  heads: (() => Promise<AdminScopeHead[]>) | undefined;
  /** The classic priced reads' source. */
  price: PriceHealthSource;
  clock: Clock;
  registry: Registry;
  /** READYZ_REQUIRE_CHAIN: `/readyz` also needs every chain's RPC up. */
  requireChain: boolean;
}

/** This replica's dependencies beyond the database: `GET /admin/health`, its metrics and the readiness option. */
export interface HealthReport {
  /** The whole report. Reading the heads needs the database: during its outage `scopes` is empty. */
  report(): Promise<AdminHealth>;
  /** Why `/readyz` should refuse because of the chains (READYZ_REQUIRE_CHAIN), or undefined. */
  chainNotReady(): string | undefined;
}

export function createHealthReport({
  probes,
  heads,
  price,
  clock,
  registry,
  requireChain,
}: HealthReportOptions): HealthReport {
  const priceHealth = async (): Promise<AdminPriceHealth> => {
    const quote = await price.quote().catch(() => undefined);
    return {
      source: price.source,
      available: quote !== undefined,
      usdPerEth: quote?.usdPerEth ?? null,
      obtainedAt: quote ? quote.obtainedAt.getTime() : null,
    };
  };

  const scopeHealth = async (): Promise<AdminScopeHealth[]> => {
    if (!heads) return [];
    const now = clock.now();
    const probed = new Map(probes.states().map((state) => [state.chainId, state.head]));
    const rows = await heads().catch(() => []);
    return rows.map((head) => {
      const indexedBlock = head.nextBlock - 1;
      const recorded = head.observedHead > 0 ? head.observedHead : null;
      // The newer of this replica's probe and the writer's own observation (possibly another replica's).
      const probe = probed.get(head.chainId) ?? null;
      const chainHead = probe === null ? recorded : recorded === null ? probe : Math.max(probe, recorded);
      const observedAt = head.observedAt > 0 ? head.observedAt : null;
      return {
        scope: head.scope,
        chainId: head.chainId,
        indexedBlock,
        chainHead,
        lagBlocks: chainHead === null ? null : Math.max(0, chainHead - indexedBlock),
        observedAt,
        observedAgeMs: observedAt === null ? null : Math.max(0, now - observedAt),
        failure: head.failure,
      };
    });
  };

  new Gauge({
    name: "mkt_eth_price_available",
    help: "1 when a usable ETH/USD price is known (priced classic routes answer), 0 when they answer 503 PRICE_UNAVAILABLE; by source (fixed, http, none).",
    labelNames: ["source"] as const,
    registers: [registry],
    async collect() {
      this.set({ source: price.source }, (await priceHealth()).available ? 1 : 0);
    },
  });
  new Gauge({
    name: "mkt_indexer_observed_age_seconds",
    help: "Seconds since the scope's indexer (on whichever replica writes it) last recorded the chain head; grows while it cannot reach its chain.",
    labelNames: ["scope"] as const,
    registers: [registry],
    async collect() {
      for (const scope of await scopeHealth())
        if (scope.observedAgeMs !== null) this.set({ scope: scope.scope }, scope.observedAgeMs / 1000);
    },
  });

  const chainNotReady = () => {
    if (!requireChain) return undefined;
    const down = probes.unreachable();
    return down.length === 0 ? undefined : `the RPC of chain ${down.join(", ")} is unreachable`;
  };

  return {
    chainNotReady,
    async report() {
      const [scopes, priceState] = await Promise.all([scopeHealth(), priceHealth()]);
      const chains = probes.states();
      const degraded =
        chains.some((chain) => chain.up === false) ||
        scopes.some((scope) => scope.failure !== "") ||
        !priceState.available;
      return {
        status: degraded ? "degraded" : "ok",
        checkedAt: clock.now(),
        chains,
        scopes,
        price: priceState,
        readiness: { requireChain, ready: chainNotReady() === undefined },
      };
    },
  };
}
