// One id written in a request names one record, so it fills one id parameter of a tool (PI-3 "never invent"):
// "order 9999" is the order's number, not also the refund's — a refund looked up by the order's number finds nothing.
// When an id could fill several id parameters of one tool, the owner is, in this order:
// 1. the parameter whose record the words right before the id name ("order 9999", "refund #R12", "订单7777",
//    "运单号SF123") — the parameter's name without its `_id` / `_number` / `_no` / `_code` ending is the record;
// 2. a parameter whose declared `pattern` the id matches, over one that declares none (the more specific type);
// 3. a required parameter over an optional one;
// 4. the parameter declared first.
// And when a parameter is left with several ids, the one the request ties to the tool's own record ("the refund on
// 7777", 7777的退款, for a refund look-up) is its value: each record a request asks about has its id beside it.
import type { ParameterHints } from '@signalbox/registry';
import { extractIds, halfwidth } from './extractors.js';
import { RECORD_NOUNS_ZH } from './parameter-vocabulary.js';
import { sameWord } from './spans.js';

const ID_ENDING = /(?:^|_)(?:id|ids|number|no|code)$/i;

/** An id-like string parameter: a patterned code or a name ending in `_id`, `_number`, `_no`, `_code`. */
export function isIdParameter(hints: ParameterHints): boolean {
  const type = hints.schema.type;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('number') || types.includes('integer') || types.includes('array')) return false;
  return typeof hints.schema.pattern === 'string' || ID_ENDING.test(hints.path);
}

/** The record an id parameter names: `order_id` → order, `tracking_number` → tracking; undefined for a bare `id`. */
function recordOf(hints: ParameterHints): string | undefined {
  const name = hints.path.slice(hints.path.lastIndexOf('.') + 1).toLowerCase();
  const words = name
    .replace(ID_ENDING, '')
    .split(/[_\s]+/)
    .filter(Boolean);
  return words[words.length - 1];
}

