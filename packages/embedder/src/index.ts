export {
  CHINESE_MODEL,
  ENGLISH_MODEL,
  MODEL_CATALOG,
  MODEL_DIR_ENV,
  hasCjk,
  modelForText,
  modelSpec,
  resolveModelDir,
  type ModelSpec,
} from './catalog.js';
export { cosine, type Embedder, type EmbeddingModel } from './embedder.js';
export {
  EmbedderConfigError,
  EmbedderError,
  FETCH_MODELS_COMMAND,
  ModelFileMismatchError,
  ModelFilesMissingError,
} from './errors.js';
export {
  checkModelFiles,
  createOnnxEmbedder,
  type EmbedderUsage,
  type OnnxEmbedder,
  type OnnxEmbedderOptions,
} from './onnx-embedder.js';
export { EMBEDDINGS_ENV, embeddingsSetting, type EmbeddingsSetting } from './setting.js';
