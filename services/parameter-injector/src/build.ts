// PI-1: the arguments of one step, built from the plan's `input_from` references, the tool's `depends_on`, the
// model's proposals (when a model is configured), deterministic extraction from the request and the conversation,
// and the schema's defaults — each value with its provenance (PI-6). Values are only found, never invented.
import { assignIds } from './id-assignment.js';
import { instructionOnly } from './instruction-only.js';
import { chinesePersonNames } from './chinese-names.js';
import { carriesMessage, deliveredWords, type DeliveredWords } from './delivered-words.js';
import { requestArithmetic } from './request-arithmetic.js';
import type { ArgumentProvenance, PlanStep, StepRecord, TaskSpec } from '@signalbox/contracts';
import { parameterHints, type ParameterHints, type ToolDefinition } from '@signalbox/registry';
import { addDays, weekdayOf } from './calendar.js';
import { chineseCities } from './city-names.js';
import {
  dateFormatOf,
  findDates,
  formatDate,
  parseDateString,
  requestDateContext,
  type DateContext,
} from './dates.js';
import { fitsDeclaredType } from './coerce.js';
import { enumKey, extractIds, extractQuantities } from './extractors.js';
import { extractParameter } from './extract-parameter.js';
import { calculationFor, readFigures, type Figure } from './figures.js';
import { readPath } from './json-path.js';
import { assignLists, isArraySchema } from './list-assignment.js';
import { assignNumbers } from './number-assignment.js';
import {
  assignStrings,
  isPlainString,
  LABELLED_NOTE,
  LONE_QUOTE_NOTE,
  QUOTED_BESIDE_NOTE,
} from './string-assignment.js';
import { applyNormalizers } from './normalizers.js';
import { isSensitive, shown } from './redaction.js';
import { PHRASE_ENDS } from './parameter-vocabulary.js';
import { chineseTerms, nameWords } from './spans.js';

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
  /** The rules that changed what a plain reading would give (a date moved, a number not reused): for the decision reason. */
  notes: string[];
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

// A web link as a request writes it: http(s) and what follows up to a space or a CJK character.
const WRITTEN_URL = /https?:\/\/[^\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef"'<>]+/gu;

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
    dateFormatOf(s, hints.path) === undefined &&
    // A city has its own extractor: the request as a whole is never a city name.
    !hints.normalizers.includes('city_name')
  );
}

/** A free-text parameter whose documentation says it takes a name (a person's, a group's, a company's). */
function isNameParameter(hints: ParameterHints): boolean {
  const description = typeof hints.schema.description === 'string' ? hints.schema.description : '';
  return /\bname\b/i.test(description) || /(?:^|_)name$/.test(hints.path);
}

const NAMED_PHRASE =
  /\b(?:to|for|with|from|named|called)\s+(?:the\s+)?(\p{Lu}[\p{L}\p{N}&.'-]*(?:\s+(?!(?:and|then|about|for|on|by|with|to|in|at|from|of)\b)[\p{L}\p{N}&'-]+){0,3})/u;

