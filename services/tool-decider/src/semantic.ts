// TD-2 semantic fit: how near a request is in meaning to what a tool says it does, from an offline sentence-embedding
// model (@signalbox/embedder). Lexical overlap cannot tell "What is a holy book?" from a request for
// `search_holy_books`, or see that "Is it going to rain in Paris tomorrow?" asks for `get_weather`; a sentence
// embedding can. A tool's vectors are computed once per (model, tool definition hash) and reused.
import { cosine, type Embedder, type EmbeddingModel } from '@signalbox/embedder';
import { calibrated, RELATED_COSINE } from './calibration.js';
import { toolHash, type SceneTemplate, type ToolDefinition } from '@signalbox/registry';
import { oncePerDefinition } from './once-per-definition.js';
import { words } from './text.js';

/** What a plan records about the semantic model it ranked with (null model: decided without one, by setting). */
export interface SemanticProvenance {
  model: string | null;
  sha256: string | null;
}

/** Similarities of some texts to some tools, under one model: `of(text, tool)` (undefined: not computed). */
export interface Similarities {
  readonly model: EmbeddingModel;
  of(text: string, tool: ToolDefinition): number | undefined;
  /** The cosine of two of the texts (undefined when either was not embedded): for near-duplicate steps (TD-5). */
  between(a: string, b: string): number | undefined;
  /**
   * Where the tool's own `description.not_for` sends `text` (TD-2): the tool its author names for requests like it,
   * when one of the clauses of `not_for` that names a tool of this comparison with the same `action` is nearer in
   * meaning to `text` than any of the tool's own texts (its purpose and examples), and at least as near as related
   * texts are (RELATED_COSINE). Undefined when none is, or `text` was not embedded.
   */
  redirect(text: string, tool: ToolDefinition): { to: string; cosine: number; own: number } | undefined;
  /**
   * These similarities and those of `texts` too, under the same model and tools: only the texts not embedded yet are
   * embedded. A text's vector depends on that text alone, so the similarities are the same as if every text had been
   * given at once — a decision embeds a part of its request only when it comes to read it.
   */
  including(texts: readonly string[]): Promise<Similarities>;
}

/** Computes similarities with a model; tool-side vectors cached per definition hash. */
export interface SemanticScorer {
  /** Every model the scorer may use, by id (for provenance and start-up logs). */
  readonly models: ReadonlyMap<string, EmbeddingModel>;
  /**
   * The similarities of `texts` to `tools`, under the model of `lead` (the request: its script picks the model, so
   * the parts of one request are compared under the same model as the whole).
   */
  similarities(
    lead: string,
    texts: readonly string[],
    tools: readonly ToolDefinition[],
  ): Promise<Similarities>;
  /**
   * The cosine of the request and each scene's texts (its description and examples; the best of them), by scene id,
   * under the request's model (TD-2 step one: scene routing by meaning beside keywords).
   */
  sceneSimilarities(request: string, scenes: readonly SceneTemplate[]): Promise<Map<string, number>>;
}

/** Options of {@link createSemanticScorer}. */
export interface SemanticScorerOptions {
  /** Most tool vector sets kept (each a few KB). @default 20000 */
  cacheSize?: number;
}

/**
 * The texts a tool is compared by: "name words: purpose" (what it does, in its own words) and each registry example
 * (how users ask for it — in any language the registry gives). Its similarity to a text is the best of them.
 */
export function toolTexts(tool: ToolDefinition): string[] {
  const purpose = typeof tool.description === 'string' ? tool.description : tool.description.purpose;
  return [`${words(tool.name).join(' ')}: ${purpose}`, ...tool.examples];
}

/** Words that join a clause of `not_for` to the one before or introduce an example of it. */
const CONNECTIVE = /^(?:(?:or|and|nor|such as|e\.g\.|eg|like|including|for example|for instance)\b[\s,]*)+/iu;

/**
 * The clauses of a tool's `description.not_for` that send a kind of request to another tool, each with the tools it
 * names (of `names`): the text up to and including each mention of a tool ("Starting a new refund (use
 * refund_create)", "or asking about the order itself, such as whether the payment went through (use
 * order_status_query)"), the tool names and the words around them ("use", brackets) left out of the text compared.
 */
