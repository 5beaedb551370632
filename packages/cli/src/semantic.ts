// The decider's semantic model for the commands that run the decider in this process (dev, redecide, replay, eval):
// loaded once from the environment exactly as the tool-decider worker loads it (SIGNALBOX_EMBEDDINGS, the model
// folder), so a command decides as production does — missing model files are an error naming the fetch command.
import { semanticDeciderFromEnv, type SemanticScorer } from '@signalbox/tool-decider';

let loaded: Promise<SemanticScorer | null> | undefined;

/** The process's semantic scorer (null: SIGNALBOX_EMBEDDINGS=off). */
export function deciderSemantic(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<SemanticScorer | null> {
  loaded ??= semanticDeciderFromEnv(env).then((s) => s.semantic);
  return loaded;
}
