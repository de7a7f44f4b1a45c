import { classicQuery, integerParam } from "@mkt/protocol";
import { z } from "zod";
import { notFound } from "../../errors.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import {
  CLASSIC_IMAGE_ERRORS,
  IMAGE_TYPES,
  type ImageFetcher,
  type ImageLinks,
  renderArt,
} from "../../media/index.ts";

/** What an image answer may do in a browser: nothing (no script, no subresource), and no type sniffing. */
const LOCKED_DOWN = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'",
} as const;

const imageParams = z.object({ signature: z.string().max(128) });
const imageQuery = z.object({
  url: z.string().min(1).max(4096).describe("The original image URL, as signed."),
});

const MAX_CARD_ID = 10_000;
const artParams = z.object({
  chainId: integerParam("chainId", { min: 1 }),
  address: classicQuery.address("address"),
  what: z
    .string()
    .regex(/^(pack|market|[1-9][0-9]{0,4})$/, `must be a card id 1 to ${MAX_CARD_ID}, pack or market`)
    .transform((value) =>
      value === "pack" || value === "market" ? (value as "pack" | "market") : Number(value),
    )
    .refine(
      (value) => typeof value === "string" || value <= MAX_CARD_ID,
      `must be a card id 1 to ${MAX_CARD_ID}, pack or market`,
    )
    .describe(
      `A card id, 1 to ${MAX_CARD_ID}, \`pack\` for the unopened pack, or \`market\` for a prediction market's art (\`/predict/v9/markets/{address}/media\`).`,
    ),
});

const binary = z.string().meta({ format: "binary" });

/** The image proxy and the generated card art: public routes for `<img>` tags. */
export function classicImageRoutes({
  links,
  fetcher,
}: {
  links: ImageLinks;
  fetcher: ImageFetcher;
}): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/image/:signature",
      operationId: "classicImageProxy",
      summary: "Fetch a proxied image",
      description: `The image behind a proxied image URL of a classic answer (classic answers carry proxied image URLs; a request with \`X-Bypass-Image-Proxy: true\` gets the original URLs instead). Only URLs this server signed are fetched: the signature is an HMAC of \`url\` under a server secret, so this is no open proxy; classic answers carry such a URL only for images these rules accept (others keep the creator's URL). Rules, all checked before any connection: http or https; port 80 or 443 (an explicit other port is refused); no credentials; a host on the operator's allowlist (\`IMAGE_PROXY_HOSTS\`); every address the host resolves to public (no private, loopback, link-local or reserved addresses, checked on the connection itself); no redirects followed; ${IMAGE_TYPES.join(", ")} only, by Content-Type and by the first bytes (SVG is refused, it can carry script); at most 5 MB; 5 seconds. Answers carry \`X-Content-Type-Options: nosniff\` and \`Content-Security-Policy: default-src 'none'\`; successful ones are cacheable for a day. No API key (an \`<img>\` tag sends no headers): 2,000 requests per minute per client IP. Failures are in the classic error body.`,
      tags: ["Images"],
      request: { params: imageParams, query: imageQuery },
      responses: {
        200: {
          description: "The image bytes, with the host's image type.",
          contentType: "image/*",
          schema: binary,
        },
        400: { description: "`url` missing or longer than 4096 characters (`VALIDATION_ERROR`)." },
        403: {
          description: `\`${CLASSIC_IMAGE_ERRORS.hostNotAllowed}\`: the URL's host is not allowlisted, its scheme is not http(s), it carries credentials, or the host resolves to an address that is not public. \`${CLASSIC_IMAGE_ERRORS.portNotAllowed}\`: the URL names a port other than 80 and 443. Nothing is fetched.`,
        },
        404: {
          description: `\`${CLASSIC_IMAGE_ERRORS.notFound}\`: the signature is not this server's for \`url\`.`,
        },
        429: { description: "More than 2,000 requests per minute from this client (`RATE_LIMITED`)." },
        502: {
          description: `The image host failed: \`${CLASSIC_IMAGE_ERRORS.upstream}\` (unreachable, a status other than 200, a redirect, an encoded or broken-off body), \`${CLASSIC_IMAGE_ERRORS.typeNotAllowed}\` (not one of the allowed image types), \`${CLASSIC_IMAGE_ERRORS.tooLarge}\` (over 5 MB). Never cached.`,
        },
        504: {
          description: `\`${CLASSIC_IMAGE_ERRORS.timeout}\`: the image host did not deliver within 5 seconds. Never cached.`,
        },
      },
      handler: async (request, reply) => {
        const { url } = request.query;
        if (!links.verify(url, request.params.signature))
          throw notFound("no image has this address", CLASSIC_IMAGE_ERRORS.notFound);
        const image = await fetcher.fetch(url);
        return reply.headers(LOCKED_DOWN).type(image.contentType).send(image.bytes);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/art/:chainId/:address/:what.svg",
      operationId: "classicGeneratedArt",
      summary: "Generated art of a card, pack or prediction market",
      description: `The art of games without creator images (default metadata): and of prediction markets (\`market\`, the market's address; its question is not in the art): an SVG generated from the chain, the drop address and the card id (or \`pack\`), the same bytes for the same path, with no script and no external reference. It does not check that the game or market exists. No API key (an \`<img>\` tag sends no headers): 2,000 requests per minute per client IP. Cacheable for a day; served with \`X-Content-Type-Options: nosniff\` and \`Content-Security-Policy: default-src 'none'\`.`,
      tags: ["Images"],
      request: { params: artParams },
      responses: {
        200: { description: "The artwork.", contentType: "image/svg+xml", schema: binary },
        400: { description: "A malformed chain id, address or card id (`VALIDATION_ERROR`)." },
        429: { description: "More than 2,000 requests per minute from this client (`RATE_LIMITED`)." },
      },
      handler: async (request, reply) =>
        reply.headers(LOCKED_DOWN).type("image/svg+xml; charset=utf-8").send(renderArt(request.params)),
    }),
  ];
}
