import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { bufferIo } from './io.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const bfclDir = process.env.SIGNALBOX_BFCL_DIR ?? resolve(repoRoot, '../shared/eval/bfcl');

async function run(argv: string[], cwd = repoRoot, env: NodeJS.ProcessEnv = {}) {
  const io = bufferIo(cwd, env);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

/** Runs with --json and checks that stdout is exactly one JSON object. */
async function runJson(argv: string[], cwd = repoRoot, env: NodeJS.ProcessEnv = {}) {
  const { code, out } = await run([...argv, '--json'], cwd, env);
  expect(out.trim().split('\n')).toHaveLength(1);
  return { code, json: JSON.parse(out) as Record<string, unknown> };
}

describe('signalbox registry (in-process)', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'signalbox-cli-'));
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('lint: the four packs are clean', async () => {
    const { code, json } = await runJson(['registry', 'lint']);
    expect(code).toBe(0);
    expect(json).toMatchObject({ ok: true, errors: 0, warnings: 0 });
    expect((json.registries as { dir: string }[]).map((r) => r.dir)).toEqual([
      'registry/packs/after-sales',
      'registry/packs/office',
      'registry/packs/reach',
      'registry/packs/research',
    ]);
  });

  it('lint: exits 1 with file:line findings on a broken registry, and honours --rule', async () => {
    const dir = join(work, 'broken');
    cpSync(join(repoRoot, 'registry/packs/reach'), dir, { recursive: true });
    const tools = join(dir, 'tools.yaml');
    writeFileSync(
      tools,
      readFileSync(tools, 'utf8').replace(
        'Complaints or requests for human help (use create_ticket).',
        'Anything else.',
      ),
    );
    const text = await run(['registry', 'lint', dir], work);
    expect(text.code).toBe(1);
    expect(text.err).toMatch(
      /broken\/tools\.yaml:\d+:\d+ error tool "get_weather": .*\[RG2-not-for-names-alternative\]/,
    );
    const relaxed = await runJson(
      ['registry', 'lint', dir, '--rule', 'RG2-not-for-names-alternative=warning'],
      work,
    );
    expect(relaxed.code).toBe(0);
    expect(relaxed.json).toMatchObject({ errors: 0, warnings: 1 });
  });

  it('check: passes on the packs and fails when a change alters what an agent sees, until updated', async () => {
    expect((await runJson(['registry', 'check'])).code).toBe(0);
    const dir = join(work, 'after-sales');
    cpSync(join(repoRoot, 'registry/packs/after-sales'), dir, { recursive: true });
    const tools = join(dir, 'tools.yaml');
    // The seed 002 incident: order_status_query silently dropped from the refund agent's list.
    writeFileSync(
      tools,
      readFileSync(tools, 'utf8').replace(
        '    owner_agent: refund_agent\n    visible_agents: [logistics_agent, invoice_agent, repair_agent]',
        '    owner_agent: logistics_agent\n    visible_agents: [invoice_agent, repair_agent]',
      ),
    );
    const drift = await runJson(['registry', 'check', dir], work);
    expect(drift.code).toBe(1);
    const result = (
      drift.json.registries as { status: string; drift: { key: string; removed: string[] }[] }[]
    )[0]!;
    expect(result.status).toBe('drift');
    expect(result.drift).toContainEqual(
      expect.objectContaining({ key: 'refund_agent/refund', removed: ['order_status_query'] }),
    );
    const text = await run(['registry', 'check', dir], work);
    expect(text.err).toMatch(/drift at refund_agent\/refund: no longer sees order_status_query/);

    expect((await runJson(['registry', 'check', '--update', dir], work)).code).toBe(0);
    expect((await runJson(['registry', 'check', dir], work)).code).toBe(0);
  });

  it('bad arguments give a clear error and exit 2, also as one JSON object', async () => {
    const missing = await runJson(['registry', 'import', 'x.json']);
    expect(missing.code).toBe(2);
    expect(missing.json).toMatchObject({ ok: false, error: { message: expect.stringMatching(/--format/) } });
    const badChoice = await run(['registry', 'export', 'registry/packs/reach', '--format', 'yaml']);
    expect(badChoice.code).toBe(2);
    expect(badChoice.err).toMatch(/Allowed choices are openai, mcp/);
    const noDir = await runJson(['registry', 'lint', 'no/such/dir']);
    expect(noDir).toMatchObject({
      code: 2,
      json: { error: { message: 'registry directory "no/such/dir" does not exist' } },
    });
    const badRule = await runJson(['registry', 'lint', '--rule', 'RG2-naming=fatal']);
    expect(badRule.code).toBe(2);
    expect((await runJson(['nonsense'])).code).toBe(2);
  });

  it('import: BFCL sets with zero errors, OpenAI to YAML that loads back', async () => {
    if (existsSync(bfclDir)) {
      const bfcl = await runJson([
        'registry',
        'import',
        join(bfclDir, 'BFCL_v4_multiple.json'),
        '--format',
        'bfcl',
      ]);
      expect(bfcl).toMatchObject({ code: 0, json: { ok: true, cases: 200, functions: 557, errors: 0 } });
    } else {
      console.warn(`skipping the BFCL part: ${bfclDir} is absent (set SIGNALBOX_BFCL_DIR)`);
    }
    const dir = join(work, 'imported');
    cpSync(join(repoRoot, 'registry/packs/reach/agents.yaml'), join(dir, 'agents.yaml'), { recursive: true });
    const input = join(work, 'openai.json');
    writeFileSync(
      input,
      JSON.stringify([
        {
          type: 'function',
          function: {
            name: 'lookup_stock',
            description: 'Stock level of a product.',
            parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
          },
        },
      ]),
    );
    const imported = await runJson(
      [
        'registry',
        'import',
        input,
        '--format',
        'openai',
        '--assume',
        'read',
        '--out',
        join(dir, 'tools.yaml'),
      ],
      work,
    );
    expect(imported).toMatchObject({ code: 0, json: { tools: 1, errors: 0 } });
    const version = await runJson(['registry', 'version', dir], work);
    expect(version.code).toBe(0);
    expect(Object.keys(version.json.tool_hashes as object)).toEqual(['lookup_stock']);
    // Imported definitions load, but the authoring rules still ask for a three-part description.
    const lint = await runJson(['registry', 'lint', dir], work);
    expect(lint.json).toMatchObject({ ok: false });
  });

  it("export: an agent's visible set as OpenAI tools and as an MCP tool list", async () => {
    const openai = await runJson([
      'registry',
      'export',
      'registry/packs/after-sales',
      '--format',
      'openai',
      '--agent',
      'refund_agent',
      '--scenario',
      'refund',
    ]);
    expect(openai.code).toBe(0);
    const tools = openai.json.tools as { function: { name: string; description: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual([
      'order_status_query',
      'refund_create',
      'refund_status_query',
    ]);
    expect(tools[0]!.function.description).toMatch(/\nReturns: .*\nNot for: .*logistics_track_query/s);
    const mcp = await runJson(['registry', 'export', 'registry/packs/research', '--format', 'mcp']);
    expect(
      (mcp.json.tools as { name: string; annotations: { readOnlyHint: boolean } }[]).every(
        (t) => t.annotations.readOnlyHint,
      ),
    ).toBe(true);
    const unknownAgent = await runJson([
      'registry',
      'export',
      'registry/packs/reach',
      '--format',
      'mcp',
      '--agent',
      'ghost',
      '--scenario',
      'weather',
    ]);
    expect(unknownAgent).toMatchObject({
      code: 2,
      json: { error: { message: expect.stringMatching(/unknown agent "ghost"/) } },
    });
  });
});

