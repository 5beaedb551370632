// Lexical similarity for the near-duplicate rule. Deliberately simple and deterministic (no model, no
// embeddings): descriptions that share most of their content words are the ones a model confuses (seed 002).

const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from has have if in into is it its of on or that the their this to use used uses using when which while with you your not only any all get gets given user users tool tools call calls'.split(
    ' ',
  ),
);

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Content-word tokens of a text: lower-cased, stop words dropped, plurals folded; CJK text as character bigrams. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{Script=Han}]+|[a-z0-9]+/gu)) {
    const word = match[0];
    if (/\p{Script=Han}/u.test(word)) {
      if (word.length === 1) tokens.push(word);
      for (let i = 0; i + 1 < word.length; i++) tokens.push(word.slice(i, i + 2));
      continue;
    }
    for (const part of word.split('_')) {
      if (part.length < 2 || STOP_WORDS.has(part)) continue;
      tokens.push(stem(part));
    }
  }
  return tokens;
}

/** Cosine similarity of the two texts' token-count vectors, in [0, 1]. */
export function textSimilarity(a: string, b: string): number {
  const count = (tokens: string[]) => {
    const map = new Map<string, number>();
    for (const t of tokens) map.set(t, (map.get(t) ?? 0) + 1);
    return map;
  };
  const va = count(tokenize(a));
  const vb = count(tokenize(b));
  if (va.size === 0 || vb.size === 0) return 0;
  let dot = 0;
  for (const [t, n] of va) dot += n * (vb.get(t) ?? 0);
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((s, n) => s + n * n, 0));
  return dot / (norm(va) * norm(vb));
}

/** True when `text` mentions `name` as a whole word (tool names contain `_`, `.` and `-`). */
export function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_.-])${escaped}($|[^A-Za-z0-9_-]|\\.(?![A-Za-z0-9_]))`).test(text);
}
