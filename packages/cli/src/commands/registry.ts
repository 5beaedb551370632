import { existsSync, statSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import {
  compareSnapshots,
  createRegistryStore,
  diffRegistries,
  exportMcpTools,
  exportOpenAITools,
  formatFinding,
  formatProblem,
  importBfcl,
  importMcpTools,
  importOpenAITools,
  lintSources,
  parseRegistrySources,
  loadRegistryDir,
  readRegistryDir,
  RegistryError,
  RegistryLoadError,
  toolsFor,
  toolsForScene,
  toolsToYaml,
  visibilitySnapshot,
  type ImportResult,
  type LintOptions,
  type Registry,
  type Severity,
  type VisibilitySnapshot,
} from '@signalbox/registry';
import { UsageError } from '../errors.js';
import { textSimilarity } from '../semantic.js';
import type { CliIo, CommandResult } from '../io.js';

/** The file, beside a registry's YAML, that holds its checked-in visibility snapshot (RG-5). */
export const SNAPSHOT_FILE = 'visibility.snapshot.json';

/** Where packs live, relative to the repository root. */
export const PACKS_DIR = 'registry/packs';

function abs(io: CliIo, path: string): string {
  return isAbsolute(path) ? path : resolve(io.cwd, path);
}

function shown(io: CliIo, path: string): string {
  const rel = relative(io.cwd, abs(io, path));
  return rel === '' ? '.' : rel.startsWith('..') ? abs(io, path) : rel;
}

/** The registry directories to work on: those given, else every pack under `registry/packs`. */
async function registryDirs(io: CliIo, dirs: readonly string[]): Promise<string[]> {
  if (dirs.length > 0) {
    for (const dir of dirs) {
      if (!existsSync(abs(io, dir)) || !statSync(abs(io, dir)).isDirectory())
        throw new UsageError(`registry directory "${dir}" does not exist`);
    }
    return [...dirs];
  }
  const packs = abs(io, PACKS_DIR);
  if (!existsSync(packs))
    throw new UsageError(`no directory given and ${PACKS_DIR} does not exist under ${io.cwd}`);
  const entries = await readdir(packs, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => join(PACKS_DIR, e.name))
    .sort();
}

async function load(io: CliIo, dir: string): Promise<Registry> {
  return loadRegistryDir(abs(io, dir), io.cwd);
}

/** A failed load as a command result: one line per problem. */
function loadFailure(command: string, dir: string, error: RegistryLoadError): CommandResult {
  return {
    exitCode: 1,
    json: { ok: false, command, dir, problems: error.problems },
    text: [
      `${dir}: ${error.problems.length} problem(s); nothing loaded`,
      ...error.problems.map(formatProblem),
    ],
  };
}

/** Parses `RULE=severity` options. */
export function parseRuleOptions(values: readonly string[]): Record<string, Severity> {
  const out: Record<string, Severity> = {};
  for (const value of values) {
    const [, id, severity] = /^([A-Za-z0-9-]+)=(error|warning|off)$/.exec(value) ?? [];
    if (!id || !severity) throw new UsageError(`--rule expects RULE=error|warning|off, got "${value}"`);
    out[id] = severity as Severity;
  }
  return out;
}

/** `registry lint [dirs…]`: every authoring rule of RG-2; exit 1 when any finding is an error. */
export async function registryLint(
  io: CliIo,
  dirs: readonly string[],
  options: LintOptions,
): Promise<CommandResult> {
  const targets = await registryDirs(io, dirs);
  const reports = [];
  const text: string[] = [];
  for (const dir of targets) {
    const sources = await readRegistryDir(abs(io, dir), io.cwd);
    // RG2-near-duplicate-description by meaning, with the decider's own sentence embeddings (words only when the
    // operator turned the model off).
    const purposes = parseRegistrySources(sources).content.tools.map((t) =>
      typeof t.description === 'string' ? t.description : t.description.purpose,
    );
    const purposeSimilarity = options.purposeSimilarity ?? (await textSimilarity(purposes, io.env));
    const report = lintSources(sources, { ...options, ...(purposeSimilarity ? { purposeSimilarity } : {}) });
    reports.push({ dir: shown(io, dir), ...report });
    text.push(...report.findings.map(formatFinding));
    text.push(`${shown(io, dir)}: ${report.errors} error(s), ${report.warnings} warning(s)`);
  }
  const errors = reports.reduce((n, r) => n + r.errors, 0);
  const warnings = reports.reduce((n, r) => n + r.warnings, 0);
  return {
    exitCode: errors > 0 ? 1 : 0,
    json: { ok: errors === 0, command: 'registry lint', errors, warnings, registries: reports },
    text,
  };
}

/** `registry check [dirs…]`: compares each registry's visibility with its checked-in snapshot (RG-5). */
export async function registryCheck(
  io: CliIo,
  dirs: readonly string[],
  options: { update?: boolean; tenant?: string },
): Promise<CommandResult> {
  const targets = await registryDirs(io, dirs);
  const results = [];
  const text: string[] = [];
  let failed = false;
  for (const dir of targets) {
    let registry: Registry;
    try {
      registry = await load(io, dir);
    } catch (error) {
      if (!(error instanceof RegistryLoadError)) throw error;
      failed = true;
      results.push({ dir: shown(io, dir), status: 'invalid', problems: error.problems });
      text.push(`${shown(io, dir)}: does not load`, ...error.problems.map(formatProblem));
      continue;
    }
    const actual = visibilitySnapshot(registry, options.tenant ?? 'default');
    const file = join(abs(io, dir), SNAPSHOT_FILE);
    if (options.update) {
      await writeFile(file, `${JSON.stringify(actual, null, 2)}\n`);
      results.push({ dir: shown(io, dir), status: 'updated', snapshot: shown(io, file) });
      text.push(`${shown(io, dir)}: snapshot written to ${shown(io, file)}`);
      continue;
    }
    if (!existsSync(file)) {
      failed = true;
      results.push({ dir: shown(io, dir), status: 'missing', snapshot: shown(io, file) });
      text.push(
        `${shown(io, dir)}: no ${SNAPSHOT_FILE}; run \`signalbox registry check --update ${shown(io, dir)}\` and review it`,
      );
      continue;
    }
    let expected: VisibilitySnapshot;
    try {
      expected = JSON.parse(await readFile(file, 'utf8')) as VisibilitySnapshot;
    } catch (error) {
      throw new UsageError(`${shown(io, file)} is not JSON: ${(error as Error).message}`);
    }
    const drift = compareSnapshots(expected, actual);
    if (drift.length > 0) failed = true;
    results.push({ dir: shown(io, dir), status: drift.length > 0 ? 'drift' : 'ok', drift });
    if (drift.length === 0) text.push(`${shown(io, dir)}: visibility matches ${SNAPSHOT_FILE}`);
    for (const d of drift) {
      const parts = [
        d.added.length > 0 ? `now also sees ${d.added.join(', ')}` : '',
        d.removed.length > 0 ? `no longer sees ${d.removed.join(', ')}` : '',
        d.reordered ? `order changed: ${d.expected?.join(', ')} → ${d.actual?.join(', ')}` : '',
        d.expected === undefined ? 'new pair' : d.actual === undefined ? 'pair gone' : '',
      ].filter(Boolean);
      text.push(`${shown(io, dir)}: drift at ${d.key}: ${parts.join('; ')}`);
    }
    if (drift.length > 0)
      text.push(`update on purpose with \`signalbox registry check --update ${shown(io, dir)}\``);
  }
  return {
    exitCode: failed ? 1 : 0,
    json: { ok: !failed, command: 'registry check', registries: results },
    text,
  };
}

/** Options shared by the commands that talk to the store. */
export interface StoreCliOptions {
  databaseUrl?: string;
  schema?: string;
}

function storeFor(io: CliIo, options: StoreCliOptions) {
  const connectionString = options.databaseUrl ?? io.env.DATABASE_URL;
  if (!connectionString) throw new UsageError('no database: pass --database-url or set DATABASE_URL');
  return createRegistryStore({
    connectionString,
    ...(options.schema ? { schema: options.schema } : {}),
    maxConnections: 2,
  });
}

/** `registry publish <dir>`: stores the registry's current content as a version (RG-3). */
export async function registryPublish(
  io: CliIo,
  dir: string,
  options: StoreCliOptions & { name?: string; label?: string },
): Promise<CommandResult> {
  if (!existsSync(abs(io, dir))) throw new UsageError(`registry directory "${dir}" does not exist`);
  let registry: Registry;
  try {
    registry = await load(io, dir);
  } catch (error) {
    if (error instanceof RegistryLoadError) return loadFailure('registry publish', shown(io, dir), error);
    throw error;
  }
  const name = options.name ?? basename(abs(io, dir));
  const store = storeFor(io, options);
  try {
    await store.migrate();
    const publication = await store.publish(name, registry, options.label ? { label: options.label } : {});
    return {
      exitCode: 0,
      json: {
        ok: true,
        command: 'registry publish',
        publication,
        tool_hashes: registry.versions.tool_hashes,
      },
      text: [
        `${name}: published ${publication.registry_version}${publication.new_content ? '' : ' (content already stored)'} as #${publication.seq}`,
        `profiles ${publication.profiles_version}`,
        `policy   ${publication.policy_version}`,
      ],
    };
  } finally {
    await store.close();
  }
}

async function resolveOperand(
  io: CliIo,
  operand: string,
  options: StoreCliOptions,
): Promise<{ label: string; registry: Registry }> {
  if (existsSync(abs(io, operand))) return { label: shown(io, operand), registry: await load(io, operand) };
  const [, name, ref] = /^([a-z][a-z0-9_.-]*)@(.+)$/.exec(operand) ?? [];
  if (!name || !ref)
    throw new UsageError(`"${operand}" is neither a registry directory nor <name>@<version|label|latest>`);
  const store = storeFor(io, options);
  try {
    const stored = await store.load(name, ref);
    return { label: `${name}@${stored.publication.registry_version}`, registry: stored.registry };
  } finally {
    await store.close();
  }
}

/** `registry diff <a> <b>`: what changed per tool (each operand a directory or `<name>@<version>`). */
export async function registryDiff(
  io: CliIo,
  a: string,
  b: string,
  options: StoreCliOptions,
): Promise<CommandResult> {
  let before, after;
  try {
    before = await resolveOperand(io, a, options);
    after = await resolveOperand(io, b, options);
  } catch (error) {
    if (error instanceof RegistryLoadError) return loadFailure('registry diff', a, error);
    throw error;
  }
  const diff = diffRegistries(before.registry.content, after.registry.content);
  const same = diff.before.registry_version === diff.after.registry_version;
  const text = [
    `${before.label} ${diff.before.registry_version}`,
    `${after.label} ${diff.after.registry_version}`,
  ];
  if (same) text.push('registry content is identical');
  for (const t of diff.tools) {
    text.push(
      t.change === 'changed'
        ? `~ ${t.tool}: ${t.fields.join(', ')}`
        : `${t.change === 'added' ? '+' : '-'} ${t.tool}`,
    );
  }
  for (const o of diff.others)
    text.push(`${o.change === 'added' ? '+' : o.change === 'removed' ? '-' : '~'} ${o.section} ${o.id}`);
  if (diff.before.profiles_version !== diff.after.profiles_version) text.push('profiles version changed');
  if (diff.before.policy_version !== diff.after.policy_version) text.push('policy version changed');
  return {
    exitCode: 0,
    json: { ok: true, command: 'registry diff', a: before.label, b: after.label, identical: same, ...diff },
    text,
  };
}

/** The import formats of RG-6. */
export type ImportFormat = 'openai' | 'mcp' | 'bfcl';

/** `registry import <file> --format …`: converts tool definitions to registry YAML (or just validates them). */
export async function registryImport(
  io: CliIo,
  file: string,
  options: { format: ImportFormat; out?: string; assume?: 'read' | 'write'; server?: string },
): Promise<CommandResult> {
  if (!existsSync(abs(io, file))) throw new UsageError(`file "${file}" does not exist`);
  const text = await readFile(abs(io, file), 'utf8');
  const where = shown(io, file);
  let result: ImportResult & { cases?: unknown[]; functions?: number };
  if (options.format === 'bfcl') {
    result = importBfcl(text, { file: where });
  } else {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (error) {
      return {
        exitCode: 1,
        json: {
          ok: false,
          command: 'registry import',
          file: where,
          problems: [{ code: 'import-format', message: `not JSON: ${(error as Error).message}` }],
        },
        text: [`${where}: not JSON: ${(error as Error).message}`],
      };
    }
    result =
      options.format === 'openai'
        ? importOpenAITools(input, { file: where, ...(options.assume ? { assume: options.assume } : {}) })
        : importMcpTools(input, { file: where, ...(options.server ? { server: options.server } : {}) });
  }
  // BFCL repeats a function in many cases; the YAML keeps the first definition of each name.
  const unique = [...new Map(result.tools.map((t) => [t.name, t] as const)).values()];
  const ok = result.problems.length === 0;
  if (ok && options.out) {
    await writeFile(abs(io, options.out), toolsToYaml(unique, `Imported from ${where} (${options.format}).`));
  }
  return {
    exitCode: ok ? 0 : 1,
    json: {
      ok,
      command: 'registry import',
      format: options.format,
      file: where,
      tools: result.tools.length,
      unique_tools: unique.length,
      ...(result.cases ? { cases: result.cases.length, functions: result.functions } : {}),
      errors: result.problems.length,
      problems: result.problems,
      notes: result.notes,
      ...(ok && options.out ? { out: shown(io, options.out) } : {}),
    },
    text: [
      ...result.problems.map(formatProblem),
      `${where}: ${result.tools.length} tool definition(s) imported${result.cases ? ` from ${result.cases.length} case(s)` : ''}, ${unique.length} unique, ${result.problems.length} error(s)`,
      ...result.notes.map((n) => `note: ${n}`),
      ...(ok && options.out ? [`written to ${shown(io, options.out)}`] : []),
    ],
  };
}

/** `registry export <dir> --format …`: the registry's tools (or one agent's visible set) as OpenAI tools or an MCP tool list. */
export async function registryExport(
  io: CliIo,
  dir: string,
  options: { format: 'openai' | 'mcp'; agent?: string; scenario?: string; scene?: string; tenant?: string },
): Promise<CommandResult> {
  let registry: Registry;
  try {
    registry = await load(io, dir);
  } catch (error) {
    if (error instanceof RegistryLoadError) return loadFailure('registry export', shown(io, dir), error);
    throw error;
  }
  let tools = registry.content.tools;
  if (options.agent || options.scenario || options.scene) {
    if (!options.agent || !(options.scenario || options.scene))
      throw new UsageError('a visible set needs --agent and either --scenario or --scene');
    try {
      const query = { agent: options.agent, tenant: options.tenant ?? 'default' };
      tools = options.scene
        ? toolsForScene(registry, { ...query, scene: options.scene }).tools
        : toolsFor(registry, { ...query, scenario: options.scenario ?? '' }).tools;
    } catch (error) {
      if (error instanceof RegistryError) throw new UsageError(error.message, { cause: error });
      throw error;
    }
  }
  const exported = options.format === 'openai' ? { tools: exportOpenAITools(tools) } : exportMcpTools(tools);
  return {
    exitCode: 0,
    json: {
      ok: true,
      command: 'registry export',
      format: options.format,
      registry_version: registry.versions.registry_version,
      ...exported,
    },
    text: [JSON.stringify(exported, null, 2)],
  };
}

/** `registry version <dir>`: the registry, profiles and policy versions and each tool's definition hash. */
export async function registryVersion(io: CliIo, dir: string): Promise<CommandResult> {
  try {
    const registry = await load(io, dir);
    const v = registry.versions;
    return {
      exitCode: 0,
      json: { ok: true, command: 'registry version', ...v },
      text: [
        `registry ${v.registry_version}`,
        `profiles ${v.profiles_version}`,
        `policy   ${v.policy_version}`,
        ...Object.entries(v.tool_hashes).map(([name, hash]) => `  ${name} ${hash}`),
      ],
    };
  } catch (error) {
    if (error instanceof RegistryLoadError) return loadFailure('registry version', shown(io, dir), error);
    throw error;
  }
}
