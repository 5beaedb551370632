import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { openApiDocument, openApiPath, type OpenApiDocument } from './openapi.js';

// Checks answers of the API against its OpenAPI document: the route and status must be documented, the media type
// must be one the document lists, and a JSON body must validate against the documented schema. Tests attach it to an
// app (`checkResponses`), so every response an API test provokes is checked — the document describes what the API
// really sends, not what it was meant to send.

// ajv-formats is CommonJS (`module.exports = plugin; module.exports.default = plugin`): under NodeNext the default
// import is the module object.
const addFormats = addFormatsModule.default;

/** One answer, as the checker needs it. */
export interface ObservedResponse {
  method: string;
  /** The fastify route pattern (`/v1/tasks/:id`). */
  route: string;
  statusCode: number;
  contentType: string | undefined;
  /** The body text as sent. */
  body: string;
}

/** Validates answers against the document. */
export interface ResponseChecker {
  /** What is wrong with `response` against the document; empty when it conforms. */
  check(response: ObservedResponse): string[];
}

/** A checker of `document` (@default the API's own). */
export function createResponseChecker(document: OpenApiDocument = openApiDocument()): ResponseChecker {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  // The components under one schema id, so that each `#/components/schemas/X` reference resolves inside it.
  const root = 'https://signalbox.invalid/openapi.json';
  ajv.addSchema({ $id: root, components: { schemas: document.components.schemas } });
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (schema: unknown): ValidateFunction => {
    const key = JSON.stringify(schema);
    let validate = validators.get(key);
    if (!validate) {
      // Local references are rewritten to the components' schema id.
      const resolved = JSON.parse(key.replaceAll('"#/components/', `"${root}#/components/`)) as object;
      validate = ajv.compile(resolved);
      validators.set(key, validate);
    }
    return validate;
  };
  return {
    check(response) {
      const path = openApiPath(response.route);
      const operation = document.paths[path]?.[response.method.toLowerCase()];
      const where = `${response.method} ${path} → ${String(response.statusCode)}`;
      if (operation === undefined) return [`${response.method} ${path} is not in the document`];
      const documented = operation.responses[String(response.statusCode)];
      if (documented === undefined) return [`${where}: the status is not documented`];
      const content = (documented.content ?? {}) as Record<string, { schema?: unknown }>;
      const mediaType = (response.contentType ?? '').split(';')[0]?.trim() ?? '';
      const media = content[mediaType];
      if (media === undefined) {
        return [`${where}: media type "${mediaType}" is not documented (${Object.keys(content).join(', ')})`];
      }
      if (mediaType !== 'application/json' || media.schema === undefined) return [];
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        return [`${where}: the body is not JSON`];
      }
      const validate = validatorOf(media.schema);
      if (validate(body)) return [];
      return (validate.errors ?? []).map(
        (e) =>
          `${where}: ${e.instancePath || '(body)'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`,
      );
    },
  };
}

/** What {@link checkResponses} saw. */
export interface ResponseLog {
  /** How many answers were checked. */
  readonly checked: number;
  /** Every mismatch so far. */
  readonly problems: readonly string[];
}

/**
 * Checks every answer `app` sends (call before the app is ready). Answers to unknown URLs (no route), the viewer's
 * page and assets, and the MCP endpoint are left out: they are not part of the document.
 */
export function checkResponses(app: FastifyInstance, checker = createResponseChecker()): ResponseLog {
  let checked = 0;
  const problems: string[] = [];
  app.addHook('onSend', (request, reply, payload, done) => {
    const route = request.routeOptions.url;
    const skipped =
      route === undefined ||
      request.method === 'HEAD' ||
      route.startsWith('/viewer') ||
      route === '/mcp' ||
      route.startsWith('/mcp/');
    if (!skipped) {
      checked += 1;
      const header = reply.getHeader('content-type');
      // A stream (server-sent events) is checked by its media type only: its body is not at hand here.
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      problems.push(
        ...checker.check({
          method: request.method,
          route,
          statusCode: reply.statusCode,
          contentType: typeof header === 'string' ? header : undefined,
          body,
        }),
      );
    }
    done(null, payload);
  });
  return {
    get checked() {
      return checked;
    },
    problems,
  };
}
