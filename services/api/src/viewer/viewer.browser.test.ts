// IF-3 in a real headless browser: the API (listening on a port) serves the viewer over an event log in real
// PostgreSQL that holds recorded traces — one with re-plans, next steps, failed calls, a degradation and five
// revisions — and Chromium (driven by playwright-core) uses it like a person: enters the API key, filters and pages
// the list, opens a trace, reads the picture, clicks a decision. Chromium is required: without it this file fails
// and says how to install it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Envelope } from '@signalbox/contracts';
import { createMemoryBus, type MemoryBus } from '@signalbox/bus/testing';
import { createPgEventStore, type EventStore, type ModelExchange } from '@signalbox/event-log';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiApp } from '../app.js';
import { hashApiKey } from '../auth.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, TIMELINE_OVERFLOW, requireChromium } from './chromium.js';
import { listenLocally } from '../listen-locally.js';

const SCREENSHOT = join(tmpdir(), 'signalbox-viewer-trace.png');

const here = import.meta.dirname;
/** Recorded by the embedded pipeline with sending broken (see fixtures/README.md); `signalbox replay` verifies it. */
const DEGRADED_CORPUS = resolve(here, '../../fixtures/traces/office-degraded.json');
/** The CLI's frozen replay corpus (EL-9), recorded by `signalbox dev --record`. */
const AFTER_SALES_CORPUS = resolve(here, '../../../../packages/cli/fixtures/traces/after-sales.json');
const DEGRADED = 'viewer-office-degraded-1';
const PLAIN = 'dev-after-sales-1';
/** The after-sales clarification trace, with markup in its request and first reason. */
const HOSTILE = 'dev-after-sales-2';
const XSS = '<img src=x onerror="window.__xss=(window.__xss||0)+1">';

const Corpus = z.object({
  format: z.literal('signalbox.trace-corpus.v1'),
  tasks: z.array(
    z.object({
      task_id: z.string(),
      events: z.array(
        z.object({
          stream_version: z.number().int(),
          envelope: Envelope,
          topic: z.string().nullable(),
          payload: z.unknown(),
        }),
      ),
    }),
  ),
});
type CorpusTask = z.infer<typeof Corpus>['tasks'][number];

async function corpusTask(file: string, taskId: string): Promise<CorpusTask> {
  const corpus = Corpus.parse(JSON.parse(await readFile(file, 'utf8')));
  const task = corpus.tasks.find((t) => t.task_id === taskId);
  if (!task) throw new Error(`${file} has no task ${taskId}`);
  return task;
}

/**
 * Appends a recorded task for `tenant`, one event at a time, waiting between events as long as the recording did,
 * so the events' recorded_at (the timeline's clock) keeps the recording's rhythm. `workMs` gives a decision the work
 * time its stage would have recorded (the corpora predate it).
 */
async function appendRecorded(
  store: EventStore,
  task: CorpusTask,
  tenant: string,
  workMs?: (streamVersion: number) => number | undefined,
): Promise<void> {
  let previous: number | undefined;
  for (const event of [...task.events].sort((a, b) => a.stream_version - b.stream_version)) {
    const at = Date.parse(event.envelope.occurred_at);
    // Capped: a long pause in a recording would only make the test slow.
    const wait = previous === undefined ? 0 : Math.min(Math.max(0, at - previous), 1000);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    previous = at;
    const work = workMs?.(event.stream_version);
    await store.append([
      {
        envelope: { ...event.envelope, tenant_id: tenant },
        topic: event.topic,
        payload: event.payload,
        ...((event as RecordedEvent).exchanges ? { exchanges: (event as RecordedEvent).exchanges } : {}),
        ...(work === undefined ? {} : { work_ms: work }),
      },
    ]);
  }
}

/** A recorded event, possibly with the model calls it rests on. */
type RecordedEvent = CorpusTask['events'][number] & { exchanges?: ModelExchange[] };

/**
 * Markup in the request (payload), in the submission's reason and in a model call of the second decision: the viewer
 * must show it as text.
 */
