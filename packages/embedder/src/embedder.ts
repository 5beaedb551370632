// The Embedder port: text in, unit-length vectors out, with the identity of the model that made them. Decisions that
// use it record `model` (the id and the sha256 of the model file) with the other versions, so re-decide and replay
// know what decided.

/** The identity of a loaded model, as a decision records it. */
export interface EmbeddingModel {
  /** Catalog id (`all-minilm-l6-v2-q`, `bge-small-zh-v1.5-q`). */
  id: string;
  /** sha256 of the ONNX file that computed the vectors. */
  sha256: string;
  dimensions: number;
}

/** Turns texts into L2-normalised vectors. Deterministic: the same model file and text give the same vector. */
export interface Embedder {
  /** The models this embedder runs, by id. */
  readonly models: ReadonlyMap<string, EmbeddingModel>;
  /** The model id a text is embedded with by default (by its script: CJK → Chinese model). */
  modelFor(text: string): string;
  /**
   * The vectors of `texts` under one model (every text embedded alone, so a vector never depends on its batch).
   * Throws `EmbedderConfigError` for a model id this embedder does not run.
   */
  embed(texts: readonly string[], model: string): Promise<Float32Array[]>;
  /** Releases the model sessions. */
  close(): Promise<void>;
}

/** Cosine similarity of two unit vectors (their dot product); 0 when the lengths differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}
