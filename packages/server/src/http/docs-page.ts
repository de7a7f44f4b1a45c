import type { Landing } from "@mkt/protocol";

const escapeHtml = (value: unknown) =>
  String(value ?? "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code,pre{font:13px ui-monospace,monospace;background:#f3f4f6;border-radius:4px}
code{padding:.1em .3em}pre{padding:.8em;overflow:auto}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;text-align:left;padding:.25em .5em;vertical-align:top}
nav a{margin-right:1em}
</style></head><body>${body}</body></html>`;

/**
 * The reference UI's configuration (Scalar's `data-configuration`): nothing fetched from or
 * linked to anywhere but this server (no web fonts, no telemetry, no AI agent, no link to the
 * vendor's hosted client, no request proxy, so try-it calls the document's server, `PUBLIC_URL`,
 * directly), the `ApiKey` scheme offered first in the authentication form, and credentials kept
 * in the page's memory only, never in the browser's storage.
 */
export const REFERENCE_UI_CONFIGURATION = Object.freeze({
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: "never",
  persistAuth: false,
  authentication: { preferredSecurityScheme: "ApiKey" },
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  documentDownloadType: "json",
});

/**
 * An API's reference page: the reference UI's bundle (`scriptPath`, served by this server) renders
 * the OpenAPI document at `openapiPath` into search, linked schemas, code samples and try-it. The
 * page has no inline script: the UI reads the document's address and its configuration from the
 * `#api-reference` element's data attributes.
 */
export function renderReferencePage(links: {
  title: string;
  openapiPath: string;
  scriptPath: string;
}): string {
  const configuration = escapeHtml(JSON.stringify(REFERENCE_UI_CONFIGURATION));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(links.title)} reference</title>
<link rel="icon" href="data:,">
</head><body>
<noscript><p style="font:15px/1.5 system-ui,sans-serif;margin:2rem">This reference needs JavaScript. Read the <a href="${escapeHtml(links.openapiPath)}">OpenAPI document</a> directly, or go back to <a href="/docs">all references</a>.</p></noscript>
<script id="api-reference" type="application/json" data-url="${escapeHtml(links.openapiPath)}" data-configuration="${configuration}"></script>
<script src="${escapeHtml(links.scriptPath)}"></script>
</body></html>`;
}

export function renderDocsIndex(
  entries: Array<{ title: string; docsPath: string; openapiPath: string }>,
): string {
  return page(
    "mkt API documentation",
    `<h1>mkt API documentation</h1><ul>${entries
      .map(
        (entry) =>
          `<li><a href="${escapeHtml(entry.docsPath)}">${escapeHtml(entry.title)}</a> (<a href="${escapeHtml(entry.openapiPath)}">OpenAPI 3.1</a>)</li>`,
      )
      .join("")}</ul>
<p>Each reference searches the routes (<kbd>Ctrl</kbd>+<kbd>K</kbd>), links every schema, shows code samples and sends requests to this server: paste an API key into its <code>API-KEY</code> field. Create a key with <code>POST /keys</code> and <code>{"description", "email"}</code>; one key works on all three APIs.</p>`,
  );
}

/** The landing page (`GET /`): the APIs this server mounts, their references and OpenAPI documents. */
export function renderLanding(landing: Landing): string {
  const link = (path: string, text = path) => `<a href="${escapeHtml(path)}">${escapeHtml(text)}</a>`;
  return page(
    "mkt",
    `<h1>mkt</h1><p>${escapeHtml(landing.description)}</p>
<table><tr><th>API</th><th>Mount point</th><th>Reference</th><th>OpenAPI 3.1</th></tr>${landing.apis
      .map(
        (api) =>
          `<tr><td>${escapeHtml(api.title)}</td><td><code>${escapeHtml(api.basePath)}</code></td><td>${link(api.docsPath)}</td><td>${link(api.openapiPath)}</td></tr>`,
      )
      .join("")}</table>
<p>API keys: <code>POST ${escapeHtml(landing.keys)}</code> with <code>{"description", "email"}</code>; one key works on all three APIs, in the <code>API-KEY</code> header.</p>
<p>${link(landing.docs, "All references")} · ${link(landing.health, "Liveness")} · ${link(landing.readiness, "Readiness")} · this page as JSON: <code>Accept: application/json</code></p>`,
  );
}
