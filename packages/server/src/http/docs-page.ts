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

/** Renders a readable reference page from an OpenAPI document; no scripts, no external assets. */
export function renderDocsPage(document: JsonObject, links: { openapiPath: string }): string {
  const info = document["info"] as { title: string; version: string; description?: string };
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
      const parameters = (operation["parameters"] ?? []) as JsonObject[];
      const responses = (operation["responses"] ?? {}) as Record<string, JsonObject>;
      const requestBody = operation["requestBody"] as JsonObject | undefined;
      const security = operation["security"] as unknown[] | undefined;
      const auth =
        security &&
        security.length > 0 &&
        !security.every((entry) => Object.keys(entry as JsonObject).length === 0)
          ? "API-KEY header"
          : "none";
      return `<section class="op" id="${escapeHtml(operation["operationId"])}">
<h3><span class="method">${escapeHtml(method)}</span><code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(operation["summary"])}</p>${operation["description"] ? `<p>${escapeHtml(operation["description"])}</p>` : ""}
<p><strong>Authentication:</strong> ${auth}</p>
${
  parameters.length > 0
    ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr>${parameters
        .map((parameter) =>
          parameter["$ref"]
            ? `<tr><td colspan="4"><code>${escapeHtml(String(parameter["$ref"]).split("/").pop())}</code> header (see the OpenAPI document)</td></tr>`
            : `<tr><td><code>${escapeHtml(parameter["name"])}</code></td><td>${escapeHtml(parameter["in"])}</td><td>${parameter["required"] ? "yes" : "no"}</td><td><pre>${schemaText(parameter["schema"])}</pre></td></tr>`,
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
    `<h2>Schemas</h2><pre>${schemaText((document["components"] as JsonObject | undefined)?.["schemas"])}</pre>`,
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
