// The registry's per-parameter normalizers (RG-1, packages/registry NORMALIZER_NAMES), applied in the declared order
// before coercion and validation (PI-3). Date normalizers only mark the target format; coerce.ts rewrites dates.
import type { NormalizerName } from '@signalbox/registry';
import { englishCityName } from './city-names.js';
import { normalizePhone } from './extractors.js';

const CURRENCY_WORDS: Readonly<Record<string, string>> = {
  $: 'USD',
  us$: 'USD',
  dollar: 'USD',
  dollars: 'USD',
  '€': 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  '¥': 'CNY',
  元: 'CNY',
  rmb: 'CNY',
  yuan: 'CNY',
  人民币: 'CNY',
  '£': 'GBP',
};

function titleCaseLatin(s: string): string {
  return s.replace(/\b([a-z])([a-z]*)/g, (_m, first: string, rest: string) => first.toUpperCase() + rest);
}

const NORMALIZERS: Readonly<Record<NormalizerName, (value: string) => string>> = {
  trim: (v) => v.trim(),
  lowercase: (v) => v.toLowerCase(),
  uppercase: (v) => v.toUpperCase(),
  collapse_whitespace: (v) => v.replace(/\s+/g, ' ').trim(),
  strip_punctuation: (v) => v.replace(/[\p{P}\p{S}]+/gu, '').trim(),
  digits_only: (v) => v.replace(/\D+/g, ''),
  phone_e164: (v) => normalizePhone(v),
  email: (v) => v.trim().toLowerCase(),
  url: (v) => {
    const t = v.trim();
    // A bare domain is a URL the user meant; anything with another scheme is left for validation to judge.
    return /^[a-z][a-z0-9+.-]*:/i.test(t) || !/^[\w-]+(\.[\w-]+)+(\/\S*)?$/.test(t) ? t : `https://${t}`;
  },
  iso_date: (v) => v.trim(),
  iso_datetime: (v) => v.trim(),
  city_name: (v) => {
    // A city written in Chinese is given by its English name (北京 → Beijing, 纽约市 → New York).
    const english = englishCityName(v);
    if (english) return english;
    const t = v
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\s+city$/i, '');
    // Lower-cased Latin names are capitalised ("beijing" → "Beijing"); names as written otherwise stay.
    return t === t.toLowerCase() ? titleCaseLatin(t) : t;
  },
  currency_code: (v) => {
    const t = v.trim();
    return CURRENCY_WORDS[t.toLowerCase()] ?? t.toUpperCase();
  },
};

/** Applies `names` in order to a string value; other values pass through unchanged. */
export function applyNormalizers(value: unknown, names: readonly string[]): unknown {
  if (typeof value !== 'string') return value;
  let out = value;
  for (const name of names) {
    const fn = NORMALIZERS[name as NormalizerName] as ((v: string) => string) | undefined;
    if (fn) out = fn(out);
  }
  return out;
}
