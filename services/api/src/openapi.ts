import {
  AnswerAccepted,
  AnswerRequest,
  ErrorResponse,
  Liveness,
  Readiness,
  RegistryVersionsResponse,
  SubmitTaskRequest,
  TaskAccepted,
  TaskStatus,
  TraceEventDetail,
  TraceList,
  TraceTimeline,
} from '@signalbox/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TraceQuery } from './requests.js';

// The OpenAPI 3.1 document of the HTTP API (`GET /v1/openapi.json`), generated from the zod schemas the routes
// validate with (the wire shapes of @signalbox/contracts, `TraceQuery` here): `z.toJSONSchema` writes JSON Schema
// 2020-12, the dialect of OpenAPI 3.1, so the document and the validation cannot drift. The operations are listed
// below, one entry a route; openapi.test.ts checks that every route the app registers (the viewer and MCP aside) is
// here with its schemas, and app.test.ts validates every response of the API tests against the document.

/** A JSON Schema object as it appears in the document. */
export type JsonSchemaObject = Record<string, unknown>;

/** An OpenAPI 3.1 document (the parts this module writes). */
export interface OpenApiDocument {
  openapi: '3.1.1';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  jsonSchemaDialect: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchemaObject>; securitySchemes: Record<string, unknown> };
}

interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchemaObject }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: unknown }>;
  [extension: `x-${string}`]: unknown;
}

type Method = 'get' | 'post';

/** What a response carries: a zod schema (JSON), or another media type with a plain schema. */
type ResponseSpec =
  | { description: string; schema: z.ZodType; headers?: Record<string, string> }
  | { description: string; mediaType: string; raw: JsonSchemaObject; extra?: Record<string, unknown> };

interface RouteSpec {
  method: Method;
  /** The fastify path (`/v1/tasks/:id`); written as `/v1/tasks/{id}` in the document. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Needs `Authorization: Bearer <key>`. */
  auth: boolean;
  pathParams?: Record<string, string>;
  query?: z.ZodType;
  headers?: Record<string, { description: string; pattern?: string }>;
  body?: z.ZodType;
  responses: Record<number, ResponseSpec>;
}

const error = (description: string): ResponseSpec => ({ description, schema: ErrorResponse });
const E400 = error('Invalid request: `error.fields` names each invalid field');
const E401 = error('Missing or unknown API key');
const E404 = error("No such task for the caller's tenant (other tenants' ids are not found either)");
const E503 = error(
  'A dependency (event log, broker, schema registry, registry store) is unreachable; send again',
);
const E500 = error('Internal error (logged, not described)');
const TASK_ID = { id: 'The task id (`task_…`) from `POST /v1/tasks`' };
const TRACE_ID = { taskId: 'The task id' };

