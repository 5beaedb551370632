// Text normalisation shared by lexical retrieval (TD-2), scene routing and name resolution (TD-3): lower-case word
// tokens (snake_case, dotted and camelCase names split), English stop words dropped, a light suffix stemmer, and
// Chinese text split into its words (ICU's lexicon) so Chinese requests match Chinese keywords.

/** Words that carry no topic: function words and request filler. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if of to in on at by for with from into onto about as is are was were be been being am do ' +
    'does did done doing have has had having i me my mine we us our you your yours he him his she her it its they ' +
    'them their this that these those there here what which who whom whose when where why how can could would ' +
    'should shall will may might must please kindly want wants need needs like let lets tell give show me some any ' +
    'all each every both either neither not no yes so than then too very just also only more most much many few ' +
    'up down out over under again further once same other such own s t don now get got via per e g eg ie etc using ' +
    'use used one two three four five six seven eight nine ten'
  ).split(/\s+/),
);

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;

/**
 * `fn` of a text remembered for the last `size` distinct texts (oldest first out). One decision reads the same texts —
 * the request, its parts, every visible tool's name — many times over, and so does the next decision over the same
 * tools.
 */
export function remembered<T>(fn: (text: string) => T, size: number): (text: string) => T {
  const values = new Map<string, T>();
  return (text) => {
    // A long text (a pasted document) is computed, not kept: the memory a key holds is its length.
    if (text.length > REMEMBERED_CHARS) return fn(text);
    const known = values.get(text);
    if (known !== undefined) return known;
    const value = fn(text);
    values.set(text, value);
    if (values.size > size) values.delete(values.keys().next().value as string);
    return value;
  };
}

// Texts longer than this are not remembered (4,096 such texts hold at most ~16 MB of keys).
const REMEMBERED_CHARS = 2000;

const stemmed = remembered(stemWord, 16_384);

/**
 * A light English stemmer: enough to meet "refunds"/"refund", "delivered"/"deliver", "calculating"/"calculate" — not a
 * noun and its verb ("delivery" stays apart from "deliver").
 */
export function stem(word: string): string {
  return stemmed(word);
}

function stemWord(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  for (const [suffix, replacement] of [
    ['ational', 'ate'],
    ['ization', 'ize'],
    ['iveness', 'ive'],
    ['fulness', 'ful'],
    ['ousness', 'ous'],
    ['ations', 'ate'],
    ['ation', 'ate'],
    ['ically', 'ic'],
    ['ality', 'al'],
    ['ity', ''],
    ['tions', 't'],
    ['tion', 't'],
    ['sions', 's'],
    ['sion', 's'],
    ['ments', ''],
    ['ment', ''],
    ['ies', 'y'],
    ['ied', 'y'],
    ['ing', ''],
    ['ers', ''],
    ['er', ''],
    ['ed', ''],
    ['es', ''],
    ['ly', ''],
    ['s', ''],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      if (suffix === 's' && (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is'))) break;
      if (suffix === 'es' && !/(ch|sh|x|ss|zz)es$/.test(w)) {
        w = w.slice(0, -1);
        break;
      }
      w = w.slice(0, w.length - suffix.length) + replacement;
      // A plural of a derived word ("probabilities", "ratings") stems like its singular ("probability", "rating").
      if ((suffix === 's' || suffix === 'ies') && w !== word) return stem(w);
      break;
    }
  }
  // Fold a trailing "e" and a doubled final consonant ("calculate"/"calculat", "running"/"run").
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

const wordsOf = remembered(splitWords, 4096);

/** Splits a text or an identifier into raw lower-case words (CJK runs kept whole). */
export function words(text: string): string[] {
  // (a copy: the remembered list is shared)
  return wordsOf(text).slice();
}

function splitWords(text: string): readonly string[] {
  return (
    text
      // "e-mail" and "email" are one word spelt two ways.
      .replace(/\b([eE])[-\s]?(mail)/gu, '$1$2')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0)
  );
}

/**
 * Chinese function words: particles, pronouns, copula, prepositions, measure words of no topic, question words and
 * request markers. Source: the closed classes (虚词, 代词, 疑问代词) of 现代汉语八百词 (Lü Shuxiang, rev. ed. 1999) and
 * the request markers the tool decider reads (acts.ts).
 */
export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    '的 地 得 了 着 过 吗 呢 吧 啊 呀 哦 嘛 哈 么 是 在 有 没 没有 不 也 都 还 就 又 再 很 太 更 最 和 与 及 或 或者 ' +
    '跟 同 把 被 给 让 叫 从 向 对 为 为了 以 于 这 那 这个 那个 这些 那些 这里 那里 我 你 您 他 她 它 我们 你们 ' +
    '他们 她们 咱们 大家 自己 我的 你的 什么 怎么 怎样 怎么样 哪 哪里 哪个 哪些 谁 几 多少 为什么 请 请问 麻烦 ' +
    '帮 帮我 帮忙 一下 一个 个 想 要 我要 我想 想要 能 能不能 可以 可不可以 会 说 好 到底 一些 些 下 样 来着'
  ).split(/\s+/),
);