export function notForClauses(
  tool: ToolDefinition,
  names: ReadonlySet<string>,
): { texts: string[]; tools: string[] }[] {
  if (typeof tool.description === 'string') return [];
  const text = tool.description.not_for;
  const out: { texts: string[]; tools: string[] }[] = [];
  let from = 0;
  let pending: string[] = [];
  const mention = /[A-Za-z_][A-Za-z0-9_.-]*/g;
  const close = (end: number) => {
    const clause = text
      .slice(from, end)
      .replace(mention, (w) => (names.has(w) ? ' ' : w))
      .replace(/\(\s*(?:use|see|call|try|with)?\s*(?:[,;]\s*)*\)/giu, ' ')
      .replace(/\b(?:use|see|call|instead)\s*(?=[),;.]|$)/giu, ' ')
      .replace(/\s+/g, ' ')
      .replace(/^[\s,;.]+|[\s,;:(]+$/g, '')
      .trim();
    // ("use A or B": a clause of connectives only names more tools for the clause before it)
    const previous = out.at(-1);
    if (/^(?:(?:or|and|,|;)\s*)*$/iu.test(clause) && previous) previous.tools.push(...pending);
    else if (pending.length > 0) {
      // The clause, and each of its comma-separated parts of two words or more ("asking about the order itself",
      // "such as whether the customer's payment went through"): an example it gives is nearer to a request like it
      // than the whole clause is. Leading connectives are not what a request says.
      const bare = (t: string) => t.replace(CONNECTIVE, '').trim();
      const parts = clause.split(/\s*[,;:]\s*/u).map(bare);
      const texts = [bare(clause), ...(parts.length > 1 ? parts : [])].filter(
        (t) => t.split(/\s+/u).length >= 2,
      );
      if (texts.length > 0) out.push({ texts: [...new Set(texts)], tools: pending });
    }
    pending = [];
    from = end;
  };
  for (const m of text.matchAll(mention)) {
    if (!names.has(m[0]) || m[0] === tool.name) continue;
    pending.push(m[0]);
    // The clause ends after its mention and a closing bracket that follows it.
    const after = /^[^\S\n]*\)?/.exec(text.slice(m.index + m[0].length))?.[0].length ?? 0;
    close(m.index + m[0].length + after);
  }
  return out;
}

/**
 * The text a request or a tool's text is embedded as: URLs and e-mail addresses stand as "a URL" / "an e-mail
 * address". They are values an argument takes, not what the request means, and their many word pieces would otherwise
 * outweigh its words ("Open https://…/postgresql/17/release-notes and tell me …" reads as a request about PostgreSQL
 * releases, not as one to open a page).
 */
