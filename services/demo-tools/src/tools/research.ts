import { z } from 'zod';
import { CORPUS_PAGES, CORPUS_PAPERS } from '../corpus.js';
import { defineTool, type ToolSpec } from './tool-spec.js';

// SP-3 backends over a small fixed corpus under https://docs.example.org/. Search gives leads (snippets), visit
// gives the page's passages (source evidence with numbers to compute on), scholar gives paper metadata only.

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'of',
  'in',
  'on',
  'to',
  'a',
  'an',
  'is',
  'are',
  'what',
  'how',
  'vs',
]);

// Question words that say nothing about which passage is wanted ("what does … say about …").
const GOAL_FILLER = new Set([
  'do',
  'does',
  'say',
  'about',
  'much',
  'many',
  'than',
  'tell',
  'me',
  'page',
  'note',
]);

const HAN = /\p{Script=Han}/u;

/**
 * Lower-cased words of a text, with a naive plural strip so "benchmarks" finds "benchmark". Chinese, written without
 * spaces, is read as its overlapping two-character pieces (bigrams, the usual unsegmented index of CJK search
 * engines), and a Latin name written against it stands apart: "PG17的发布日期" → pg17, 的发, 发布, 布日, 日期.
 */
function words(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/\p{Script=Han}+|(?:(?!\p{Script=Han})[\p{L}\p{N}.])+/gu) ??
    []) {
    if (HAN.test(run)) {
      if (run.length === 1) out.push(run);
      for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
      continue;
    }
    const w = run.replace(/\.+$/, '');
    if (w.length === 0 || STOP_WORDS.has(w)) continue;
    out.push(w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w);
  }
  return out;
}

function score(queryWords: readonly string[], haystack: string): number {
  const have = new Set(words(haystack));
  return queryWords.filter((w) => have.has(w)).length;
}

const RECENCY_DAYS = { day: 1, week: 7, month: 31, year: 366 } as const;

/** The URL as the corpus keys it: no fragment, no trailing slash, lower-case host. */
function normalizeUrl(raw: string): string {
  const url = new URL(raw.trim());
  url.hash = '';
  return url.toString().replace(/\/$/, '');
}

const webSearch = defineTool({
  name: 'web_search',
  pack: 'research',
  path: '/research/search',
  description: 'Search the web for candidate sources (leads with URLs).',
  action: 'read',
  openWorld: true,
  parameters: z.strictObject({
    query: z.string().min(2),
    recency: z.enum(['any', 'day', 'week', 'month', 'year']).optional(),
    max_results: z.int().min(1).max(20).optional(),
  }),
  errors: {
    no_results: { class: 'empty', status: 404 },
    search_rate_limited: { class: 'rate_limited', status: 429 },
  },
  handle(args, { now }, fail) {
    const queryWords = words(args.query);
    const recency = args.recency ?? 'any';
    const since = recency === 'any' ? undefined : now().getTime() - RECENCY_DAYS[recency] * 86_400_000;
    const ranked = CORPUS_PAGES.map((page) => ({
      page,
      score: score(queryWords, [page.title, page.keywords.join(' '), ...page.paragraphs].join(' ')),
    }))
      .filter((r) => r.score > 0 && (since === undefined || Date.parse(r.page.published_at) >= since))
      .sort((a, b) => b.score - a.score || b.page.published_at.localeCompare(a.page.published_at))
      .slice(0, args.max_results ?? 8);
    if (ranked.length === 0) {
      return fail(
        'no_results',
        `nothing matched ${JSON.stringify(args.query)}${since ? ` within a ${recency}` : ''}`,
      );
    }
    return {
      results: ranked.map(({ page }) => {
        const text = page.paragraphs.join(' ');
        // Snippets are truncated on purpose: leads, not evidence.
        return {
          title: page.title,
          url: page.url,
          snippet: text.length > 120 ? `${text.slice(0, 119)}…` : text,
          published_at: page.published_at,
        };
      }),
    };
  },
});

const pageVisit = defineTool({
  name: 'page_visit',
  pack: 'research',
  path: '/research/visit',
  description: 'Open one page by URL and quote the passages relevant to a goal.',
  action: 'read',
  openWorld: true,
  parameters: z.strictObject({ url: z.url(), goal: z.string().min(3) }),
  errors: {
    forbidden: { class: 'permission', status: 403 },
    page_not_found: { class: 'parameter', status: 404 },
    fetch_timeout: { class: 'transient', status: 504 },
  },
  handle(args, { now }, fail) {
    const url = normalizeUrl(args.url);
    const page = CORPUS_PAGES.find((p) => p.url === url);
    if (!page) return fail('page_not_found', `${url} does not exist (404)`);
    if (page.forbidden) return fail('forbidden', `${url} refuses access (403)`);
    // The page's own topic (its title words) is on every passage; what the goal asks beyond it picks the passages.
    const topic = new Set(words(page.title));
    const goalWords = words(args.goal).filter((w) => !topic.has(w) && !GOAL_FILLER.has(w));
    const all = page.paragraphs.map((text, position) => ({ text, position }));
    const relevant = all.filter((p) => score(goalWords, p.text) > 0);
    // A short page whose passages miss the goal's words is still returned whole: the reader decides.
    return {
      url: page.url,
      title: page.title,
      fetched_at: now().toISOString(),
      passages: relevant.length > 0 ? relevant : all,
    };
  },
});

const scholarSearch = defineTool({
  name: 'scholar_search',
  pack: 'research',
  path: '/research/scholar',
  description: 'Search academic papers (metadata only).',
  action: 'read',
  openWorld: true,
  parameters: z.strictObject({
    query: z.string().min(2),
    year_from: z.int().min(1900).max(2100).optional(),
    max_results: z.int().min(1).max(20).optional(),
  }),
  errors: { no_results: { class: 'empty', status: 404 } },
  handle(args, _ctx, fail) {
    const queryWords = words(args.query);
    const ranked = CORPUS_PAPERS.map((paper) => ({
      paper,
      score: score(queryWords, [paper.title, paper.authors.join(' '), paper.keywords.join(' ')].join(' ')),
    }))
      .filter((r) => r.score > 0 && (args.year_from === undefined || r.paper.year >= args.year_from))
      .sort((a, b) => b.score - a.score || b.paper.citations - a.paper.citations)
      .slice(0, args.max_results ?? 5);
    if (ranked.length === 0) return fail('no_results', `no paper matched ${JSON.stringify(args.query)}`);
    return {
      papers: ranked.map(({ paper }) => ({
        title: paper.title,
        authors: paper.authors,
        year: paper.year,
        venue: paper.venue,
        url: paper.url,
        citations: paper.citations,
      })),
    };
  },
});

/** The research pack's http backends (SP-3); `sandbox_compute` is built into the executor. */
export const RESEARCH_TOOLS: readonly ToolSpec[] = [webSearch, pageVisit, scholarSearch];
