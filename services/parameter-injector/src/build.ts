// PI-1: the arguments of one step, built from the plan's `input_from` references, the tool's `depends_on`, the
// model's proposals (when a model is configured), deterministic extraction from the request and the conversation,
// and the schema's defaults — each value with its provenance (PI-6). Values are only found, never invented.
import type { ArgumentProvenance, PlanStep, StepRecord, TaskSpec } from '@signalbox/contracts';
import { parameterHints, type ParameterHints, type ToolDefinition } from '@signalbox/registry';
import { dateFormatOf, findDates, parseDateString, type DateContext } from './dates.js';
import { enumKey, extractIds, extractQuantities } from './extractors.js';
import { extractParameter } from './extract-parameter.js';
import { readPath } from './json-path.js';
import { isSensitive, shown } from './redaction.js';

/** What {@link buildArguments} works from. */
export interface BuildInput {
  tool: ToolDefinition;
  step: PlanStep;
  task: TaskSpec;
  history: readonly StepRecord[];
  /** The model's proposed arguments, when a model was asked (PI-2). */
  proposals: Record<string, unknown> | null;
  sensitive: ReadonlySet<string>;
}

/** The built arguments with their provenance and the log of how each was found. */
export interface BuiltArguments {
  arguments: Record<string, unknown>;
  provenance: Record<string, ArgumentProvenance>;
  log: string[];
}

/** The reference time and zone of a task, for relative dates. */
export function dateContextOf(task: TaskSpec): DateContext {
  return { referenceTime: task.reference_time, timeZone: task.time_zone };
}

/** The text a user-text extraction reads: the request. */
function userText(task: TaskSpec): string {
  return task.request;
}

/** The conversation the user and assistant had, newest last, for `context` extraction. */
function contextText(task: TaskSpec): string {
  return task.context
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => m.content)
    .join('\n');
}

/** The latest successful output of the step with this index (a step retried after re-injection appears again). */
function outputOfStep(history: readonly StepRecord[], index: number): StepRecord | undefined {
  return [...history].reverse().find((h) => h.call.step_index === index && h.result.ok);
}

function outputOfTool(history: readonly StepRecord[], tool: string): StepRecord | undefined {
  return [...history].reverse().find((h) => h.call.tool === tool && h.result.ok);
}

function isFreeText(hints: ParameterHints): boolean {
  const s = hints.schema;
  const type = s.type;
  return (
    (type === 'string' || type === undefined) &&
    !hints.enum &&
    typeof s.pattern !== 'string' &&
    typeof s.format !== 'string' &&
    dateFormatOf(s) === undefined
  );
}

/**
 * True when a model-proposed value can be traced to the user's words or an earlier output ("never invent a
 * value"): numbers must appear as numbers, and ids, e-mails, phones and dates (strings with a pattern or format)
 * must appear — dates as a date the text resolves to. Free text and enum choices are the model's to phrase.
 */
export function isGrounded(
  value: unknown,
  hints: ParameterHints,
  corpus: string,
  dates: DateContext,
): boolean {
  if (Array.isArray(value))
    return value.every((v) =>
      isGrounded(
        v,
        { ...hints, schema: (hints.schema.items ?? {}) as Record<string, unknown> },
        corpus,
        dates,
      ),
    );
  if (typeof value === 'number')
    return extractQuantities(corpus).some((q) => q.value.value === value) || corpus.includes(String(value));
  if (typeof value !== 'string') return true;
  if (hints.enum || isFreeText(hints)) return true;
  const format = dateFormatOf(hints.schema);
  if (format) {
    const parts = parseDateString(value, dates);
    if (!parts) return false;
    return findDates(corpus, dates).some(
      (m) => m.date.year === parts.year && m.date.month === parts.month && m.date.day === parts.day,
    );
  }
  if (enumKey(corpus).includes(enumKey(value))) return true;
  const digits = value.replace(/\D/g, '');
  return digits.length >= 4 && extractIds(corpus).some((t) => t.value.replace(/\D/g, '') === digits);
}

/**
 * Builds the arguments of `step`. Per top-level parameter, the first source that yields a value wins:
 * 1. the plan's `input_from` for it (`step_output` path, `context`, `user_text`, `default`);
 * 2. the tool's `depends_on` (an earlier step of the producing tool);
 * 3. for dates, the deterministic resolver (so the documented "next Friday" policy holds whatever a model says);
 * 4. the model's proposal, when grounded;
 * 5. deterministic extraction from the request, then from the conversation;
 * 6. the schema's `default`, for optional parameters only (a required value is never defaulted unless the plan
 *    says `default` explicitly).
 */
