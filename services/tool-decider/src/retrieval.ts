// TD-2 deterministic lexical retrieval: BM25 over a tool's name, description parts, tags, examples and parameter
// docs, plus a normalised fit score that decides whether a tool fits the request at all (TD-6 irrelevance).
// Every constant is in RETRIEVAL_CONFIG — one documented configuration, the one the BFCL figures were taken with.
import type { ToolDefinition } from '@signalbox/registry';
import { conceptsOf, expandedTokens, tokens, words } from './text.js';

/**
 * The one retrieval configuration (TD-2, TD-6). Chosen on the public BFCL `simple_python`, `multiple` and
 * `irrelevance` sets together (never on the held-out live / multi-turn sets), then left alone.
 */
export const RETRIEVAL_CONFIG = {
  /** BM25 term-frequency saturation. */
  k1: 1.2,
  /** BM25 length normalisation. */
  b: 0.6,
  /** Field weights (BM25F-style: a term in the name counts this many times). */
  fieldWeights: { name: 3, purpose: 2, tags: 2, examples: 1.5, returns: 0.5, parameters: 1 },
  /** A tool fits when its fit score reaches this (0..1). Below it the tool is a rejected candidate. */
  fitThreshold: 0.39,
  /** Weight of name coverage (the name's topic words found in the request) in the fit score. */
  nameWeight: 0.273,
  /** Weight of request coverage (the request's topic words the tool's documents mention) in the fit score. */
  requestWeight: 0.273,
  /** Weight of required-argument coverage (the request mentions what required parameters need). */
  argumentWeight: 0.182,
  /** Weight of target coverage (the words of what the request asks for, found in the tool's documents). */
  targetWeight: 0.272,
  /** A second tool joins a chain only when its fit is at least this … */
  chainFit: 0.6,
  /** … and it covers at least this many request words the tools already chosen do not. */
  chainNewTerms: 2,
} as const;

/** Verbs that say what a tool does to its object, not what the object is; they weigh less in name coverage. */
export const GENERIC_VERBS: ReadonlySet<string> = new Set(
  [
    'get',
    'fetch',
    'find',
    'calculate',
    'calc',
    'compute',
    'retrieve',
    'search',
    'lookup',
    'look',
    'query',
    'check',
    'determine',
    'estimate',
    'list',
    'make',
    'create',
    'generate',
    'convert',
    'predict',
    'analyze',
    'analyse',
    'solve',
    'show',
    'display',
    'return',
    'obtain',
    'request',
    'do',
    'run',
    'perform',
    'evaluate',
    'measure',
    'identify',
    'info',
    'information',
    'detail',
    'details',
    'data',
    'by',
    'of',
    'for',
    'to',
    'the',
    'a',
    'an',
    'and',
    'in',
    'on',
    'with',
    'from',
    'new',
    'set',
    'update',
    'v1',
    'v2',
    'api',
    'tool',
    'function',
    'util',
    'utils',
    'helper',
    'service',
    'module',
    'lib',
    'library',
    'math',
    'calculator',
    'finder',
    'total',
    'value',
    'number',
  ].map((w) => tokens(w)[0] ?? w),
);

interface ToolDocument {
  name: string;
  /** Field-weighted term frequencies. */
  tf: Map<string, number>;
  length: number;
  /** Topic words of the name (generic verbs removed). */
  nameObject: string[];
  /** Verbs of the name. */
  nameVerbs: string[];
  /** Every term the tool's documents mention. */
  vocabulary: Set<string>;
  /** Per required parameter: the words its name and description use. */
  required: { name: string; terms: Set<string>; type: string | undefined }[];
}

/** One scored candidate. */
export interface ScoredTool {
  tool: ToolDefinition;
  /** Raw BM25. */
  bm25: number;
  /** The fit score's parts, each 0..1. */
  features: { name: number; request: number; target: number; arguments: number };
  /** Normalised fit 0..1 (see RETRIEVAL_CONFIG). */
  fit: number;
  /** Request terms this tool's documents mention. */
  matched: string[];
  /** Why the fit is what it is, for decision_reason and rejected candidates. */
  explain: string;
}