function withHostileText(task: CorpusTask): CorpusTask {
  return {
    ...task,
    events: task.events.map((e): RecordedEvent => {
      if (e.stream_version === 2) {
        return {
          ...e,
          exchanges: [
            {
              profile_id: 'extraction',
              model: 'small-model-1',
              request_hash: 'a'.repeat(64),
              request: { messages: [{ role: 'user', content: `Refund my order. ${XSS}` }] },
              response: { content: 'refund_create' },
              input_tokens: 42,
              output_tokens: 7,
              latency_ms: 310,
            },
            // EL-9: a call that failed, its error quoting markup.
            {
              profile_id: 'extraction',
              model: null,
              request_hash: 'b'.repeat(64),
              request: { messages: [{ role: 'user', content: 'Which order?' }] },
              response: null,
              input_tokens: null,
              output_tokens: null,
              latency_ms: 30_000,
              error: { name: 'ProviderTimeoutError', message: `timed out on ${XSS}`, timeout: true },
            },
          ],
        };
      }
      if (e.envelope.event_type !== 'task_submitted') return e;
      const payload = e.payload as { task: { request: string } };
      return {
        ...e,
        envelope: { ...e.envelope, decision_reason: `submitted with markup ${XSS}` },
        payload: { ...payload, task: { ...payload.task, request: `Refund my order. ${XSS}` } },
      };
    }),
  };
}

const endpoints = testEndpoints();
const KEY = `sk-${uniqueName('viewer')}`;
const tenant = uniqueName('viewer-tenant');

// Undefined until beforeAll got that far: afterAll closes what was opened, even after a failed start.
let schema: IsolatedSchema | undefined;
let store: EventStore | undefined;
let bus: MemoryBus | undefined;
let app: FastifyInstance | undefined;
let base: string;
let userDataDir: string | undefined;
let context: BrowserContext | undefined;
/** Script errors, failed requests and console errors (a CSP violation is one) of the current test's pages. */
let problems: string[] = [];

beforeAll(async () => {
  requireChromium();
  schema = await createIsolatedSchema(endpoints.databaseUrl, 'viewer');
  const events = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  store = events;
  await events.migrate();
  // Oldest first: the list shows the newest activity first, so the degraded trace heads it.
  await appendRecorded(events, await corpusTask(AFTER_SALES_CORPUS, PLAIN), tenant);
  await appendRecorded(events, withHostileText(await corpusTask(AFTER_SALES_CORPUS, HOSTILE)), tenant);
  // Its pipeline decisions (not the submission, #1) with the work time a stage records: 7 ms per stream version.
  await appendRecorded(events, await corpusTask(DEGRADED_CORPUS, DEGRADED), tenant, (v) =>
    v === 1 ? undefined : v * 7,
  );

  bus = createMemoryBus();
  const api = createApiApp({ bus, store: events, apiKeys: { [hashApiKey(KEY)]: tenant } });
  app = api;
  base = await listenLocally(api);

  userDataDir = await mkdtemp(join(tmpdir(), 'signalbox-viewer-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
    timeout: 60_000,
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await app?.close();
  await bus?.close();
  await store?.close();
  await schema?.drop();
}, 60_000);

afterEach(async () => {
  for (const page of context?.pages() ?? []) await page.close();
  expect(problems, 'the page reported errors').toEqual([]);
  problems = [];
});

async function newPage(): Promise<Page> {
  if (!context) throw new Error('the browser did not start');
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The browser logs every error status as "Failed to load resource"; the API's are expected in some tests and
    // checked through what the page shows, the viewer's own files are checked below.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !new URL(response.url()).pathname.startsWith('/v1/')) {
      problems.push(`${String(response.status())} for ${response.url()}`);
    }
  });
  return page;
}

/** Opens `path` and enters the API key in the form the viewer asks with. */
async function openWithKey(path: string, key = KEY): Promise<Page> {
  const page = await newPage();
  await page.goto(`${base}${path}`);
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Use this key' }).click();
  return page;
}

