import type { z } from 'zod';
import type { DemoStore } from '../demo-store.js';
import { ToolFailure } from '../errors.js';

/** The EX-5 error classes a declared code can belong to (mirrors the registry's `ErrorClass`). */
export type ErrorClass =
  | 'parameter'
  | 'transient'
  | 'permission'
  | 'empty'
  | 'rate_limited'
  | 'capability_mismatch'
  | 'unknown_tool'
  | 'internal';

/** A declared error code of a tool (as in its pack YAML) and the HTTP status the backend answers it with. */
export interface DeclaredErrorSpec {
  class: ErrorClass;
  status: number;
}

/** What a handler gets besides its validated arguments. */
export interface ToolContext {
  store: DemoStore;
  /** The server's clock. */
  now: () => Date;
  /** The request's Idempotency-Key (HTTP header or MCP `_meta.idempotency_key`), when sent. */
  idempotencyKey: string | undefined;
}

/** Which scenario pack a tool belongs to. */
export type PackName = 'after-sales' | 'office' | 'research' | 'reach';

/** One demo tool backend: its binding, argument schema, declared errors and handler. */
export interface ToolSpec {
  /** The registry name of the tool. */
  name: string;
  pack: PackName;
  /** The `transport.url` of its http binding. */
  path: string;
  /** One line for MCP `tools/list`. */
  description: string;
  /** `write` tools are deduplicated by Idempotency-Key. */
  action: 'read' | 'write';
  /** Whether the tool talks to the outside world (MCP `openWorldHint`). */
  openWorld: boolean;
  /** Hand-written mirror of the pack's `parameters` JSON Schema (checked against it by the tests). */
  parameters: z.ZodType;
  /** The declared error codes, mirrored from the pack YAML (checked against it by the tests). */
  errors: Readonly<Record<string, DeclaredErrorSpec>>;
  /** A schema issue on one of these fields answers with the declared code instead of `invalid_arguments`. */
  issueCodes: Readonly<Record<string, string>>;
  /** Runs the tool on validated arguments; throws {@link ToolFailure} for a declared error. */
  handle(args: unknown, ctx: ToolContext): Promise<unknown>;
}

/**
 * Defines a tool with a typed handler: `fail(code, message)` only accepts the tool's declared codes and throws the
 * matching {@link ToolFailure}.
 */
export function defineTool<P extends z.ZodType, C extends string>(spec: {
  name: string;
  pack: PackName;
  path: string;
  description: string;
  action: 'read' | 'write';
  openWorld?: boolean;
  parameters: P;
  errors: Record<C, DeclaredErrorSpec>;
  issueCodes?: Partial<Record<string, C>>;
  /** May be synchronous (static corpora); a declared refusal is `fail(code, message)`. */
  handle(args: z.output<P>, ctx: ToolContext, fail: (code: C, message: string) => never): unknown;
}): ToolSpec {
  const errors: Record<C, DeclaredErrorSpec> = spec.errors;
  const fail = (code: C, message: string): never => {
    const declared = errors[code];
    throw new ToolFailure(declared.status, code, message, {
      retriable: declared.class === 'transient' || declared.class === 'rate_limited',
    });
  };
  const issueCodes: Record<string, string> = {};
  for (const [field, code] of Object.entries(spec.issueCodes ?? {})) if (code) issueCodes[field] = code;
  return {
    name: spec.name,
    pack: spec.pack,
    path: spec.path,
    description: spec.description,
    action: spec.action,
    openWorld: spec.openWorld ?? false,
    parameters: spec.parameters,
    errors,
    issueCodes,
    handle: (args, ctx) => {
      try {
        return Promise.resolve(spec.handle(args as z.output<P>, ctx, fail));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}

/** `YYYY-MM-DD` of a date in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD` or instants), rounded down. */
export function daysBetween(from: string | Date, to: string | Date): number {
  const a =
    typeof from === 'string' ? Date.parse(from.length === 10 ? `${from}T00:00:00Z` : from) : from.getTime();
  const b = typeof to === 'string' ? Date.parse(to.length === 10 ? `${to}T00:00:00Z` : to) : to.getTime();
  return Math.floor((b - a) / 86_400_000);
}

/** `YYYY-MM-DD` plus `days`. */
export function addDays(day: string, days: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
}
