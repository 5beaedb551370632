// RS-6 / PI-5 / OB-1: the one detector of sensitive values in free text — a request, a conversation's context, a
// tool's output, a log line. The parameter injector reads phone numbers and e-mail addresses out of the user's words
// with the same patterns (PHONE_CANDIDATE, PHONE_CUE_BEFORE, EMAIL_PATTERN below), so a phone number or address the
// text names as one is also found where it stays text; libphonenumber-js adds every valid international number and
// Chinese mobile number, however it is introduced. The event log (`@signalbox/event-log`'s append) and every logger made
// by `createLogger` replace what this finds by a placeholder naming its kind; the clear text stays in the event's
// secrets (event_secrets), never in a row or a line.
import { findPhoneNumbersInText } from 'libphonenumber-js/max';

/** The kinds of sensitive value found in free text. */
export type SensitiveKind = 'phone' | 'email' | 'id_card' | 'bank_card';

/** One sensitive value in a text: its kind and where it is (`start` inclusive, `end` exclusive, UTF-16 offsets). */
export interface SensitiveSpan {
  kind: SensitiveKind;
  start: number;
  end: number;
  /** The value as written (`text.slice(start, end)`). */
  text: string;
}

/**
 * The text with full-width Latin letters, digits and signs (１３８, ＠, the ideographic space) as their ASCII forms,
 * one UTF-16 unit for one, so offsets still point into the original. The full-width comma stays as it is.
 */
export function halfwidth(text: string): string {
  return text.replace(/[\uFF01-\uFF0B\uFF0D-\uFF5E\u3000\uFFE5]/g, (c) => {
    if (c === '\u3000') return ' ';
    if (c === '\uFFE5') return '¥';
    return String.fromCharCode(c.charCodeAt(0) - 0xfee0);
  });
}

/** An e-mail address (run over {@link halfwidth} text). */
export const EMAIL_PATTERN = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/**
 * A phone number as people write it: optional +country code, then groups of digits separated by spaces, dots, dashes
 * or parentheses; the last group may be two digits ("+46 70 123 45 67"). A candidate counts when it has 7–15 digits,
 * is not a date, and either starts with `+`, has phone punctuation, or follows a {@link PHONE_CUE_BEFORE} word.
 */
export const PHONE_CANDIDATE = /(?<![\w@])(\+?\d{1,3}[\s.-]?)?(\(?\d{2,4}\)?[\s.-]?){1,4}\d{2,4}(?![\w@])/g;

/**
 * Words that say the digits after them are a phone number: "phone", "tel", "mobile", "call me at", "reach / contact /
 * text me at", a person's own "my number" (not "my order number"), and 电话 / 手机 / 联系方式 (phone / mobile /
 * contact), with an optional "number" (号码) and a linking "is" / colon.
 */
export const PHONE_CUE_BEFORE =
  /(?:\b(?:phone|tel|telephone|mobile|cell|call(?:\s+me)?(?:\s+(?:at|on))?|(?:reach|contact|text)\s+me\s+(?:at|on)|(?:my|our)(?=\s+(?:number|no\.?)\b))(?:\s+(?:number|no\.?))?|电话|電話|手机|手機|联系方式|聯繫方式|联系电话|聯繫電話)(?:号码|號碼)?\s*(?:is|:|是|为|為)?\s*$/iu;

const DATE_LIKE = [/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/, /^\d{1,2}[-/.]\d{1,2}[-/.]\d{4}$/];

/**
 * The phone numbers the pattern rule above finds in `text` (already {@link halfwidth}), as spans of the written text
 * (trimmed). The parameter injector's `extractPhones` is this rule.
 */