describe('signalbox registry publish / diff (PostgreSQL)', () => {
  let schema: IsolatedSchema;
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'signalbox-cli-pg-'));
    schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'registry_cli');
  });
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await schema.drop();
  });

  it('publishes the same content to the same version; diff names the one changed tool', async () => {
    const db = ['--database-url', testEndpoints().databaseUrl, '--schema', schema.name];
    const dir = join(work, 'reach');
    cpSync(join(repoRoot, 'registry/packs/reach'), dir, { recursive: true });
    const first = await runJson(['registry', 'publish', dir, ...db], work);
    const again = await runJson(['registry', 'publish', dir, ...db], work);
    expect(first.code).toBe(0);
    const v1 = (first.json.publication as { registry_version: string }).registry_version;
    expect((again.json.publication as { registry_version: string }).registry_version).toBe(v1);

    const tools = join(dir, 'tools.yaml');
    writeFileSync(
      tools,
      readFileSync(tools, 'utf8').replace(
        'A receipt with the ticket id, its state and priority.',
        'A receipt with the ticket id and its state.',
      ),
    );
    const second = await runJson(['registry', 'publish', dir, '--label', 'edited', ...db], work);
    const v2 = (second.json.publication as { registry_version: string }).registry_version;
    expect(v2).not.toBe(v1);

    const diff = await runJson(['registry', 'diff', `reach@${v1}`, 'reach@latest', ...db], work);
    expect(diff.code).toBe(0);
    expect(diff.json.tools).toEqual([
      expect.objectContaining({ tool: 'create_ticket', change: 'changed', fields: ['description'] }),
    ]);
    const text = await run(['registry', 'diff', `reach@${v1.slice(7, 19)}`, dir, ...db], work);
    expect(text.out).toContain('~ create_ticket: description');

    const noDb = await runJson(['registry', 'publish', dir], work, {});
    expect(noDb).toMatchObject({
      code: 2,
      json: { error: { message: expect.stringMatching(/DATABASE_URL/) } },
    });
  });
});

// A cold tsx start on a loaded 2-core machine can take several seconds: the tests allow what execFile allows.
describe('pnpm signalbox (a real process)', { timeout: 30_000 }, () => {
  it('runs main.ts from the repository root with the source condition', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=@signalbox/source',
        '--import',
        'tsx',
        'packages/cli/src/main.ts',
        'registry',
        'lint',
        'registry/packs/reach',
        '--json',
      ],
      { cwd: repoRoot, timeout: 30_000 },
    );
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, command: 'registry lint', errors: 0 });
  });

  it('exits non-zero on usage errors', async () => {
    const result = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=@signalbox/source',
        '--import',
        'tsx',
        'packages/cli/src/main.ts',
        'registry',
        'diff',
        'only-one',
      ],
      { cwd: repoRoot, timeout: 30_000 },
    ).catch((error: unknown) => error as { code: number; stderr: string });
    expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/missing required argument 'b'/) });
  });
});
