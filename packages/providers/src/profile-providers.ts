// IF-4 wiring shared by every stage that may ask a model: one provider per model profile whose OpenAI-compatible
// endpoint is configured (its base-URL and API-key variables are set); every other profile is deterministic here.
import type { ModelProvider } from './model-types.js';
import { createOpenAiProvider } from './openai-provider.js';

/** The part of a registry model profile (RG-7) this wiring reads. */
export interface ProfileEndpoint {
  id: string;
  provider:
    | { kind: 'openai_compatible'; model: string; base_url_env: string; api_key_env: string }
    | { kind: string };
}

/** Providers by profile id, for the profiles whose endpoint variables are set in `env`. */
export function providersForProfiles(
  profiles: readonly ProfileEndpoint[],
  env: Readonly<Record<string, string | undefined>>,
): Map<string, ModelProvider> {
  const providers = new Map<string, ModelProvider>();
  for (const profile of profiles) {
    const p = profile.provider;
    if (p.kind !== 'openai_compatible' || !('base_url_env' in p)) continue;
    const baseURL = env[p.base_url_env];
    const apiKey = env[p.api_key_env];
    if (baseURL && apiKey)
      providers.set(profile.id, createOpenAiProvider({ baseURL, apiKey, model: p.model }));
  }
  return providers;
}