// ICU's dictionary-based word breaker (Intl.Segmenter, built into Node): Chinese is written without spaces, so its
// words are found by the lexicon, not by splitting on separators.
const CHINESE_WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

function addWord(word: string, out: string[]): void {
  if (CJK.test(word)) {
    for (const piece of CHINESE_WORDS.segment(word)) {
      if (!piece.isWordLike) continue;
      if (CJK.test(piece.segment)) {
        if (!CHINESE_STOP_WORDS.has(piece.segment)) out.push(piece.segment);
        const other = overlappingWord(word, piece.index + piece.segment.length - 1, piece.index);
        if (other !== undefined) out.push(other);
      } else addWord(piece.segment.toLowerCase(), out);
    }
    return;
  }
  if (STOP_WORDS.has(word)) return;
  if (/^\d+$/.test(word)) return; // numbers are arguments, not topics
  if (word.length === 1) return;
  out.push(stem(word));
  // English makes nouns of phrasal verbs by joining verb and particle (pickup, checkout, logout, breakdown): the noun
  // also stands for its verb, so a tool that names the thing meets a request that says the verb ("pick it up", where
  // the particle is a stop word).
  const verb = PHRASAL_NOUN.exec(word)?.[1];
  if (verb && !STOP_WORDS.has(verb)) out.push(stem(verb));
}

const PHRASAL_NOUN = /^([a-z]{3,})(?:up|out|off|down)$/;

// The longest word a Chinese lexicon knows is rarely more than a few characters (成语 of four, transliterations of
// five or six): a window of eight holds any word that can start at a character.
const LONGEST_WORD = 8;

/**
 * The other reading of a Chinese word's last character: a word breaker picks one reading where two words share a
 * character (开发票 → 开发|票 "develop | ticket", where the request means 开|发票 "issue | invoice"), so the word the
 * lexicon starts at the last character of a chosen word (发票) is kept beside it, as search engines index Chinese (the
 * "search mode" of segmenters such as jieba's cut_for_search). Such overlaps (交集型歧义) almost always share one
 * character. Single characters and function words add nothing.
 */
function overlappingWord(run: string, at: number, wordStart: number): string | undefined {
  if (at <= wordStart) return undefined;
  const first = CHINESE_WORDS.segment(run.slice(at, at + LONGEST_WORD))
    [Symbol.iterator]()
    .next().value;
  const w = first?.isWordLike ? first.segment : '';
  return w.length >= 2 && CJK.test(w) && !CHINESE_STOP_WORDS.has(w) ? w : undefined;
}

const tokensOf = remembered((text: string): readonly string[] => {
  const out: string[] = [];
  for (const word of wordsOf(text)) addWord(word, out);
  return out;
}, 4096);

/** Content tokens of a text: stop words dropped, stemmed; Chinese split into its words by ICU's lexicon. */
export function tokens(text: string): string[] {
  // (a copy: the remembered list is shared)
  return tokensOf(text).slice();
}

/** A tool or argument name normalised for comparison: lower case, separators and case folded to `_`. */
export function normaliseName(name: string): string {
  return words(name).join('_');
}

/** Levenshtein distance (small strings: tool names). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}
