import { z } from 'zod';
import { AnswerRequest, Confirmation, EvaluationStatus, SubmitTaskRequest } from '@signalbox/contracts';
import { InvalidRequestError, type FieldError } from './errors.js';

// The request shapes of the HTTP API (IF-1). Strict objects: an unknown field is reported, not silently dropped, so
// a typo such as `timezone` does not quietly fall back to UTC.

// Text PostgreSQL cannot store: `text` and `json`/`jsonb` refuse U+0000, and `jsonb` refuses a UTF-16 surrogate that is
// not half of a pair (JSON can spell both as `\u0000` / `\ud800`). Such a request would pass every other check and
// then fail its INSERT (a 500); it is refused as a field error instead, for every string of a body or query, however
// deeply nested, and for path parameters (see `unstorableParams`).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why PostgreSQL cannot store `text` (as the field error's message), or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains U+0000, which cannot be stored';
  const lone = LONE_SURROGATE.exec(text)?.[0];
  if (lone === undefined) return undefined;
  const code = lone.charCodeAt(0).toString(16).toUpperCase();
  return `contains a lone surrogate (U+${code}), which cannot be stored`;
}

/**
 * Every string under `value` (object keys included) that PostgreSQL cannot store, with its path. Iterative, so a deeply
 * nested body cannot overflow the stack.
 */
export function unstorableStrings(value: unknown): { path: (string | number)[]; message: string }[] {
  const found: { path: (string | number)[]; message: string }[] = [];
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: v, path } = next;
    if (typeof v === 'string') {
      const message = unstorableText(v);
      if (message !== undefined) found.push({ path, message });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push({ value: v[i], path: [...path, i] });
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] ?? ['', undefined];
        const message = unstorableText(key);
        if (message !== undefined) found.push({ path: [...path, key], message: `the field name ${message}` });
        pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return found;
}

/**
 * `schema` that also refuses every string PostgreSQL cannot store, at its path. The check runs even when other fields
 * failed, so one answer lists every problem; it sees the parsed value, so stripped keys are not reported.
 */
function storable<S extends z.ZodType>(schema: S): S {
  return schema.superRefine(
    (value, ctx) => {
      for (const { path, message } of unstorableStrings(value)) {
        ctx.addIssue({ code: 'custom', path, message, input: value });
      }
    },
    { when: () => true },
  );
}

/** The path parameters PostgreSQL could not store (`params.<name>`), as field errors. */
export function unstorableParams(params: unknown): FieldError[] {
  return unstorableStrings(params).map(({ path, message }) => ({
    path: ['params', ...path].join('.'),
    message,
  }));
}

/** `POST /v1/tasks`: the task as a caller submits it (MS-1), the wire shape of @signalbox/contracts, storable. */
export const SubmitTaskBody = storable(SubmitTaskRequest);
export type SubmitTaskBody = z.infer<typeof SubmitTaskBody>;

/** EX-2: a confirmation bound to one exact call: the tool and the sha256 hex of its canonical JSON arguments. */
export { Confirmation };

/** `POST /v1/tasks/:id/answers`: an answer to `need_clarification`, a confirmation, or both. */
export const AnswerBody = storable(AnswerRequest);
export type AnswerBody = z.infer<typeof AnswerBody>;

/** Largest page of `GET /v1/traces`. */
export const MAX_TRACE_PAGE = 200;

/** Encodes a listing position as an opaque cursor. */
export function encodeCursor(position: bigint): string {
  return Buffer.from(`p${position.toString()}`, 'utf8').toString('base64url');
}

const cursor = z.string().transform((text, ctx) => {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  if (!/^p[0-9]{1,19}$/.test(decoded)) {
    ctx.addIssue({ code: 'custom', message: 'not a cursor returned by this API' });
    return z.NEVER;
  }
  return BigInt(decoded.slice(1));
});

/** `GET /v1/traces` query (EL-5). The tenant is always the caller's and cannot be chosen. */
export const TraceQuery = storable(
  z
    .strictObject({
      status: EvaluationStatus.optional(),
      degraded: z
        .enum(['true', 'false'])
        .transform((v) => v === 'true')
        .optional(),
      revision_count_above: z.coerce.number().int().min(0).optional(),
      tool: z.string().min(1).max(128).optional(),
      agent: z.string().min(1).max(128).optional(),
      from: z.iso
        .datetime({ offset: true })
        .transform((v) => new Date(v))
        .optional(),
      to: z.iso
        .datetime({ offset: true })
        .transform((v) => new Date(v))
        .optional(),
      limit: z.coerce.number().int().min(1).max(MAX_TRACE_PAGE).default(50),
      cursor: cursor.optional(),
    })
    .superRefine((q, ctx) => {
      if (q.from && q.to && q.from.getTime() >= q.to.getTime()) {
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
      }
    }),
);
export type TraceQuery = z.infer<typeof TraceQuery>;

/** zod issues as field errors; an unknown key is reported at its own path. */
export function fieldErrors(error: z.ZodError, prefix: readonly (string | number)[] = []): FieldError[] {
  return error.issues.flatMap((issue) => {
    const base = [...prefix, ...issue.path].map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: 'unknown field' }));
    }
    return [{ path: base.join('.'), message: issue.message }];
  });
}

/** Parses `value` with `schema` or throws InvalidRequestError with every field error. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value ?? undefined);
  if (result.success) return result.data;
  throw new InvalidRequestError(`invalid ${what}`, fieldErrors(result.error));
}
