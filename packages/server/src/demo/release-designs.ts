import type { Card, ReleaseDraftInput } from "@mkt/protocol";

/**
 * The releases the demo announces: names, art direction and card lists a
 * small studio might publish, well inside `RELEASE_LIMITS`. Images point at
 * `demo.mkt.example` (a reserved domain), so nothing is fetched.
 */

const ASSETS = "https://demo.mkt.example";

interface DemoDesign {
  slug: string;
  name: string;
  symbol: string;
  color: string;
  accent: string;
  pattern: "solid" | "gradient" | "dots" | "stripes" | "checker";
  mask: "full" | "rounded" | "circle" | "hexagon" | "arch";
  description: string;
  /** Card names by tier, commonest first. */
  tiers: readonly (readonly string[])[];
}

const DESIGNS: readonly DemoDesign[] = [
  {
    slug: "night-owls",
    name: "Night Owls",
    symbol: "OWL",
    color: "#1d2440",
    accent: "#f2c94c",
    pattern: "gradient",
    mask: "rounded",
    description: "Twelve owls of the northern woods, drawn by moonlight.",
    tiers: [
      ["Barn Owl", "Little Owl", "Tawny Owl", "Screech Owl"],
      ["Snowy Owl", "Great Grey Owl"],
      ["Eagle Owl"],
    ],
  },
  {
    slug: "tidepool",
    name: "Tidepool Critters",
    symbol: "TIDE",
    color: "#0b4f6c",
    accent: "#7fd1ae",
    pattern: "dots",
    mask: "circle",
    description: "What the low tide leaves behind: crabs, stars and one very shy octopus.",
    tiers: [["Hermit Crab", "Sea Star", "Periwinkle", "Anemone"], ["Blue Crab", "Sea Urchin"], ["Octopus"]],
  },
  {
    slug: "neon-koi",
    name: "Neon Koi",
    symbol: "KOI",
    color: "#14051f",
    accent: "#ff4fa3",
    pattern: "stripes",
    mask: "arch",
    description: "Koi under city lights. Each tier glows a little brighter.",
    tiers: [["Kohaku", "Shiro Utsuri", "Asagi", "Chagoi"], ["Showa", "Tancho"], ["Platinum Ogon"]],
  },
  {
    slug: "desert-bloom",
    name: "Desert Bloom",
    symbol: "BLOOM",
    color: "#c2703d",
    accent: "#fce4b8",
    pattern: "solid",
    mask: "hexagon",
    description: "Flowers that open one night a year, pressed into cards.",
    tiers: [
      ["Prickly Pear", "Desert Marigold", "Sand Verbena", "Brittlebush"],
      ["Ghost Flower", "Ocotillo"],
      ["Night-blooming Cereus"],
    ],
  },
  {
    slug: "orbit-cats",
    name: "Orbit Cats",
    symbol: "ORBIT",
    color: "#101820",
    accent: "#9ad0ff",
    pattern: "checker",
    mask: "full",
    description: "Cats in low orbit. The legendary one has been to the Moon.",
    tiers: [
      ["Tabby Cadet", "Tuxedo Pilot", "Calico Engineer", "Ginger Navigator"],
      ["Sphynx Commander", "Siamese Scientist"],
      ["Moon Cat"],
    ],
  },
  {
    slug: "paper-lanterns",
    name: "Paper Lanterns",
    symbol: "LNTRN",
    color: "#5a1e1e",
    accent: "#ffb347",
    pattern: "gradient",
    mask: "arch",
    description: "Festival lanterns folded from old maps.",
    tiers: [
      ["Round Lantern", "Star Lantern", "Fish Lantern", "Lotus Lantern"],
      ["Dragon Lantern", "Sky Lantern"],
      ["Moon Gate"],
    ],
  },
  {
    slug: "mossy-golems",
    name: "Mossy Golems",
    symbol: "GOLEM",
    color: "#2f3d2a",
    accent: "#a3c76d",
    pattern: "dots",
    mask: "hexagon",
    description: "Old stone guardians slowly turning into gardens.",
    tiers: [
      ["Pebble Golem", "Fern Golem", "Lichen Golem", "Root Golem"],
      ["Boulder Warden", "Waterfall Golem"],
      ["Mountain Heart"],
    ],
  },
] as const;

const card = (slug: string, name: string, tier: number): Card => {
  const id = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return {
    id,
    name,
    description: "",
    image: `${ASSETS}/${slug}/cards/${id}.png`,
    attributes: [{ trait_type: "Tier", value: ["Common", "Rare", "Legendary"][tier] ?? "Common" }],
    mask: "full",
    firstEditionImage: "",
  };
};

/** A simple frame drawn around the cover, as strokes on the 4096 by 4096 canvas. */
const FRAME = [
  [256, 256, 3840, 256, 3840, 3840, 256, 3840, 256, 256],
  [1024, 2048, 2048, 1024, 3072, 2048, 2048, 3072, 1024, 2048],
];

/** The complete draft of demo design `index` (modulo the number of designs). */
export function demoReleaseDraft(index: number): ReleaseDraftInput {
  const design = DESIGNS[index % DESIGNS.length]!;
  return {
    name: design.name,
    symbol: design.symbol,
    image: `${ASSETS}/${design.slug}/cover.png`,
    color: design.color,
    baseURI: `${ASSETS}/${design.slug}/metadata/`,
    description: design.description,
    links: { website: `${ASSETS}/${design.slug}`, x: "", telegram: "" },
    design: {
      accent: design.accent,
      pattern: design.pattern,
      mask: design.mask,
      cardsByRarity: design.tiers.map((names, tier) => names.map((name) => card(design.slug, name, tier))),
      strokes: FRAME,
      tierImages: design.tiers.map((_, tier) => `${ASSETS}/${design.slug}/tiers/${tier}.png`),
      cardImage: `${ASSETS}/${design.slug}/card-back.png`,
      tierMasks: [],
    },
  };
}

export const DEMO_DESIGN_COUNT = DESIGNS.length;

/** Notes the demo appends to a description when it edits a release. */
export const DEMO_UPDATES = [
  "Update: the rare tier's artwork is final.",
  "Update: launch-day allowlist opens one hour before launch.",
  "Update: card backs redrawn with a thinner frame.",
  "Update: the legendary card gets a first-edition variant.",
  "Update: thanks for 1,000 wishlists!",
] as const;

/** Accents an edit cycles through (the artwork hash does not move; the revision does). */
export const DEMO_ACCENTS = ["#f2c94c", "#7fd1ae", "#ff4fa3", "#9ad0ff", "#ffb347", "#a3c76d"] as const;