// The words before an id that only introduce it: "order no. 9999", "order number: 9999", "订单号：7777".
const ID_LEAD_EN = /(?:\s*(?:#|no\.?|number|num|id|ref|:)\s*)*$/i;
const ID_LEAD_ZH = /(?:[号號]|编号|編號|[:：#]|\s)*$/u;

/** The record the words right before `index` name, in English or Chinese; undefined when none does. */
function recordBefore(text: string, index: number): string | undefined {
  const before = text.slice(0, index);
  const en = /([A-Za-z]+)$/.exec(before.replace(ID_LEAD_EN, '').trimEnd());
  if (en?.[1]) return en[1].toLowerCase();
  const zh = before.replace(ID_LEAD_ZH, '');
  for (let len = 4; len >= 2; len--) {
    const noun = RECORD_NOUNS_ZH[zh.slice(-len)];
    if (noun && zh.length >= len) return noun;
  }
  return undefined;
}

function matchesPattern(hints: ParameterHints, value: string): boolean {
  const pattern = hints.schema.pattern;
  if (typeof pattern !== 'string') return false;
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

/** What the joint reading of the request's ids gives each id parameter of one tool. */
export interface IdAssignment {
  /** Per parameter, the ids it must not take because another id parameter owns them, with the reason. */
  refused: Map<string, Map<string, string>>;
  /** Per parameter, the one id left to it once the ids other parameters own are set aside. */
  owned: Map<string, { value: string; note: string }>;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the words around the id at `index` tie it to one of the tool's own records — "the refund on 7777", "refund
 * for order 7777", "7777's refund", 7777的退款, 7777退款 — so that among several ids of a request it is this tool's:
 * a request asking about two records ("the parcel for order 1234 … the refund on 7777") names each one's id beside it.
 */
function tiedToTool(text: string, index: number, length: number, toolWords: readonly string[]): boolean {
  const records = toolWords.filter((w) => w.length >= 3).map(escape);
  if (records.length === 0) return false;
  const before = text.slice(0, index);
  const after = text.slice(index + length);
  const en = records.join('|');
  if (
    new RegExp(
      String.raw`\b(?:${en})s?\s+(?:on|of|for|from|with)\s+(?:(?:the|my|our|your)\s+)?(?:\p{L}+\s*)?(?:#|no\.?\s*|number\s*)?$`,
      'iu',
    ).test(before) ||
    new RegExp(String.raw`^['’]s\s+(?:${en})\b`, 'iu').test(after)
  )
    return true;
  const zh = Object.entries(RECORD_NOUNS_ZH)
    .filter(([, noun]) => toolWords.includes(noun))
    .map(([word]) => escape(word));
  return zh.length > 0 && new RegExp(`^\\s*的?(?:${zh.join('|')})`, 'u').test(after);
}

/**
 * Reads the request's ids for all id parameters of one tool at once (rules at the top of this file). `toolWords` are
 * the words of the tool's name (`refund_status_query` → refund, status, query).
 */
export function assignIds(
  topLevel: readonly ParameterHints[],
  request: string,
  toolWords: readonly string[] = [],
): IdAssignment {
  const idParams = topLevel.filter(isIdParameter);
  const refused = new Map<string, Map<string, string>>();
  const owned = new Map<string, { value: string; note: string }>();
  // 5. Among several ids a parameter could take, the one the request ties to the tool's own record ("the refund on
  // 7777" for a refund look-up) is its value.
  const text0 = halfwidth(request);
  const tied = (hints: ParameterHints): string[] => {
    const pattern = typeof hints.schema.pattern === 'string' ? hints.schema.pattern : undefined;
    return [
      ...new Set(
        extractIds(request, pattern)
          .filter((id) => tiedToTool(text0, id.index, id.value.length, toolWords))
          .map((id) => id.value),
      ),
    ];
  };
  if (idParams.length < 2) {
    for (const hints of idParams) {
      const pattern = typeof hints.schema.pattern === 'string' ? hints.schema.pattern : undefined;
      const all = new Set(extractIds(request, pattern).map((id) => id.value));
      const mine = tied(hints);
      if (all.size > 1 && mine.length === 1 && mine[0] !== undefined)
        owned.set(hints.path, {
          value: mine[0],
          note: `the one id the request ties to ${toolWords.join('_')}`,
        });
    }
    return { refused, owned };
  }
  const text = halfwidth(request);
  const takers = new Map<string, { index: number; params: ParameterHints[] }>();
  const candidates = new Map<string, string[]>();
  for (const hints of idParams) {
    const pattern = typeof hints.schema.pattern === 'string' ? hints.schema.pattern : undefined;
    const ids = [...new Set(extractIds(request, pattern).map((id) => id.value))];
    candidates.set(hints.path, ids);
    for (const id of extractIds(request, pattern)) {
      const entry = takers.get(id.value) ?? { index: id.index, params: [] };
      if (!entry.params.includes(hints)) entry.params.push(hints);
      takers.set(id.value, entry);
    }
  }
  for (const [value, { index, params }] of takers) {
    const named = recordBefore(text, index);
    const byRecord = named
      ? idParams.filter((p) => {
          const record = recordOf(p);
          return record !== undefined && sameWord(named, record);
        })
      : [];
    if (params.length < 2) continue;
    const patterned = params.filter((p) => matchesPattern(p, value));
    const required = params.filter((p) => p.required);
    const [owner, why] =
      byRecord.length === 1
        ? [byRecord[0], `the words before it name the ${named ?? ''}`]
        : patterned.length === 1
          ? [patterned[0], 'it matches that parameter’s declared pattern']
          : required.length === 1
            ? [required[0], 'that parameter is required']
            : [params[0], 'that parameter is declared first'];
    if (!owner) continue;
    for (const p of params) {
      if (p === owner) continue;
      const mine = refused.get(p.path) ?? new Map<string, string>();
      mine.set(value, `${value} is the request's ${owner.path} (${why}), not also its ${p.path}`);
      refused.set(p.path, mine);
    }
  }
  for (const hints of idParams) {
    const all = candidates.get(hints.path) ?? [];
    const mine = all.filter((v) => !refused.get(hints.path)?.has(v));
    const only = mine[0];
    if (all.length > 1 && mine.length === 1 && only !== undefined)
      owned.set(hints.path, { value: only, note: `the one id left once the others' ids are set aside` });
    else if (mine.length > 1) {
      const ownTied = tied(hints).filter((v) => mine.includes(v));
      if (ownTied.length === 1 && ownTied[0] !== undefined)
        owned.set(hints.path, {
          value: ownTied[0],
          note: `the one id the request ties to ${toolWords.join('_')}`,
        });
    }
  }
  return { refused, owned };
}
