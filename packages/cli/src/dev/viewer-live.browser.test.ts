// Issue 22 item 3 (the trace viewer as a place to work) in headless Chromium against the dev server — the production
// stages over PGlite with the demo tool backends, the real API and viewer: a request submitted from the viewer is
// followed live until it finishes; a clarification answered on the trace page continues the task to `success`; a
// call that needs a confirmation is confirmed there (a user pack whose refund_create requires one); the SP-2 trace
// fits a 1,280 px window with its loops in view; a deep link opens a decision's details, and hash changes and Back
// follow it. Chromium is required (CHROMIUM_PATH, default /usr/bin/chromium): without it this file fails and says so.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH, TIMELINE_OVERFLOW, requireChromium } from '@signalbox/api/testing';
import { DEMO_REQUESTS, demoTask } from './scenarios.js';
import { startDevServer, type DevServer } from './server.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** The agent of the user pack below: the after-sales pack's refund agent, whose refunds need a confirmation. */
const CAREFUL_AGENT = 'careful_refund_agent';

let dev: DevServer | undefined;
let browser: Browser | undefined;
let packDir: string | undefined;
/** The task of the SP-2 request (office: yesterday's minutes → weekly report → project group). */
let sp2: string | undefined;
/** Script errors and console errors (a CSP violation is one) of the current test's pages. */
let problems: string[] = [];

/**
 * The after-sales pack as a user's own folder: its agent renamed, and refund_create marked `requires_confirmation`
 * (EX-2), so the executor stops the refund until the user confirms that exact call.
 */
async function carefulPack(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signalbox-viewer-careful-'));
  await cp(join(repoRoot, 'registry', 'packs', 'after-sales'), dir, { recursive: true });
  for (const file of ['agents.yaml', 'scenes.yaml', 'tools.yaml']) {
    const path = join(dir, file);
    let text = (await readFile(path, 'utf8')).replaceAll('refund_agent', CAREFUL_AGENT);
    if (file === 'tools.yaml') {
      const confirmed = text.replace(
        /(- name: refund_create\n[\s\S]*?requires_confirmation: )false/,
        '$1true',
      );
      if (confirmed === text)
        throw new Error('the after-sales pack no longer has refund_create with requires_confirmation');
      text = confirmed;
    }
    await writeFile(path, text);
  }
  return dir;
}

