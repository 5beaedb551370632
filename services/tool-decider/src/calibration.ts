// One scale for the cosines of two models. The decider's semantic fit (RETRIEVAL_CONFIG.semanticWeights), the scene
// router's floor and ceiling and the near-duplicate bound were set on all-minilm-l6-v2 cosines of English text. The
// Chinese model's cosines run on another scale: under bge-small-zh-v1.5 a request and the description of a tool that
// has nothing to do with it score about 0.26, where MiniLM scores the same pair in English about 0.04 — so every
// Chinese request "fits" every tool a little, and a related tool stands out less than it should. Each model's
// cosines are therefore mapped linearly onto MiniLM's scale by two anchors measured on the same sentence pairs in both
// languages (semantic-anchors.json: requests paired with the description of the tool that serves them, and with one
// that does not): the mean cosine of unrelated pairs maps to MiniLM's, and so does the mean of related pairs.
// Chinese requests against English descriptions (cross-lingual) measure 0.44 related / 0.30 unrelated: a gap so
// narrow that a map of its own would multiply the noise nearly threefold, so the one map of the model serves them too.
// calibration.test.ts re-measures the anchors with the model files and fails, printing them, when a model changes.
import { CHINESE_MODEL, ENGLISH_MODEL } from '@signalbox/embedder';

/** Mean cosines of the anchor pairs under one model (same: the tool serves the request). */
export interface Anchors {
  same: number;
  unrelated: number;
}

/** The measured anchors (semantic-anchors.json, 14 related and 14 unrelated pairs): MiniLM's are the reference. */
export const MODEL_ANCHORS: Readonly<Record<string, Anchors>> = {
  [ENGLISH_MODEL]: { same: 0.432, unrelated: 0.044 },
  [CHINESE_MODEL]: { same: 0.582, unrelated: 0.262 },
};

const REFERENCE = MODEL_ANCHORS[ENGLISH_MODEL] as Anchors;

/** The mean cosine of a request and the description of the tool that serves it, on the reference scale. */
export const RELATED_COSINE = REFERENCE.same;

/** A cosine under `model` on the reference (MiniLM) scale; a model without anchors keeps its cosines. */
export function calibrated(model: string, cos: number): number {
  const a = MODEL_ANCHORS[model];
  if (!a || a === REFERENCE) return cos;
  return (
    REFERENCE.unrelated +
    ((cos - a.unrelated) * (REFERENCE.same - REFERENCE.unrelated)) / (a.same - a.unrelated)
  );
}
