import type { JsonSchemaObject, OpenApiDocument } from './openapi.js';

// The documentation page of the OpenAPI document (`GET /v1/docs`): static HTML rendered on the server from the same
// document `GET /v1/openapi.json` serves — no script, no CDN, nothing fetched by the browser, so it works offline
// and under a policy that allows nothing but its own inline style. Schemas are shown as their JSON Schema, each
// `$ref` a link to the component it names. A generic renderer could read /v1/openapi.json instead.

/** The page's Content-Security-Policy: no scripts, no connections, only its own inline style. */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

/** Inline code spans of the document's Markdown prose (`code`), the rest escaped. */
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_m, code: string) => `<code>${code}</code>`);

const anchorOf = (ref: string) => `schema-${ref.replace('#/components/schemas/', '')}`;

/** Pretty JSON with every `"$ref": "#/components/schemas/X"` turned into a link to that component. */
function schemaHtml(schema: unknown): string {
  return escapeHtml(JSON.stringify(schema, null, 2)).replace(
    /(&#34;\$ref&#34;: &#34;)(#\/components\/schemas\/[A-Za-z0-9_]+)(&#34;)/g,
    (_m, before: string, ref: string, after: string) =>
      `${before}<a href="#${anchorOf(ref)}">${ref}</a>${after}`,
  );
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:62rem;padding:1rem 2rem;color:#1b1f24}
h2{margin-top:2.5rem;border-bottom:1px solid #d0d7de}h3{margin:1.6rem 0 .3rem;font-size:1.05rem}
.m{display:inline-block;min-width:3.6rem;font:600 .8rem monospace;text-transform:uppercase;color:#fff;
background:#0969da;border-radius:3px;padding:.1rem .4rem;text-align:center}.m.post{background:#1a7f37}
code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{background:#f6f8fa;padding:.6rem;overflow:auto;
max-height:28rem}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.2rem .5rem;text-align:left;
vertical-align:top}.lock{color:#9a6700;font-size:.85rem}`;

/** The HTML page of `document`. */
export function docsPage(document: OpenApiDocument): string {
  const parts: string[] = [];
  const { info } = document;
  parts.push(`<h1>${escapeHtml(info.title)} <small>v${escapeHtml(info.version)}</small></h1>`);
  parts.push(`<p>${prose(info.description)}</p>`);
  parts.push(
    '<p>The machine-readable document: <a href="openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).</p>',
  );
  parts.push('<h2>Operations</h2>');
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      parts.push(
        `<h3 id="${escapeHtml(op.operationId)}"><span class="m ${method}">${method}</span> <code>${escapeHtml(path)}</code> — ${prose(op.summary)}` +
          (op.security.length > 0 ? ' <span class="lock">(API key)</span>' : '') +
          '</h3>',
      );
      if (op.description !== undefined) parts.push(`<p>${prose(op.description)}</p>`);
      const parameters = (op.parameters ?? []) as {
        name: string;
        in: string;
        required: boolean;
        description?: string;
        schema: JsonSchemaObject;
      }[];
      if (parameters.length > 0) {
        parts.push('<table><tr><th>Parameter</th><th>In</th><th>Schema</th><th>Description</th></tr>');
        for (const p of parameters) {
          parts.push(
            `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' *' : ''}</td><td>${p.in}</td>` +
              `<td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td><td>${prose(p.description ?? '')}</td></tr>`,
          );
        }
        parts.push('</table>');
      }
      if (op.requestBody) {
        parts.push(
          `<p>Body: <code>application/json</code></p><pre>${schemaHtml(op.requestBody.content['application/json']?.schema)}</pre>`,
        );
      }
      parts.push('<table><tr><th>Status</th><th>Description</th><th>Content</th></tr>');
      for (const [status, response] of Object.entries(op.responses)) {
        const content = (response.content ?? {}) as Record<string, Record<string, unknown>>;
        const shown = Object.entries(content)
          .map(([type, media]) => `<code>${escapeHtml(type)}</code> ${schemaHtml(media.schema)}`)
          .join('<br>');
        parts.push(`<tr><td>${status}</td><td>${prose(response.description)}</td><td>${shown}</td></tr>`);
      }
      parts.push('</table>');
    }
  }
  parts.push('<h2>Schemas</h2>');
  for (const [id, schema] of Object.entries(document.components.schemas)) {
    parts.push(
      `<h3 id="${anchorOf(id)}"><code>${escapeHtml(id)}</code></h3><pre>${schemaHtml(schema)}</pre>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(info.title)}</title><style>${STYLE}</style></head><body>${parts.join('\n')}</body></html>`;
}
