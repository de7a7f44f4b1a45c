import { ARTWORK_FIELDS, type Artwork, type ArtworkChanges, type ReleaseDraft } from "@mkt/protocol";

type Design = ReleaseDraft["design"];
type Card = Design["cardsByRarity"][number][number];

/** What a revision keeps of a draft: its artwork fields, as the draft holds them. */
export interface ArtworkSource {
  image: string;
  design: Design;
}

export const artworkSourceOf = (draft: ReleaseDraft): ArtworkSource => ({
  image: draft.image,
  design: draft.design,
});

/** The wire artwork: the design's parallel tier arrays put together per tier. */
export function toArtwork({ image, design }: ArtworkSource): Artwork {
  return {
    image,
    cardImage: design.cardImage,
    accent: design.accent,
    pattern: design.pattern,
    mask: design.mask,
    strokes: design.strokes,
    tiers: design.cardsByRarity.map((cards, tier) => ({
      tier,
      image: design.tierImages[tier] ?? "",
      mask: design.tierMasks[tier] ?? null,
      cards,
    })),
  };
}

const fieldValue = ({ image, design }: ArtworkSource, field: (typeof ARTWORK_FIELDS)[number]): unknown => {
  if (field === "image") return image;
  return design[field.slice("design.".length) as keyof Design];
};

const isEmpty = (value: unknown) => value === "" || (Array.isArray(value) && value.length === 0);

/** Cards by id with their tier; ids are unique within a release (the draft schema checks it). */
const cardsOf = (design: Design) => {
  const cards = new Map<string, { tier: number; card: Card }>();
  design.cardsByRarity.forEach((tier, index) => {
    for (const card of tier) cards.set(card.id, { tier: index, card });
  });
  return cards;
};

/**
 * What changed in the artwork from `before` to `after`; with no `before` (a
 * created release), every field that is not empty and every card is new.
 * Values compare as JSON: the drafts were normalised by the shared parser, so
 * equal artwork serialises equally.
 */
export function artworkChanges(before: ArtworkSource | undefined, after: ArtworkSource): ArtworkChanges {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const fields = ARTWORK_FIELDS.filter((field) =>
    before === undefined
      ? !isEmpty(fieldValue(after, field))
      : !same(fieldValue(before, field), fieldValue(after, field)),
  );
  const old = before ? cardsOf(before.design) : new Map<string, { tier: number; card: Card }>();
  const now = cardsOf(after.design);
  const cardsAdded = [...now.keys()].filter((id) => !old.has(id));
  const cardsRemoved = [...old.keys()].filter((id) => !now.has(id));
  const cardsChanged = [...now].flatMap(([id, entry]) => {
    const previous = old.get(id);
    return previous !== undefined && !same(previous, entry) ? [id] : [];
  });
  return { fields: [...fields], cardsAdded, cardsRemoved, cardsChanged };
}
