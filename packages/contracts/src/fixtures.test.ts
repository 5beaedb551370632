import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { checkBackwardCompatible } from './compatibility.js';
import { topicJsonSchema, type JsonSchema } from './json-schema.js';
import { messageKindsOf } from './message-kinds.js';
import { TOPICS } from './topics.js';

// The frozen fixture corpus (FL-2: "the build must notice" an incompatible contract change). These tests only
// READ fixtures/: the files are records of what was published, written once by scripts/write-fixtures.ts, which
// never overwrites. A contract change means a new version directory beside the old ones, never an edited file.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const SCHEMAS = join(FIXTURES, 'json-schema');
const topics = Object.values(TOPICS);

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

/** The frozen JSON Schema versions of a topic, ascending: `[[1, schema], [2, schema]…]`. */
function frozenSchemas(topicName: string): [number, JsonSchema][] {
  const prefix = `${topicName}.v`;
  return readdirSync(SCHEMAS)
    .filter((f) => f.startsWith(prefix) && /^\d+\.json$/.test(f.slice(prefix.length)))
    .map((f): [number, JsonSchema] => [
      Number(f.slice(prefix.length, -'.json'.length)),
      readJson(join(SCHEMAS, f)) as JsonSchema,
    ])
    .sort(([a], [b]) => a - b);
}

function latestVersion(topicName: string): number {
  const versions = frozenSchemas(topicName);
  const last = versions[versions.length - 1];
  if (!last) throw new Error(`no frozen JSON Schema for ${topicName} in fixtures/json-schema/`);
  return last[0];
}

/** Every message fixture: topic, version, kind from the file name, file. */
function messageFixtures(): { topic: string; version: number; kind: string; file: string }[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'json-schema')
    .flatMap((topicDir) =>
      readdirSync(join(FIXTURES, topicDir.name)).flatMap((versionDir) =>
        readdirSync(join(FIXTURES, topicDir.name, versionDir)).map((file) => ({
          topic: topicDir.name,
          version: Number(versionDir.replace(/^v/, '')),
          kind: file.replace(/\.json$/, ''),
          file: join(FIXTURES, topicDir.name, versionDir, file),
        })),
      ),
    );
}

describe('frozen fixture corpus', () => {
  const fixtures = messageFixtures();

  it('holds only fixtures of catalog topics, in v<N> directories, as .json files', () => {
    const names = new Set(topics.map((t) => t.name));
    for (const f of fixtures) {
      expect(names.has(f.topic), `fixtures/${f.topic} is not a catalog topic`).toBe(true);
      expect(Number.isInteger(f.version) && f.version >= 1, f.file).toBe(true);
      expect(f.file.endsWith('.json'), f.file).toBe(true);
    }
  });

  it.each(topics.map((t) => [t.name, t] as const))(
    '%s: every message kind has a fixture in the current version',
    (name, topic) => {
      const version = latestVersion(name);
      const missing = messageKindsOf(topic).filter(
        (kind) => !existsSync(join(FIXTURES, name, `v${String(version)}`, `${kind}.json`)),
      );
      expect(
        missing,
        `add fixtures/${name}/v${String(version)}/<kind>.json (scripts/write-fixtures.ts)`,
      ).toEqual([]);
    },
  );

  it.each(fixtures.map((f) => [`${f.topic}/v${String(f.version)}/${f.kind}`, f] as const))(
    '%s parses with the current contract (old messages stay readable)',
    (_label, fixture) => {
      const topic = topics.find((t) => t.name === fixture.topic)!;
      const message = readJson(fixture.file);
      const result = topic.schema.safeParse(message);
      expect(result.error?.issues ?? []).toEqual([]);
      expect((message as { event_type?: unknown }).event_type, 'file name is the event_type').toBe(
        fixture.kind,
      );
    },
  );

  it.each(fixtures.map((f) => [`${f.topic}/v${String(f.version)}/${f.kind}`, f] as const))(
    '%s is valid under the JSON Schema frozen for its version (what the registry checks)',
    (_label, fixture) => {
      const schema = frozenSchemas(fixture.topic).find(([v]) => v === fixture.version)?.[1];
      expect(schema, `fixtures/json-schema/${fixture.topic}.v${String(fixture.version)}.json`).toBeDefined();
      // Formats are checked by zod above; ajv-formats is not a dependency of this package.
      const validate = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(schema!);
      expect(validate(readJson(fixture.file)), JSON.stringify(validate.errors)).toBe(true);
    },
  );
});

describe('published JSON Schemas', () => {
  it.each(topics.map((t) => [t.name, t] as const))(
    '%s: the generated schema is the frozen current version',
    (name, topic) => {
      const version = latestVersion(name);
      const frozen = frozenSchemas(name).find(([v]) => v === version)![1];
      const current = topicJsonSchema(topic);
      const { issues } = checkBackwardCompatible(frozen, current);
      // Equality is the check; the compatibility issues only make the failure say what to do.
      expect(
        current,
        [
          `The contract of ${name} no longer generates fixtures/json-schema/${name}.v${String(version)}.json.`,
          issues.length > 0
            ? `It is NOT backward compatible: ${issues.map((i) => `${i.kind} at ${i.path}: ${i.message}`).join('; ')}. ` +
              'Consumers would fail on messages already on the topic: revert, or make a new topic major (FL-1).'
            : 'It looks backward compatible: freeze it as a new version — run scripts/write-fixtures.ts after ' +
              `raising FIXTURE_VERSION to ${String(version + 1)} — and never edit the frozen v${String(version)} files.`,
        ].join(' '),
      ).toEqual(frozen);
    },
  );

  it.each(topics.map((t) => [t.name] as const))(
    '%s: each frozen version is backward compatible with the one before',
    (name) => {
      const versions = frozenSchemas(name);
      expect(versions.length).toBeGreaterThan(0);
      for (let i = 1; i < versions.length; i += 1) {
        const [previousVersion, previous] = versions[i - 1]!;
        const [version, next] = versions[i]!;
        expect(
          checkBackwardCompatible(previous, next).issues,
          `v${String(previousVersion)} → v${String(version)}`,
        ).toEqual([]);
      }
    },
  );
});