export function phoneCandidates(text: string): { start: number; raw: string }[] {
  const out: { start: number; raw: string }[] = [];
  for (const m of text.matchAll(PHONE_CANDIDATE)) {
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (DATE_LIKE.some((d) => d.test(raw))) continue;
    const start = m.index + (m[0].length - m[0].trimStart().length);
    // A bare run of digits without phone punctuation or `+` is more likely an id (order numbers are long too) —
    // unless the text says it is a phone number ("call me at 13800138000", "电话13800138000").
    if (!raw.startsWith('+') && /^\d+$/.test(raw) && !PHONE_CUE_BEFORE.test(text.slice(0, start))) continue;
    out.push({ start, raw });
  }
  return out;
}

// Cheapest test first: every kind found here has a digit or an at sign, in ASCII or full width.
const DIGIT_OR_AT = /[\d@\uFF10-\uFF19\uFF20]/;

// A string that is wholly an RFC 3339 date-time (every envelope and payload carries several) is a time, nothing else.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

// Cheap test run next: a text with no '@' and no seven digits near one another holds nothing this module finds.
const MAYBE_SENSITIVE = /@|\d(?:[\s().-]{0,2}\d){6}/;

// Letters and digits (ASCII) on either side make a digit run part of a longer token (a hash, an id), not a number.
const TOKEN_CHAR = /[A-Za-z0-9]/;

function bounded(text: string, start: number, end: number): boolean {
  return !TOKEN_CHAR.test(text.charAt(start - 1)) && !TOKEN_CHAR.test(text.charAt(end));
}

const CN_MOBILE_DIGITS = /1[3-9]\d{9}/;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;

/**
 * Phone numbers libphonenumber-js finds and validates: international ones (written with `+`, any country) and, for
 * Chinese text without a country code, mainland mobile numbers (1[3-9]… eleven digits, type MOBILE by the metadata).
 */
function libphonenumberSpans(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  // Each search runs only where it can find something: libphonenumber-js builds an Error for every candidate it
  // rejects, which made this the costliest part of an event's append when every timestamp and id went through it.
  // Without a default country a number must be written with `+`; a mainland mobile number is eleven digits 1[3-9]…,
  // which stay eleven digits in a row once everything but letters and digits is taken out (a superset of the
  // punctuation libphonenumber-js lets inside a number).
  if (text.includes('+'))
    for (const m of findPhoneNumbersInText(text)) out.push({ start: m.startsAt, end: m.endsAt });
  if (!CN_MOBILE_DIGITS.test(text.replace(NOT_LETTER_OR_DIGIT, ''))) return out;
  for (const m of findPhoneNumbersInText(text, { defaultCountry: 'CN' })) {
    if (m.number.country === 'CN' && m.number.getType() === 'MOBILE')
      out.push({ start: m.startsAt, end: m.endsAt });
  }
  return out;
}

// Mainland China resident identity card: 6-digit area code, birth date, 3-digit sequence, ISO 7064 MOD 11-2 check.
const ID_CARD = /\d{17}[\dXx]/g;
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

function validIdCard(id: string): boolean {
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return false;
  let sum = 0;
  for (let i = 0; i < 17; i += 1) sum += Number(id[i]) * (ID_WEIGHTS[i] ?? 0);
  return ID_CHECK[sum % 11] === id[17]?.toUpperCase();
}

// A payment card number: 13–19 digits, optionally in groups split by single spaces or dashes; Luhn-valid.
const BANK_CARD = /\d{4}(?:[ -]?\d){9,15}/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Every sensitive value in `text`, in text order, overlapping finds merged (the longer kind wins: an id card is not
 * also a phone). Full-width digits and signs count as their ASCII forms. Pure and deterministic.
 */
