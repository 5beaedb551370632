import { Validator } from '@seriousme/openapi-schema-validator';
import { createMemoryBus } from '@signalbox/bus/testing';
import { createPgliteEventStore, type EventStore } from '@signalbox/event-log';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiApp } from './app.js';
import { hashApiKey } from './auth.js';
import { createResponseChecker } from './openapi-conformance.js';
import { openApiDocument, openApiPath, routesOf } from './openapi.js';
import { AnswerBody, SubmitTaskBody } from './requests.js';

const KEY = 'sk-openapi-test-0123456789';

let store: EventStore;
let app: FastifyInstance;
beforeAll(async () => {
  store = createPgliteEventStore();
  app = createApiApp({ bus: createMemoryBus(), store, apiKeys: { [hashApiKey(KEY)]: 'tenant-openapi' } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await store.close();
});

/** Every `$ref` under `value`. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string') found.push(member);
      else refsIn(member, found);
    }
  }
  return found;
}

describe('the OpenAPI document (GET /v1/openapi.json)', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(openApiDocument()) as unknown as Record<string, unknown>,
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every route the app registers (the viewer and MCP aside), with its method, parameters and schemas', () => {
    const document = openApiDocument();
    const routes = routesOf(app).filter(
      (r) => r.method !== 'HEAD' && !r.url.startsWith('/viewer') && !r.url.startsWith('/mcp'),
    );
    // The app's routes and the document's operations are the same set: nothing undocumented, nothing documented only.
    const registered = routes.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`).sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
      .sort();
    expect(registered).toEqual(documented);
    expect(registered).toContain('get /v1/tasks/{id}/events');

    for (const { method, url } of routes) {
      const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
      if (operation === undefined) throw new Error(`${method} ${url} is not documented`);
      const where = `${method} ${url}`;
      // Each path parameter is declared.
      const params = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      const declared = ((operation.parameters ?? []) as { name: string; in: string }[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect(declared, where).toEqual(params);
      // A body is described by its schema; every success answer has a media type with a schema.
      if (method === 'POST') {
        expect(operation.requestBody?.content['application/json']?.schema, where).toMatchObject({
          $ref: expect.stringMatching(/^#\/components\/schemas\//) as unknown,
        });
      }
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect(successes.length, where).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        const content = response.content as Record<string, { schema?: unknown }>;
        expect(Object.keys(content).length, `${where} ${status}`).toBeGreaterThan(0);
        for (const media of Object.values(content)) expect(media.schema, `${where} ${status}`).toBeDefined();
      }
      // /v1 needs a key, except the document and its page.
      const open = !url.startsWith('/v1/') || url === '/v1/openapi.json' || url === '/v1/docs';
      expect(operation.security, where).toEqual(open ? [] : [{ bearer: [] }]);
    }
  });

  it('resolves every reference to a component', () => {
    const document = openApiDocument();
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9_]+$/);
      expect(document.components.schemas, ref).toHaveProperty(ref.replace('#/components/schemas/', ''));
    }
  });

  it('is generated from the schemas the routes validate with', () => {
    const document = openApiDocument();
    // The schemas the routes parse with (SubmitTaskRequest and AnswerRequest with the storability check) describe
    // themselves as the document's components.
    for (const [id, schema] of [
      ['SubmitTaskRequest', SubmitTaskBody],
      ['AnswerRequest', AnswerBody],
    ] as const) {
      // The route's schema is the registered one plus a check: zod writes it as a reference to that component.
      const routeSchema = JSON.parse(
        JSON.stringify(z.toJSONSchema(schema, { io: 'input' })).replaceAll(
          '"#/$defs/',
          '"#/components/schemas/',
        ),
      ) as { $ref?: string; $defs?: Record<string, unknown> };
      expect(routeSchema.$ref, id).toBe(`#/components/schemas/${id}`);
      expect(document.components.schemas[id], id).toEqual(routeSchema.$defs?.[id]);
    }
    // A field the route refuses as unknown is refused by the document as well; the defaults are documented.
    expect(document.components.schemas.SubmitTaskRequest).toMatchObject({
      additionalProperties: false,
      required: ['request', 'agent_id'],
      properties: { locale: { default: 'en' }, time_zone: { default: 'UTC' } },
    });
    const listing = document.paths['/v1/traces']?.get?.parameters as { name: string; in: string }[];
    expect(listing.map((p) => p.name)).toEqual(
      expect.arrayContaining(['status', 'degraded', 'tool', 'agent', 'from', 'to', 'limit', 'cursor']),
    );
  });

  it('is served without a key, with its HTML page (no scripts)', async () => {
    const served = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^application\/json/);
    expect(served.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));

    const page = await app.inject({ method: 'GET', url: '/v1/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.body).not.toMatch(/<script/i);
    for (const op of ['submitTask', 'getTask', 'streamTaskEvents', 'answerTask', 'listTraces', 'getTrace']) {
      expect(page.body).toContain(`id="${op}"`);
    }
    expect(page.body).toContain('<a href="#schema-TaskStatus">#/components/schemas/TaskStatus</a>');
  });
});

describe('the response checker', () => {
  it('accepts a documented answer and names what is wrong with an undocumented one', () => {
    const checker = createResponseChecker();
    const ok = JSON.stringify({ error: { code: 'not_found', message: 'no task x' } });
    expect(
      checker.check({
        method: 'GET',
        route: '/v1/tasks/:id',
        statusCode: 404,
        contentType: 'application/json; charset=utf-8',
        body: ok,
      }),
    ).toEqual([]);
    const wrong = JSON.stringify({ task_id: 'task_1', state: 'paused', links: {} });
    const problems = checker.check({
      method: 'POST',
      route: '/v1/tasks',
      statusCode: 202,
      contentType: 'application/json',
      body: wrong,
    });
    expect(problems.join('\n')).toMatch(/\/state/);
    expect(problems.join('\n')).toMatch(/links/);
    expect(
      checker.check({
        method: 'GET',
        route: '/v1/tasks/:id',
        statusCode: 418,
        contentType: 'text/plain',
        body: '',
      }),
    ).toEqual(['GET /v1/tasks/{id} → 418: the status is not documented']);
    expect(
      checker.check({
        method: 'DELETE',
        route: '/v1/tasks/:id',
        statusCode: 200,
        contentType: undefined,
        body: '',
      }),
    ).toEqual(['DELETE /v1/tasks/{id} is not in the document']);
  });
});
