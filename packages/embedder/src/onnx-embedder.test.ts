import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHINESE_MODEL, ENGLISH_MODEL, MODEL_CATALOG, modelForText, resolveModelDir } from './catalog.js';
import { cosine, type Embedder } from './embedder.js';
import { ModelFileMismatchError, ModelFilesMissingError } from './errors.js';
import { checkModelFiles, createOnnxEmbedder } from './onnx-embedder.js';
import { embeddingsSetting } from './setting.js';

// The real model files (fetched by scripts/fetch-models.sh, which `npm test` runs first).
const dir = resolveModelDir();

describe('model files', () => {
  it('names every missing file and the command that fetches them', () => {
    const empty = mkdtempSync(join(tmpdir(), 'sb-models-'));
    try {
      expect(() => checkModelFiles(empty, [ENGLISH_MODEL])).toThrow(ModelFilesMissingError);
      expect(() => checkModelFiles(empty, [ENGLISH_MODEL])).toThrow(
        /all-minilm-l6-v2-q\.onnx, all-minilm-l6-v2-q-tokenizer\.json.*bash scripts\/fetch-models\.sh/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses a file whose sha256 is not the pinned one', () => {
    const other = mkdtempSync(join(tmpdir(), 'sb-models-'));
    try {
      const spec = MODEL_CATALOG.find((m) => m.id === ENGLISH_MODEL);
      if (!spec) throw new Error('catalog has no English model');
      copyFileSync(join(dir, spec.tokenizer), join(other, spec.tokenizer));
      writeFileSync(join(other, spec.onnx), 'truncated download');
      expect(() => checkModelFiles(other, [ENGLISH_MODEL])).toThrow(ModelFileMismatchError);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('reads the operator setting and refuses anything but on/off', () => {
    expect(embeddingsSetting({})).toBe('on');
    expect(embeddingsSetting({ SIGNALBOX_EMBEDDINGS: 'OFF' })).toBe('off');
    expect(() => embeddingsSetting({ SIGNALBOX_EMBEDDINGS: 'maybe' })).toThrow(
      /SIGNALBOX_EMBEDDINGS must be/,
    );
  });
});

describe('createOnnxEmbedder on the real models', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await createOnnxEmbedder({ dir });
  });
  afterAll(async () => {
    await embedder.close();
  });

  it('routes text by script', () => {
    expect(modelForText('Is it going to rain in Paris tomorrow?')).toBe(ENGLISH_MODEL);
    expect(modelForText('北京明天天气怎么样？')).toBe(CHINESE_MODEL);
    expect(embedder.models.get(CHINESE_MODEL)?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ranks a paraphrase nearer the tool that serves it', async () => {
    const [request, weather, stocks] = await embedder.embed(
      [
        'Is it going to rain in Paris tomorrow?',
        'get_weather: the weather forecast for a city',
        'get_stock_price: the latest price of a listed share',
      ],
      ENGLISH_MODEL,
    );
    expect(cosine(request!, weather!)).toBeGreaterThan(cosine(request!, stocks!) + 0.1);
    const [zh, zhWeather, zhStocks] = await embedder.embed(
      ['北京明天天气怎么样？', '查询城市天气预报', '查询股票的最新价格'],
      CHINESE_MODEL,
    );
    expect(cosine(zh!, zhWeather!)).toBeGreaterThan(cosine(zh!, zhStocks!));
  });

  it('gives unit vectors, the same for the same text, for empty, emoji, very long and unknown-script text', async () => {
    const texts = ['', '🙂🙂🙂', 'x'.repeat(50_000), 'ሰላም እንደምን አደርክ', 'Hello'];
    const a = await embedder.embed(texts, ENGLISH_MODEL);
    const b = await embedder.embed(texts, ENGLISH_MODEL);
    for (const [i, v] of a.entries()) {
      expect(v.length).toBe(384);
      expect(Math.abs(cosine(v, v) - 1)).toBeLessThan(1e-4);
      expect([...v]).toEqual([...b[i]!]);
    }
  });
});
