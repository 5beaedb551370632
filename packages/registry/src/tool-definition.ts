import { z } from 'zod';
import { ErrorClass } from '@signalbox/contracts';
import { jsonSchemaIssues, type JsonSchema } from './json-schema.js';

/**
 * A tool's name: letters, digits, `_ . -`, at most 128 characters. Pack tools follow the stricter snake_case
 * `verb_object` / `object_verb` rule of `registry lint` (RG2-naming); imported tools (BFCL's `math.factorial`)
 * only need this.
 */
export const ToolName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/,
    'a tool name is letters, digits, "_", "." or "-", starting with a letter',
  );

/** An agent's, scenario's, scene's, tenant's or profile's id: lower-case snake/kebab case. */
export const Identifier = z
  .string()
  .regex(
    /^[a-z][a-z0-9_-]{0,63}$/,
    'an id is lower-case letters, digits, "_" or "-", starting with a letter',
  );

/** RG-1 side-effect class of a tool. Reads come before writes in a plan (TD-5). */
export const ToolAction = z.enum(['read', 'write', 'append', 'delete']);
export type ToolAction = z.infer<typeof ToolAction>;

/** RG-1 permission a caller needs, ordered `read_only < write < sensitive`. */
export const Permission = z.enum(['read_only', 'write', 'sensitive']);
export type Permission = z.infer<typeof Permission>;

/** Rank of a permission, for `≤` comparisons. */
export const PERMISSION_RANK: Readonly<Record<Permission, number>> = { read_only: 0, write: 1, sensitive: 2 };

/** What a tool's output is worth as evidence (seed 000): a lead to follow, a source, a derived figure, a receipt. */
export const EvidenceLevel = z.enum(['lead', 'source', 'derived', 'action_receipt']);
export type EvidenceLevel = z.infer<typeof EvidenceLevel>;

// EX-5 error classes: one closed enum for the whole system, the contracts' (a declared error code names its class).
export { ErrorClass } from '@signalbox/contracts';

/** RG-1 three-part description, the way the model will read it. */
export const StructuredDescription = z.strictObject({
  /** Purpose and trigger: what the tool does and the signal that calls for it. */
  purpose: z.string().trim().min(1),
  /** What a call returns and what that output is good for. */
  returns: z.string().trim().min(1),
  /** When not to use it, naming the tool to use instead. */
  not_for: z.string().trim().min(1),
});
export type StructuredDescription = z.infer<typeof StructuredDescription>;

/** A description: structured (authoring rule) or one string (imported tools; `registry lint` flags it). */
export const ToolDescription = z.union([z.string().trim().min(1), StructuredDescription]);
export type ToolDescription = z.infer<typeof ToolDescription>;

/** A JSON Schema, validated as a schema (meta-schema, compiles, no unknown keyword). */
export const JsonSchemaDocument = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  for (const issue of jsonSchemaIssues(schema)) {
    ctx.addIssue({
      code: 'custom',
      message: `invalid JSON Schema: ${issue.message}`,
      path: issue.path ? issue.path.split('.') : [],
    });
  }
});

/** `parameters`: a JSON Schema whose top level is an object. */
export const ParametersSchema = JsonSchemaDocument.superRefine((schema, ctx) => {
  if (schema.type !== 'object') {
    ctx.addIssue({
      code: 'custom',
      message: 'parameters must be a JSON Schema with `type: object`',
      path: ['type'],
    });
  }
});

/** A declared error code of a tool (RG-1), with what it means and whether trying again may help. */
export const DeclaredError = z.strictObject({
  code: z.string().regex(/^[a-z][a-z0-9_]*$/, 'an error code is snake_case'),
  meaning: z.string().trim().min(1),
  retriable: z.boolean(),
  /** The EX-5 class the executor reports it as. */
  class: ErrorClass.default('internal'),
});
export type DeclaredError = z.infer<typeof DeclaredError>;

