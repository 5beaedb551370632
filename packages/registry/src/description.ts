import type { StructuredDescription, ToolDefinition, ToolDescription } from './tool-definition.js';

const RETURNS = 'Returns:';
const NOT_FOR = 'Not for:';

/**
 * The one string a model reads: purpose, then `Returns: …`, then `Not for: …`, one part a line. A plain-string
 * description is passed through unchanged.
 */
export function renderDescription(description: ToolDescription): string {
  if (typeof description === 'string') return description;
  return `${description.purpose}\n${RETURNS} ${description.returns}\n${NOT_FOR} ${description.not_for}`;
}

/**
 * The inverse of {@link renderDescription}: a string with `Returns:` and `Not for:` lines becomes the structured
 * form (so an exported registry imports back to the same definitions); any other string stays a string.
 */
export function parseDescription(text: string): ToolDescription {
  const match = /^([\s\S]+?)\n\s*Returns:\s*([\s\S]+?)\n\s*Not for:\s*([\s\S]+)$/.exec(text.trim());
  if (!match) return text;
  const [, purpose = '', returns = '', notFor = ''] = match;
  const structured: StructuredDescription = {
    purpose: purpose.trim(),
    returns: returns.trim(),
    not_for: notFor.trim(),
  };
  return structured.purpose && structured.returns && structured.not_for ? structured : text;
}

/** All the description's text in one string (for similarity and retrieval). */
export function descriptionText(tool: Pick<ToolDefinition, 'description'>): string {
  return renderDescription(tool.description);
}
