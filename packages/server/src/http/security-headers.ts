import type { FastifyInstance, onSendHookHandler } from "fastify";

/**
 * Headers every answer of both listeners carries, whatever its status or type: browsers never
 * guess a type other than the one declared (a JSON error body is never run as script or HTML).
 * The pipeline sets them when it opens a request (streams included); the operator listener in
 * its first hook.
 */
export const EVERY_ANSWER_HEADERS = Object.freeze({ "X-Content-Type-Options": "nosniff" });

/**
 * HTML pages (the documentation, any page a route answers with `text/html`): their own inline
 * styles and same-origin images only, no script, no plugin, no form target, no `<base>`, never
 * framed (clickjacking), and links leak no referrer.
 */
export const HTML_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The API reference pages (`/docs/market`, `/docs/classic`, `/docs/predict`), which run the
 * reference UI: the HTML page policy plus scripts from this server only (no inline script and
 * no `eval`: the UI's bundle and its configuration come as a file and a data attribute), and
 * requests (the OpenAPI document, try-it) to this server and to `PUBLIC_URL`, the server the
 * documents name, which is another origin when the page was opened under another host name
 * (`localhost` for `127.0.0.1`). Styles stay `'unsafe-inline'` as on every page: the UI injects
 * its stylesheet and sets style attributes at run time. Nothing else loads: no font, frame or
 * external script, so the pages work offline.
 */
export function referencePagePolicy(publicUrl: string): string {
  const connect = [...new Set(["'self'", new URL(publicUrl).origin])].join(" ");
  return `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src ${connect}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** Any other answer that is not JSON (SVG, images, text): nothing runs or loads, never framed. */
export const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const REFERRER_POLICY = "no-referrer";

/**
 * Adds the document headers to every answer whose Content-Type is not JSON, decided by the type
 * the answer is actually sent with rather than by route, so a new page (or an SVG, or a route
 * that answers text) gets them without declaring anything: `Content-Security-Policy` (the HTML
 * policy for `text/html`, the resource policy otherwise) and `Referrer-Policy`. An answer that
 * sets a Content-Security-Policy of its own keeps it (the image routes' `default-src 'none'`),
 * so such a policy must forbid framing itself if it is a page. JSON answers skip both: a browser
 * never renders JSON as a document, and the hot path stays two header lines shorter.
 */
export const documentHeaders: onSendHookHandler = (_request, reply, payload, done) => {
  const type = reply.getHeader("content-type");
  if (typeof type === "string" && !type.startsWith("application/json")) {
    if (!reply.hasHeader("content-security-policy"))
      reply.header(
        "Content-Security-Policy",
        type.startsWith("text/html") ? HTML_PAGE_POLICY : RESOURCE_POLICY,
      );
    reply.header("Referrer-Policy", REFERRER_POLICY);
  }
  done(null, payload);
};

/** Registers the document headers on a listener: one app-level hook, for every route of every surface. */
export function secureDocuments(app: FastifyInstance): void {
  app.addHook("onSend", documentHeaders);
}
