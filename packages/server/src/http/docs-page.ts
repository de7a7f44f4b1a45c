import type { Landing } from "@mkt/protocol";

type JsonObject = Record<string, unknown>;

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
.op{border:1px solid #d0d7de;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.method{font-weight:700;text-transform:uppercase;margin-right:.5em}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;text-align:left;padding:.25em .5em;vertical-align:top}
nav a{margin-right:1em}
</style></head><body>${body}</body></html>`;

const schemaText = (schema: unknown) => escapeHtml(JSON.stringify(schema, null, 2));

/** How one security scheme is sent, in words: `API-KEY header`, `Authorization: Bearer (AccountSession)`. */
function schemeText(name: string, scheme: JsonObject | undefined): string {
  if (scheme?.["type"] === "http") return `<code>Authorization: Bearer</code> (${escapeHtml(name)})`;
  if (scheme?.["type"] === "apiKey")
    return `<code>${escapeHtml(scheme["name"])}</code> ${escapeHtml(scheme["in"])} (${escapeHtml(name)})`;
  return escapeHtml(name);
}

/**
 * An operation's security requirements in words: the schemes of one
 * requirement are all needed, any one requirement suffices, and an empty one
 * means the operation also answers without credentials.
 */
function authenticationText(security: JsonObject[], schemes: Record<string, JsonObject>): string {
  if (security.length === 0) return "none";
  return security
    .map((requirement) => {
      const names = Object.keys(requirement);
      return names.length === 0
        ? "none (anonymous)"
        : names.map((name) => schemeText(name, schemes[name])).join(" and ");
    })
    .join("; or ");
}

/** Renders a readable reference page from an OpenAPI document; no scripts, no external assets. */
export function renderDocsPage(document: JsonObject, links: { openapiPath: string }): string {
  const info = document["info"] as { title: string; version: string; description?: string };
  const components = (document["components"] ?? {}) as JsonObject;
  const paths = (document["paths"] ?? {}) as Record<string, Record<string, JsonObject>>;
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const body = [
    `<nav><a href="/docs">All APIs</a><a href="${escapeHtml(links.openapiPath)}">OpenAPI JSON</a></nav>`,
    `<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>`,
    ...(info.description ?? "").split("\n\n").map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    "<h2>Routes</h2><table><tr><th>Method</th><th>Path</th><th>Summary</th></tr>",
    ...operations.map(
      ({ path, method, operation }) =>
        `<tr><td>${escapeHtml(method.toUpperCase())}</td><td><a href="#${escapeHtml(operation["operationId"])}"><code>${escapeHtml(path)}</code></a></td><td>${escapeHtml(operation["summary"])}</td></tr>`,
    ),
    "</table>",
    ...operations.map(({ path, method, operation }) => {
      const parameters = ((operation["parameters"] ?? []) as JsonObject[]).map((parameter) =>
        typeof parameter["$ref"] === "string"
          ? (((components["parameters"] ?? {}) as Record<string, JsonObject>)[
              parameter["$ref"].split("/").pop() ?? ""
            ] ?? parameter)
          : parameter,
      );
      const responses = (operation["responses"] ?? {}) as Record<string, JsonObject>;
      const requestBody = operation["requestBody"] as JsonObject | undefined;
      const auth = authenticationText(
        (operation["security"] ?? []) as JsonObject[],
        (components["securitySchemes"] ?? {}) as Record<string, JsonObject>,
      );
      return `<section class="op" id="${escapeHtml(operation["operationId"])}">
<h3><span class="method">${escapeHtml(method)}</span><code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(operation["summary"])}</p>${operation["description"] ? `<p>${escapeHtml(operation["description"])}</p>` : ""}
<p><strong>Authentication:</strong> ${auth}</p>
${
  parameters.length > 0
    ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr>${parameters
        .map(
          (parameter) =>
            `<tr><td><code>${escapeHtml(parameter["name"])}</code>${parameter["description"] ? `<br>${escapeHtml(parameter["description"])}` : ""}</td><td>${escapeHtml(parameter["in"])}</td><td>${parameter["required"] ? "yes" : "no"}</td><td><pre>${schemaText(parameter["schema"])}</pre></td></tr>`,
        )
        .join("")}</table>`
    : ""
}
${requestBody ? `<h4>Request body</h4><pre>${schemaText(requestBody["content"])}</pre>` : ""}
<h4>Responses</h4><table>${Object.entries(responses)
        .map(
          ([status, response]) =>
            `<tr><td><strong>${escapeHtml(status)}</strong></td><td>${escapeHtml(response["description"])}${response["content"] ? `<pre>${schemaText(response["content"])}</pre>` : ""}</td></tr>`,
        )
        .join("")}</table></section>`;
    }),
    `<h2>Schemas</h2><pre>${schemaText(components["schemas"])}</pre>`,
  ].join("\n");
  return page(`${info.title} reference`, body);
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
      .join("")}</ul>`,
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
