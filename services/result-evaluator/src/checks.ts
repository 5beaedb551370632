import { canonicalHash, type PreparedCall, type StepRecord, type StepResult } from '@signalbox/contracts';
import { validateAgainstSchema, type ToolDefinition } from '@signalbox/registry';

/** What one check concluded. `severity` decides the status; `kind` decides the route. */
export interface Finding {
  check: string;
  /** `fail`: the step did not do its job; `partial`: it ran but gave nothing usable; `note`: worth recording. */
  severity: 'fail' | 'partial' | 'note';
  /** What kind of problem this is, for routing (EV-3). */
  kind: 'tool' | 'parameter' | 'empty' | 'permission' | 'none';
  message: string;
}

/** Everything a check may look at. */
export interface CheckInput {
  tool: ToolDefinition | undefined;
  call: PreparedCall;
  result: StepResult;
  history: readonly StepRecord[];
}

export type Check = (input: CheckInput) => Finding[];

const EMPTY_COLLECTION_KEYS =
  /^(items|results|rows|records|minutes|meetings|entries|hits|documents|events|list|data)$/i;
const ERROR_WORDS = /\b(error|exception|failed|failure|not found|unavailable|denied|forbidden|invalid)\b/i;

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

// Outputs are compared by the hash of their canonical JSON (RFC 8785, @signalbox/contracts): equal data, whatever
// its key order, is one output. An absent output counts as null.
function fingerprint(value: unknown): string {
  return canonicalHash(value ?? null);
}

/** Layer 1 — hard checks (EV-1): the call failed, the output breaks the `returns` schema, a write has no receipt. */
export const HARD_CHECKS: Readonly<Record<string, Check>> = {
  call_failed: ({ result }) => {
    if (result.ok) return [];
    const cls = result.error_class ?? 'internal';
    const kind: Finding['kind'] =
      cls === 'parameter'
        ? 'parameter'
        : cls === 'permission'
          ? 'permission'
          : cls === 'empty'
            ? 'empty'
            : 'tool';
    return [
      {
        check: 'call_failed',
        severity: cls === 'empty' ? 'partial' : 'fail',
        kind,
        message: `the call failed (${cls})${result.error_message ? `: ${result.error_message}` : ''}`,
      },
    ];
  },
  unknown_tool: ({ tool, call }) =>
    tool
      ? []
      : [
          {
            check: 'unknown_tool',
            severity: 'fail',
            kind: 'tool',
            message: `${call.tool} is not in the registry`,
          },
        ],
  returns_schema: ({ tool, result }) => {
    // An empty output is the empty_body heuristic's finding (re-plan, keep the tool), not a broken contract.
    if (!tool || !result.ok || isEmptyValue(result.output) || result.output_ref) return [];
    const issues = validateAgainstSchema(tool.returns, result.output);
    return issues.slice(0, 3).map((i) => ({
      check: 'returns_schema',
      severity: 'fail' as const,
      kind: 'tool' as const,
      message: `output does not match ${tool.name}'s returns schema at ${i.path || '(root)'}: ${i.message}`,
    }));
  },
  // Derived evidence is only as good as its inputs (SP-3): a calculation counts only over figures an earlier step
  // read from a source, never over numbers the request, a model or a default supplied.
  unverified_inputs: ({ tool, call, history }) => {
    if (!tool) return [];
    const wanted = tool.preconditions.flatMap((p) =>
      p.kind === 'needs_verified_inputs' ? p.parameters : [],
    );
    const given = wanted.filter((p) => p in call.arguments);
    if (given.length === 0) return [];
    const sourced = history.some(
      (h) => h.result.ok && h.status !== 'failed' && h.result.output_kind === 'source',
    );
    const unverified = given.filter((p) => !sourced || call.provenance[p] !== 'step_output');
    return unverified.map((p) => ({
      check: 'unverified_inputs',
      severity: 'fail' as const,
      kind: 'parameter' as const,
      message: sourced
        ? `${tool.name}.${p} came from ${call.provenance[p] ?? 'nowhere'}, not from a source step's output`
        : `${tool.name}.${p} has no source-level step before it to have been verified by`,
    }));
  },
  write_receipt: ({ tool, result }) => {
    if (!tool || !result.ok || tool.action === 'read') return [];
    const output = result.output;
    const hasReceipt =
      output !== null &&
      typeof output === 'object' &&
      !Array.isArray(output) &&
      Object.keys(output).some((k) => /(^id$|_id$|receipt|reference|confirmation|ticket|number)/i.test(k));
    return hasReceipt || result.output_ref
      ? []
      : [
          {
            check: 'write_receipt',
            severity: 'fail',
            kind: 'tool',
            message: `${tool.name} is a ${tool.action} but returned no receipt (no id/reference in the output)`,
          },
        ];
  },
};

