// A language the request names, written as the code its parameter takes (PI-2): "from English to French" for
// `source_language` / `target_language` with the enum `['en', 'hi', 'es', 'fr', 'de']` gives `en` and `fr`; "in Spanish"
// for a `language` enum of `['en-US', 'es-ES', …]` gives `es-ES`; "to Danish" for a `tgt_lang` documented as "The
// target language code, following the BCP 47 standard" gives `da`.
//
// The names are not a list of ours: they are the ICU data of the runtime (`Intl.DisplayNames`), in English and in
// Chinese (西班牙语), for the ISO 639-1 codes (two letters). A code the runtime does not know ('jp') is no language.
import type { ParameterHints } from '@signalbox/registry';

const NAMERS = [
  new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }),
  new Intl.DisplayNames(['zh'], { type: 'language', fallback: 'none' }),
];

/** The base language of a tag ("es-ES" → "es"), when the runtime knows it; undefined otherwise. */
function baseLanguage(tag: string): string | undefined {
  let language: string;
  try {
    language = new Intl.Locale(tag).language.toLowerCase();
  } catch {
    return undefined;
  }
  return NAMERS[0]?.of(language) === undefined ? undefined : language;
}

let names: { name: string; code: string; cjk: boolean }[] | undefined;
/** Every language name of the ISO 639-1 codes, in English and Chinese, longest first. */
function languageNames(): { name: string; code: string; cjk: boolean }[] {
  if (names) return names;
  const out: { name: string; code: string; cjk: boolean }[] = [];
  for (let a = 97; a < 123; a++)
    for (let b = 97; b < 123; b++) {
      const code = String.fromCharCode(a, b);
      for (const namer of NAMERS) {
        const name = namer.of(code);
        if (name && name.toLowerCase() !== code) out.push({ name, code, cjk: /\p{Script=Han}/u.test(name) });
      }
    }
  names = out.sort((x, y) => y.name.length - x.name.length);
  return names;
}

/** Whether `word` is a language's English or Chinese name in the runtime's ICU data ("Japanese", 日语). */
export function isLanguageName(word: string): boolean {
  const w = word.trim().toLowerCase();
  return languageNames().some((n) => n.name.toLowerCase() === w);
}

/** A language named in a text, where it is written. */
interface NamedLanguage {
  code: string;
  index: number;
  end: number;
}

/** The languages a text names ("English", "Danish", 西班牙语), in order; a longer name covers the shorter in it. */
export function namedLanguages(text: string): NamedLanguage[] {
  const found: NamedLanguage[] = [];
  const covered = (a: number, b: number) => found.some((f) => a < f.end && b > f.index);
  for (const { name, code, cjk } of languageNames()) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = cjk
      ? new RegExp(escaped, 'gu')
      : new RegExp(String.raw`(?<![\p{L}\p{N}])${escaped}(?![\p{L}\p{N}])`, 'giu');
    for (const m of text.matchAll(pattern)) {
      // A language written in lower case is a word of English only when it is no other word ("english" is, "lao"
      // or "ewe" might not be): English writes language names with a capital.
      if (!cjk && !/^\p{Lu}/u.test(m[0])) continue;
      if (!covered(m.index, m.index + m[0].length))
        found.push({ code, index: m.index, end: m.index + m[0].length });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

const SOURCE = /(?:^|_)(?:source|src|from|input|original)(?:_|$)/i;
const TARGET = /(?:^|_)(?:target|tgt|to|dest|destination|output)(?:_|$)/i;
const CODE_DESCRIPTION =
  /\blanguage\s+code\b|\bbcp\s?-?47\b|\biso\s?-?639\b|['"][a-z]{2}['"]\s+for\s+\p{Lu}/iu;

/** The parameter's name in snake case (`tgtLang` → `tgt_lang`), for its direction words. */
function snake(path: string): string {
  return path
    .slice(path.lastIndexOf('.') + 1)
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

/**
 * The language code a parameter takes from the request, when the parameter takes codes — an enum of language tags, or
 * a string documented as a language code — and the request names the language. Among several languages, a source
 * parameter takes the one written after "from", a target one the one after "to" or "into"; otherwise only one named
 * language settles it. Undefined when the parameter takes no codes or the request does not settle it.
 */
export function languageCodeFor(hints: ParameterHints, text: string): string | undefined {
  const description = typeof hints.schema.description === 'string' ? hints.schema.description : '';
  // The code each base language is written as: an enum's own tags ("es-ES"), or the two-letter code itself.
  let written: Map<string, string>;
  if (hints.enum) {
    const tags = hints.enum.filter((v): v is string => typeof v === 'string');
    const bases = tags.map((t) => [baseLanguage(t), t] as const);
    if (tags.length < 2 || bases.some(([b]) => b === undefined)) return undefined;
    const count = new Map<string, number>();
    for (const [b] of bases) if (b) count.set(b, (count.get(b) ?? 0) + 1);
    // Two tags of one language ("en-US", "en-GB"): its name does not say which.
    written = new Map(bases.filter(([b]) => b && count.get(b) === 1) as [string, string][]);
  } else if (CODE_DESCRIPTION.test(description)) {
    written = new Map(languageNames().map((n) => [n.code, n.code]));
  } else return undefined;
  const named = namedLanguages(text).filter((n) => written.has(n.code));
  const distinct = [...new Set(named.map((n) => n.code))];
  const name = snake(hints.path);
  const direction = SOURCE.test(name) ? 'source' : TARGET.test(name) ? 'target' : null;
  const one = (codes: readonly string[]) => {
    const set = [...new Set(codes)];
    return set.length === 1 ? set[0] : undefined;
  };
  let code: string | undefined;
  if (!direction) code = one(distinct);
  else {
    // "from English to French": "from" marks the source, "to" / "into" the target; "this English text to Danish":
    // the language not marked for the other end is this end's.
    const after = (words: RegExp) =>
      named.filter((n) => words.test(text.slice(Math.max(0, n.index - 6), n.index))).map((n) => n.code);
    const fromMarked = after(/\bfrom\s+$/i);
    const toMarked = after(/\b(?:to|into)\s+$/i);
    const mine = one(direction === 'source' ? fromMarked : toMarked);
    const theirs = one(direction === 'source' ? toMarked : fromMarked);
    const rest = distinct.filter((c) => c !== theirs);
    code =
      mine ?? (rest.length === 1 && (theirs !== undefined || distinct.length === 1) ? rest[0] : undefined);
  }
  return code === undefined ? undefined : written.get(code);
}
