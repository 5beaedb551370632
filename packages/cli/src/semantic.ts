// The semantic model for the commands that decide or lint in this process (dev, redecide, replay, eval, registry
// lint): loaded once from the environment exactly as the tool-decider worker loads it (SIGNALBOX_EMBEDDINGS, the
// model folder), so a command decides as production does — missing model files are an error naming the fetch command.
import { cosine, hasCjk, CHINESE_MODEL, ENGLISH_MODEL, type Embedder } from '@signalbox/embedder';
import { calibrated, semanticDeciderFromEnv, type SemanticScorer } from '@signalbox/tool-decider';

let loaded: Promise<{ semantic: SemanticScorer | null; embedder: Embedder | null }> | undefined;

function load(env: Readonly<Record<string, string | undefined>>) {
  loaded ??= semanticDeciderFromEnv(env);
  return loaded;
}

/** The process's semantic scorer for the decider (null: SIGNALBOX_EMBEDDINGS=off). */
export async function deciderSemantic(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<SemanticScorer | null> {
  return (await load(env)).semantic;
}

/**
 * The cosine of any two of `texts` under the semantic model (a pair with a CJK character is compared under the
 * Chinese model, any other under the English one), on the one scale the decider uses (`calibrated`), or undefined
 * when the model is off.
 */
export async function textSimilarity(
  texts: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<((a: string, b: string) => number) | undefined> {
  const { embedder } = await load(env);
  if (!embedder) return undefined;
  const unique = [...new Set(texts)];
  const english = await embedder.embed(unique, ENGLISH_MODEL);
  const chinese = unique.some(hasCjk) ? await embedder.embed(unique, CHINESE_MODEL) : english;
  const at = new Map(unique.map((t, i) => [t, i]));
  return (a, b) => {
    const i = at.get(a);
    const j = at.get(b);
    if (i === undefined || j === undefined) return 0;
    const model = hasCjk(a) || hasCjk(b) ? CHINESE_MODEL : ENGLISH_MODEL;
    const vectors = model === CHINESE_MODEL ? chinese : english;
    return calibrated(model, cosine(vectors[i] as Float32Array, vectors[j] as Float32Array));
  };
}