beforeAll(async () => {
  requireChromium();
  packDir = await carefulPack();
  dev = await startDevServer({
    port: 0,
    packs: ['after-sales', 'office'],
    // Not the demo run: each refundable demo order can be refunded once, and these tests refund three of them.
    runDemo: false,
    registryDirs: [packDir],
    databasePort: null,
    // Deterministic stages: no model endpoint, whatever the environment says.
    env: { ...process.env, SIGNALBOX_LLM_BASE_URL: undefined, SIGNALBOX_LLM_API_KEY: undefined },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  // SP-2 as the demo submits it (its locale, zone and "now", a Monday: yesterday's minutes are Sunday's, so the
  // decider re-plans, then three next steps).
  const request = DEMO_REQUESTS.find((r) => r.title.startsWith('SP-2 '));
  if (!request) throw new Error('the demo has no SP-2 request');
  const task = demoTask(request);
  sp2 = await submit(request.agent_id, request.request, {
    locale: task.locale,
    time_zone: task.time_zone,
    reference_time: task.reference_time,
  });
  await finished(sp2);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await dev?.close();
  if (packDir) await rm(packDir, { recursive: true, force: true });
}, 60_000);

afterEach(() => {
  expect(problems, 'the page reported errors').toEqual([]);
  problems = [];
});

/** A new browser tab at 1,280 × 900 on `path`, the dev server's key entered in the form the viewer asks with. */
async function open(path: string): Promise<Page> {
  if (!browser || !dev) throw new Error('the dev server or the browser did not start');
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  await page.goto(`${dev.url}${path}`);
  await page.getByLabel('API key', { exact: true }).fill(dev.apiKey);
  await page.getByRole('button', { name: 'Use this key' }).click();
  return page;
}

/** Submits a request through the API (as an agent would) and returns its task id. */
async function submit(
  agentId: string,
  request: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  if (!dev) throw new Error('the dev server did not start');
  const response = await fetch(`${dev.url}/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dev.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: agentId, request, ...extra }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { task_id: string }).task_id;
}

/** `GET /v1/tasks/:id` of the dev server. */
async function taskStatus(taskId: string): Promise<{
  state: string;
  pending_confirmation: { tool: string; arguments: unknown; arguments_hash: string } | null;
}> {
  if (!dev) throw new Error('the dev server did not start');
  const response = await fetch(`${dev.url}/v1/tasks/${taskId}`, {
    headers: { authorization: `Bearer ${dev.apiKey}` },
  });
  return (await response.json()) as Awaited<ReturnType<typeof taskStatus>>;
}

/** `POST /v1/tasks/:id/answers` with a confirmation of the call `tool` with arguments hashed `argumentsHash` (EX-2). */
async function confirmThroughApi(taskId: string, tool: string, argumentsHash: string): Promise<void> {
  if (!dev) throw new Error('the dev server did not start');
  const response = await fetch(`${dev.url}/v1/tasks/${taskId}/answers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dev.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ confirmation: { tool, arguments_hash: argumentsHash } }),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

/** Waits until the task is no longer running. */
async function finished(taskId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await taskStatus(taskId)).state === 'running') {
    if (Date.now() > deadline) throw new Error(`${taskId} did not finish within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The answer the trace page shows (the output of the last step that succeeded), parsed. */
const answerOf = async (page: Page): Promise<unknown> =>
  JSON.parse((await page.locator('#answer-output').textContent()) ?? 'null');
const marks = (page: Page) => page.locator('svg.timeline g.mark');
const status = (page: Page) => page.locator('#task-status');

describe('the trace viewer against the dev server, in headless Chromium', { timeout: 120_000 }, () => {
  it('submits a request from the list page and follows the new trace live until it finishes', async () => {
    const page = await open('/viewer');
    // Every status the trace page shows, with the number of marks drawn then, from the page's first script on: the
    // page must grow without a reload. The request runs as the careful agent, whose refund waits for a confirmation:
    // the pipeline finishes a request like this in well under a second, so without a pause the page could be drawn
    // for the first time after the last decision and there would be nothing left to follow. The confirmation is
    // given through the API only once the page shows the task waiting, so the refund's decisions come in live.
    await page.addInitScript({
      content: `(() => {
        const seen = [];
        const load = Math.random();
        globalThis.__seen = seen;
        new MutationObserver(() => {
          const status = document.querySelector('#task-status')?.textContent ?? '';
          const marks = document.querySelectorAll('svg.timeline g.mark').length;
          const last = seen.at(-1);
          if (status && (last?.status !== status || last.marks !== marks)) seen.push({ status, marks, load });
        }).observe(document, { childList: true, subtree: true, characterData: true });
      })()`,
    });
    await page.locator('#submit-form').waitFor();
    await page
      .getByLabel('Request', { exact: true })
      .fill('Order 20261101001 arrived broken, I want a refund.');
    await page.getByLabel('Runs as').fill(CAREFUL_AGENT);
    await page.getByRole('button', { name: 'Submit request' }).click();
    await page.waitForURL(/\?trace=task_/);
    await page.locator('svg.timeline').waitFor();
    expect(await page.locator('#request').textContent()).toBe(
      'Order 20261101001 arrived broken, I want a refund.',
    );
    const taskId = new URL(page.url()).searchParams.get('trace') ?? '';

    await page.getByRole('button', { name: 'Confirm refund_create' }).waitFor({ timeout: 60_000 });
    const waiting = await marks(page).count();
    const pending = (await taskStatus(taskId)).pending_confirmation;
    expect(pending?.tool).toBe('refund_create');
    await confirmThroughApi(taskId, pending?.tool ?? '', pending?.arguments_hash ?? '');

    await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe('success');
    const seen = (await page.evaluate(() => (globalThis as { __seen?: unknown }).__seen)) as {
      status: string;
      marks: number;
      load: number;
    }[];
    expect(seen[0]?.status).not.toBe('success');
    expect(seen.map((s) => s.status)).toContain('need_clarification');
    expect(seen.at(-1)?.status).toBe('success');
    // Drawn again as the decisions came in, on one page load.
    expect(new Set(seen.map((s) => s.load)).size).toBe(1);
    expect(seen.at(-1)?.marks ?? 0).toBeGreaterThan(waiting);
    expect(await marks(page).count()).toBeGreaterThanOrEqual(8);
    expect(await page.locator('#live-status').textContent()).toBe('Finished: success.');
    expect(await page.locator('#outcome').textContent()).toContain('Answer (from refund_create)');
    expect(await answerOf(page)).toHaveProperty('refund_id');
    // The pipeline's decisions carry the stage's own work time, recorded by the stage runtime; the API's decisions (the
    // submission, and the confirmation that continued the task) have none.
    const rows = await page.locator('#decisions tbody tr').all();
    const byStage = await Promise.all(
      rows.map(async (row) => ({
        api: (await row.textContent())?.includes('API · submission') ?? false,
        work: (await row.locator('td:nth-child(4)').textContent()) ?? '',
      })),
    );
    expect(byStage.filter((r) => r.api).map((r) => r.work)).toEqual(['—', '—']);
    const pipeline = byStage.filter((r) => !r.api);
    expect(pipeline.length).toBeGreaterThanOrEqual(8);
    expect(pipeline.every((r) => /^\d+ ms$/.test(r.work))).toBe(true);

    // The list shows it too: its request and its answer.
    await page.locator('#back').click();
    const row = page.locator(`#trace-list tr[data-task-id="${taskId}"]`);
    await expect.poll(() => row.locator('.row-outcome').textContent()).toMatch(/^refund_create: \{/);
    expect(await row.locator('.row-request').textContent()).toBe(
      'Order 20261101001 arrived broken, I want a refund.',
    );
  });

  it('answers a clarification from the trace page, and follows the task on to success', async () => {
    const taskId = await submit('refund_agent', 'Refund my order.');
    const page = await open(`/viewer?trace=${taskId}`);
    await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe('need_clarification');
    expect(await page.locator('#outcome').textContent()).toMatch(/What order_id should I use/);
    const before = await marks(page).count();

    // The order and what is wrong with it: the refund's two missing fields.
    await page.getByLabel('Your answer').fill('Order 20240917001, it arrived broken.');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe('success');
    // The continuation is on the same trace: the answer opened it, the decisions after it followed live.
    expect(await marks(page).count()).toBeGreaterThan(before + 3);
    expect(await page.locator('dl.summary').textContent()).toContain('answer continues ×1');
    expect(await answerOf(page)).toMatchObject({ order_id: '20240917001' });
  });

  it('confirms a call that needs a confirmation, bound to its arguments, and the call then runs', async () => {
    const taskId = await submit(CAREFUL_AGENT, 'My order 1234 is late and I want a refund.');
    const page = await open(`/viewer?trace=${taskId}`);
    const confirm = page.getByRole('button', { name: 'Confirm refund_create' });
    await confirm.waitFor({ timeout: 60_000 });
    expect(await status(page).textContent()).toBe('need_clarification');
    // The call as data: its arguments and the hash the confirmation is bound to, as the API returns them.
    const view = await taskStatus(taskId);
    expect(view.pending_confirmation?.tool).toBe('refund_create');
    expect(view.pending_confirmation?.arguments).toMatchObject({ order_id: '1234' });
    expect(await page.locator('#confirm-arguments').textContent()).toContain('"order_id": "1234"');
    expect(await page.locator('#outcome').textContent()).toContain(
      `sha256:${view.pending_confirmation?.arguments_hash ?? '?'}`,
    );

    await confirm.click();
    await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe('success');
    expect(await answerOf(page)).toHaveProperty('refund_id');
    // The executor ran the confirmed call: its reason says so.
    expect(await page.locator('#decisions').textContent()).toContain('confirmed for sha256:');
  });

  it('fits the SP-2 trace into a 1,280 px window with its loops in view, and zooms in on demand', async () => {
    const page = await open(`/viewer?trace=${sp2 ?? ''}`);
    await page.locator('svg.timeline').waitFor();
    const overflow = () => page.evaluate<{ picture: number; page: number }>(TIMELINE_OVERFLOW);
    expect(await overflow()).toEqual({ picture: 0, page: 0 });
    // Every loop's back-edge is on screen, left to right, without scrolling.
    const loops = page.locator('svg.timeline path.edge.loop.back-edge');
    expect(await loops.count()).toBeGreaterThanOrEqual(2);
    for (const edge of await loops.all()) {
      const box = await edge.boundingBox();
      expect(box).not.toBeNull();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1280);
    }
    expect(await page.locator('svg.timeline .edge-label').allTextContents()).toEqual(
      expect.arrayContaining(['↺ re-plan 1', '↺ next step 1']),
    );
    await page.screenshot({ path: join(tmpdir(), 'signalbox-viewer-sp2-1280.png') });

    // Zoomed in, the picture is wider than the window and scrolls inside its frame; the page itself does not.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await page.locator('#zoom-level').textContent()).toBe('200 % of the window');
    const zoomed = await overflow();
    expect(zoomed.picture).toBeGreaterThan(500);
    expect(zoomed.page).toBe(0);
    await page.getByRole('button', { name: 'Fit to width' }).click();
    expect(await overflow()).toEqual({ picture: 0, page: 0 });
  });

  it('opens a decision from a deep link, follows hash changes on the open page, and goes back with Back', async () => {
    const page = await open(`/viewer?trace=${sp2 ?? ''}#decision-6`);
    const title = page.locator('#details-title');
    await expect.poll(() => title.textContent()).toMatch(/^Decision #6: /);
    expect(await page.locator('svg.timeline g.mark.selected').getAttribute('data-stream-version')).toBe('6');

    // Edited in the address bar of the open page.
    await page.evaluate(`location.hash = '#decision-3'`);
    await expect.poll(() => title.textContent()).toBe('Decision #3: task_planned');
    // A click records a history entry; Back returns to the decision before, then to none.
    await page.locator('svg.timeline g.mark[data-stream-version="4"]').click();
    await expect.poll(() => title.textContent()).toBe('Decision #4: step_prepared');
    expect(new URL(page.url()).hash).toBe('#decision-4');
    await page.goBack();
    await expect.poll(() => title.textContent()).toBe('Decision #3: task_planned');
    expect(await page.locator('#decisions tr.is-selected td').first().textContent()).toBe('#3');
  });
});
