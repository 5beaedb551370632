// Start-up of the semantic model for a process that runs the decider (the tool-decider worker, the embedded dev run,
// re-decide): SIGNALBOX_EMBEDDINGS=on (the default) loads the model files and fails at once, naming the command that
// fetches them, when they are missing; =off decides lexically, which every plan records.
import { createOnnxEmbedder, embeddingsSetting, type Embedder } from '@signalbox/embedder';
import { createSemanticScorer, type SemanticScorer } from './semantic.js';

/** The scorer the environment asks for (null: off), and the embedder to close on shutdown. */
export async function semanticDeciderFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<{ semantic: SemanticScorer | null; embedder: Embedder | null }> {
  if (embeddingsSetting(env) === 'off') return { semantic: null, embedder: null };
  const embedder = await createOnnxEmbedder({ dir: env.SIGNALBOX_MODEL_DIR?.trim() || undefined });
  return { semantic: createSemanticScorer(embedder), embedder };
}
