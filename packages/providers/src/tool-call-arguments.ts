/** The outcome of parsing a tool call's raw arguments: an object, or the reason it is not one. */
export type ParsedToolArguments =
  { arguments: Record<string, unknown>; argumentsError: null } | { arguments: null; argumentsError: string };

/**
 * Parses the JSON text a model produced as tool-call arguments. Empty text is an empty object (some endpoints send
 * `""` for a tool without parameters); anything that is not a JSON object is reported with the reason.
 */
export function parseToolArguments(raw: string): ParsedToolArguments {
  if (raw.trim() === '') return { arguments: {}, argumentsError: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { arguments: null, argumentsError: `arguments are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`;
    return { arguments: null, argumentsError: `arguments must be a JSON object, got ${kind}` };
  }
  return { arguments: parsed as Record<string, unknown>, argumentsError: null };
}