/** Every operation of the API, the viewer (a page and its assets, IF-3) and the MCP endpoint aside. */
export const ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/livez',
    operationId: 'getLiveness',
    summary: 'Liveness probe (OB-4)',
    tag: 'probes',
    auth: false,
    responses: { 200: { description: 'The process serves requests', schema: Liveness } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    summary: 'Readiness probe: the event log and the broker answer (OB-4)',
    tag: 'probes',
    auth: false,
    responses: {
      200: { description: 'Ready', schema: Readiness },
      503: { description: 'Not ready: which dependency did not answer', schema: Readiness },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    summary: 'Prometheus metrics (OB-3)',
    tag: 'probes',
    auth: false,
    responses: {
      200: {
        description: 'Prometheus text exposition format',
        mediaType: 'text/plain',
        raw: { type: 'string' },
      },
    },
  },
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    description: 'Served without a key: it describes the API, it holds no tenant data.',
    tag: 'documentation',
    auth: false,
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document',
        mediaType: 'application/json',
        raw: { type: 'object' },
      },
    },
  },
  {
    method: 'get',
    path: '/v1/docs',
    operationId: 'getApiDocs',
    summary: 'The documentation page of this document (HTML, no scripts)',
    tag: 'documentation',
    auth: false,
    responses: { 200: { description: 'An HTML page', mediaType: 'text/html', raw: { type: 'string' } } },
  },
  {
    method: 'post',
    path: '/v1/tasks',
    operationId: 'submitTask',
    summary: 'Submit a task (MS-1)',
    description:
      'Records the task in the event log, then publishes it. With an `Idempotency-Key` the task id is derived from ' +
      '(tenant, key): the same request sent again answers the same task (`Idempotent-Replayed: true`), a different ' +
      'one with the same key is a 409.',
    tag: 'tasks',
    auth: true,
    headers: {
      'Idempotency-Key': {
        description: '1–255 printable ASCII characters',
        pattern: '^[\\x21-\\x7e]{1,255}$',
      },
      traceparent: { description: 'W3C trace context (OB-2); a fresh trace when absent or invalid' },
    },
    body: SubmitTaskRequest,
    responses: {
      202: {
        description: 'Accepted: the task runs',
        schema: TaskAccepted,
        headers: {
          Location: 'The task: `/v1/tasks/{id}`',
          'Idempotent-Replayed': '`true` when an earlier request with this Idempotency-Key made the task',
        },
      },
      400: E400,
      401: E401,
      409: error('`idempotency_conflict`: the Idempotency-Key was used for a different task'),
      413: error('The body is larger than the API accepts'),
      415: error('The body is not application/json'),
      500: E500,
      503: E503,
    },
  },
  {
    method: 'get',
    path: '/v1/tasks/:id',
    operationId: 'getTask',
    summary: 'Where a task stands and, once finished, its result',
    tag: 'tasks',
    auth: true,
    pathParams: TASK_ID,
    responses: {
      200: { description: 'The task', schema: TaskStatus },
      400: E400,
      401: E401,
      404: E404,
      503: E503,
    },
  },
  {
    method: 'get',
    path: '/v1/tasks/:id/events',
    operationId: 'streamTaskEvents',
    summary: "A task's progress as server-sent events",
    description:
      'A `text/event-stream`: a `status` event at once and each time the latest decision changes, then an `end` ' +
      'event once the task is finished or failed, after which the server closes the stream. Each event `data` is ' +
      'a TaskStatus (`x-event-data`), its `id` the latest decision. An `error` event (an ErrorResponse) ends the ' +
      'stream when the event log fails. Comment lines keep idle connections open.',
    tag: 'tasks',
    auth: true,
    pathParams: TASK_ID,
    responses: {
      200: {
        description: 'The event stream',
        mediaType: 'text/event-stream',
        raw: { type: 'string' },
        extra: { 'x-event-types': ['status', 'end', 'error'], 'x-event-data': TaskStatus },
      },
      400: E400,
      401: E401,
      404: E404,
      503: E503,
    },
  },
  {
    method: 'post',
    path: '/v1/tasks/:id/answers',
    operationId: 'answerTask',
    summary: 'Answer a clarification, confirm a call (EX-2), or both',
    description:
      'Continues a task whose latest result is `need_clarification`. A confirmation names the tool and the sha256 ' +
      'hex of the RFC 8785 canonical JSON of the call arguments (`pending_confirmation.arguments_hash` of the task).',
    tag: 'tasks',
    auth: true,
    pathParams: TASK_ID,
    body: AnswerRequest,
    responses: {
      202: {
        description: 'Accepted: the task continues',
        schema: AnswerAccepted,
        headers: { Location: 'The task: `/v1/tasks/{id}`' },
      },
      400: E400,
      401: E401,
      404: E404,
      409: error('`not_awaiting_answer` or `already_answered`'),
      413: error('The body is larger than the API accepts'),
      415: error('The body is not application/json'),
      422: error('The answer cannot be added to the task (its context is full)'),
      503: E503,
    },
  },
  {
    method: 'get',
    path: '/v1/traces',
    operationId: 'listTraces',
    summary: "The caller's traces, newest first (EL-5)",
    tag: 'traces',
    auth: true,
    query: TraceQuery,
    responses: { 200: { description: 'One page', schema: TraceList }, 400: E400, 401: E401, 503: E503 },
  },
  {
    method: 'get',
    path: '/v1/traces/:taskId',
    operationId: 'getTrace',
    summary: "One task's timeline with its loops (EL-6)",
    tag: 'traces',
    auth: true,
    pathParams: TRACE_ID,
    responses: {
      200: { description: 'The timeline', schema: TraceTimeline },
      400: E400,
      401: E401,
      404: E404,
      503: E503,
    },
  },
  {
    method: 'get',
    path: '/v1/traces/:taskId/events/:eventId',
    operationId: 'getTraceEvent',
    summary: 'One decision with its payload and model exchanges (EL-7), secrets redacted',
    tag: 'traces',
    auth: true,
    pathParams: { ...TRACE_ID, eventId: 'The event id, from the timeline' },
    responses: {
      200: { description: 'The decision', schema: TraceEventDetail },
      400: E400,
      401: E401,
      404: error('No such task or event for the caller'),
      503: E503,
    },
  },
  {
    method: 'get',
    path: '/v1/registry/versions',
    operationId: 'getRegistryVersions',
    summary: 'The loaded registry versions and the latest publications (RG-3)',
    tag: 'registry',
    auth: true,
    responses: {
      200: { description: 'The versions', schema: RegistryVersionsResponse },
      401: E401,
      503: E503,
    },
  },
];