function describeParameters(tool: ToolDefinition): { text: string; required: ToolDocument['required'] } {
  const schema = tool.parameters as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const parts: string[] = [];
  const requiredDocs: ToolDocument['required'] = [];
  for (const [name, property] of Object.entries(properties)) {
    const description = typeof property.description === 'string' ? property.description : '';
    const enumText = Array.isArray(property.enum) ? property.enum.map(String).join(' ') : '';
    parts.push(name, description, enumText);
    if (required.has(name)) {
      requiredDocs.push({
        name,
        terms: new Set(tokens(`${name} ${description} ${enumText}`)),
        type: typeof property.type === 'string' ? property.type : undefined,
      });
    }
  }
  return { text: parts.join(' '), required: requiredDocs };
}

function purposeAndReturns(tool: ToolDefinition): { purpose: string; returns: string } {
  const d = tool.description;
  if (typeof d === 'string') return { purpose: d, returns: '' };
  // The "not for" part names other tools and other tasks: indexing it would pull the wrong tool in.
  return { purpose: d.purpose, returns: d.returns };
}

function buildDocument(tool: ToolDefinition): ToolDocument {
  const { purpose, returns } = purposeAndReturns(tool);
  const params = describeParameters(tool);
  const nameText = [tool.name, ...tool.aliases].join(' ');
  const fields: [keyof typeof RETRIEVAL_CONFIG.fieldWeights, string][] = [
    ['name', nameText],
    ['purpose', purpose],
    ['tags', tool.tags.join(' ')],
    ['examples', tool.examples.join(' ')],
    ['returns', returns],
    ['parameters', params.text],
  ];
  const tf = new Map<string, number>();
  let length = 0;
  const vocabulary = new Set<string>();
  for (const [field, text] of fields) {
    const weight = RETRIEVAL_CONFIG.fieldWeights[field];
    for (const term of expandedTokens(text)) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      length += weight;
      vocabulary.add(term);
    }
  }
  const nameTerms = [...new Set(tokens(tool.name))];
  return {
    name: tool.name,
    tf,
    length,
    nameObject: nameTerms.filter((t) => !GENERIC_VERBS.has(t)),
    nameVerbs: nameTerms.filter((t) => GENERIC_VERBS.has(t)),
    vocabulary,
    required: params.required,
  };
}

