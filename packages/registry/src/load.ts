import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { RegistryLoadError } from './errors.js';
import { structuralProblems } from './lint/lint.js';
import { ModelProfile } from './model-profile.js';
import { RoutingPolicy } from './policy.js';
import { formatProblem, type ItemKind, type Problem, type SourceLocation } from './problem.js';
import { createRegistry, type Registry, type RegistryContent } from './registry.js';
import { AgentDefinition, RegistrySettings, SceneTemplate, TenantPolicy } from './scene.js';
import { ToolDefinition } from './tool-definition.js';

/** One YAML file's text and the path it is reported under. */
export interface RegistrySource {
  file: string;
  text: string;
}

/** Finds where an item (or a field inside it) was written. */
export type Locator = (kind: ItemKind, id: string, field?: string) => SourceLocation | undefined;

/**
 * The result of parsing registry YAML: the items that validated, every problem found, and a locator for
 * reporting later findings (lint) at file:line. Not a registry yet: relations are unchecked.
 */
export interface ParsedRegistry {
  content: RegistryContent;
  problems: Problem[];
  locate: Locator;
  /** Every item declaration in source order, duplicates included. */
  declarations: Declaration[];
  files: string[];
}

/** Where one item was declared. */
export interface Declaration {
  kind: ItemKind;
  id: string;
  location: SourceLocation;
}

interface SectionSpec {
  kind: ItemKind;
  schema: z.ZodType;
  idKey: 'name' | 'id';
}

const SECTIONS = {
  tools: { kind: 'tool', schema: ToolDefinition, idKey: 'name' },
  agents: { kind: 'agent', schema: AgentDefinition, idKey: 'id' },
  scenes: { kind: 'scene', schema: SceneTemplate, idKey: 'id' },
  tenants: { kind: 'tenant', schema: TenantPolicy, idKey: 'id' },
  profiles: { kind: 'profile', schema: ModelProfile, idKey: 'id' },
  policies: { kind: 'policy', schema: RoutingPolicy, idKey: 'id' },
} as const satisfies Record<string, SectionSpec>;

type ListSection = keyof typeof SECTIONS;
const SECTION_NAMES = [...Object.keys(SECTIONS), 'settings'];

interface ParsedFile {
  file: string;
  doc: Document;
  lines: LineCounter;
}

function locationOf(parsed: ParsedFile, offset: number): SourceLocation {
  const pos = parsed.lines.linePos(offset);
  return { file: parsed.file, line: pos.line, column: pos.col };
}

/** The node at `path`, or at its longest existing prefix (a missing field is reported where its parent is). */
function nodeAt(doc: Document, path: (string | number)[]): Node | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range) return node;
  }
  return undefined;
}

