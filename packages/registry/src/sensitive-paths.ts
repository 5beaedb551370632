// PI-5 / RS-6: where a message's sensitive argument values are. One walker for every stage, so the stages that pass
// a call on (injector, executor, evaluator, decider, selector) all declare the same paths to the event log, which
// stores those values apart from the payload.
import type { Registry } from './registry.js';
import type { ToolDefinition } from './tool-definition.js';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The dotted parameter paths of a tool whose values are sensitive: its `sensitive_fields` (without the `returns.…`
 * output paths, which are about its result) and every parameter marked `x-sensitive: true`. Sorted.
 */
export function sensitiveParameterPaths(
  tool: Pick<ToolDefinition, 'sensitive_fields' | 'parameters'>,
): string[] {
  const out = new Set(tool.sensitive_fields.filter((f) => !f.startsWith('returns.')));
  const walk = (schema: unknown, prefix: string) => {
    if (!isRecord(schema) || !isRecord(schema.properties)) return;
    for (const [name, child] of Object.entries(schema.properties)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (isRecord(child) && child['x-sensitive'] === true) out.add(path);
      walk(child, path);
    }
  };
  walk(tool.parameters, '');
  return [...out].sort();
}

/**
 * The paths (relative to `arguments`) of the sensitive values `args` holds: a field that is present, or the array
 * on the way to it (the elements of an array are not addressed one by one, so the whole array is kept apart).
 * A field inside another sensitive field is covered by the outer one.
 */
function presentPaths(args: Json, fields: readonly string[]): string[] {
  const out = new Set<string>();
  for (const field of fields) {
    const segments = field.split('.');
    let node: unknown = args;
    for (const [i, segment] of segments.entries()) {
      if (!isRecord(node) || !Object.hasOwn(node, segment)) break;
      node = node[segment];
      const path = segments.slice(0, i + 1).join('.');
      if (i === segments.length - 1 || Array.isArray(node)) {
        out.add(path);
        break;
      }
    }
  }
  const paths = [...out].sort();
  return paths.filter((p) => !paths.some((outer) => p.startsWith(`${outer}.`)));
}

/**
 * PI-5 / RS-6: the dotted paths of `payload` that hold sensitive argument values, for `StageDefinition.sensitivePaths`
 * and the event log's `secretsAt`. It looks at every prepared call a pipeline message carries — `call`,
 * `previous_call`, `history[i].call`, `steps[i].call` — and, for the call's tool in `registry`, lists
 * `<call>.arguments.<field>` for each {@link sensitiveParameterPaths} field the arguments hold
 * (e.g. `call.arguments.contact`, `history.0.call.arguments.contact`). A call of a tool the registry does not know
 * contributes nothing. Sorted, without duplicates.
 */
export function sensitiveArgumentPaths(registry: Pick<Registry, 'tool'>, payload: unknown): string[] {
  if (!isRecord(payload)) return [];
  const calls: [string, unknown][] = [
    ['call', payload.call],
    ['previous_call', payload.previous_call],
  ];
  for (const list of ['history', 'steps'] as const) {
    const items = payload[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item, index) => {
      if (isRecord(item)) calls.push([`${list}.${String(index)}.call`, item.call]);
    });
  }
  const fieldsOf = new Map<string, string[]>();
  const out: string[] = [];
  for (const [at, call] of calls) {
    if (!isRecord(call) || typeof call.tool !== 'string' || !isRecord(call.arguments)) continue;
    let fields = fieldsOf.get(call.tool);
    if (!fields) {
      const tool = registry.tool(call.tool);
      fields = tool ? sensitiveParameterPaths(tool) : [];
      fieldsOf.set(call.tool, fields);
    }
    if (fields.length === 0) continue;
    for (const path of presentPaths(call.arguments, fields)) out.push(`${at}.arguments.${path}`);
  }
  return [...new Set(out)].sort();
}

/**
 * What a stage takes from the registry it decides under: the versions every decision records (FL-4) and where the
 * sensitive arguments sit in its decisions' payloads (PI-5). Structural, so stage-kit's `defineStage` accepts it
 * without the registry depending on the stage runtime.
 */
export interface StageRegistryBinding {
  versions: { registry_version: string; profiles_version: string; policy_version: string };
  sensitivePaths(payload: unknown): string[];
}

/** The {@link StageRegistryBinding} of a registry. */
export function stageBinding(registry: Registry): StageRegistryBinding {
  const { registry_version, profiles_version, policy_version } = registry.versions;
  return {
    versions: { registry_version, profiles_version, policy_version },
    sensitivePaths: (payload) => sensitiveArgumentPaths(registry, payload),
  };
}
