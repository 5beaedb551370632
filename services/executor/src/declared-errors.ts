import type { ErrorClass } from '@signalbox/contracts';
import type { ToolDefinition } from '@signalbox/registry';

/** A tool's own error report, as found in a response body or an MCP error text. */
export interface ReportedError {
  code: string | undefined;
  message: string | undefined;
}

/** Reads `{ error: { code, message } }`, `{ error: "code" }` or `{ code, message }` from a parsed body. */
export function reportedError(body: unknown): ReportedError {
  if (typeof body !== 'object' || body === null) return { code: undefined, message: undefined };
  const root = body as Record<string, unknown>;
  const inner =
    typeof root.error === 'object' && root.error !== null ? (root.error as Record<string, unknown>) : root;
  const code =
    typeof inner.code === 'string' ? inner.code : typeof root.error === 'string' ? root.error : undefined;
  const message =
    typeof inner.message === 'string'
      ? inner.message
      : typeof root.message === 'string'
        ? root.message
        : undefined;
  return { code, message };
}

/** The tool's declaration of an error code (RG-1), when it declared it: its EX-5 class and retriability. */
export function declaredError(
  tool: ToolDefinition,
  code: string | undefined,
): { errorClass: ErrorClass; retriable: boolean } | undefined {
  if (!code) return undefined;
  const found = tool.errors.find((e) => e.code === code);
  return found ? { errorClass: found.class, retriable: found.retriable } : undefined;
}

/**
 * A short, single-line, capped text for an error message: only the first line, because what follows in a tool's
 * error text is often a stack trace, and no stack trace may reach an event (EX-5).
 */
export function shortText(text: string | undefined, max = 300): string {
  if (!text) return '';
  const line = (text.trim().split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