// "ping the beacon group", "message Li Wei": the one addressed stands right after a verb of messaging — a group or team
// named in any case, or a capitalised name. Two names joined by "and" are two recipients: no single one is taken.
const NAMED_AFTER_MESSAGING =
  /\b(?:[Pp]ing|[Mm]essage|[Nn]otify|[Rr]emind|[Tt]ell|[Ee]-?mail|[Tt]ext|DM|[Dd]m|[Ss]end)\s+(?:the\s+)?((?!(?:a|an|my|our|this|that|me|us|him|her|them)\b)(?:[\p{L}\p{N}&.'-]+\s+){1,2}(?:group|team|channel|chat)\b|\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?\b(?!\s+(?:and\s+)?\p{Lu}))/u;

// In Chinese the recipient follows 给 / 发给 / 转给 / 抄送 / 通知 / 告诉 / 跟 and runs to the next verb or punctuation
// (发邮件给Atlas项目组, 给Zhang Min发封邮件, 跟陈杰说一声).
const NAMED_PHRASE_ZH =
  /(?:发给|发到|转给|抄送给?|通知|告诉|私聊|私信|跟|给)(?:一下|一声)?\s*((?:\p{Lu}[\p{Script=Latin}\p{N}&.'-]*(?:\s+\p{Lu}[\p{Script=Latin}\p{N}&.'-]*)*)?[\p{Script=Han}]{0,8}?)(?=\s*(?:[，。！？,.!?；;：:]|发|说|讲|送|寄|打|$))/u;

// 在 X 群里 (in the X group chat): the group is X.
const NAMED_GROUP_ZH =
  /在\s*(\p{Lu}[\p{Script=Latin}\p{N}&.'-]*(?:\s+\p{Lu}[\p{Script=Latin}\p{N}&.'-]*)*|\p{Script=Han}{2,8}?)\s*(?:群聊|群|频道)/u;

// "The Weeknd's concert happening": a possessive followed by a lower-case word ends the name at its owner — what
// follows is a thing of that owner, not part of the name ("McDonald's" alone stays as written).
const POSSESSIVE_BEFORE_THING = /^(.*?\p{L})['’]s\s+\p{Ll}/u;

// A name ends before a preposition ("Christianity between year 300") — English's, and the participles that work as
// prepositions ("Los Angeles Lakers including its opponent").
const NAME_STOPS = new Set([...PHRASE_ENDS, 'including', 'excluding', 'regarding', 'concerning']);

function ownerOf(name: string): string {
  const owner = POSSESSIVE_BEFORE_THING.exec(name)?.[1] ?? name;
  const words = owner.split(/\s+/);
  const stop = words.findIndex((w, i) => i > 0 && NAME_STOPS.has(w));
  return stop > 0 ? words.slice(0, stop).join(' ') : owner;
}

/**
 * The name a request gives after a recipient or subject preposition, starting with a capital ("to the Atlas project
 * group" → "Atlas project group"); undefined when there is none (the whole request is then used). With
 * `addressedOnly`, only the one a verb of messaging or a Chinese recipient marker addresses (给 X, "ping X").
 */
export function namedPhrase(text: string, addressedOnly = false): string | undefined {
  const patterns = addressedOnly
    ? [NAMED_AFTER_MESSAGING, NAMED_PHRASE_ZH, NAMED_GROUP_ZH]
    : [NAMED_PHRASE, NAMED_AFTER_MESSAGING, NAMED_PHRASE_ZH, NAMED_GROUP_ZH];
  for (const pattern of patterns) {
    // "Atlas群里" is the Atlas group's chat: the group is named "Atlas"; 群 (group chat) and 里 (in) are not its name.
    const name = pattern
      .exec(text)?.[1]
      ?.trim()
      .replace(/(?:群聊|群)?(?:里|中|内)?$/u, '')
      // "the Atlas chat", "the ops channel": in English too, the chat of the group named before it.
      .replace(/(?<=\S)\s+(?:group\s+)?(?:chat|channel|chatroom)$/iu, '')
      .trim();
    // 给我 / 告诉他们: a pronoun names nobody the directory knows; 通知一下 names nobody at all.
    if (name && !/^(?:我|我们|你|您|你们|他|她|他们|她们|大家|一下|一声|下)$/u.test(name)) {
      // 告诉王芳明天开会: the one addressed is the personal name the phrase starts with, not the words after it.
      const person = /^\p{Script=Han}/u.test(name) ? chinesePersonNames(name, true)[0] : undefined;
      if (person) return person.name;
      return ownerOf(name.replace(/(?:一下|一声)$/u, ''));
    }
  }
  // 提醒黄磊周五前交报销单: a personal name right after a recipient marker, however long what follows it.
  for (const m of text.matchAll(RECIPIENT_MARKER_ZH)) {
    const person = chinesePersonNames(text.slice(m.index + m[0].length), true)[0];
    if (person) return person.name;
  }
  return undefined;
}

// A Chinese third-person pronoun of one person (他, 她), not 他们 / 其他 / 她们.
const THIRD_PERSON_ZH = /(?<!其)(?:他|她)(?!们)/u;

// The Chinese verbs and prepositions that introduce the one addressed (给 X, 跟 X, 通知 X, 提醒 X, 私聊 X).
const RECIPIENT_MARKER_ZH = /(?:发给|发到|转给|抄送给?|通知|告诉|提醒|私聊|私信|跟|给)(?:一下|一声)?\s*/gu;

/** Whether `name` is `start` and more ("Atlas project group" extends "Atlas"): the fuller name is the one given. */
function extendsName(name: string, start: string): boolean {
  return name.startsWith(start) && name.length > start.length;
}

function isNumeric(hints: ParameterHints): boolean {
  const type = hints.schema.type;
  const types = Array.isArray(type) ? type : [type];
  return types.includes('number') || types.includes('integer');
}

/** A parameter that names one entity (`order_id`, `tracking_number`, a patterned code): its value is spent on it. */
function isIdLike(hints: ParameterHints): boolean {
  return typeof hints.schema.pattern === 'string' || /(^|_)(id|ids|number|no|code)$/i.test(hints.path);
}

/**
 * The values the request already spent on id-like parameters — this tool's and every earlier call's — as digit
 * strings: "order 1234" is an order number, not also an amount of 1234.
 */
function spentIds(
  topLevel: readonly ParameterHints[],
  task: TaskSpec,
  history: readonly StepRecord[],
  dates: DateContext,
): Set<string> {
  const spent = new Set<string>();
  const add = (v: unknown) => {
    for (const one of Array.isArray(v) ? v : [v])
      if (typeof one === 'string' || typeof one === 'number') {
        const digits = String(one).replace(/\D/g, '');
        if (digits !== '') spent.add(digits);
      }
  };
  for (const hints of topLevel) {
    if (!isIdLike(hints) || isNumeric(hints)) continue;
    const got = extractParameter(hints, userText(task), dates, true);
    if (got.found) add(got.value);
  }
  for (const h of history)
    for (const [field, value] of Object.entries(h.call.arguments))
      if (/(^|_)(id|ids|number|no|code)$/i.test(field)) add(value);
  return spent;
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** True when the step record is an empty answer: it ran, and the evaluator found nothing in it (or the tool said empty). */
function cameBackEmpty(record: StepRecord): boolean {
  return (
    (record.result.ok && record.status !== 'success') ||
    (!record.result.ok && record.result.error_class === 'empty')
  );
}

/**
 * The documented "empty weekend" policy (SP-2): a relative date from the request that falls on a Saturday or
 * Sunday, and for which this tool already came back empty in this task, moves to the last working day (Friday)
 * before it — people say "yesterday's meeting" on a Monday and mean the last one held. Undefined when it does not apply.
 */
function lastWorkingDayInstead(
  value: string,
  field: string,
  tool: ToolDefinition,
  history: readonly StepRecord[],
  dates: DateContext,
): { value: string; note: string } | undefined {
  const format = dateFormatOf(
    parameterHints(tool.parameters).find((h) => h.path === field)?.schema ?? {},
    field,
  );
  if (!format) return undefined;
  const tried = history.some(
    (h) => h.call.tool === tool.name && h.call.arguments[field] === value && cameBackEmpty(h),
  );
  if (!tried) return undefined;
  const parts = parseDateString(value, dates);
  if (!parts) return undefined;
  const weekday = weekdayOf(parts);
  if (weekday !== 0 && weekday !== 6) return undefined;
  const moved = formatDate(addDays(parts, weekday === 0 ? -2 : -1), format, dates.timeZone);
  return {
    value: moved,
    note: `${field}: ${tool.name} found nothing on ${WEEKDAY_NAMES[weekday]} ${value}; the last working day before it is Friday ${moved}`,
  };
}

function applyCityName(value: string): unknown {
  return applyNormalizers(value, ['city_name']);
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
  const format = dateFormatOf(hints.schema, hints.path);
  if (format) {
    const parts = parseDateString(value, dates);
    if (!parts) return false;
    return findDates(corpus, dates).some(
      (m) => m.date.year === parts.year && m.date.month === parts.month && m.date.day === parts.day,
    );
  }
  if (enumKey(corpus).includes(enumKey(value))) return true;
  // "Beijing" for a request that says 北京: the city named, in the English the normalizer gives it.
  if (
    hints.normalizers.includes('city_name') &&
    chineseCities(corpus).some((c) => c.english === applyCityName(value))
  )
    return true;
  const digits = value.replace(/\D/g, '');
  return digits.length >= 4 && extractIds(corpus).some((t) => t.value.replace(/\D/g, '') === digits);
}

/**
 * The text a read step reads as its request: one call of several that the request asks for listed values ("the
 * weather in Beijing and Shanghai" → "the weather in Shanghai"). The plan names it for every parameter the step takes
 * from the user's words, and it is the request with words left out from inside it (the other calls' values) — not one
 * part of the request as written, which is the words of one ask or phrase, read as such below. Its values are then
 * matched to the step's parameters all at once, as for a whole request, and its optional parameters read it too, so
 * one call's value is never another's. Undefined for any other step.
 */
function stepRequest(tool: ToolDefinition, step: PlanStep, request: string): string | undefined {
  if (tool.action !== 'read') return undefined;
  const texts = step.input_from.filter((r) => r.source === 'user_text').map((r) => r.text);
  const [first] = texts;
  if (first === undefined || !texts.every((t) => t === first) || request.includes(first)) return undefined;
  return leftOutFrom(first, request) ? first : undefined;
}

/** Whether `text` is `request` with some of its words left out (its characters, in order, all in the request). */
function leftOutFrom(text: string, request: string): boolean {
  let at = 0;
  for (const ch of text) {
    at = request.indexOf(ch, at);
    if (at === -1) return false;
    at += ch.length;
  }
  return true;
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
  const dates = requestDateContext(userText(task), dateContextOf(task));
  const args: Record<string, unknown> = {};
  const provenance: Record<string, ArgumentProvenance> = {};
  const log: string[] = [];
  const notes: string[] = [];
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
  const spent = spentIds(topLevel, task, history, dates);
  const wholeRequest = userText(task);
  const request = stepRequest(tool, step, wholeRequest) ?? wholeRequest;
  // Numbers and spans of the request are matched to the tool's parameters all at once, so one value fills one
  // parameter ("base 10 and height 5"), and an entity takes a span of the request, never the request itself.
  const lists = assignLists(topLevel, request, dates);
  const numbers = assignNumbers(topLevel, request, dates, spent, lists.ranges);
  // The tool's own words (its name and purpose): a capitalised phrase made of them names the tool's subject, not a value.
  const toolText = `${tool.name} ${typeof tool.description === 'string' ? tool.description : tool.description.purpose}`;
  const toolNameWords = nameWords(tool.name).filter((w) => w.length > 2);
  const strings = assignStrings(topLevel, request, toolText, lists.ranges);
  const ids = assignIds(
    topLevel,
    request,
    tool.name
      .toLowerCase()
      .split(/[^a-z0-9]+/u)
      .filter(Boolean),
  );
  // The labels of the tool's parameters ("subject", 主题): a colon after one labels a value, it opens no message.
  const labels = topLevel.flatMap((h) => [
    ...nameWords(h.path),
    ...chineseTerms(typeof h.schema.description === 'string' ? h.schema.description : ''),
  ]);
  /**
   * For an own-words parameter of a write that carries a message (not a description of the user's matter): the
   * words the text gives it to say, or null when it gives none; undefined when the rule does not apply.
   */
  const messageOfWrite = (
    field: string,
    hints: ParameterHints,
    text: string,
  ): DeliveredWords | null | undefined => {
    if (tool.action === 'read') return undefined;
    const description = typeof hints.schema.description === 'string' ? hints.schema.description : '';
    if (!carriesMessage(field, description)) return undefined;
    return deliveredWords(text, { labels, recipient: namedPhrase(text) }) ?? null;
  };
  /**
   * The words of the request that name another closed-set parameter or its value (its name, an enum value or synonym:
   * "high priority", 投诉, 加急, "urgent").
   */
  const otherValues = (field: string): string[] =>
    topLevel
      .filter((h) => h.path !== field && h.enum)
      .flatMap((h) => [...nameWords(h.path), ...(h.enum ?? []).map(String), ...Object.keys(h.synonyms)]);

  const program = computeProgramParameter(tool);
  let figuresRead: Figure[] | undefined;
  /**
   * A value from an earlier output. Quoted passages feeding the compute sandbox's named inputs are read into the
   * figures they state (SP-3: compute over verified numbers only); anything else is taken as it is.
   */
  const setFromOutput = (field: string, value: unknown, how: string): boolean => {
    if (!program || field !== computeInputsParameter || !Array.isArray(value)) {
      set(field, value, 'step_output', how);
      return true;
    }
    return setFigures(field, readFigures(value.filter((v): v is string => typeof v === 'string')), how);
  };
  /** The sandbox's named inputs from the figures read (none read: nothing to compute on). */
  const setFigures = (field: string, figures: Figure[], how: string): boolean => {
    figuresRead = figures;
    if (figures.length === 0) {
      log.push(`${field}: ${how} states no figure with a unit; nothing to compute on`);
      return false;
    }
    set(
      field,
      Object.fromEntries(figures.map((f) => [f.name, f.value])),
      'step_output',
      `${how}: figures ${figures.map((f) => `${f.name} ← "${f.text}"`).join(', ')}`,
    );
    return true;
  };
  /** Named inputs from the passages of several pages, each page's figures known by its title too. */
  const setFromPages = (
    field: string,
    pages: readonly { passages: readonly string[]; source?: string }[],
    how: string,
  ): boolean => {
    const figures = readFigures(
      pages.flatMap((p) => p.passages),
      pages.flatMap((p) => p.passages.map(() => p.source)),
    );
    return setFigures(field, figures, how);
  };
  for (const hints of topLevel) {
    const field = hints.path;
    // The sandbox's program is written from the figures once they are read (below), never taken from the request.
    if (field === program && !(proposals && Object.hasOwn(proposals, field))) continue;
    const redact = isSensitive(field, sensitive);
    const ref = step.input_from.find((r) => r.parameter === field);
    // A link the request writes itself is the page it means: where an optional dependency (or the plan, wiring it)
    // would take a URL from an earlier step (a search's results), the one link written and not yet opened by this
    // tool wins ("https://… 这篇里用的是什么方法" opens that page, whatever a search beside it found).
    if (
      hints.schema.format === 'uri' &&
      (ref === undefined || ref.source === 'step_output') &&
      tool.depends_on.some((d) => d.parameter === field && !d.required)
    ) {
      const opened = new Set(
        history.filter((h) => h.call.tool === tool.name).map((h) => h.call.arguments[field]),
      );
      const written = [...new Set(wholeRequest.match(WRITTEN_URL) ?? [])]
        .map((u) => u.replace(/[.,;:!?)）。，；：！？]+$/u, ''))
        .filter((u) => !opened.has(u));
      if (written.length === 1 && written[0] !== undefined) {
        set(field, written[0], 'user_text', 'the one link the request writes (over the chain)');
        continue;
      }
    }
    const fromText = (text: string, source: 'user_text' | 'context'): boolean => {
      if (text.trim() === '') return false;
      const fromRequest = source === 'user_text' && text === request;
      if (fromRequest && isArraySchema(hints.schema)) {
        const list = lists.lists.get(field);
        if (list) {
          set(field, list.value, source, `list (${list.note})`);
          return true;
        }
      }
      if (fromRequest && isNumeric(hints)) {
        const given = numbers.get(field);
        if (given) {
          set(field, given.value, source, `number ${shown(field, given.value, sensitive)} (${given.cue})`);
          return true;
        }
      }
      if (fromRequest && isPlainString(hints)) {
        const span = strings.spans.get(field);
        if (span) {
          set(field, span.value, source, span.note);
          return true;
        }
        const why = strings.notes.get(field);
        if (why) log.push(`${field}: ${why} in ${source}`);
      }
      const owned = fromRequest ? ids.owned.get(field) : undefined;
      if (owned) {
        set(field, owned.value, source, owned.note);
        return true;
      }
      const got = extractParameter(hints, text, dates, redact, toolNameWords);
      const ownedElsewhere =
        fromRequest && got.found && typeof got.value === 'string'
          ? ids.refused.get(field)?.get(got.value)
          : undefined;
      if (ownedElsewhere) {
        log.push(`${field}: ${ownedElsewhere}; not used (${source})`);
        return false;
      }
      if (got.found && isNumeric(hints)) {
        // PI-3 "never invent": a number the request already spent on an id is not also a quantity, and an optional
        // number needs a cue (unit, currency, its name beside it) — omitting it keeps the tool's own default.
        const digits = String(got.value).replace(/\D/g, '');
        const why = spent.has(digits)
          ? `${shown(field, got.value, sensitive)} is already the request's id`
          : !hints.required && !got.cue
            ? `${shown(field, got.value, sensitive)} is a loose number with no unit, currency or keyword naming ${field}`
            : null;
        if (why) {
          log.push(`${field}: ${why}; not used (${source})`);
          notes.push(`${field} not filled: ${why}`);
          return false;
        }
        if (fromRequest) {
          // The joint assignment gave this number to another parameter, or could not say whose it is.
          log.push(
            `${field}: the request's numbers do not settle it (${shown(field, got.value, sensitive)} is another parameter's, or several fit)`,
          );
          return false;
        }
      }
      if (got.found) {
        const instead =
          typeof got.value === 'string'
            ? lastWorkingDayInstead(got.value, field, tool, history, dates)
            : undefined;
        if (instead) {
          set(field, instead.value, source, `${got.note}; moved: ${instead.note}`);
          notes.push(instead.note);
          return true;
        }
        set(field, got.value, source, got.cue ? `${got.note} (${got.cue})` : got.note);
        return true;
      }
      if (got.note) log.push(`${field}: ${got.note} in ${source}`);
      return false;
    };

    // A step reading the words of one call of several (`stepRequest`) takes from them what they give; what they do
    // not give, the whole request may (a value of every call, said once outside the step's words).
    const fromRequestOrWhole = (): boolean =>
      fromText(request, 'user_text') || (request !== wholeRequest && fromText(wholeRequest, 'user_text'));
    // What the request itself labels for this parameter ("subject: Atlas sync recap", 主题写“…”) is the user's choice:
    // it wins over what an earlier step's output would give (a report's own title).
    const labelled = strings.spans.get(field);
    // So is a quoted passage written beside the parameter's name ("with a message saying '…'", "'…' as content"): it
    // wins over the words of the request the plan names for it.
    if (
      (labelled?.note === LABELLED_NOTE || labelled?.note === QUOTED_BESIDE_NOTE) &&
      ref?.source !== 'default'
    ) {
      set(field, labelled.value, 'user_text', labelled.note);
      continue;
    }
    // Several earlier steps feed one list parameter (one look-up per recipient a send lists): the list of all they
    // found, in the plan's order, each value once.
    const outputs = step.input_from.filter((r) => r.parameter === field && r.source === 'step_output');
    // (so do several sources for the sandbox's named inputs: one page read per thing a calculation compares)
    const namedInputs = program !== undefined && field === computeInputsParameter;
    if (outputs.length > 1 && (isArraySchema(hints.schema) || namedInputs)) {
      const records = outputs.map((r) =>
        r.step_index === null ? undefined : outputOfStep(history, r.step_index),
      );
      const found = outputs.map((r, i) => {
        const record = records[i];
        const got = record?.result.output ? readPath(record.result.output, r.path ?? '') : undefined;
        return got?.found ? got.value : undefined;
      });
      if (found.every((v) => v !== undefined)) {
        const how = outputs.map((r) => `step ${String(r.step_index)} ${r.path ?? '$'}`).join(' + ');
        if (namedInputs) {
          // Each page's passages with the page's title: a figure a datasheet states under "Sequential read: …" is
          // the figure of the thing its title names.
          const pages = found.map((v, i) => {
            const output = records[i]?.result.output;
            const title =
              output && typeof output === 'object' ? (output as { title?: unknown }).title : undefined;
            return {
              passages: (Array.isArray(v) ? (v as unknown[]) : [v]).filter(
                (t): t is string => typeof t === 'string',
              ),
              ...(typeof title === 'string' ? { source: title } : {}),
            };
          });
          if (setFromPages(field, pages, how)) continue;
        } else {
          const values = [
            ...new Set(found.flatMap((v): unknown[] => (Array.isArray(v) ? (v as unknown[]) : [v]))),
          ];
          if (setFromOutput(field, values, how)) continue;
        }
      }
      log.push(`${field}: not every step that feeds it has an output yet`);
    }
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
            const how = `step ${String(ref.step_index)} ${record.call.tool} ${ref.path ?? '$'}`;
            if (setFromOutput(field, got.value, how)) continue;
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
      } else if (ref.text !== undefined && ref.text.trim() !== request.trim()) {
        // The plan names the words of the request this parameter takes (one search of several): those words, not
        // the whole request — free text as written, anything else extracted from them.
        if (isFreeText(hints)) {
          // The same role rule as for the whole request: only a parameter that carries the user's own words takes
          // the words as written; one naming an entity takes a span of them, or is missing.
          if (strings.roles.get(field) === 'own_words') {
            // The part of the request the plan names is still the instruction: a message takes the words it gives to
            // say, and a matter is not the bare ask for the write.
            const said = messageOfWrite(field, hints, ref.text);
            if (said !== undefined) {
              if (said)
                set(
                  field,
                  said.value,
                  'user_text',
                  `plan input_from user_text: ${said.note} in the words the plan names`,
                );
              else log.push(`${field}: the words the plan names give ${tool.name} nothing to say; asked`);
              continue;
            }
            if (instructionOnly(ref.text, tool, namedPhrase(ref.text), otherValues(field))) {
              log.push(
                `${field}: the words the plan names only ask for ${tool.name}; nothing to put in ${field}`,
              );
              continue;
            }
            set(field, ref.text.trim(), 'user_text', 'plan input_from user_text: the words the plan names');
            continue;
          }
          const inPart = assignStrings(topLevel, ref.text, toolText).spans.get(field);
          // A value written after the parameter's own name elsewhere in the request ("The event identifier is
          // 'med123'") is the user's naming of it: it beats a name the part holds only because it is its one name.
          const named = strings.spans.get(field);
          const span =
            inPart?.note.startsWith('the one proper name') &&
            named?.note.startsWith('the value written after')
              ? named
              : inPart;
          // As for the whole request below: a name the words give after a preposition that starts with the span and
          // goes on ("send it to the Atlas project group." → "Atlas project group", not "Atlas") is the whole name.
          const partName = isNameParameter(hints) ? withoutOwnWord(namedPhrase(ref.text), field) : undefined;
          if (span && partName && extendsName(partName, span.value)) {
            set(
              field,
              partName,
              'user_text',
              'plan input_from user_text: the name the words the plan names give',
            );
            continue;
          }
          if (span) {
            set(
              field,
              span.value,
              'user_text',
              `plan input_from user_text: ${span.note} in the words the plan names`,
            );
            continue;
          }
          // A Chinese personal name in the words the plan names (…开张个人发票，抬头王芳), when it is their only one — before
          // a value elsewhere in the request (…Atlas的纪要…，发给陈杰: the send's words name 陈杰), and as for the whole
          // request below: the proper-name rules read capitalised Latin names only.
          const people = isNameParameter(hints)
            ? [...new Set(chinesePersonNames(ref.text).map((p) => p.name))]
            : [];
          if (people.length === 1 && people[0] !== undefined) {
            set(
              field,
              people[0],
              'user_text',
              'plan input_from user_text: the one Chinese personal name in the words the plan names',
            );
            continue;
          }
          // The value may stand in another part of the request ("… log in. My username is 'jd'").
          const anywhere = strings.spans.get(field);
          if (anywhere) {
            set(field, anywhere.value, 'user_text', `plan input_from user_text: ${anywhere.note}`);
            continue;
          }
          // Words that name no one (然后在群里说一声, "and tell them too") point back at the one named before them: the
          // name the request gives ahead of those words (邮件发给Atlas项目组，然后在群里说一声 → Atlas项目组).
          const before = request.indexOf(ref.text);
          const earlier = before > 0 && isNameParameter(hints) ? request.slice(0, before) : '';
          const givenBefore = earlier === '' ? undefined : withoutOwnWord(namedPhrase(earlier), field);
          if (givenBefore) {
            set(
              field,
              givenBefore,
              'user_text',
              'plan input_from user_text: the name given before the words the plan names',
            );
            continue;
          }
          // A third-person pronoun in those words (他邮箱是哪个, 她负责什么) points back at the one person the request
          // names before them (李伟说…，他邮箱是哪个 → 李伟).
          const peopleBefore =
            earlier !== '' && THIRD_PERSON_ZH.test(ref.text)
              ? [...new Set(chinesePersonNames(earlier).map((p) => p.name))]
              : [];
          if (peopleBefore.length === 1 && peopleBefore[0] !== undefined) {
            set(
              field,
              peopleBefore[0],
              'user_text',
              'plan input_from user_text: the one person named before the pronoun in the words the plan names',
            );
            continue;
          }
        }
        if (fromText(ref.text, 'user_text')) continue;
      } else if (isFreeText(hints)) {
        // The plan says this free-text parameter is the user's own words (a search query, a ticket title); a model's
        // phrasing of them is preferred when there is one.
        if (!(proposals && Object.hasOwn(proposals, field))) {
          // A name is not the whole request either: a parameter documented as a name takes the name the request
          // gives ("… send it to the Atlas project group" → "Atlas project group"), so a lookup by name can match —
          // the whole phrase a preposition introduces, not only its capitalised words.
          const named = isNameParameter(hints) ? withoutOwnWord(namedPhrase(request), field) : undefined;
          const span = strings.spans.get(field);
          // The proper-name rules read capitalised Latin names only: a name the request gives in Chinese after a
          // recipient marker (发给陈杰) is one they cannot see, so a Latin name elsewhere (Atlas) does not outvote it.
          const chineseNamed = named !== undefined && /\p{Script=Han}/u.test(named);
          // A passage the request quotes is what it says (a subject, a message), not whom it addresses: the one
          // named after a recipient marker wins over a lone quote for a name.
          const quoteOnly =
            named !== undefined &&
            span?.note === LONE_QUOTE_NOTE &&
            withoutOwnWord(namedPhrase(request, true), field) === named;
          if (span && !chineseNamed && !quoteOnly && !(named && extendsName(named, span.value))) {
            set(field, span.value, 'user_text', `plan input_from user_text: ${span.note}`);
            continue;
          }
          if (named) {
            set(field, named, 'user_text', 'plan input_from user_text: the name the request gives');
            continue;
          }
          // A Chinese personal name written anywhere (陈杰的邮箱是多少), when it is the request's only one.
          const people = isNameParameter(hints)
            ? [...new Set(chinesePersonNames(request).map((p) => p.name))]
            : [];
          if (people.length === 1 && people[0] !== undefined) {
            set(
              field,
              people[0],
              'user_text',
              'plan input_from user_text: the one Chinese personal name written',
            );
            continue;
          }
          // The whole request is a value only for a parameter that carries the user's own words (a query, a
          // message); one naming an entity (a city, a password, an id) needs a span of it, or it is missing.
          const role = strings.roles.get(field);
          if (role === 'own_words') {
            // A message a write delivers says what the user gave it to say — never the instruction itself.
            const said = messageOfWrite(field, hints, request);
            if (said !== undefined) {
              if (said) set(field, said.value, 'user_text', `plan input_from user_text: ${said.note}`);
              else
                log.push(
                  `${field}: the request gives ${tool.name} no words to say (no label, quote, colon or "that …"); asked`,
                );
              continue;
            }
            // A write's content is the user's words about the matter, not the instruction asking for the write.
            if (instructionOnly(request, tool, namedPhrase(request), otherValues(field))) {
              log.push(
                `${field}: the request only asks for ${tool.name}; it gives nothing to put in ${field}`,
              );
              continue;
            }
            // "Convert it to audio format: I am a pretty girl": the instruction, a colon, then the user's words.
            const words = wordsAfterColon(request);
            if (words !== undefined) {
              set(
                field,
                words,
                'user_text',
                'plan input_from user_text: the words after the instruction and its colon',
              );
              continue;
            }
            set(field, request.trim(), 'user_text', 'plan input_from user_text: the request');
            continue;
          }
          if (fromText(request, 'user_text')) continue;
          // (a step reading one call's words: a name they do not give may stand elsewhere in the request)
          if (request !== wholeRequest) {
            const elsewhere = assignStrings(topLevel, wholeRequest, toolText).spans.get(field);
            if (elsewhere) {
              set(field, elsewhere.value, 'user_text', `${elsewhere.note} (outside the step's own words)`);
              continue;
            }
            if (fromText(wholeRequest, 'user_text')) continue;
          }
          log.push(
            `${field}: names ${role === undefined ? 'an id or contact' : `an entity (${role})`}; the request has no span for it`,
          );
        }
      } else if (fromRequestOrWhole()) continue;
    }

    // An optional dependency is the plan's to wire: a plan that names the words of the ask a step serves and no chain
    // value for this field means the ask gives its own ("the invoice of order 20261101001", not the one just issued).
    const ownWords = step.input_from.some((r) => r.source === 'user_text' && r.text !== undefined);
    const dependency = tool.depends_on.find(
      (d) => d.parameter === field && (d.required || !ownWords || ref !== undefined),
    );
    if (dependency) {
      const record = outputOfTool(history, dependency.tool);
      const got =
        record && record.result.output !== null
          ? readPath(record.result.output, dependency.output)
          : { found: false as const };
      if (
        record &&
        got.found &&
        setFromOutput(field, got.value, `depends_on ${dependency.tool}.${dependency.output}`)
      )
        continue;
    }

    if (dateFormatOf(hints.schema, hints.path) && fromRequestOrWhole()) continue;

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

    if (fromRequestOrWhole() || fromText(contextText(task), 'context')) continue;

    if (!hints.required && hints.schema.default !== undefined) {
      // A default the parameter's own schema rejects ("dontcare" for an integer year) would only fail validation and
      // turn an optional value into a question: left out, the tool applies its own default.
      if (fitsDeclaredType(hints.schema, hints.schema.default, field))
        set(field, hints.schema.default, 'default', 'schema default');
      else
        log.push(
          `${field}: the schema default ${JSON.stringify(hints.schema.default)} does not fit its own type; left out`,
        );
    }
  }

  if (program && !(program in args)) {
    // The request's own arithmetic over figures it gives itself ("1.45、1.22、1.38 … 平均值") is the user's: it stands
    // when the figures an earlier step read give no calculation the request asks for.
    const own = requestArithmetic(userText(task));
    if (figuresRead && figuresRead.length > 0) {
      const calc = calculationFor(userText(task), figuresRead);
      if (calc.expression !== undefined) {
        set(program, calc.expression, 'user_text', `the request asks for the ${calc.note}`);
        notes.push(`${program}: ${calc.note}`);
      } else if (own) {
        set(program, own.expression, 'user_text', `the request's own arithmetic: ${own.note}`);
        notes.push(`${program}: ${own.note}, over the figures the request gives`);
      } else {
        log.push(`${program}: no calculation written: ${calc.note}`);
        notes.push(`${program} not written: ${calc.note}`);
      }
    } else {
      // No earlier step found figures: the request may write its own arithmetic ("17% of 2,340", 两千的百分之十七).
      if (own) {
        set(program, own.expression, 'user_text', `the request's own arithmetic: ${own.note}`);
        notes.push(`${program}: ${own.note}, over the figures the request gives`);
      } else log.push(`${program}: no verified figures from an earlier step to compute on`);
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
  return { arguments: args, provenance, log, notes };
}

/**
 * The words after an instruction and its colon ("Translate into French: where is the station?"): one colon followed by
 * a space (not a time, a URL or a ratio), an instruction of two words or more before it and two words or more after.
 */
function wordsAfterColon(request: string): string | undefined {
  const text = request.trim();
  const colons = [...text.matchAll(/:\s/g)];
  if (colons.length !== 1) return undefined;
  const at = colons[0]?.index ?? -1;
  const before = text.slice(0, at).trim();
  const after = text.slice(at + 1).trim();
  if (before.split(/\s+/).length < 2 || after.split(/\s+/).length < 2) return undefined;
  return /\p{L}$/u.test(before) ? after : undefined;
}

/**
 * A name without a last word that is the parameter's own word ("from Barcelona team" for `team` → "Barcelona"): the
 * word says what the name is, as in "the Acme company".
 */
function withoutOwnWord(named: string | undefined, field: string): string | undefined {
  if (named === undefined) return undefined;
  const words = named.split(/\s+/);
  const last = words[words.length - 1]?.toLowerCase() ?? '';
  const own = field
    .slice(field.lastIndexOf('.') + 1)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
  return words.length > 1 && own.includes(last) && /^\p{Ll}/u.test(words[words.length - 1] ?? '')
    ? words.slice(0, -1).join(' ')
    : named;
}

/** The builtin compute sandbox takes a program (`expression`) over named `inputs` (its handler's contract). */
const computeInputsParameter = 'inputs';

function computeProgramParameter(tool: ToolDefinition): string | undefined {
  return tool.transport?.kind === 'builtin' && tool.transport.handler === 'compute'
    ? 'expression'
    : undefined;
}