export function findSensitive(text: string): SensitiveSpan[] {
  if (typeof text !== 'string' || text.length === 0 || !DIGIT_OR_AT.test(text) || TIMESTAMP.test(text))
    return [];
  const ascii = halfwidth(text);
  if (!MAYBE_SENSITIVE.test(ascii)) return [];
  const found: { kind: SensitiveKind; start: number; end: number }[] = [];
  for (const m of ascii.matchAll(EMAIL_PATTERN)) {
    const value = m[0].replace(/\.$/, '');
    found.push({ kind: 'email', start: m.index, end: m.index + value.length });
  }
  for (const m of ascii.matchAll(ID_CARD)) {
    if (bounded(ascii, m.index, m.index + m[0].length) && validIdCard(m[0]))
      found.push({ kind: 'id_card', start: m.index, end: m.index + m[0].length });
  }
  for (const m of ascii.matchAll(BANK_CARD)) {
    const digits = m[0].replace(/\D/g, '');
    if (
      digits.length >= 13 &&
      digits.length <= 19 &&
      bounded(ascii, m.index, m.index + m[0].length) &&
      luhn(digits)
    )
      found.push({ kind: 'bank_card', start: m.index, end: m.index + m[0].length });
  }
  // The injector's rule where the text leaves no doubt (a `+`, or a word saying "phone"); its punctuation-only
  // candidates ("20241127-8841") are ids as often as phones, and a phone among them is found by libphonenumber.
  for (const { start, raw } of phoneCandidates(ascii))
    if (raw.startsWith('+') || PHONE_CUE_BEFORE.test(ascii.slice(0, start)))
      found.push({ kind: 'phone', start, end: start + raw.length });
  for (const { start, end } of libphonenumberSpans(ascii))
    if (bounded(ascii, start, end)) found.push({ kind: 'phone', start, end });
  // Longest first, then earliest: a find overlapping one already taken is part of it.
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: typeof found = [];
  for (const f of found) if (!taken.some((t) => f.start < t.end && t.start < f.end)) taken.push(f);
  return taken.sort((a, b) => a.start - b.start).map((t) => ({ ...t, text: text.slice(t.start, t.end) }));
}

/**
 * What a sensitive value reads as once masked: its kind and its number among the distinct values of that text
 * (`[phone#1]`, `[email#2]`). The clear text is kept where the masked text is stored (the event's secrets); the
 * placeholder itself holds no part of the value.
 */
export function sensitivePlaceholder(kind: SensitiveKind, ordinal: number): string {
  return `[${kind}#${ordinal}]`;
}

/**
 * `text` with every value {@link findSensitive} finds replaced by its {@link sensitivePlaceholder}; the same value
 * written twice gets the same placeholder. Returns the text itself when nothing is found.
 */
export function maskSensitiveText(text: string): string {
  const known = MASKED.get(text);
  if (known !== undefined) return known;
  const masked = maskUncached(text);
  // The same text is masked again at every hop (a request, its context); a short memory of recent results saves
  // the search. Long texts are not kept, and the oldest entry leaves first.
  if (text.length <= MASK_MEMO_MAX_TEXT) {
    if (MASKED.size >= MASK_MEMO_ENTRIES) MASKED.delete(MASKED.keys().next().value as string);
    MASKED.set(text, masked);
  }
  return masked;
}

const MASK_MEMO_ENTRIES = 2048;
const MASK_MEMO_MAX_TEXT = 4096;
const MASKED = new Map<string, string>();

function maskUncached(text: string): string {
  const spans = findSensitive(text);
  if (spans.length === 0) return text;
  const ordinals = new Map<string, number>();
  let out = '';
  let at = 0;
  for (const span of spans) {
    const key = `${span.kind}\u0000${span.text}`;
    let ordinal = ordinals.get(key);
    if (ordinal === undefined) {
      ordinal = [...ordinals.keys()].filter((k) => k.startsWith(`${span.kind}\u0000`)).length + 1;
      ordinals.set(key, ordinal);
    }
    out += text.slice(at, span.start) + sensitivePlaceholder(span.kind, ordinal);
    at = span.end;
  }
  return out + text.slice(at);
}

/** A copy of any JSON value with every string masked by {@link maskSensitiveText} (keys are left as they are). */
export function maskSensitiveValues<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return maskSensitiveText(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
