// A strict fake of the Embedder port for unit tests: vectors from hashed word features (a word shared by two texts
// raises their cosine), so tests can exercise code that ranks by similarity without the model files. Never used by
// a stage process; the pipeline's tests run the real ONNX models.
import { createHash } from 'node:crypto';
import { cosine, type Embedder, type EmbeddingModel } from './embedder.js';
import { EmbedderConfigError } from './errors.js';

const DIMENSIONS = 64;

/** The fake's model identity (recorded like a real one, so provenance code is exercised too). */
export const FAKE_MODEL: EmbeddingModel = {
  id: 'fake-hashed-words',
  sha256: '0'.repeat(64),
  dimensions: DIMENSIONS,
};

function vectorOf(text: string): Float32Array {
  const v = new Float32Array(DIMENSIONS);
  for (const word of text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)) {
    const h = createHash('sha256').update(word).digest();
    v[(h[0] as number) % DIMENSIONS] = (v[(h[0] as number) % DIMENSIONS] as number) + 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** A fake embedder; `calls` counts texts embedded (to test caching). Throws on any other model id. */
export function createFakeEmbedder(): Embedder & { calls: number } {
  const fake = {
    calls: 0,
    models: new Map([[FAKE_MODEL.id, FAKE_MODEL]]),
    modelFor: () => FAKE_MODEL.id,
    embed(texts: readonly string[], model: string) {
      if (model !== FAKE_MODEL.id) throw new EmbedderConfigError(`the fake embedder has no model "${model}"`);
      fake.calls += texts.length;
      return Promise.resolve(texts.map(vectorOf));
    },
    close: () => Promise.resolve(),
  };
  return fake;
}

export { cosine };

let shared: Promise<Embedder> | undefined;

/**
 * The real ONNX embedder over the fetched model files, loaded once per test process and shared by the suites that
 * decide as production does (the models load in ~0.3 s; each suite loading its own would only repeat that).
 */
export function sharedOnnxEmbedder(): Promise<Embedder> {
  shared ??= import('./onnx-embedder.js').then((m) => m.createOnnxEmbedder());
  return shared;
}
