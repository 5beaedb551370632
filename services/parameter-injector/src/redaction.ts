// PI-5: sensitive fields. A tool declares them in `sensitive_fields` (parameter paths; `returns.…` paths are about its
// output and belong to the executor) or marks a parameter `x-sensitive: true`. Their values never appear in the
// validation log, the decision reason, the questions, or the prompts of a re-ask.
import { sensitiveParameterPaths, type ToolDefinition } from '@signalbox/registry';

/** What a redacted value is shown as in the injector's texts (the event log's payload placeholder is `[REDACTED]`). */
export const REDACTED = '[redacted]';

/** The dotted parameter paths of a tool whose values are sensitive (the registry's one walker, PI-5). */
export function sensitiveFieldsOf(
  tool: Pick<ToolDefinition, 'sensitive_fields' | 'parameters'>,
): Set<string> {
  return new Set(sensitiveParameterPaths(tool));
}

/** True when `path` is a sensitive field or lies inside one (`contact.email` inside `contact`). */
export function isSensitive(path: string, sensitive: ReadonlySet<string>): boolean {
  for (const s of sensitive) if (path === s || path.startsWith(`${s}.`)) return true;
  return false;
}

/** A value as it may be written to logs: JSON, or {@link REDACTED} for a sensitive field. */
export function shown(path: string, value: unknown, sensitive: ReadonlySet<string>): string {
  if (isSensitive(path, sensitive)) return REDACTED;
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** A copy of `args` with every sensitive field's value replaced by {@link REDACTED} (for logs and trace views). */
export function redactArguments(
  args: Record<string, unknown>,
  sensitive: ReadonlySet<string>,
): Record<string, unknown> {
  const copy = structuredClone(args);
  for (const path of sensitive) {
    const keys = path.split('.');
    let node: unknown = copy;
    for (const [i, key] of keys.entries()) {
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) break;
      if (i === keys.length - 1) (node as Record<string, unknown>)[key] = REDACTED;
      else node = (node as Record<string, unknown>)[key];
    }
  }
  return copy;
}