/** RG-1 `depends_on`: which output of which tool feeds which parameter of this one. */
export const Dependency = z.strictObject({
  /** The producing tool. */
  tool: ToolName,
  /** Path in the producing tool's output (`order_id`, `results[].url`). */
  output: z.string().min(1),
  /** This tool's parameter that receives it (dotted path for nested parameters). */
  parameter: z.string().min(1),
  /**
   * True: the producing tool must have run earlier in the same plan (TD-5), e.g. a refund needs the order status
   * query first. False: the value may also come from the user; when both tools are planned, order them.
   */
  required: z.boolean().default(true),
});
export type Dependency = z.infer<typeof Dependency>;

/** RG-1 declarative preconditions, checked by code before a call is planned or run (TD-5). */
export const Precondition = z.discriminatedUnion('kind', [
  z.strictObject({
    /** The parameter must hold a URL that came from the user or from an earlier step's output. */
    kind: z.literal('needs_url'),
    parameter: z.string().min(1),
  }),
  z.strictObject({
    /** The listed numeric parameters must come from verified (source-level) evidence with aligned units. */
    kind: z.literal('needs_verified_inputs'),
    parameters: z.array(z.string().min(1)).min(1),
  }),
  z.strictObject({
    /** The named tool must have run earlier in the same task. */
    kind: z.literal('needs_prior_call'),
    tool: ToolName,
  }),
  z.strictObject({
    /** Anything else, stated for humans and for the model judge; not machine-checked. */
    kind: z.literal('custom'),
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    description: z.string().min(1),
  }),
]);
export type Precondition = z.infer<typeof Precondition>;

/** EX-6 freshness class; the executor maps each to a TTL unless `ttl_seconds` is given. */
export const FreshnessClass = z.enum(['realtime', 'minutes', 'hours', 'daily', 'static']);
export type FreshnessClass = z.infer<typeof FreshnessClass>;

/** RG-1 cache policy (read-only tools only, see RG2-action-permission-consistency). */
export const CachePolicy = z.strictObject({
  enabled: z.boolean().default(false),
  freshness: FreshnessClass.default('minutes'),
  ttl_seconds: z.number().int().positive().optional(),
  /** Cache entries are per tenant (RS-5); turning this off shares results across tenants. */
  tenant_scoped: z.boolean().default(true),
});
export type CachePolicy = z.infer<typeof CachePolicy>;

/** RG-1 retry policy of the executor (EX-4): transient classes only, bounded, jittered exponential backoff. */
export const RetryPolicy = z.strictObject({
  max_attempts: z.number().int().min(1).max(10).default(1),
  initial_backoff_ms: z.number().int().min(0).default(200),
  max_backoff_ms: z.number().int().min(0).default(5000),
  retry_on: z.array(z.enum(['transient', 'rate_limited'])).default(['transient', 'rate_limited']),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

/** RG-1 concurrency and rate limits (EX-4). */
export const ToolLimits = z.strictObject({
  concurrency: z.number().int().positive().optional(),
  rate_limit: z
    .strictObject({ requests: z.number().int().positive(), per_seconds: z.number().positive() })
    .optional(),
});
export type ToolLimits = z.infer<typeof ToolLimits>;

/** RG-1 transport binding (EX-1). */
export const TransportBinding = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('http'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
    /** A full URL, or a path joined to the base URL read from `base_url_env`. */
    url: z.string().min(1),
    base_url_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
    /** Environment variable holding the bearer token (never the secret itself). */
    auth_secret_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
  }),
  z.strictObject({
    kind: z.literal('mcp'),
    /** The MCP server's id in the executor's configuration. */
    server: z.string().min(1),
    /** The tool's name on that server, when it differs from the registry name. */
    tool: z.string().min(1).optional(),
  }),
  z.strictObject({
    kind: z.literal('builtin'),
    /** The built-in handler, e.g. `compute` (the sandbox). */
    handler: z.string().min(1),
  }),
]);
export type TransportBinding = z.infer<typeof TransportBinding>;

