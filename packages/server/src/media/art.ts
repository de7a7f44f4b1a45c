import { createHash } from "node:crypto";

/** What a generated artwork shows: one card of a game, its unopened pack, or a prediction market (predict/media). */
export interface ArtSubject {
  chainId: number;
  /** The drop address, lowercase. */
  address: string;
  what: number | "pack" | "market";
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

const hsl = (hue: number, saturation: number, lightness: number) =>
  `hsl(${hue % 360},${saturation}%,${lightness}%)`;

/**
 * The generated art of a game without creator images: a deterministic SVG
 * (the same subject always gives the same bytes) whose colours come from a
 * hash of chain, address and subject, with the card number, PACK or MARKET
 * as its text (a market's question is left out: its art names no user text).
 * Nothing from a request reaches the document but validated digits and hex,
 * and those are escaped as well. No script, no external reference.
 */
export function renderArt({ chainId, address, what }: ArtSubject): string {
  const digest = createHash("sha256").update(`${chainId}:${address}:${what}`).digest();
  const base = digest.readUInt16BE(0) % 360;
  const accent = base + 90 + ((digest[2] ?? 0) % 120);
  const angle = (digest[3] ?? 0) % 360;
  const rings = [4, 5, 6, 7].map((index) => {
    const byte = digest[index] ?? 0;
    return `<circle cx="${60 + (byte % 280)}" cy="${80 + ((byte * 7) % 400)}" r="${30 + (byte % 90)}" fill="none" stroke="${hsl(accent + index * 15, 70, 70)}" stroke-opacity="0.35" stroke-width="${2 + (byte % 6)}"/>`;
  });
  const label = escapeXml(typeof what === "number" ? `#${what}` : what.toUpperCase());
  const footer = escapeXml(`${address.slice(0, 6)}…${address.slice(-4)} · ${chainId}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="560" viewBox="0 0 400 560">
<defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${hsl(base, 65, 38)}"/><stop offset="1" stop-color="${hsl(accent, 70, 22)}"/></linearGradient></defs>
<rect width="400" height="560" rx="24" fill="url(#g)"/>
${rings.join("\n")}
<rect x="16" y="16" width="368" height="528" rx="16" fill="none" stroke="${hsl(accent, 80, 80)}" stroke-opacity="0.6" stroke-width="3"/>
<text x="200" y="300" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="${typeof what === "number" ? 88 : 72}" font-weight="700" fill="#ffffff">${label}</text>
<text x="200" y="520" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="18" fill="#ffffff" fill-opacity="0.75">${footer}</text>
</svg>
`;
}
