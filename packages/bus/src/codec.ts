import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { topicJsonSchema, type TopicSpec } from '@signalbox/contracts';
import type { PoisonReason } from './bus.js';
import {
  IncompatibleSchemaError,
  SchemaNotRegisteredError,
  SchemaRegistryUnavailableError,
  WireFormatError,
} from './errors.js';
import { encodeValueText, parsePayload } from './payload.js';
import { decodeWire, encodeWireText } from './wire-format.js';

// FL-2: values travel as JSON in the Confluent wire format; the JSON Schema registered per subject is generated from
// the topic's zod schema. The registry is the gate for compatibility; zod is the gate for every single value.

/** Result of decoding consumed bytes: a valid value, or why the message is poison. */
export type DecodeResult =
  | { ok: true; value: unknown; schemaId: number }
  | { ok: false; reason: Exclude<PoisonReason, 'handler_failed'>; detail: string };

/** Turns topic values into bytes and back. */
export interface Codec {
  /** Validates (zod, after a JSON round trip) and encodes; throws `InvalidMessageError` naming the field path. */
  encode(topic: TopicSpec, value: unknown): Promise<Buffer>;
  /**
   * Decodes and validates; never throws for bad bytes (they are poison), but throws
   * `SchemaRegistryUnavailableError` (retriable) when the registry cannot answer.
   */
  decode(topic: TopicSpec, bytes: Buffer | null): Promise<DecodeResult>;
}

/**
 * The schema text registered for a topic: the contracts' JSON Schema (draft-07, because the registry client compiles
 * schemas with Ajv's default draft-07 class), exactly as frozen in the contracts' fixtures.
 */
export function registeredSchemaText(topic: TopicSpec): string {
  // Generating the JSON Schema from zod takes tens of milliseconds for the larger topics, and every bus (one per
  // stage) asks for the texts of its topics on first use; the text only depends on the schema and the name.
  let byName = schemaTexts.get(topic.schema);
  if (!byName) schemaTexts.set(topic.schema, (byName = new Map<string, string>()));
  let text = byName.get(topic.name);
  if (text === undefined) byName.set(topic.name, (text = JSON.stringify(topicJsonSchema(topic))));
  return text;
}

const schemaTexts = new WeakMap<TopicSpec['schema'], Map<string, string>>();

/** Options of {@link createSchemaRegistry}. */
export interface SchemaRegistryOptions {
  /** The registry's Confluent-compatible base URL, e.g. `http://127.0.0.1:18081/apis/ccompat/v7` for Apicurio 3. */
  url: string;
  /** Client id sent as the user agent. @default 'signalbox' */
  clientId?: string;
  /** HTTP retries on 5xx and network errors before a call fails. @default 2 */
  retries?: number;
}

/** A registry client configured for JSON Schema as zod generates it. */
export function createSchemaRegistry(options: SchemaRegistryOptions): SchemaRegistry {
  return new SchemaRegistry(
    {
      host: options.url.replace(/\/+$/, ''),
      clientId: options.clientId ?? 'signalbox',
      retry: { retries: options.retries ?? 2, initialRetryTimeInSecs: 0.1, maxRetryTimeInSecs: 2 },
    },
    // The client compiles every schema with Ajv, which in strict mode throws on `format: date-time` (formats live in
    // ajv-formats). Values are validated with zod, so the client's own validator only needs to compile.
    { [SchemaType.JSON]: { validateFormats: false, strict: false } },
  );
}

/** Options of {@link createSchemaRegistryCodec}. */
export interface SchemaRegistryCodecOptions {
  registry: SchemaRegistry;
  /**
   * Register a topic's schema on first publish when it is not registered yet. Off by default: schemas are registered
   * at deploy time ({@link registerTopicSchemas}) so an incompatible change fails the deploy, not a live publish.
   * @default false
   */
  autoRegisterSchemas?: boolean;
}

interface HttpError {
  status?: number;
  name?: string;
}

function httpStatus(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as HttpError).status : undefined;
}

