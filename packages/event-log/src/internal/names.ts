// Every statement names its tables through here, so one store can live in any schema (tests give each test its
// own) and both adapters share the same SQL text.

/** Qualified names of the event log's database objects. */
export interface Names {
  /** The schema named in options, or undefined to use the connection's `search_path`. */
  schema: string | undefined;
  events: string;
  payloadBlobs: string;
  /** The side table of sensitive payload values (migration 0003). */
  eventSecrets: string;
  /** The unpartitioned table of every event's global keys, kept when its partition is pruned (migration 0004). */
  eventKeys: string;
  /** The side table of the model exchanges a decision used (migration 0005). */
  modelExchanges: string;
  migrations: string;
  /** Prefix for other objects (functions, triggers): `"schema".` or empty. */
  prefix: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Resolves the names for `schema`; throws a RangeError for a schema name that is not a plain lower-case identifier. */
export function resolveNames(schema: string | undefined): Names {
  if (schema !== undefined && !IDENTIFIER.test(schema)) {
    throw new RangeError(
      `schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), got ${JSON.stringify(schema)}`,
    );
  }
  // Quoted so that a schema named like a keyword still works; the pattern above keeps quoting trivial.
  const prefix = schema === undefined ? '' : `"${schema}".`;
  return {
    schema,
    prefix,
    events: `${prefix}events`,
    payloadBlobs: `${prefix}payload_blobs`,
    eventSecrets: `${prefix}event_secrets`,
    eventKeys: `${prefix}event_keys`,
    modelExchanges: `${prefix}model_exchanges`,
    migrations: `${prefix}event_log_migrations`,
  };
}
