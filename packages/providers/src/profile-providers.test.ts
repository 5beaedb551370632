import { describe, expect, it } from 'vitest';
import { providersForProfiles, type ProfileEndpoint } from './profile-providers.js';

const profiles: ProfileEndpoint[] = [
  {
    id: 'fast',
    provider: {
      kind: 'openai_compatible',
      model: 'gpt-4o-mini',
      base_url_env: 'FAST_URL',
      api_key_env: 'FAST_KEY',
    },
  },
  {
    id: 'strong',
    provider: {
      kind: 'openai_compatible',
      model: 'gpt-4o',
      base_url_env: 'STRONG_URL',
      api_key_env: 'STRONG_KEY',
    },
  },
  { id: 'rules', provider: { kind: 'deterministic' } },
];

describe('providersForProfiles (IF-4)', () => {
  it('gives a provider only to OpenAI-compatible profiles whose URL and key variables are both set', () => {
    const providers = providersForProfiles(profiles, {
      FAST_URL: 'http://127.0.0.1:9/v1',
      FAST_KEY: 'sk-test',
      STRONG_URL: 'http://127.0.0.1:9/v1',
    });
    expect([...providers.keys()]).toEqual(['fast']);
    expect(typeof providers.get('fast')?.complete).toBe('function');
    expect(providersForProfiles(profiles, {}).size).toBe(0);
  });
});
