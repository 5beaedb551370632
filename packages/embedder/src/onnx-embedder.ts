// The ONNX adapter of the Embedder port: the catalog's quantised sentence-embedding models run in process by
// onnxruntime-node (CPU, one thread per session so that a vector is bit-for-bit repeatable and a stage's CPU is
// predictable), tokenised by @huggingface/tokenizers from the model's own tokenizer.json.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tokenizers from '@huggingface/tokenizers';
import ort from 'onnxruntime-node';
import { MODEL_CATALOG, modelForText, modelSpec, resolveModelDir, type ModelSpec } from './catalog.js';
import type { Embedder, EmbeddingModel } from './embedder.js';
import { EmbedderConfigError, ModelFileMismatchError, ModelFilesMissingError } from './errors.js';

/** Options of {@link createOnnxEmbedder}. */
export interface OnnxEmbedderOptions {
  /** The model folder. @default resolveModelDir() ($SIGNALBOX_MODEL_DIR, else ~/.cache/signalbox/models) */
  dir?: string;
  /** The catalog ids to load. @default every model of the catalog */
  models?: readonly string[];
  /**
   * Check each file's sha256 against the catalog at start (about 60 ms for both models). @default true
   */
  verify?: boolean;
}

// Only the first tokens are read (max_tokens); a text longer than this many characters cannot add to them: a word
// piece covers at least one character and a word of more than 100 characters is one [UNK] token.
const MAX_CHARS = 16_384;

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * The files each model needs, checked before anything loads: every missing file is named at once with the command
 * that fetches it (a stage that needs the model fails at start, not on its first request).
 */
export function checkModelFiles(dir: string, ids: readonly string[], verify = true): ModelSpec[] {
  const specs = ids.map((id) => {
    const spec = modelSpec(id);
    if (!spec)
      throw new EmbedderConfigError(
        `unknown embedding model "${id}"; the catalog has ${MODEL_CATALOG.map((m) => m.id).join(', ')}`,
      );
    return spec;
  });
  const missing = specs.flatMap((s) => [s.onnx, s.tokenizer]).filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) throw new ModelFilesMissingError(dir, missing);
  if (verify)
    for (const s of specs)
      for (const [file, expected] of [
        [s.onnx, s.onnx_sha256],
        [s.tokenizer, s.tokenizer_sha256],
      ] as const) {
        const actual = sha256(join(dir, file));
        if (actual !== expected) throw new ModelFileMismatchError(join(dir, file), expected, actual);
      }
  return specs;
}

/** What this adapter uses of @huggingface/tokenizers' Tokenizer (its .d.ts files do not resolve under NodeNext). */
interface WordPieceTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
  token_to_id(token: string): number | undefined;
}
const Tokenizer = (
  tokenizers as unknown as { Tokenizer: new (json: object, config: object) => WordPieceTokenizer }
).Tokenizer;

interface LoadedModel {
  spec: ModelSpec;
  info: EmbeddingModel;
  session: ort.InferenceSession;
  tokenizer: WordPieceTokenizer;
  cls: number;
  sep: number;
}

async function load(dir: string, spec: ModelSpec): Promise<LoadedModel> {
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(dir, spec.tokenizer), 'utf8')) as object, {});
  const session = await ort.InferenceSession.create(join(dir, spec.onnx), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const cls = tokenizer.token_to_id('[CLS]');
  const sep = tokenizer.token_to_id('[SEP]');
  if (cls === undefined || sep === undefined)
    throw new EmbedderConfigError(`${spec.tokenizer} has no [CLS] / [SEP] token`);
  return {
    spec,
    info: { id: spec.id, sha256: spec.onnx_sha256, dimensions: spec.dimensions },
    session,
    tokenizer,
    cls,
    sep,
  };
}

/** Token ids of one text: [CLS] + the first max_tokens − 2 word pieces + [SEP]. */
function encode(model: LoadedModel, text: string): number[] {
  const ids = model.tokenizer.encode(text.slice(0, MAX_CHARS), { add_special_tokens: false }).ids;
  const n = Math.min(ids.length, model.spec.max_tokens - 2);
  const out = new Array<number>(n + 2);
  out[0] = model.cls;
  for (let i = 0; i < n; i++) out[i + 1] = ids[i] as number;
  out[n + 1] = model.sep;
  return out;
}

