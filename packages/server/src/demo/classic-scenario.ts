import type { ClassicCardInput, ClassicGameMetadataInput } from "@mkt/protocol";
import { parseEther } from "viem";
import { artUrl } from "../media/index.ts";
import { DEMO_CARD_LAYOUT } from "./classic-metadata.ts";

/**
 * Dev wallets of the classic demo: the mnemonic's accounts 20 to 23, past the
 * 20 the dev chain funds and the simulator and the release demo use
 * (`DEV_ACCOUNT_ROLES`: deployer 0, entropy 1, operator 2, users 3..19;
 * releases 3..6). Nothing else sends from them, so their nonces never race,
 * and nothing else signs in or links them, so the market accounts their
 * sign-ins create are the demo's own. The first is the creator, the second
 * the allowlisted minter; all four chat and react.
 */
export const DEMO_CLASSIC_WALLET_INDICES = [20, 21, 22, 23] as const;

/** The demo game's names (the drafts it looks for at start are those with this `nftName`). */
export const DEMO_CLASSIC_GAME = {
  nftName: "Demo Atelier Booster",
  nftSymbol: "ATLBOX",
  tokenName: "Demo Atelier",
  tokenSymbol: "ATL",
  slug: "demo-atelier",
} as const;

const CARD_NAMES = [
  "Charcoal Sketch",
  "Ink Study",
  "Watercolor Wash",
  "Oil Portrait",
  "Gilded Fresco",
  "Master's Easel",
] as const;

export const CHAT_LINES = [
  "gm collectors",
  "just pulled a rare, feeling lucky",
  "who else is holding the mythic?",
  "floor looks healthy today",
  "opening three packs tonight",
  "the card art in this set is lovely",
  "anyone trading commons?",
  "wen graduation",
  "first edition or nothing",
  "this game deserves more attention",
] as const;

/** The demo game's pack price in its token: about 0.001 ETH on a fresh curve of 1 ETH and 10^9 tokens (virtual). */
export const TOKENS_PER_MINT = parseEther("1000000");
export const MINTED_PACKS = 3n;
export const HOUR = 3_600_000;

/** What one demo action did: logged at debug (ids and names only), compared by tests. */
export interface DemoClassicActivityReport {
  action:
    | "sign-in"
    | "adopt"
    | "draft"
    | "allowlist"
    | "deploy"
    | "confirm"
    | "ready"
    | "mint"
    | "revise"
    | "chat"
    | "react"
    | "refresh"
    | "stats";
  wallet?: string;
  account?: string;
  game?: string;
  draftId?: string;
  [detail: string]: string | number | boolean | undefined;
}

/**
 * The demo game's content: its cards (a `suffix` renames them for a later
 * revision) and its game metadata, drawn by the art route under `publicUrl`
 * from the creator's address.
 */
export function demoGameContent({
  publicUrl,
  chainId,
  creator,
}: {
  publicUrl: string;
  chainId: number;
  /** The creator wallet, lowercase. */
  creator: string;
}) {
  const cards = (suffix = ""): ClassicCardInput[] =>
    DEMO_CARD_LAYOUT.map((slot, index) => {
      const name = `${CARD_NAMES[index] ?? `Card ${index + 1}`}${suffix}`;
      return {
        ...slot,
        name,
        description: `${name}, a card of the demo atelier.`,
        // The art route draws from any address; the creator's is known before the drop exists.
        imageUrl: artUrl(publicUrl, chainId, creator, slot.startId),
        traits: [{ key: "Studio", value: "Demo Atelier" }],
      };
    });
  const gameMetadata = (description: string): ClassicGameMetadataInput => ({
    description,
    imageUrl: artUrl(publicUrl, chainId, creator, "pack"),
    packImage: artUrl(publicUrl, chainId, creator, "pack"),
    featuredImageUrl: artUrl(publicUrl, chainId, creator, 9),
    bgColor: "#3b2f2f",
  });
  return { cards, gameMetadata };
}
