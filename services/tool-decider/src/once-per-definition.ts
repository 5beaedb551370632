import type { ToolDefinition } from '@signalbox/registry';

/**
 * `fn` computed once per tool definition object and remembered while the definition lives. A registry's definitions
 * are immutable values (its versions are hashed over them when it is created), and one decision, as every later one
 * over the same registry, reads the same derived values of the same visible tools more than once; what `fn` returns
 * is shared by every caller, so it must be read, never changed.
 */
export function oncePerDefinition<T>(fn: (tool: ToolDefinition) => T): (tool: ToolDefinition) => T {
  const values = new WeakMap<ToolDefinition, T>();
  return (tool) => {
    if (values.has(tool)) return values.get(tool) as T;
    const value = fn(tool);
    values.set(tool, value);
    return value;
  };
}