/** The vector of one text's token ids: one inference of its own. */
async function infer(model: LoadedModel, ids: readonly number[]): Promise<Float32Array> {
  const n = ids.length;
  const shape = [1, n];
  const feeds = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), shape),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), shape),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(n), shape),
  };
  const out = await model.session.run(feeds);
  const hidden = out.last_hidden_state;
  if (!hidden) throw new EmbedderConfigError(`${model.spec.onnx} returned no last_hidden_state`);
  const data = hidden.data as Float32Array;
  const d = model.spec.dimensions;
  const vector = new Float32Array(d);
  if (model.spec.pooling === 'cls') vector.set(data.subarray(0, d));
  else {
    for (let t = 0; t < n; t++)
      for (let i = 0; i < d; i++) vector[i] = (vector[i] as number) + (data[t * d + i] as number);
    for (let i = 0; i < d; i++) vector[i] = (vector[i] as number) / n;
  }
  let norm = 0;
  for (let i = 0; i < d; i++) norm += (vector[i] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < d; i++) vector[i] = (vector[i] as number) / norm;
  for (const tensor of Object.values(out)) tensor.dispose();
  return vector;
}

/** What an ONNX embedder has spent since it was created (benchmarks and metrics read it). */
export interface EmbedderUsage {
  /** Texts asked for. */
  texts: number;
  /**
   * Inferences run: one per distinct token sequence of a call (texts that tokenise alike — they differ only in case
   * under an uncased model, in spacing, or past the token limit — share one).
   */
  runs: number;
  /** Tokens those inferences read, [CLS] and [SEP] included. */
  tokens: number;
  /**
   * Process CPU time (ms) while a call's texts were tokenised, run and pooled — the model's cost. Other work of the
   * process that ran in the same event-loop turns is in it too; a caller that awaits each call adds little.
   */
  cpu_ms: number;
}

/** The ONNX embedder: the Embedder port and what it has spent. */
export interface OnnxEmbedder extends Embedder {
  /** Running totals since creation; read a difference around the work to measure. */
  readonly usage: Readonly<EmbedderUsage>;
}

/**
 * Loads the catalog's models from the model folder. Throws `ModelFilesMissingError` (naming the fetch command) when a
 * file is absent and `ModelFileMismatchError` when one is not the pinned file — before any session is created.
 */
export async function createOnnxEmbedder(options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
  const dir = options.dir ?? resolveModelDir();
  const specs = checkModelFiles(
    dir,
    options.models ?? MODEL_CATALOG.map((m) => m.id),
    options.verify ?? true,
  );
  const loaded = new Map<string, LoadedModel>();
  for (const spec of specs) loaded.set(spec.id, await load(dir, spec));
  const models = new Map([...loaded].map(([id, m]) => [id, m.info]));
  // Every text is its own inference: the int8 graphs quantise activations dynamically over the whole input tensor, so
  // a text batched with others gets (slightly) different values — measured up to 0.04 per component. One text a run
  // keeps every vector a function of its text alone, as replay needs. The vector is a function of the token ids, so
  // texts of one call that tokenise alike are run once.
  // One inference at a time per session: onnxruntime's CPU session is not meant to be run concurrently, and the
  // stages gain nothing from it (one thread each).
  let queue: Promise<unknown> = Promise.resolve();
  const usage: EmbedderUsage = { texts: 0, runs: 0, tokens: 0, cpu_ms: 0 };
  return {
    models,
    usage,
    modelFor(text) {
      const id = modelForText(text);
      return loaded.has(id) ? id : (specs[0] as ModelSpec).id;
    },
    async embed(texts, id) {
      const model = loaded.get(id);
      if (!model)
        throw new EmbedderConfigError(
          `embedding model "${id}" is not loaded (loaded: ${[...loaded.keys()].join(', ')})`,
        );
      const run = queue.then(async () => {
        const started = process.cpuUsage();
        try {
          const out: Float32Array[] = [];
          const byIds = new Map<string, Float32Array>();
          for (const text of texts) {
            const ids = encode(model, text);
            const key = ids.join(' ');
            const known = byIds.get(key);
            if (known) {
              // A copy: each text gets a vector of its own, whatever a caller does with another's.
              out.push(known.slice());
              continue;
            }
            const vector = await infer(model, ids);
            byIds.set(key, vector);
            out.push(vector);
            usage.runs += 1;
            usage.tokens += ids.length;
          }
          usage.texts += texts.length;
          return out;
        } finally {
          const spent = process.cpuUsage(started);
          usage.cpu_ms += (spent.user + spent.system) / 1000;
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      for (const m of loaded.values()) await m.session.release();
      loaded.clear();
    },
  };
}