const listedTasks = (page: Page) => page.locator('#trace-list tbody tr td:first-child a').allTextContents();

describe('the trace viewer in headless Chromium', () => {
  it('asks for the API key and says clearly when the API refuses it', async () => {
    const page = await newPage();
    const response = await page.goto(`${base}/viewer`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.getByRole('heading', { name: 'Enter your API key' }).count()).toBe(1);

    await page.getByLabel('API key', { exact: true }).fill('sk-not-a-key-of-anyone');
    await page.getByRole('button', { name: 'Use this key' }).click();
    const error = page.locator('#auth-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(
      /refused the API key \(401 unauthorized\): the API key is not valid/,
    );
    // The refused key is not kept: the form is shown again and a reload asks again.
    expect(await page.locator('#key-form').count()).toBe(1);
    expect(await page.locator('#trace-list').count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Enter your API key' }).count()).toBe(1);
  });

  it('lists the tenant’s traces, filters them and pages with the cursor; each row links to its trace', async () => {
    const page = await openWithKey('/viewer');
    await page.locator('#trace-list').waitFor();
    expect(await listedTasks(page)).toEqual([DEGRADED, HOSTILE, PLAIN]);
    const degradedRow = page.locator(`tr[data-task-id="${DEGRADED}"]`);
    expect(await degradedRow.textContent()).toContain('DEGRADED');
    expect(await degradedRow.locator('td').nth(4).textContent()).toBe('4');

    // Filters go through the form into the address and on to the API.
    await page.getByLabel('Degraded').selectOption('true');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/degraded=true/);
    await page.locator('#trace-list').waitFor();
    expect(await listedTasks(page)).toEqual([DEGRADED]);

    await page.getByLabel('Degraded').selectOption('');
    await page.getByLabel('Status').selectOption('need_clarification');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/status=need_clarification/);
    await page.locator('#trace-list').waitFor();
    expect(await listedTasks(page)).toEqual([HOSTILE]);

    await page.goto(`${base}/viewer?tool=email_send&agent=office_agent&revision_count_above=3`);
    await page.locator('#trace-list').waitFor();
    expect(await listedTasks(page)).toEqual([DEGRADED]);
    expect(await page.getByLabel('Tool').inputValue()).toBe('email_send');

    await page.getByLabel('Tool').fill('');
    await page.getByLabel('Agent').fill('');
    await page.getByLabel('Revision count above').fill('');
    await page.getByLabel('From (recorded at or after)').fill('2001-01-01T00:00');
    await page.getByLabel('To (before)').fill('2001-01-02T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/from=2001-01-0/);
    await expect.poll(() => page.getByRole('status').textContent()).toBe('No trace matches these filters.');

    // Paging: two per page, then the next page by the API's cursor, then back to the first.
    await page.goto(`${base}/viewer?limit=2`);
    await page.locator('#trace-list').waitFor();
    expect(await listedTasks(page)).toEqual([DEGRADED, HOSTILE]);
    await page.locator('#next-page').click();
    await page.waitForURL(/cursor=/);
    await page.locator('#trace-list').waitFor();
    expect(await listedTasks(page)).toEqual([PLAIN]);
    expect(await page.locator('#next-page').count()).toBe(0);
    await page.locator('#first-page').click();
    await page.waitForURL((url) => !url.search.includes('cursor'));
    await page.locator('#trace-list').waitFor();
    expect(await listedTasks(page)).toEqual([DEGRADED, HOSTILE]);

    // A filter the API refuses is reported with the field and the API's words.
    await page.goto(`${base}/viewer?limit=0`);
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/400 invalid_request[\s\S]*limit: /);

    await page.goto(`${base}/viewer`);
    await page.getByRole('link', { name: PLAIN }).click();
    await page.waitForURL(/trace=dev-after-sales-1/);
    await page.locator('svg.timeline').waitFor();

    // Forgetting the key asks for one again.
    await page.getByRole('button', { name: 'Forget API key' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Enter your API key' }).count()).toBe(1);
    expect(await page.locator('svg.timeline').count()).toBe(0);
  }, 60_000);

  it('draws one trace: stage lanes, marks by time, loops as back-edges, degraded and failed marks; a click shows the reason and payload', async () => {
    const page = await openWithKey('/viewer');
    await page.getByRole('link', { name: DEGRADED }).click();
    const svg = page.locator('svg.timeline');
    await svg.waitFor();

    expect(await page.locator('svg.timeline-lanes .lane-label').allTextContents()).toEqual([
      'API · submission',
      'Model selector',
      'Tool decider',
      'Parameter injector',
      'Executor',
      'Result evaluator',
    ]);
    const marks = svg.locator('g.mark');
    expect(await marks.count()).toBe(32);

    // Placed by recorded time: left to right in order, and the 0.7 s e-mail attempt (#17 → #18) takes more room
    // than a quick hop.
    const transforms = await Promise.all((await marks.all()).map((m) => m.getAttribute('transform')));
    const xs = transforms.map((t) => Number(/translate\(([\d.]+)/.exec(t ?? '')?.[1]));
    expect(xs.every((x, i) => i === 0 || x > (xs[i - 1] ?? Infinity))).toBe(true);
    expect(xs[17]! - xs[16]!).toBeGreaterThan(2 * (xs[16]! - xs[15]!));

    // Loops: each re-plan, next step and the degradation is an edge back up to an earlier stage, labelled.
    const loopEdges = (loop: string) => svg.locator(`path.edge.loop.back-edge[data-loop="${loop}"]`);
    expect(await loopEdges('replan').count()).toBe(3);
    expect(await loopEdges('next_step').count()).toBe(3);
    expect(await loopEdges('degrade').count()).toBe(1);
    expect(await svg.locator('.edge-label').allTextContents()).toEqual(
      expect.arrayContaining(['↺ re-plan 1', '↺ re-plan 3', '↺ next step 2', '↺ degrade 1']),
    );
    // Every other decision is linked to its cause by a plain arrow: 31 links for 32 decisions.
    expect(await svg.locator('path.edge').count()).toBe(31);

    // Degraded and failed decisions: a colour class AND a text label; revisions as bands.
    const degraded = svg.locator('g.mark.degraded');
    expect(await degraded.count()).toBe(9);
    expect(await degraded.locator('.mark-flag').allTextContents()).toEqual(Array(9).fill('DEGRADED'));
    expect(await degraded.first().getAttribute('data-event-type')).toBe('model_selected');
    const failed = svg.locator('g.mark.failed');
    expect(await failed.locator('.mark-flag').allTextContents()).toEqual(['FAILED', 'FAILED']);
    expect(await Promise.all((await failed.all()).map((m) => m.getAttribute('data-stream-version')))).toEqual(
      ['18', '22'],
    );
    expect(await svg.locator('.degraded-band-label').count()).toBe(1);
    expect(await svg.locator('.rev-label').allTextContents()).toEqual([
      'revision 0',
      'revision 1',
      'revision 2',
      'revision 3',
      'revision 4',
    ]);
    // What a screen reader announces for a mark.
    expect(await svg.locator('g.mark[data-stream-version="18"]').getAttribute('aria-label')).toMatch(
      /^#18 Executor: step_executed — FAILED — tool email_send — revision 1 — at .* — versions: registry 58d0812b, .* — email_send failed/,
    );
    const summary = await page.locator('dl.summary').textContent();
    expect(summary).toContain('re-plan ×3, degrade ×1, next step ×3');
    expect(summary).toContain('finished · partial_success');

    // Clicking the degrade decision shows its reason, versions, and payload as formatted JSON.
    await svg.locator('g.mark[data-stream-version="23"]').click();
    const details = page.locator('#details');
    await details.waitFor();
    expect(await page.locator('#details-title').textContent()).toBe('Decision #23: degrade_requested');
    expect(await page.locator('#detail-reason').textContent()).toContain(
      '2 failures on this task → degrade the model',
    );
    expect(await details.textContent()).toContain('sha256:58d0812b3489f83b');
    await expect.poll(() => page.locator('#payload').textContent()).toMatch(/^\{\n {2}"/);
    expect(JSON.parse((await page.locator('#payload').textContent()) ?? '')).toMatchObject({
      feedback: { failed_tool: 'message_send', reason: expect.stringMatching(/^2 failed steps/) },
    });
    expect(await svg.locator('g.mark.selected').getAttribute('data-stream-version')).toBe('23');
    expect(await page.locator('#decisions tr.is-selected td').first().textContent()).toBe('#23');
    // The keyboard does the same.
    await svg.locator('g.mark[data-stream-version="18"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#details-title').textContent()).toBe('Decision #18: step_executed');
    await expect.poll(() => page.locator('#payload').textContent()).toContain('sending is down');

    await svg.locator('g.mark[data-stream-version="23"]').click();
    await expect.poll(() => page.locator('#payload').textContent()).toContain('"feedback"');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.info(`[viewer] screenshot of the degraded trace: ${SCREENSHOT}`);
  }, 60_000);

  it('shows markup in payloads and reasons as text, never as HTML', async () => {
    const page = await openWithKey(`/viewer?trace=${HOSTILE}`);
    await page.locator('svg.timeline').waitFor();
    const reasonCell = page.locator('#decisions tbody tr').first().locator('td.reason');
    expect(await reasonCell.textContent()).toBe(`submitted with markup ${XSS}`);
    await page.locator('svg.timeline g.mark[data-stream-version="1"]').click();
    await expect.poll(() => page.locator('#payload').textContent()).toContain('Refund my order. <img src=x');
    expect(await page.locator('#detail-reason').textContent()).toBe(`submitted with markup ${XSS}`);
    await expect
      .poll(() => page.locator('#exchanges').textContent())
      .toBe('None: this decision asked no model.');
    // The model call of the second decision (EL-7): a line per call, its request and answer as text.
    await page.locator('svg.timeline g.mark[data-stream-version="2"]').click();
    const call = page.locator('#exchanges details.exchange');
    await call.first().waitFor();
    expect(await call.count()).toBe(2);
    expect(await call.first().locator('summary').textContent()).toBe(
      '1. extraction · small-model-1 · 42 → 7 tokens · 310 ms',
    );
    await call.first().locator('summary').click();
    expect(await call.first().locator('pre').first().textContent()).toContain('Refund my order. <img src=x');
    // The failed call (EL-9): marked failed, its error shown as text where the answer would be.
    const failed = page.locator('#exchanges details.exchange.failed');
    expect(await failed.count()).toBe(1);
    expect(await failed.locator('summary').textContent()).toMatch(
      /^2\. extraction · failed: ProviderTimeoutError: timed out on <img src=x onerror="[^"]+"> · /,
    );
    await failed.locator('summary').click();
    expect(await failed.locator('h4').nth(1).textContent()).toBe('Error');
    expect(await failed.locator('pre').nth(1).textContent()).toContain('"timeout": true');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
  }, 60_000);

  it('shows each task’s request and outcome, on the list and on its trace page, with the answer form for a question', async () => {
    const page = await openWithKey('/viewer');
    await page.locator('#trace-list').waitFor();
    const row = (task: string) => page.locator(`tr[data-task-id="${task}"]`);
    await expect.poll(() => row(PLAIN).locator('.row-outcome').textContent()).toMatch(/^refund_create: \{"/);
    expect(await row(PLAIN).locator('.row-request').textContent()).toBe(
      'My order 1234 is late and I want a refund.',
    );
    await expect
      .poll(() => row(HOSTILE).locator('.row-outcome').textContent())
      .toMatch(/^asks: What order_id should I use/);
    expect(await row(HOSTILE).locator('.row-request').textContent()).toBe(`Refund my order. ${XSS}`);
    // The form that submits a request is there, with the agents of the list as suggestions.
    const options = await page.locator('#known-agents option').all();
    expect(await Promise.all(options.map((o) => o.getAttribute('value')))).toEqual([
      'office_agent',
      'refund_agent',
    ]);

    await page.goto(`${base}/viewer?trace=${PLAIN}`);
    await page.locator('#outcome').waitFor();
    expect(await page.locator('#request').textContent()).toBe('My order 1234 is late and I want a refund.');
    expect(await page.locator('#task-status').textContent()).toBe('success');
    expect(JSON.parse((await page.locator('#answer-output').textContent()) ?? '')).toHaveProperty(
      'refund_id',
    );
    expect(await page.locator('#answer-form').count()).toBe(0);
    // A finished task is not followed.
    expect(await page.locator('#live-status').isHidden()).toBe(true);

    await page.goto(`${base}/viewer?trace=${HOSTILE}`);
    await page.locator('#outcome').waitFor();
    expect(await page.locator('#request').textContent()).toBe(`Refund my order. ${XSS}`);
    expect(await page.locator('#task-status').textContent()).toBe('need_clarification');
    expect(await page.locator('#outcome').textContent()).toMatch(/The task asks:What order_id should I use/);
    expect(await page.getByLabel('Your answer').count()).toBe(1);
    // A task waiting on an answer is still watched: the agent may answer it through the API.
    expect(await page.locator('#live-status').textContent()).toMatch(/^Waiting for an answer/);
    // A question of the parameter injector, not the executor's confirmation gate: no confirmation is offered.
    expect(await page.locator('#confirm-form').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
  }, 60_000);

  it('fits a 32-decision trace into a 1,280 px window with every loop in view, and zooms in and out', async () => {
    const page = await openWithKey(`/viewer?trace=${DEGRADED}`);
    await page.setViewportSize({ width: 1280, height: 900 });
    const svg = page.locator('svg.timeline');
    await svg.waitFor();
    const overflow = () => page.evaluate<{ picture: number; page: number }>(TIMELINE_OVERFLOW);
    await expect.poll(overflow).toEqual({ picture: 0, page: 0 });
    expect(await page.locator('#zoom-level').textContent()).toBe('fitted to the window');
    // Its five issues are folded under the answer, which keeps the picture nearer the top.
    expect(await page.locator('#issues summary').textContent()).toBe('Issues (5)');
    expect(await page.locator('#issues li').first().isVisible()).toBe(false);
    const edges = svg.locator('path.edge.loop.back-edge');
    expect(await edges.count()).toBe(7);
    for (const edge of await edges.all()) {
      const box = await edge.boundingBox();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1280);
    }
    // Still by time: the 0.7 s e-mail attempt (#17 → #18) takes more room than a quick hop.
    const xOf = async (v: number) =>
      Number(
        /translate\(([\d.]+)/.exec(
          (await svg.locator(`g.mark[data-stream-version="${String(v)}"]`).getAttribute('transform')) ?? '',
        )?.[1],
      );
    expect((await xOf(18)) - (await xOf(17))).toBeGreaterThan(2 * ((await xOf(17)) - (await xOf(16))));
    // Crowded marks keep their circle, number and colour; their words are in the title until one zooms in.
    const crowded = await svg.locator('g.mark.no-room').count();
    expect(crowded).toBeGreaterThan(0);
    expect(await svg.locator('g.mark.degraded').count()).toBe(9);
    await page.screenshot({ path: join(tmpdir(), 'signalbox-viewer-fit-1280.png') });

    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await page.locator('#zoom-level').textContent()).toBe('300 % of the window');
    const zoomed = await overflow();
    expect(zoomed.picture).toBeGreaterThan(1000);
    expect(zoomed.page).toBe(0);
    expect(await svg.locator('g.mark.no-room').count()).toBeLessThan(crowded);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    expect(await page.locator('#zoom-level').textContent()).toBe('200 % of the window');
    await page.getByRole('button', { name: 'Fit to width' }).click();
    await expect.poll(overflow).toEqual({ picture: 0, page: 0 });
    expect(await page.getByRole('button', { name: 'Fit to width' }).isDisabled()).toBe(true);
  }, 60_000);

  it('gives each decision its work time and its model calls’ count, tokens, cost and latency as columns', async () => {
    const page = await openWithKey(`/viewer?trace=${DEGRADED}`);
    await page.locator('#decisions').waitFor();
    const headings = await page.locator('#decisions thead th').allTextContents();
    const column = (name: string) => headings.indexOf(name) + 1;
    expect(headings.slice(0, 8)).toEqual([
      'Decision',
      'At',
      'Since previous',
      'Work',
      'Model calls',
      'Tokens in → out',
      'Cost',
      'Model latency',
    ]);
    const cells = (name: string) =>
      page.locator(`#decisions tbody tr td:nth-child(${String(column(name))})`).allTextContents();
    // The work time the stages recorded (7 ms per stream version here); the API's submission has none.
    const work = await cells('Work');
    expect(work).toHaveLength(32);
    expect(work[0]).toBe('—');
    expect(work.slice(1)).toEqual(Array.from({ length: 31 }, (_, i) => `${String((i + 2) * 7)} ms`));
    expect(await cells('Model calls')).toEqual(Array(32).fill('—'));

    // The decision resting on two model calls, one answered and one that timed out (EL-7, EL-9).
    await page.goto(`${base}/viewer?trace=${HOSTILE}`);
    await page.locator('#decisions').waitFor();
    const second = page.locator('#decisions tbody tr').nth(1);
    const cell = (name: string) => second.locator(`td:nth-child(${String(column(name))})`).textContent();
    expect(await cell('Model calls')).toBe('2 (1 failed)');
    expect(await cell('Tokens in → out')).toBe('42 → 7');
    // This API was given no registry, so no price is known for the profile: shown as unknown, not as free.
    expect(await cell('Cost')).toBe('?');
    expect(await cell('Model latency')).toBe('30.3 s');
    await page.locator('svg.timeline g.mark[data-stream-version="2"]').click();
    await expect
      .poll(() => page.locator('#details').textContent())
      .toContain('2 (1 failed) · 42 → 7 tokens · ? · 30.3 s');
  }, 60_000);

  it('opens the decision a deep link names, follows hash changes and the Back button', async () => {
    const page = await openWithKey(`/viewer?trace=${DEGRADED}#decision-23`);
    const title = page.locator('#details-title');
    await expect.poll(() => title.textContent()).toBe('Decision #23: degrade_requested');
    expect(await page.locator('svg.timeline g.mark.selected').getAttribute('data-stream-version')).toBe('23');

    await page.evaluate(`location.hash = '#decision-18'`);
    await expect.poll(() => title.textContent()).toBe('Decision #18: step_executed');
    await expect.poll(() => page.locator('#payload').textContent()).toContain('sending is down');
    expect(await page.locator('#decisions tr.is-selected td').first().textContent()).toBe('#18');

    // A click is a step in the history: Back returns to the decision before it.
    await page.locator('#decisions tbody tr').nth(4).getByRole('button').click();
    await expect.poll(() => title.textContent()).toBe('Decision #5: step_executed');
    expect(new URL(page.url()).hash).toBe('#decision-5');
    await page.goBack();
    await expect.poll(() => title.textContent()).toBe('Decision #18: step_executed');
    await page.goBack();
    await expect.poll(() => title.textContent()).toBe('Decision #23: degrade_requested');
    // Forward, and a hash naming no decision closes the details.
    await page.goForward();
    await expect.poll(() => title.textContent()).toBe('Decision #18: step_executed');
    await page.evaluate(`location.hash = '#decision-999'`);
    await expect.poll(() => page.locator('#details').isHidden()).toBe(true);
    expect(await page.locator('svg.timeline g.mark.selected').count()).toBe(0);
  }, 60_000);

  it('says so when a trace does not exist for this key', async () => {
    const page = await openWithKey('/viewer?trace=no-such-task');
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'The API could not give trace no-such-task (404 not_found): no task no-such-task.',
    );
  }, 30_000);
});