/** RG-1 deprecation notice. */
export const Deprecation = z.strictObject({
  since: z.string().min(1),
  replaced_by: ToolName.optional(),
  reason: z.string().min(1),
});
export type Deprecation = z.infer<typeof Deprecation>;

/** Where an imported definition came from. */
export const ToolOrigin = z.strictObject({
  format: z.enum(['yaml', 'openai', 'mcp', 'bfcl']),
  /** The original name, when the importer had to change it. */
  name: z.string().optional(),
  /**
   * `assumed`: the format says nothing about side effects, so `action` / `permission` are the importer's assumption
   * (`--assume`), not the tool's word. The decider then reads what the tool does from its name too (TD-5: `todo_add`
   * adds a to-do, whatever was assumed). Absent: declared.
   */
  effects: z.enum(['assumed']).optional(),
});
export type ToolOrigin = z.infer<typeof ToolOrigin>;

/** A tool definition (RG-1): everything the decider, injector, executor and evaluator need to know about a tool. */
export const ToolDefinition = z.strictObject({
  name: ToolName,
  version: z.string().min(1).default('1.0.0'),
  description: ToolDescription,
  /** Other names a model may use for this tool (resolved exactly by the decider, TD-3). */
  aliases: z.array(ToolName).default([]),
  parameters: ParametersSchema.default({ type: 'object', properties: {} }),
  returns: JsonSchemaDocument.default({}),
  errors: z.array(DeclaredError).default([]),
  action: ToolAction,
  permission: Permission,
  /** What a call changes in the world, in one sentence ("none" for reads). */
  side_effects: z.string().min(1).default('none'),
  idempotent: z.boolean().default(false),
  requires_confirmation: z.boolean().default(false),
  owner_agent: Identifier.optional(),
  visible_agents: z.array(z.union([Identifier, z.literal('*')])).default([]),
  scenarios: z.array(Identifier).default([]),
  tags: z.array(z.string().min(1)).default([]),
  /** Example requests that call for this tool (lexical retrieval, TD-2). */
  examples: z.array(z.string().min(1)).default([]),
  /** Core tools come first in a visible set (RG-4). */
  core: z.boolean().default(false),
  /** Higher first among tools of the same core-ness (RG-4). */
  priority: z.number().int().min(0).max(100).default(50),
  depends_on: z.array(Dependency).default([]),
  exclusive_with: z.array(ToolName).default([]),
  alternatives: z.array(ToolName).default([]),
  preconditions: z.array(Precondition).default([]),
  evidence: EvidenceLevel.default('source'),
  timeout_ms: z.number().int().positive().default(10_000),
  retry: RetryPolicy.default({
    max_attempts: 1,
    initial_backoff_ms: 200,
    max_backoff_ms: 5000,
    retry_on: ['transient', 'rate_limited'],
  }),
  cache: CachePolicy.optional(),
  limits: ToolLimits.default({}),
  /** Parameter paths (or output paths prefixed `returns.`) redacted in logs and events (PI-5). */
  sensitive_fields: z.array(z.string().min(1)).default([]),
  transport: TransportBinding.optional(),
  health: z.enum(['healthy', 'degraded', 'unavailable']).default('healthy'),
  owner_team: z.string().min(1).optional(),
  deprecation: Deprecation.optional(),
  origin: ToolOrigin.optional(),
});
/** A validated tool definition with every default filled in. */
export type ToolDefinition = z.infer<typeof ToolDefinition>;
/** A tool definition as written (defaults may be omitted). */
export type ToolDefinitionInput = z.input<typeof ToolDefinition>;

/** The top-level property names of a tool's `parameters`. */
export function parameterNames(tool: Pick<ToolDefinition, 'parameters'>): string[] {
  const properties = (tool.parameters as JsonSchema).properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** The names listed in `parameters.required`. */
export function requiredParameters(tool: Pick<ToolDefinition, 'parameters'>): string[] {
  const required = (tool.parameters as JsonSchema).required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
}
