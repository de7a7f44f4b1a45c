import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

/** Where the reference pages load their files from: one route, each file under a content-hashed name. */
export const REFERENCE_ASSETS_PREFIX = "/docs/assets/";

/** One file the reference pages load, as served. */
export interface ReferenceAsset {
  /** The file's name below `REFERENCE_ASSETS_PREFIX`; it changes whenever the content does. */
  name: string;
  contentType: string;
  body: Buffer;
  /** The same bytes gzip-compressed, sent to clients that accept gzip. */
  gzipped: Buffer;
}

export interface ReferenceAssets {
  /** The reference UI (Scalar's standalone bundle: script and styles in one file). */
  script: ReferenceAsset;
  byName: ReadonlyMap<string, ReferenceAsset>;
}

/**
 * The reference UI's browser bundle inside its npm package (`@scalar/api-reference`, an exact
 * version in the server's dependencies): one self-contained script that injects its own styles,
 * loads no chunk, font or other file of its own, and reads its configuration from the page. The
 * package does not export the file, so it is found next to the entry point it does export.
 * Resolved when the server starts, so a missing package stops it rather than a page.
 */
export function locateReferenceBundle(): string {
  const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
  return join(dirname(entry), "browser", "standalone.js");
}

const gzipped = promisify(gzip);

/** Reads a file and names it by its content: `<stem>.<first 16 hex digits of its SHA-256>.<extension>`. */
async function loadAsset(path: string, stem: string, extension: string, contentType: string) {
  const body = await readFile(path);
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  return { name: `${stem}.${hash}.${extension}`, contentType, body, gzipped: await gzipped(body) };
}

/**
 * The reference pages' files, read and compressed once, on first use: most processes never serve
 * a reference page, and the bundle is a few megabytes (about a quarter of that gzipped).
 */
export function createReferenceAssets(bundlePath: string): () => Promise<ReferenceAssets> {
  let loading: Promise<ReferenceAssets> | undefined;
  const load = async (): Promise<ReferenceAssets> => {
    const script = await loadAsset(
      bundlePath,
      "scalar-api-reference",
      "js",
      "text/javascript; charset=utf-8",
    );
    return { script, byName: new Map([[script.name, script]]) };
  };
  return () => {
    loading ??= load().catch((error: unknown) => {
      // A failed read is tried again by the next request rather than remembered.
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/**
 * Whether an `Accept-Encoding` header admits gzip (RFC 9110, Accept-Encoding): `gzip` (or its
 * alias `x-gzip`) with a weight above zero, or, when neither is named, `*` with one.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  let wildcard: number | undefined;
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((item) => item.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(weight)) continue;
    if (coding === "gzip" || coding === "x-gzip") return weight > 0;
    if (coding === "*") wildcard = weight;
  }
  return wildcard !== undefined && wildcard > 0;
}
