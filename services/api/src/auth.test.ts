import { describe, expect, it } from 'vitest';
import { authenticate, hashApiKey, parseApiKeys } from './auth.js';
import { ApiConfigError, UnauthorizedError } from './errors.js';

const keys = parseApiKeys(
  JSON.stringify({ [hashApiKey('key-a')]: 'tenant-a', [hashApiKey('key-b')]: 'tenant-b' }),
);

describe('API keys', () => {
  it('resolves a Bearer key to its tenant', () => {
    expect(authenticate(keys, 'Bearer key-a')).toBe('tenant-a');
    expect(authenticate(keys, 'bearer key-b ')).toBe('tenant-b');
  });

  it('refuses missing, malformed and unknown keys', () => {
    for (const header of [
      undefined,
      '',
      'key-a',
      'Basic key-a',
      'Bearer',
      'Bearer key-a extra',
      'Bearer key-c',
    ]) {
      expect(() => authenticate(keys, header)).toThrow(UnauthorizedError);
    }
  });

  it('accepts only sha256 hashes as configured keys, and never echoes the value', () => {
    expect(() => parseApiKeys('{"key-a": "tenant-a"}')).toThrow(ApiConfigError);
    try {
      parseApiKeys('{"sk-live-secret": "tenant-a"}');
    } catch (error) {
      expect((error as Error).message).not.toContain('sk-live-secret');
    }
    expect(() => parseApiKeys('{}')).toThrow(/no key/);
    expect(() => parseApiKeys('not json')).toThrow(/not valid JSON/);
    expect(() => parseApiKeys(JSON.stringify({ [hashApiKey('x')]: '' }))).toThrow(/tenant/);
  });
});