export function meaningOf(text: string): string {
  return text
    .replace(/\bhttps?:\/\/[^\s"'<>)\]]+/giu, 'a URL')
    .replace(/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu, 'an e-mail address');
}

/**
 * What a request's text means: {@link meaningOf}, and an identifier of six digits or more (an order, tracking or account
 * number, with a short letter prefix such as SF or INV-) left out — "20261101001到哪了" otherwise reads as a number, not
 * as "where has it got to". A request's id is new with every request, so its word pieces pull each request's vector
 * somewhere else; a tool's examples keep theirs, one fixed text that every request is compared with alike.
 */
export function requestMeaning(text: string): string {
  const out = meaningOf(text);
  const bare = out.replace(IDENTIFIER, '');
  return bare === out ? out : bare.replace(/[^\S\n]{2,}/gu, ' ').trim();
}
// Digits only stand beside Latin letters and digits as part of one word: next to Chinese characters an identifier
// still ends (订单20261101001的).
const IDENTIFIER = /(?<![A-Za-z0-9])(?:[A-Za-z]{1,4}-?)?\d{6,}(?![A-Za-z0-9])/gu;

// A tool definition's hash, once per definition object: hashing the canonical JSON of every visible tool on every
// decision costs more than ranking them.
const definitionHash = oncePerDefinition(toolHash);

/**
 * `cosine(v, u)` for each of `us`, the same numbers: four at a time, each summed in the same order as `cosine` sums it
 * (so bit for bit its value), the four sums running side by side instead of one after another — a row of a decision
 * is as many cosines as the visible tools have texts.
 */
export function cosinesTo(
  v: Float32Array,
  us: readonly Float32Array[],
  out: Float64Array = new Float64Array(us.length),
): Float64Array {
  const d = v.length;
  let k = 0;
  for (; k + 4 <= us.length; k += 4) {
    const a = us[k] as Float32Array;
    const b = us[k + 1] as Float32Array;
    const c = us[k + 2] as Float32Array;
    const e = us[k + 3] as Float32Array;
    if (a.length !== d || b.length !== d || c.length !== d || e.length !== d) break;
    let sa = 0;
    let sb = 0;
    let sc = 0;
    let se = 0;
    for (let i = 0; i < d; i++) {
      const x = v[i] as number;
      sa += x * (a[i] as number);
      sb += x * (b[i] as number);
      sc += x * (c[i] as number);
      se += x * (e[i] as number);
    }
    out[k] = sa;
    out[k + 1] = sb;
    out[k + 2] = sc;
    out[k + 3] = se;
  }
  for (; k < us.length; k++) out[k] = cosine(v, us[k] as Float32Array);
  return out;
}

/** Creates the scorer over an embedder. */
export function createSemanticScorer(
  embedder: Embedder,
  options: SemanticScorerOptions = {},
): SemanticScorer {
  const cacheSize = options.cacheSize ?? 20_000;
  // Tool vectors by (model, definition hash); scene vectors by (model, texts); request-text vectors by (model, text).
  const toolCache = new Map<string, Float32Array[]>();
  const sceneCache = new Map<string, Float32Array[]>();
  const textCache = new Map<string, Float32Array[]>();
  let rowBuffer = new Float64Array(0);
  async function toolVectors(model: string, tools: readonly ToolDefinition[]): Promise<Float32Array[][]> {
    return cachedVectors(
      toolCache,
      tools.map((t) => ({
        key: `${model}\u0000${definitionHash(t)}`,
        texts: () => toolTexts(t).map(meaningOf),
      })),
      model,
    );
  }
  async function sceneVectors(model: string, scenes: readonly SceneTemplate[]): Promise<Float32Array[][]> {
    return cachedVectors(
      sceneCache,
      scenes.map((scene) => {
        const texts = [scene.description, ...scene.examples].map(meaningOf);
        return { key: `${model}\u0000${texts.join('\u0001')}`, texts: () => texts };
      }),
      model,
    );
  }
  // One decision embeds its request for the scenes and for the tools, and a re-plan of a task embeds it again.
  async function textVectorsOf(model: string, texts: readonly string[]): Promise<Float32Array[]> {
    const items = texts.map((t) => {
      const meaning = requestMeaning(t);
      return { key: `${model}\u0000${meaning}`, texts: () => [meaning] };
    });
    return (await cachedVectors(textCache, items, model)).map((v) => v[0] as Float32Array);
  }
  /** Adds the vectors of `texts` not in `byText` yet to it, by text. */
  async function textsOf(
    model: string,
    texts: readonly string[],
    byText: Map<string, Float32Array>,
  ): Promise<Map<string, Float32Array>> {
    const fresh = [...new Set(texts)].filter((t) => !byText.has(t));
    if (fresh.length > 0) {
      const vectors = await textVectorsOf(model, fresh);
      fresh.forEach((text, i) => byText.set(text, vectors[i] as Float32Array));
    }
    return byText;
  }
  /**
   * The vectors of each item, from `cache` or embedded now (each missing item once). What this call returns is taken
   * before the cache is trimmed to `cacheSize` (oldest first), so trimming never loses a vector the caller needs.
   */
  async function cachedVectors(
    cache: Map<string, Float32Array[]>,
    items: readonly { key: string; texts: () => readonly string[] }[],
    model: string,
  ): Promise<Float32Array[][]> {
    const found = new Map<string, Float32Array[]>();
    const missing = new Map<string, readonly string[]>();
    for (const item of items) {
      const hit = cache.get(item.key);
      if (hit) found.set(item.key, hit);
      else if (!missing.has(item.key)) missing.set(item.key, item.texts());
    }
    if (missing.size > 0) {
      const flat = await embedder.embed([...missing.values()].flat(), model);
      let at = 0;
      for (const [key, texts] of missing) {
        const vectors = flat.slice(at, at + texts.length);
        at += texts.length;
        found.set(key, vectors);
        cache.set(key, vectors);
      }
      while (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
    }
    return items.map((item) => found.get(item.key) as Float32Array[]);
  }
  return {
    models: embedder.models,
    async sceneSimilarities(request, scenes) {
      const id = embedder.modelFor(request);
      const [[v], vectors] = await Promise.all([textVectorsOf(id, [request]), sceneVectors(id, scenes)]);
      const out = new Map<string, number>();
      scenes.forEach((scene, i) => {
        let best = -1;
        for (const u of vectors[i] as Float32Array[])
          best = Math.max(best, calibrated(id, cosine(v as Float32Array, u)));
        out.set(scene.id, Math.round(best * 10_000) / 10_000);
      });
      return out;
    },
    async similarities(lead, texts, tools) {
      const id = embedder.modelFor(lead);
      const model = embedder.models.get(id) as EmbeddingModel;
      // Only a tool that does the same kind of thing (a read for a read, a write of the same action for a write):
      // "Requesting a new invoice (use invoice_issue)" in a status look-up's not_for says what act to ask for, which
      // the asked acts decide, not which of two look-ups answers a question.
      const namesOf = new Map<string, Set<string>>();
      for (const t of tools) namesOf.set(t.action, (namesOf.get(t.action) ?? new Set()).add(t.name));
      const clauses = new Map(
        tools
          .map((t) => [t, notForClauses(t, namesOf.get(t.action) ?? new Set())] as const)
          .filter(([, c]) => c.length > 0),
      );
      const [byText, vectors, clauseVectors] = await Promise.all([
        textsOf(id, texts, new Map()),
        toolVectors(id, tools),
        textVectorsOf(
          id,
          [...clauses.values()].flat().flatMap((c) => c.texts),
        ),
      ]);
      const clauseVector = new Map<{ texts: string[]; tools: string[] }, Float32Array[]>();
      let at = 0;
      for (const c of [...clauses.values()].flat()) {
        clauseVector.set(c, clauseVectors.slice(at, at + c.texts.length));
        at += c.texts.length;
      }
      // A text's row (its similarity to each tool) is computed when first read: a decision embeds some texts only to
      // compare them with each other (`between`), and a row is as many cosines as the tools have texts.
      const rows = new Map<string, Map<ToolDefinition, number>>();
      // Every tool's vectors in one list, tool after tool (made when the first row is).
      let flat: Float32Array[] | undefined;
      const flatVectors = () => (flat ??= vectors.flat());
      const rowOf = (text: string): Map<ToolDefinition, number> | undefined => {
        const known = rows.get(text);
        if (known) return known;
        const v = byText.get(text);
        if (!v) return undefined;
        const row = new Map<ToolDefinition, number>();
        const all = flatVectors();
        // (one buffer for the rows of every decision: a row is read into the map below before the next is computed)
        if (rowBuffer.length < all.length) rowBuffer = new Float64Array(all.length);
        const cosines = cosinesTo(v, all, rowBuffer);
        let at = 0;
        tools.forEach((tool, j) => {
          // (the calibration is increasing: the best calibrated cosine is the best cosine, calibrated)
          let best = -Infinity;
          for (let k = (vectors[j] as Float32Array[]).length; k > 0; k--)
            best = Math.max(best, cosines[at++] as number);
          row.set(tool, Math.round(Math.max(-1, calibrated(id, best)) * 10_000) / 10_000);
        });
        rows.set(text, row);
        return row;
      };
      const similarities: Similarities = {
        model,
        of: (text, tool) => rowOf(text)?.get(tool),
        redirect: (text, tool) => {
          const v = byText.get(text);
          const j = tools.indexOf(tool);
          if (!v || j < 0) return undefined;
          let own = -Infinity;
          for (const u of vectors[j] as Float32Array[]) own = Math.max(own, cosine(v, u));
          let best: { to: string; raw: number } | undefined;
          for (const clause of clauses.get(tool) ?? [])
            for (const u of clauseVector.get(clause) ?? []) {
              const c = cosine(v, u);
              // (a clause naming several tools sends to the first: the one its author names first)
              if (c > own && (!best || c > best.raw)) best = { to: clause.tools[0] as string, raw: c };
            }
          const round = (c: number) => Math.round(Math.max(-1, calibrated(id, c)) * 10_000) / 10_000;
          // Only a clause the text is about: as near as a request and the description of the tool that serves it
          // are on average (RELATED_COSINE); a text near nothing the tool says is near no clause either.
          if (!best || round(best.raw) < RELATED_COSINE) return undefined;
          return { to: best.to, cosine: round(best.raw), own: round(own) };
        },
        between: (a, b) => {
          const x = byText.get(a);
          const y = byText.get(b);
          return x && y ? Math.round(calibrated(id, cosine(x, y)) * 10_000) / 10_000 : undefined;
        },
        // (the same object, its texts added: `rows` and `byText` grow, what was read stays as it was)
        async including(more) {
          await textsOf(id, more, byText);
          return similarities;
        },
      };
      return similarities;
    },
  };
}
