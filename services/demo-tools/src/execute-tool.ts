import { requestHash } from './canonical-json.js';
import { ToolFailure } from './errors.js';
import type { ToolContext, ToolSpec } from './tools/tool-spec.js';

/** The answer of one tool call, whatever the transport: an HTTP status and a JSON body. */
export interface ToolAnswer {
  status: number;
  body: unknown;
  /** True when a write's Idempotency-Key had already acted and the stored answer was returned. */
  replayed: boolean;
}

/** The JSON error body every refusal uses: `{ "error": { "code", "message", … } }`. */
export function errorBody(failure: ToolFailure): { error: Record<string, unknown> } {
  return { error: { code: failure.code, message: failure.message, ...failure.details } };
}

/** Refuses arguments that fail the tool's schema: the tool's declared code for a mapped field, else `invalid_arguments`. */
function validate(tool: ToolSpec, raw: unknown): unknown {
  const parsed = tool.parameters.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    const code = typeof field === 'string' ? tool.issueCodes[field] : undefined;
    const declared = code === undefined ? undefined : tool.errors[code];
    if (code !== undefined && declared !== undefined) {
      throw new ToolFailure(declared.status, code, `${field as string}: ${issue.message}`, {
        retriable: false,
        details: { issues },
      });
    }
  }
  throw new ToolFailure(
    400,
    'invalid_arguments',
    `the arguments do not match ${tool.name}'s parameters: ${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')}`,
    { retriable: false, details: { issues } },
  );
}

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * Validates, deduplicates (writes with an Idempotency-Key act once per key) and runs one tool call. Declared and
 * generic refusals come back as answers; anything else (a database outage, a bug) is thrown.
 */
export async function executeTool(tool: ToolSpec, rawArgs: unknown, ctx: ToolContext): Promise<ToolAnswer> {
  try {
    const args = validate(tool, rawArgs);
    const key = ctx.idempotencyKey;
    if (tool.action === 'write' && key !== undefined) {
      if (!KEY_FORMAT.test(key)) {
        throw new ToolFailure(
          400,
          'invalid_arguments',
          'Idempotency-Key must be 1–255 printable ASCII characters',
          {
            retriable: false,
          },
        );
      }
      return await ctx.store.runIdempotent(tool.name, key, requestHash(args), async () => ({
        status: 200,
        body: await tool.handle(args, ctx),
      }));
    }
    return { status: 200, body: await tool.handle(args, ctx), replayed: false };
  } catch (error) {
    if (error instanceof ToolFailure)
      return { status: error.status, body: errorBody(error), replayed: false };
    throw error;
  }
}
