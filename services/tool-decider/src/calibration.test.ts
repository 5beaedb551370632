// The anchors in calibration.ts are what the real model files measure on semantic-anchors.json — not numbers chosen
// to move a score. Re-measured here on every run; a model update that shifts them fails this test, which prints the
// values to write into MODEL_ANCHORS.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHINESE_MODEL, cosine, ENGLISH_MODEL } from '@signalbox/embedder';
import { sharedOnnxEmbedder } from '@signalbox/embedder/testing';
import { calibrated, MODEL_ANCHORS } from './calibration.js';

const pairs = JSON.parse(readFileSync(new URL('./semantic-anchors.json', import.meta.url), 'utf8')) as Record<
  'same' | 'unrelated',
  [string, string, string, string][]
>;

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

async function measure(cls: 'same' | 'unrelated') {
  const embedder = await sharedOnnxEmbedder();
  const rows = pairs[cls];
  const english = await embedder.embed(
    rows.flatMap(([requestEn, toolEn]) => [requestEn, toolEn]),
    ENGLISH_MODEL,
  );
  const chinese = await embedder.embed(
    rows.flatMap(([, , requestZh, toolZh]) => [requestZh, toolZh]),
    CHINESE_MODEL,
  );
  const cos = (vs: Float32Array[], i: number, j: number) =>
    cosine(vs[i] as Float32Array, vs[j] as Float32Array);
  return {
    en: mean(rows.map((_, k) => cos(english, 2 * k, 2 * k + 1))),
    zh: mean(rows.map((_, k) => cos(chinese, 2 * k, 2 * k + 1))),
  };
}

describe('model calibration', () => {
  it('has anchors the model files measure on semantic-anchors.json', async () => {
    expect(pairs.same.length).toBeGreaterThanOrEqual(14);
    expect(pairs.unrelated.length).toBe(pairs.same.length);
    const same = await measure('same');
    const unrelated = await measure('unrelated');
    const measured = {
      [ENGLISH_MODEL]: { same: same.en, unrelated: unrelated.en },
      [CHINESE_MODEL]: { same: same.zh, unrelated: unrelated.zh },
    };
    const round = (o: Record<string, { same: number; unrelated: number }>) =>
      Object.fromEntries(
        Object.entries(o).map(([k, v]) => [
          k,
          { same: v.same.toFixed(2), unrelated: v.unrelated.toFixed(2) },
        ]),
      );
    expect(round(measured)).toEqual(
      round({
        [ENGLISH_MODEL]: MODEL_ANCHORS[ENGLISH_MODEL]!,
        [CHINESE_MODEL]: MODEL_ANCHORS[CHINESE_MODEL]!,
      }),
    );
  }, 120_000);

  it("maps the Chinese model's anchors onto the English model's and leaves the English scale as it is", () => {
    const en = MODEL_ANCHORS[ENGLISH_MODEL]!;
    const zh = MODEL_ANCHORS[CHINESE_MODEL]!;
    expect(calibrated(ENGLISH_MODEL, 0.37)).toBeCloseTo(0.37, 12);
    expect(calibrated(CHINESE_MODEL, zh.unrelated)).toBeCloseTo(en.unrelated, 10);
    expect(calibrated(CHINESE_MODEL, zh.same)).toBeCloseTo(en.same, 10);
    // order is kept: a nearer text stays nearer
    expect(calibrated(CHINESE_MODEL, 0.5)).toBeLessThan(calibrated(CHINESE_MODEL, 0.6));
    expect(calibrated('some-other-model', 0.42)).toBe(0.42);
  });
});