/** `/v1/tasks/:id` → `/v1/tasks/{id}`. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const componentRef = (id: string) => `#/components/schemas/${id}`;

/** The component id a schema is registered under (`.meta({ id })` in @signalbox/contracts). */
function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id !== 'string')
    throw new TypeError('an OpenAPI body or response schema needs a `.meta({ id })`');
  return id;
}

/** A query schema as it is sent (defaults optional; refinements are checked by the route, not described). */
function jsonSchema(schema: z.ZodType): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchemaObject;
  return rest;
}

function queryParameters(schema: z.ZodType): unknown[] {
  const object = jsonSchema(schema) as { properties?: Record<string, JsonSchemaObject>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) ?? false,
    schema: property,
  }));
}

function buildDocument(): OpenApiDocument {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'input',
    unrepresentable: 'any',
    uri: componentRef,
  }) as { schemas: Record<string, JsonSchemaObject> };
  const components: Record<string, JsonSchemaObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    components[id] = rest;
  }
  const paths: OpenApiDocument['paths'] = {};
  for (const route of ROUTES) {
    const parameters: unknown[] = [
      ...Object.entries(route.pathParams ?? {}).map(([name, description]) => ({
        name,
        in: 'path',
        required: true,
        description,
        schema: { type: 'string', minLength: 1, maxLength: 128 },
      })),
      ...(route.query ? queryParameters(route.query) : []),
      ...Object.entries(route.headers ?? {}).map(([name, { description, pattern }]) => ({
        name,
        in: 'header',
        required: false,
        description,
        schema: { type: 'string', ...(pattern !== undefined ? { pattern } : {}) },
      })),
    ];
    const responses: OperationObject['responses'] = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      if ('schema' in spec) {
        responses[status] = {
          description: spec.description,
          ...(spec.headers
            ? {
                headers: Object.fromEntries(
                  Object.entries(spec.headers).map(([name, description]) => [
                    name,
                    { description, schema: { type: 'string' } },
                  ]),
                ),
              }
            : {}),
          content: { 'application/json': { schema: { $ref: componentRef(idOf(spec.schema)) } } },
        };
      } else {
        const extra = Object.fromEntries(
          Object.entries(spec.extra ?? {}).map(([key, value]) => [
            key,
            value instanceof z.ZodType ? { $ref: componentRef(idOf(value)) } : value,
          ]),
        );
        responses[status] = {
          description: spec.description,
          content: { [spec.mediaType]: { schema: spec.raw, ...extra } },
        };
      }
    }
    const operation: OperationObject = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description !== undefined ? { description: route.description } : {}),
      tags: [route.tag],
      security: route.auth ? [{ bearer: [] }] : [],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: componentRef(idOf(route.body)) } } },
            },
          }
        : {}),
      responses,
    };
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Signalbox API',
      version: '1',
      description:
        "Submit tasks to Signalbox's governed tool-calling pipeline, follow and answer them, read their traces. " +
        'Every `/v1` operation but this document and its page needs `Authorization: Bearer <key>` and sees only ' +
        "the key's tenant. Errors are `{ error: { code, message, fields? } }`.",
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key of SIGNALBOX_API_KEYS' },
      },
    },
  };
}

let built: OpenApiDocument | undefined;

/** The document (built once: it depends on nothing but the schemas). */
export function openApiDocument(): OpenApiDocument {
  built ??= buildDocument();
  return built;
}

/** A route the app registered, as fastify names it. */
export interface RegisteredRoute {
  method: string;
  url: string;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Records every route `app` registers from now on (call before adding routes); read with {@link routesOf}. */
export function trackRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
}

/** The routes {@link trackRoutes} saw `app` register (fastify's HEAD twins of GET routes included). */
export function routesOf(app: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(app) ?? [];
}
