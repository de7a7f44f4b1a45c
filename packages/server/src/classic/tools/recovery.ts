import { CLASSIC_ERROR_CODES, type ClassicRecovery, type ClassicRecoveryStatus } from "@mkt/protocol";
import type { Hex } from "viem";
import { AppError, notFound } from "../../errors.ts";
import type { ScopeIndexer } from "../../indexer/engine.ts";

export interface ClassicRecoveryDeps {
  /** The classic chain's id (the answer names it). */
  chainId: number;
  /**
   * The classic deployment's scope indexer (`services.indexer.indexerOf(scope)`),
   * whether or not its loop runs on this replica; undefined without a classic
   * chain deployment.
   */
  indexer: Pick<ScopeIndexer, "recoverTransaction"> | undefined;
  /**
   * Moves the classic projection's read-cache source on this replica at once.
   * The writer's commit also announces it (`heads.touch` → NOTIFY), which moves
   * it on every replica, this one included, a moment later.
   */
  moved: () => void;
}

export const recoveryUnavailable = () =>
  new AppError("unavailable", "event recovery is not available: this server follows no classic chain", {
    code: CLASSIC_ERROR_CODES.recoveryUnavailable,
    retryAfterSeconds: 60,
  });

export interface ClassicRecoveryService {
  /**
   * Re-applies the classic logs of the transaction `txHash` that the
   * projection lacks (404 TRANSACTION_NOT_FOUND without a receipt, 503
   * RECOVERY_UNAVAILABLE without a classic chain).
   */
  recover(txHash: string): Promise<ClassicRecovery>;
}

/**
 * `GET /classic/events/{txHash}` (docs/classic.md, Recovery and social tools):
 * re-reads a transaction's receipt on the classic chain and re-applies the
 * logs the projection lacks through the indexer's own apply step. Repeating
 * it applies nothing.
 */
export function createClassicRecovery({
  chainId,
  indexer,
  moved,
}: ClassicRecoveryDeps): ClassicRecoveryService {
  return {
    async recover(txHash: string): Promise<ClassicRecovery> {
      if (!indexer) throw recoveryUnavailable();
      const result = await indexer.recoverTransaction(txHash as Hex);
      if (!result.found || result.blockNumber === undefined) {
        throw notFound(
          `transaction ${txHash} is not on chain ${chainId} (no receipt)`,
          CLASSIC_ERROR_CODES.transactionNotFound,
        );
      }
      if (result.applied > 0) moved();
      const status: ClassicRecoveryStatus =
        result.logs.length === 0
          ? "not_classic"
          : result.pending
            ? "pending"
            : result.applied > 0
              ? "applied"
              : "already_indexed";
      return {
        success: true,
        receiptFound: true,
        txHash,
        chainId,
        blockNumber: Number(result.blockNumber),
        status,
        applied: result.applied,
        events: result.logs.map((log) => ({
          type: log.event,
          contractAddress: log.address.toLowerCase(),
          contractKind: log.kind,
          logIndex: log.logIndex,
          applied: log.applied,
        })),
      };
    },
  };
}
