// The operator's choice: decide with the semantic model (the default) or, explicitly, without it. There is no silent
// fallback: with `on`, missing model files stop the stage at start; with `off`, every decision records that no model
// was used.
import { EmbedderConfigError } from './errors.js';

/** The environment variable of the setting. */
export const EMBEDDINGS_ENV = 'SIGNALBOX_EMBEDDINGS';

/** `on`: load the models and decide with them; `off`: decide lexically, recorded on every affected decision. */
export type EmbeddingsSetting = 'on' | 'off';

/** Reads SIGNALBOX_EMBEDDINGS (`on` or `off`; unset: `on`). Throws `EmbedderConfigError` naming a bad value. */
export function embeddingsSetting(
  env: Readonly<Record<string, string | undefined>> = process.env,
): EmbeddingsSetting {
  const raw = env[EMBEDDINGS_ENV]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'on') return 'on';
  if (raw === 'off') return 'off';
  throw new EmbedderConfigError(
    `${EMBEDDINGS_ENV} must be "on" or "off", got "${env[EMBEDDINGS_ENV] ?? ''}"`,
  );
}
