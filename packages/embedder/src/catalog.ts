// The model catalog: which offline models exist, where their files come from and which sha256 they must have. One
// source (`models.json` beside package.json) read by this module and by scripts/fetch-models.sh.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** One model of the catalog. */
export interface ModelSpec {
  /** The id recorded with every decision that used the model. */
  id: string;
  /** Its upstream name. */
  name: string;
  /** Maven coordinates of the jar that carries its files. */
  artifact: string;
  onnx: string;
  onnx_sha256: string;
  tokenizer: string;
  tokenizer_sha256: string;
  /** How token vectors become one text vector: the attention-masked mean (MiniLM) or the [CLS] vector (bge). */
  pooling: 'mean' | 'cls';
  /** Tokens read per text, [CLS] and [SEP] included (longer texts are truncated, as the models were trained). */
  max_tokens: number;
  dimensions: number;
  languages: string;
}

const catalogFile = new URL('../models.json', import.meta.url);

/** Every model of the catalog, in catalog order. */
export const MODEL_CATALOG: readonly ModelSpec[] = (
  JSON.parse(readFileSync(catalogFile, 'utf8')) as { models: ModelSpec[] }
).models;

/** The model for text without CJK characters. */
export const ENGLISH_MODEL = 'all-minilm-l6-v2-q';
/** The model for text with CJK characters. */
export const CHINESE_MODEL = 'bge-small-zh-v1.5-q';

/** The catalog entry of a model id (undefined: not in the catalog). */
export function modelSpec(id: string): ModelSpec | undefined {
  return MODEL_CATALOG.find((m) => m.id === id);
}

/** The environment variable naming the model folder. */
export const MODEL_DIR_ENV = 'SIGNALBOX_MODEL_DIR';

/**
 * The model folder: `$SIGNALBOX_MODEL_DIR`, else `$XDG_CACHE_HOME/signalbox/models`, else `~/.cache/signalbox/models`
 * (beside the Kafka jars of infra/local; never inside the repository).
 */
export function resolveModelDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env[MODEL_DIR_ENV]?.trim();
  if (configured) return isAbsolute(configured) ? configured : resolve(configured);
  const cache = env.XDG_CACHE_HOME?.trim() || join(homedir(), '.cache');
  return join(cache, 'signalbox', 'models');
}

// CJK ideographs (with extension A and compatibility forms), kana, Hangul, CJK punctuation and full-width forms.
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** Whether a text has a CJK character (it then goes to the Chinese model). */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** The model a text is embedded with: the Chinese model for text with a CJK character, else the English one. */
export function modelForText(text: string): string {
  return hasCjk(text) ? CHINESE_MODEL : ENGLISH_MODEL;
}