function fieldPath(field: string | undefined): (string | number)[] {
  if (!field) return [];
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function zodMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove or rename ${issue.keys.length > 1 ? 'them' : 'it'} (see RG-1 for the fields a definition may have)`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return `missing required field (${issue.message})`;
  return issue.message;
}

/** Parses YAML sources into items (all-or-nothing is the caller's choice: see {@link loadRegistrySources}). */
export function parseRegistrySources(sources: readonly RegistrySource[]): ParsedRegistry {
  const problems: Problem[] = [];
  const content: RegistryContent = {
    tools: [],
    agents: [],
    scenes: [],
    tenants: [],
    profiles: [],
    policies: [],
    settings: RegistrySettings.parse({}),
  };
  const places = new Map<string, { parsed: ParsedFile; base: (string | number)[] }>();
  const declarations: Declaration[] = [];
  let settingsFrom: string | undefined;

  for (const source of sources) {
    const lines = new LineCounter();
    const doc = parseDocument(source.text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
    const parsed: ParsedFile = { file: source.file, doc, lines };
    if (doc.errors.length > 0) {
      for (const error of doc.errors) {
        const pos = error.linePos?.[0];
        problems.push({
          code: 'yaml-syntax',
          message: `YAML syntax error: ${error.message.split('\n')[0] ?? error.code}`,
          location: pos
            ? { file: source.file, line: pos.line, column: pos.col }
            : { file: source.file, line: 1, column: 1 },
        });
      }
      continue;
    }
    const root = doc.contents;
    if (root === null) continue; // an empty file holds nothing
    if (!isMap(root)) {
      problems.push({
        code: 'schema',
        message: `a registry file is a mapping of sections (${SECTION_NAMES.join(', ')})`,
        location: locationOf(parsed, root.range[0]),
      });
      continue;
    }
    for (const pair of root.items) {
      const keyNode = pair.key as { value?: unknown } | null;
      const key = typeof keyNode?.value === 'string' ? keyNode.value : String(keyNode?.value);
      const keyOffset = (pair.key as Node | null)?.range?.[0] ?? 0;
      if (key === 'settings') {
        if (settingsFrom) {
          problems.push({
            code: 'schema',
            message: `settings are already declared in ${settingsFrom}; declare them once`,
            location: locationOf(parsed, keyOffset),
            kind: 'settings',
          });
          continue;
        }
        settingsFrom = source.file;
        const result = RegistrySettings.safeParse((doc.toJS() as { settings?: unknown }).settings ?? {});
        if (result.success) content.settings = result.data;
        else {
          for (const issue of result.error.issues) {
            const field = issue.path.join('.');
            const node = nodeAt(doc, [
              'settings',
              ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
            ]);
            problems.push({
              code: 'schema',
              message: zodMessage(issue),
              location: locationOf(parsed, node?.range?.[0] ?? keyOffset),
              kind: 'settings',
              field,
            });
          }
        }
        continue;
      }
      if (!(key in SECTIONS)) {
        problems.push({
          code: 'schema',
          message: `unknown section "${key}"; a registry file may have: ${SECTION_NAMES.join(', ')}`,
          location: locationOf(parsed, keyOffset),
        });
        continue;
      }
      const section = key as ListSection;
      const spec: SectionSpec = SECTIONS[section];
      const list = pair.value;
      if (list === null) continue;
      if (!isSeq(list)) {
        problems.push({
          code: 'schema',
          message: `"${section}" must be a list of ${spec.kind} definitions`,
          location: locationOf(parsed, (list as Node).range?.[0] ?? keyOffset),
        });
        continue;
      }
      // Converted through the document so that anchors and aliases (`retry: *retry_reads`) resolve.
      const items = (doc.toJS({ maxAliasCount: 1000 }) as Record<string, unknown[]>)[section] ?? [];
      list.items.forEach((itemNode, index) => {
        const raw: unknown = items[index];
        const rawId =
          raw && typeof raw === 'object' && typeof (raw as Record<string, unknown>)[spec.idKey] === 'string'
            ? ((raw as Record<string, unknown>)[spec.idKey] as string)
            : undefined;
        const itemOffset = (itemNode as Node).range?.[0] ?? keyOffset;
        const result = spec.schema.safeParse(raw);
        if (!result.success) {
          for (const issue of result.error.issues) {
            const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
            const node = nodeAt(doc, [section, index, ...path]);
            problems.push({
              code: 'schema',
              message: zodMessage(issue),
              location: locationOf(parsed, node?.range?.[0] ?? itemOffset),
              kind: spec.kind,
              item: rawId ?? `#${index + 1}`,
              field: path.join('.') || undefined,
            });
          }
          return;
        }
        const id = rawId ?? `#${index + 1}`;
        (content[section] as unknown[]).push(result.data);
        // The first declaration keeps the locator entry; every declaration is listed so RG2-unique-name can point
        // at the duplicate itself.
        const placeKey = `${spec.kind}:${id}`;
        if (!places.has(placeKey)) places.set(placeKey, { parsed, base: [section, index] });
        declarations.push({ kind: spec.kind, id, location: locationOf(parsed, itemOffset) });
      });
    }
  }

  const locate: Locator = (kind, id, field) => {
    const place = places.get(`${kind}:${id}`);
    if (!place) return undefined;
    const node = nodeAt(place.parsed.doc, [...place.base, ...fieldPath(field)]);
    return locationOf(place.parsed, node?.range?.[0] ?? 0);
  };
  return { content, problems, locate, declarations, files: sources.map((s) => s.file) };
}

/**
 * Validates YAML sources and builds a registry, all or nothing: any problem (syntax, unknown field, wrong type,
 * dangling relation, cycle, duplicate) throws a {@link RegistryLoadError} listing every problem.
 */
export function loadRegistrySources(sources: readonly RegistrySource[]): Registry {
  const parsed = parseRegistrySources(sources);
  const problems = parsed.problems.length > 0 ? parsed.problems : structuralProblems(parsed);
  if (problems.length > 0) {
    throw new RegistryLoadError(
      `the registry has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was loaded:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`,
      problems,
    );
  }
  return createRegistry(parsed.content);
}

/**
 * Reads every `*.yaml` / `*.yml` file under `dir` (recursively, in path order). Paths are reported relative to
 * `relativeTo` when given, else as `join(dir, file)`.
 */
export async function readRegistryDir(dir: string, relativeTo?: string): Promise<RegistrySource[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  return Promise.all(
    files.map(async (path) => ({
      file: relativeTo === undefined ? path : relative(relativeTo, path),
      text: await readFile(path, 'utf8'),
    })),
  );
}

/** Reads and loads a registry directory; see {@link loadRegistrySources}. */
export async function loadRegistryDir(dir: string, relativeTo?: string): Promise<Registry> {
  return loadRegistrySources(await readRegistryDir(dir, relativeTo));
}
