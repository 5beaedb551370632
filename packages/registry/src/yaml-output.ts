import { stringify } from 'yaml';
import type { ToolDefinition } from './tool-definition.js';

/**
 * A registry YAML file (`tools:` section) for the given definitions, e.g. the result of an import, ready to be
 * edited and linted. Defaults are written out, so what loads back is exactly these definitions.
 */
export function toolsToYaml(tools: readonly ToolDefinition[], header?: string): string {
  const body = stringify({ tools }, { lineWidth: 110, aliasDuplicateObjects: false });
  return header
    ? `${header
        .split('\n')
        .map((l) => `# ${l}`)
        .join('\n')}\n${body}`
    : body;
}