export function buildArguments(input: BuildInput): BuiltArguments {
  const { tool, step, task, history, proposals, sensitive } = input;
  const dates = dateContextOf(task);
  const args: Record<string, unknown> = {};
  const provenance: Record<string, ArgumentProvenance> = {};
  const log: string[] = [];
  const set = (field: string, value: unknown, source: ArgumentProvenance, how: string) => {
    args[field] = value;
    provenance[field] = source;
    log.push(`${field} = ${shown(field, value, sensitive)} from ${source} (${how})`);
  };
  const corpus = [
    userText(task),
    contextText(task),
    ...history.filter((h) => h.result.ok).map((h) => JSON.stringify(h.result.output)),
  ].join('\n');
  const topLevel = parameterHints(tool.parameters).filter((h) => !h.path.includes('.'));

  for (const hints of topLevel) {
    const field = hints.path;
    const redact = isSensitive(field, sensitive);
    const ref = step.input_from.find((r) => r.parameter === field);
    const fromText = (text: string, source: 'user_text' | 'context'): boolean => {
      if (text.trim() === '') return false;
      const got = extractParameter(hints, text, dates, redact);
      if (got.found) {
        set(field, got.value, source, got.note);
        return true;
      }
      if (got.note) log.push(`${field}: ${got.note} in ${source}`);
      return false;
    };

    if (ref) {
      if (ref.source === 'step_output') {
        const record = ref.step_index === null ? undefined : outputOfStep(history, ref.step_index);
        if (!record) {
          log.push(`${field}: step ${String(ref.step_index)} has no successful output yet`);
        } else if (record.result.output === null) {
          log.push(
            `${field}: step ${String(ref.step_index)}'s output travels by reference (${String(record.result.output_ref)}); not resolved here`,
          );
        } else {
          const got = readPath(record.result.output, ref.path ?? '');
          if (got.found) {
            set(
              field,
              got.value,
              'step_output',
              `step ${String(ref.step_index)} ${record.call.tool} ${ref.path ?? '$'}`,
            );
            continue;
          }
          log.push(`${field}: no ${ref.path ?? '$'} in step ${String(ref.step_index)}'s output`);
        }
      } else if (ref.source === 'default') {
        if (hints.schema.default !== undefined) {
          set(field, hints.schema.default, 'default', 'plan input_from default');
          continue;
        }
        log.push(`${field}: the plan asks for the default, but the schema declares none`);
      } else if (ref.source === 'context') {
        if (fromText(contextText(task), 'context')) continue;
      } else if (isFreeText(hints)) {
        // The plan says this free-text parameter is the user's own words (a search query, a ticket title); a model's
        // phrasing of them is preferred when there is one.
        if (!(proposals && Object.hasOwn(proposals, field))) {
          set(field, userText(task).trim(), 'user_text', 'plan input_from user_text: the request');
          continue;
        }
      } else if (fromText(userText(task), 'user_text')) continue;
    }

    const dependency = tool.depends_on.find((d) => d.parameter === field);
    if (dependency) {
      const record = outputOfTool(history, dependency.tool);
      const got =
        record && record.result.output !== null
          ? readPath(record.result.output, dependency.output)
          : { found: false as const };
      if (record && got.found) {
        set(field, got.value, 'step_output', `depends_on ${dependency.tool}.${dependency.output}`);
        continue;
      }
    }

    if (dateFormatOf(hints.schema) && fromText(userText(task), 'user_text')) continue;

    if (proposals && Object.hasOwn(proposals, field)) {
      const value = proposals[field];
      if (isGrounded(value, hints, corpus, dates)) {
        set(field, value, 'model', 'model proposal');
        continue;
      }
      log.push(
        `${field}: the model proposed ${shown(field, value, sensitive)}, which is not in the request or earlier outputs; not used`,
      );
    }

    if (fromText(userText(task), 'user_text') || fromText(contextText(task), 'context')) continue;

    if (!hints.required && hints.schema.default !== undefined) {
      set(field, hints.schema.default, 'default', 'schema default');
    }
  }

  if (proposals) {
    for (const field of Object.keys(proposals)) {
      if (!topLevel.some((h) => h.path === field)) {
        // Kept so validation strips it with its reason in the log (an undeclared argument is never silently lost).
        args[field] = proposals[field];
        provenance[field] = 'model';
      }
    }
  }
  return { arguments: args, provenance, log };
}
