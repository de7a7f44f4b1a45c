import type { Database } from "../../db/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { ClassicMetadataStore } from "../games/metadata-store.ts";
import { creatorUrlCheck } from "./creator-urls.ts";
import type { DeploymentReader } from "./deployments.ts";
import { createDraftAllowlists, type DraftAllowlists } from "./draft-allowlists.ts";
import { createDraftConfirmation, type DraftConfirmation } from "./draft-confirm.ts";
import { createDraftPublication, type DraftPublication } from "./draft-publication.ts";
import type { CreatorActor } from "./draft-rows.ts";
import { createDraftStore, type DraftStore } from "./draft-store.ts";
import { createSlugGenerator } from "./live-drafts.ts";

export interface ClassicDraftService
  extends DraftStore,
    DraftAllowlists,
    DraftConfirmation,
    Pick<DraftPublication, "pendingPublication" | "revise"> {
  /** `POST /classic/generate-slug`: a creator slug for a pack name, free at the time of the answer. */
  generateSlug(actor: CreatorActor, packName: string): Promise<string>;
}

/**
 * The Classic creator workflow (docs/classic.md, Creator workflow): drafts and their autosaves,
 * allowlists and proofs, the confirmation of a deployment, and later
 * revisions. Ownership: a draft or game is reachable only when
 * its creator wallet is linked to the asking account now (403 otherwise).
 */
export function createClassicDraftService({
  db,
  clock,
  chainId,
  plainHttpUrls = false,
  metadata,
  deployments,
  onPublishFailure,
}: {
  db: Database;
  clock: Clock;
  /** The classic chain: drafts are for its factory. */
  chainId: number;
  /**
   * Whether creator URLs may be plain `http://` (true only while the classic
   * chain is a dev chain of this process); otherwise only `https://`.
   */
  plainHttpUrls?: boolean;
  metadata: ClassicMetadataStore;
  /** The classic chain's receipts; undefined without a classic deployment (confirm answers 503). */
  deployments: DeploymentReader | undefined;
  /** A publish after confirm failed for a reason a retry cannot fix (logged by the caller). */
  onPublishFailure?: (draftId: string, error: unknown) => void;
}): ClassicDraftService {
  const now = () => new Date(clock.now()).toISOString();
  const checkUrlSchemes = creatorUrlCheck(plainHttpUrls);
  const publication = createDraftPublication({
    db,
    clock,
    now,
    chainId,
    metadata,
    checkUrlSchemes,
    onPublishFailure,
  });
  const { confirm } = createDraftConfirmation({ db, now, deployments, settle: publication.settle });

  return {
    ...createDraftStore({ db, chainId, now, checkUrlSchemes }),
    ...createDraftAllowlists({ db, now, checkUrlSchemes }),
    confirm,
    generateSlug: createSlugGenerator({ db, chainId }).generate,
    pendingPublication: publication.pendingPublication,
    revise: publication.revise,
  };
}
