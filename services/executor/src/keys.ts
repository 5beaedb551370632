import { createHash } from 'node:crypto';
import { argumentsHash, canonicalJson } from '@signalbox/contracts';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * `sha256(canonical JSON of the arguments)` in hex: what a confirmation is bound to (EX-2). The contracts' function,
 * so that a client (`@signalbox/client`) computes the very hash the executor asks for.
 */
export function argumentHash(args: unknown): string {
  return argumentsHash(args);
}

/** The parts of an idempotency key (EX-3). */
export interface IdempotencyKeyParts {
  tenant_id: string;
  task_id: string;
  step_index: number;
  tool: string;
  arguments: unknown;
}

/**
 * EX-3: key = hash(task, step index, tool, canonical arguments) — and the tenant (RS-5), so two tenants can never
 * share one. `idem_<64 hex>` fits the `Idempotency-Key` header and StepResult's 128-character field.
 */
export function idempotencyKey(parts: IdempotencyKeyParts): string {
  return `idem_${sha256Hex(
    canonicalJson([
      parts.tenant_id,
      parts.task_id,
      parts.step_index,
      parts.tool,
      argumentHash(parts.arguments),
    ]),
  )}`;
}

/** EX-6: cache key = tool + canonical arguments (+ tenant unless the tool's cache is shared across tenants). */
export function cacheKey(tool: string, args: unknown, tenant: string | null): string {
  return `cache_${sha256Hex(canonicalJson([tool, tenant, argumentHash(args)]))}`;
}

/** Claim-check reference of a large output (EL-3). */
export function outputRef(canonicalOutput: string): string {
  return `executor-output:sha256:${sha256Hex(canonicalOutput)}`;
}