/** Whether the request plausibly supplies a required parameter: a number for numeric ones, else a named word. */
function argumentCovered(
  parameter: ToolDocument['required'][number],
  request: Set<string>,
  rawRequest: string,
): boolean {
  const numeric = parameter.type === 'number' || parameter.type === 'integer' || parameter.type === 'float';
  if (numeric && /\d/.test(rawRequest)) return true;
  for (const term of parameter.terms) if (request.has(term)) return true;
  // Strings, lists and objects are usually quoted values or names the request carries.
  return !numeric && /["'\d]|[A-Z][a-z]+/.test(rawRequest);
}

/** A lexical index over one visible tool set. Deterministic: same tools and request → same scores. */
export interface LexicalIndex {
  score(request: string): ScoredTool[];
}

/** Builds the index of a visible set (IDF is computed inside the set, as a router sees it). */
export function createLexicalIndex(tools: readonly ToolDefinition[]): LexicalIndex {
  const docs = tools.map(buildDocument);
  const n = docs.length;
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc.vocabulary) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const f = df.get(term) ?? 0;
    return Math.log(1 + (n - f + 0.5) / (f + 0.5));
  };
  const { k1, b } = RETRIEVAL_CONFIG;

  return {
    score(request) {
      const query = new Set(tokens(request));
      const expanded = new Set(expandedTokens(request));
      const scored = docs.map((doc, i) => {
        const tool = tools[i] as ToolDefinition;
        let bm25 = 0;
        for (const term of expanded) {
          const f = doc.tf.get(term) ?? 0;
          if (f === 0) continue;
          bm25 += (idf(term) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * doc.length) / (avgLength || 1)));
        }
        const hit = (t: string) => doc.vocabulary.has(t) || conceptsOf(t).some((c) => doc.vocabulary.has(c));
        const matched = [...query].filter(hit);
        // Name coverage: the name's topic words present in the request (its verbs count a quarter).
        // A short name word may abbreviate a request word ("prob" → "probability", "calc" → "calculation").
        const inRequest = (t: string) =>
          expanded.has(t) ||
          (t.length >= 4 && [...expanded].some((q) => q.length > t.length && q.startsWith(t)));
        const objectHits = doc.nameObject.filter(inRequest).length;
        const verbHits = doc.nameVerbs.filter((t) => expanded.has(t)).length;
        const nameCoverage =
          doc.nameObject.length > 0
            ? Math.min(1, (objectHits + 0.25 * verbHits) / doc.nameObject.length)
            : Math.min(1, 0.25 * verbHits);
        const requestCoverage = query.size > 0 ? matched.length / query.size : 0;
        const argumentCoverage =
          doc.required.length > 0
            ? doc.required.filter((p) => argumentCovered(p, query, request)).length / doc.required.length
            : 1;
        const target = targetTerms(request);
        const targetCoverage =
          target.length > 0 ? target.filter(hit).length / target.length : requestCoverage;
        const fit =
          RETRIEVAL_CONFIG.targetWeight * targetCoverage +
          RETRIEVAL_CONFIG.nameWeight * nameCoverage +
          RETRIEVAL_CONFIG.requestWeight * requestCoverage +
          RETRIEVAL_CONFIG.argumentWeight * argumentCoverage;
        return {
          tool,
          features: {
            name: nameCoverage,
            request: requestCoverage,
            target: targetCoverage,
            arguments: argumentCoverage,
          },
          bm25,
          fit: Math.round(fit * 1000) / 1000,
          matched,
          explain:
            `fit ${fit.toFixed(2)} = name ${nameCoverage.toFixed(2)}, request ${requestCoverage.toFixed(2)}, ` +
            `target ${targetCoverage.toFixed(2)}, ` +
            `arguments ${argumentCoverage.toFixed(2)}; bm25 ${bm25.toFixed(2)}`,
        };
      });
      return scored.sort(
        (a, b) => b.fit + b.bm25 / 100 - (a.fit + a.bm25 / 100) || a.tool.name.localeCompare(b.tool.name),
      );
    },
  };
}

const LEAD =
  /^(?:\s*(?:what|what's|whats|which|who|who's|whom|whose|how|when|where|why|is|are|was|were|do|does|did|can|could|would|will|should|please|kindly|i|we|need|want|would like|to|you|me|us|tell|give|show|find|get|calculate|compute|determine|estimate|identify|retrieve|fetch|solve|list|provide|search|look|lookup|check|predict|generate|create|convert|make|out|up|for|the|a|an|is|are|many|much|long|far|kind|type|of|it|there|my|our|your|this|that|these|those|current|currently|some|all)\b[\s,?]*)+/i;
const STOP_AT =
  /\b(?:given|with|for|if|when|where|using|that|which|who|in|at|from|by|on|to|after|before|between|based|assuming|and|whose|during|within|into|per|than)\b/i;

/** The words of what a request asks for: after the question or command words, up to the first qualifier. */
export function targetTerms(request: string): string[] {
  const first = (request.split(/[.?!\n]/).find((s) => s.trim().length > 0) ?? request).trim();
  const rest = first.replace(LEAD, '');
  const stop = rest.search(STOP_AT);
  const phrase = stop > 0 ? rest.slice(0, stop) : rest;
  return [...new Set(tokens(phrase))].slice(0, 6);
}

/** The raw words of a request (for intent cues). */
export function requestWords(request: string): string[] {
  return words(request);
}