/** Layer 2 — heuristics (EV-1): empty body, zero rows, error words, abnormal latency, wrong entity, no new evidence. */
export const HEURISTICS: Readonly<Record<string, Check>> = {
  empty_body: ({ result }) =>
    result.ok && !result.output_ref && isEmptyValue(result.output)
      ? [
          {
            check: 'empty_body',
            severity: 'partial',
            kind: 'empty',
            message: 'the tool returned an empty body',
          },
        ]
      : [],
  zero_rows: ({ result }) => {
    if (
      !result.ok ||
      result.output === null ||
      typeof result.output !== 'object' ||
      Array.isArray(result.output)
    )
      return [];
    const output = result.output as Record<string, unknown>;
    const emptyLists = Object.entries(output).filter(
      ([k, v]) => EMPTY_COLLECTION_KEYS.test(k) && Array.isArray(v) && v.length === 0,
    );
    const zeroCount = Object.entries(output).some(
      ([k, v]) => /^(count|total|total_count)$/i.test(k) && v === 0,
    );
    if (emptyLists.length === 0 && !zeroCount) return [];
    const names = emptyLists.map(([k]) => k).join(', ') || 'count';
    return [
      { check: 'zero_rows', severity: 'partial', kind: 'empty', message: `zero rows (${names} is empty)` },
    ];
  },
  error_words: ({ result }) => {
    if (!result.ok || result.output === null || typeof result.output !== 'object') return [];
    const texts = Object.entries(result.output as Record<string, unknown>)
      .filter(([k, v]) => typeof v === 'string' && /^(message|status|error|detail|note)$/i.test(k))
      .map(([, v]) => v as string);
    const hit = texts.map((t) => ERROR_WORDS.exec(t)).find((m) => m);
    return hit
      ? [{ check: 'error_words', severity: 'note', kind: 'none', message: `the output says "${hit[0]}"` }]
      : [];
  },
  abnormal_latency: ({ tool, result }) =>
    tool && result.duration_ms > tool.timeout_ms * 0.8
      ? [
          {
            check: 'abnormal_latency',
            severity: 'note',
            kind: 'none',
            message: `took ${String(Math.round(result.duration_ms))} ms, near the ${String(tool.timeout_ms)} ms timeout`,
          },
        ]
      : [],
  wrong_entity: ({ call, result }) => {
    if (
      !result.ok ||
      result.output === null ||
      typeof result.output !== 'object' ||
      Array.isArray(result.output)
    )
      return [];
    const output = result.output as Record<string, unknown>;
    const mismatches = Object.entries(call.arguments).filter(
      ([k, v]) =>
        /(_id|_number|^id)$/.test(k) &&
        (typeof v === 'string' || typeof v === 'number') &&
        k in output &&
        (typeof output[k] === 'string' || typeof output[k] === 'number') &&
        String(output[k]) !== String(v),
    );
    return mismatches.map(([k, v]) => ({
      check: 'wrong_entity',
      severity: 'fail' as const,
      kind: 'tool' as const,
      message: `the output is about ${k} ${String(output[k])}, but ${String(v as string | number)} was asked`,
    }));
  },
  no_new_evidence: ({ result, history }) => {
    if (!result.ok || result.output === null || isEmptyValue(result.output)) return [];
    const fp = fingerprint(result.output);
    const same = history.find(
      (h) => h.result.ok && h.result.output !== null && fingerprint(h.result.output) === fp,
    );
    return same
      ? [
          {
            check: 'no_new_evidence',
            severity: 'partial',
            kind: 'empty',
            message: `no new evidence: the output repeats step ${String(same.call.step_index)} (${same.call.tool})`,
          },
        ]
      : [];
  },
};

/** Runs layer 1, then layer 2 (EV-1). A failed call skips the heuristics: there is nothing to look at. */
export function runChecks(input: CheckInput): Finding[] {
  const hard = Object.values(HARD_CHECKS).flatMap((check) => check(input));
  if (hard.some((f) => f.check === 'call_failed' || f.check === 'unknown_tool')) return hard;
  return [...hard, ...Object.values(HEURISTICS).flatMap((check) => check(input))];
}
