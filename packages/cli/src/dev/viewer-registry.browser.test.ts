// Issue 22 item 1 ("lint problems printed and shown"), in headless Chromium against the dev server: the list page
// shows a banner with the problems of a `--registry` folder — its RG-2 lint findings (file:line:col and message) and,
// after a broken edit, why it did not load and that the last good registry keeps serving — refreshed as the folder
// is read again, without a reload. Chromium is required (CHROMIUM_PATH, default /usr/bin/chromium).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH, requireChromium } from '@signalbox/api/testing';
import { startDevServer, type DevServer } from './server.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

let dev: DevServer | undefined;
let browser: Browser | undefined;
let dir: string | undefined;

beforeAll(async () => {
  requireChromium();
  dir = await mkdtemp(join(tmpdir(), 'signalbox-viewer-registry-'));
  await cp(join(repoRoot, 'registry', 'packs', 'reach'), dir, { recursive: true });
  for (const file of ['agents.yaml', 'scenes.yaml', 'tools.yaml'])
    await writeFile(
      join(dir, file),
      (await readFile(join(dir, file), 'utf8')).replaceAll('reach_agent', 'lint_agent'),
    );
  dev = await startDevServer({
    port: 0,
    packs: [],
    runDemo: false,
    registryDirs: [dir],
    databasePort: null,
    reloadDebounceMs: 100,
    env: { ...process.env, SIGNALBOX_LLM_BASE_URL: undefined, SIGNALBOX_LLM_API_KEY: undefined },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await dev?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('the viewer shows the problems of a --registry folder', { timeout: 120_000 }, () => {
  it('lists lint findings with file:line, then a broken edit and the last good registry, then clears', async () => {
    if (!browser || !dev || !dir) throw new Error('the dev server or the browser did not start');
    const server = dev;
    const folder = dir;
    const problems: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${server.url}/viewer`);
    await page.getByLabel('API key', { exact: true }).fill(server.apiKey);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('#filters').waitFor();
    const banner = page.locator('#registry-problems');
    // The reach pack as shipped lints clean: no banner.
    expect(server.registries[0]?.status().lint).toEqual([]);
    await page.waitForTimeout(2500);
    await expect(banner.isHidden()).resolves.toBe(true);

    // An edit that loads but breaks an RG-2 rule: the "not for" of get_weather names no other tool.
    const toolsFile = join(folder, 'tools.yaml');
    const good = await readFile(toolsFile, 'utf8');
    const linted = good.replace(
      /not_for: >-\n\s+Complaints or requests for human help \(use create_ticket\)\./,
      'not_for: >-\n        Anything else.',
    );
    expect(linted).not.toBe(good);
    await writeFile(toolsFile, linted);
    const lintItem = banner.locator('li.registry-lint').first();
    await lintItem.waitFor();
    const lintLine = (await lintItem.textContent()) ?? '';
    expect(lintLine).toMatch(
      /tools\.yaml:\d+:\d+ error tool "get_weather": description\.not_for names no other tool.*\[RG2-not-for-names-alternative\]/,
    );
    expect(server.registries[0]?.status().lint).toContain(lintLine);
    await expect(banner.getByRole('heading').first().textContent()).resolves.toBe(`${folder}: lint (RG-2)`);

    // A broken edit: why it did not load, and that the last good registry keeps serving.
    await writeFile(toolsFile, `${linted}\n  - name: [unclosed\n`);
    const problem = banner.locator('li.registry-problem').first();
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/tools\.yaml:\d+:\d+: YAML syntax error/);
    await banner
      .getByRole('heading', { name: `${folder} did not load — the last good registry keeps serving` })
      .waitFor();

    // Fixed: the banner goes away on the next read.
    await writeFile(toolsFile, good);
    await banner.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
    await page.close();
  });
});