/** The Kafka adapter's codec over `@kafkajs/confluent-schema-registry`. */
export function createSchemaRegistryCodec(options: SchemaRegistryCodecOptions): Codec {
  const { registry } = options;
  const autoRegister = options.autoRegisterSchemas ?? false;
  // Concurrent misses share one request: the map holds the pending promise, and a failure is evicted so the next
  // call asks again.
  const idByTopic = new Map<string, Promise<number>>();
  const knownIds = new Map<number, Promise<boolean>>();

  const cached = <K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> => {
    const hit = map.get(key);
    if (hit) return hit;
    const pending = load();
    map.set(key, pending);
    pending.catch(() => map.delete(key));
    return pending;
  };

  /** The id registered for the topic's own schema, or undefined when its subject does not hold that schema. */
  const registeredIdOf = async (topic: TopicSpec): Promise<number | undefined> => {
    const schema = { type: SchemaType.JSON, schema: registeredSchemaText(topic) } as const;
    try {
      return await registry.getRegistryIdBySchema(topic.subject, schema);
    } catch (error) {
      // The client turns a 404 (unknown subject, or no such schema under it) into a status-less error of this name.
      const notRegistered =
        (error as HttpError).name === 'ConfluentSchemaRegistryError' && httpStatus(error) === undefined;
      if (notRegistered) return undefined;
      throw new SchemaRegistryUnavailableError(`schema registry lookup for ${topic.subject} failed`, {
        cause: error,
        topic: topic.name,
      });
    }
  };

  const lookUpId = async (topic: TopicSpec): Promise<number> => {
    const id = await registeredIdOf(topic);
    if (id !== undefined) return id;
    if (!autoRegister) throw new SchemaNotRegisteredError(topic.name, topic.subject);
    const [registered] = await registerTopicSchemas(registry, [topic]);
    if (!registered) throw new SchemaNotRegisteredError(topic.name, topic.subject);
    return registered.id;
  };

  const isKnownId = async (schemaId: number): Promise<boolean> => {
    try {
      await registry.getSchema(schemaId);
      return true;
    } catch (error) {
      if (httpStatus(error) === 404) return false;
      throw new SchemaRegistryUnavailableError(
        `schema registry lookup of schema id ${String(schemaId)} failed`,
        {
          cause: error,
        },
      );
    }
  };

  // What a consumed value almost always carries: the id of the topic's own schema, which one lookup by schema text
  // answers. Any other id is asked for by id — a call that also compiles the schema into an Ajv validator the codec
  // never uses (zod validates), a few hundred milliseconds of a busy worker's single thread per schema.
  const ownIdByTopic = new Map<string, Promise<number | undefined>>();
  const isKnownIdFor = async (topic: TopicSpec, schemaId: number): Promise<boolean> => {
    const ownId = await cached(ownIdByTopic, topic.name, () => registeredIdOf(topic));
    if (ownId === schemaId) return true;
    const known = await cached(knownIds, schemaId, () => isKnownId(schemaId));
    // Unknown ids are not kept: the map only dedupes concurrent lookups of the same id.
    if (!known) knownIds.delete(schemaId);
    return known;
  };

  return {
    async encode(topic, value) {
      const json = encodeValueText(topic, value);
      const schemaId = await cached(idByTopic, topic.name, () => lookUpId(topic));
      return encodeWireText(schemaId, json);
    },

    async decode(topic, bytes) {
      if (bytes === null || bytes.length === 0)
        return { ok: false, reason: 'undecodable', detail: 'empty value' };
      let wire: { schemaId: number; payload: Buffer };
      try {
        wire = decodeWire(bytes);
      } catch (error) {
        if (error instanceof WireFormatError)
          return { ok: false, reason: 'undecodable', detail: error.message };
        throw error;
      }
      if (!(await isKnownIdFor(topic, wire.schemaId))) {
        return {
          ok: false,
          reason: 'unknown_schema',
          detail: `schema id ${String(wire.schemaId)} is not in the registry`,
        };
      }
      const parsed = parsePayload(topic, wire.payload);
      return parsed.ok ? { ok: true, value: parsed.value, schemaId: wire.schemaId } : parsed;
    },
  };
}

/** A topic's schema as registered. */
export interface RegisteredTopicSchema {
  topic: string;
  subject: string;
  /** The id the registry gave the schema (what the wire format carries). */
  id: number;
}

/**
 * Deploy-time step (FL-2): registers each topic's JSON Schema under its subject (`<topic>-value`) with compatibility
 * BACKWARD set on a new subject. Throws {@link IncompatibleSchemaError} when the registry refuses a change, or when
 * an existing subject is not BACKWARD; {@link SchemaRegistryUnavailableError} when the registry cannot answer.
 * Registering an unchanged schema again is a no-op that returns the same id.
 */
export async function registerTopicSchemas(
  registry: SchemaRegistry,
  topics: readonly TopicSpec[],
): Promise<RegisteredTopicSchema[]> {
  const registered: RegisteredTopicSchema[] = [];
  for (const topic of topics) {
    try {
      const { id } = await registry.register(
        { type: SchemaType.JSON, schema: registeredSchemaText(topic) },
        { subject: topic.subject, compatibility: COMPATIBILITY.BACKWARD },
      );
      registered.push({ topic: topic.name, subject: topic.subject, id });
    } catch (error) {
      const status = httpStatus(error);
      const name = (error as HttpError).name;
      const message = error instanceof Error ? error.message : String(error);
      const refused =
        status === 409 ||
        status === 422 ||
        name === 'ConfluentSchemaRegistryCompatibilityError' ||
        name === 'ConfluentSchemaRegistryArgumentError' ||
        name === 'ConfluentSchemaRegistryInvalidSchemaError';
      if (refused) {
        throw new IncompatibleSchemaError(topic.name, topic.subject, message, { cause: error });
      }
      throw new SchemaRegistryUnavailableError(`registering the schema of ${topic.name} failed: ${message}`, {
        cause: error,
        topic: topic.name,
      });
    }
  }
  return registered;
}
