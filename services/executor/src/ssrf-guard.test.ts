import { describe, expect, it } from 'vitest';
import { ExecutorConfigError, SsrfRefusedError } from './errors.js';
import { createSsrfGuard, type HostResolver } from './ssrf-guard.js';

// A strict fake resolver: only the names listed here exist.
const names: Record<string, { address: string; family: 4 | 6 }[]> = {
  'public.example': [{ address: '93.184.216.34', family: 4 }],
  'mixed.example': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.1.2.3', family: 4 },
  ],
  'v6-local.example': [
    { address: '2606:2800:220:1::1', family: 6 },
    { address: 'fe80::1', family: 6 },
  ],
  'internal.svc': [{ address: '10.20.0.5', family: 4 }],
};
const resolve: HostResolver = (host) => {
  const found = names[host];
  if (!found) return Promise.reject(new Error(`unexpected lookup of ${host}`));
  return Promise.resolve(found);
};

async function refused(guard: ReturnType<typeof createSsrfGuard>, url: string): Promise<boolean> {
  try {
    await guard.check(new URL(url));
    return false;
  } catch (err) {
    if (err instanceof SsrfRefusedError) return true;
    throw err;
  }
}

describe('SSRF guard', () => {
  const guard = createSsrfGuard({ resolve });

  it.each([
    'http://127.0.0.1/',
    'http://127.9.9.9:8080/',
    'http://10.0.0.1/',
    'http://172.16.5.5/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[fd12::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://2130706433/',
    'http://100.64.0.1/',
  ])('refuses %s', async (url) => {
    expect(await refused(guard, url)).toBe(true);
  });

  it('allows public addresses and names that resolve only to public addresses', async () => {
    expect(await refused(guard, 'https://93.184.216.34/x')).toBe(false);
    expect(await refused(guard, 'https://public.example/x')).toBe(false);
  });

  it('checks every resolved address, IPv4 and IPv6', async () => {
    expect(await refused(guard, 'https://mixed.example/')).toBe(true);
    expect(await refused(guard, 'https://v6-local.example/')).toBe(true);
  });

  it('refuses other schemes', async () => {
    expect(await refused(guard, 'file:///etc/passwd')).toBe(true);
  });

  it('allows what is allow-listed by host name, address or CIDR — and nothing more', async () => {
    const allowing = createSsrfGuard({ resolve, allow: ['internal.svc', '127.0.0.1', 'fd00::/8'] });
    expect(await refused(allowing, 'http://internal.svc/')).toBe(false);
    expect(await refused(allowing, 'http://127.0.0.1:9/')).toBe(false);
    expect(await refused(allowing, 'http://[fd12::1]/')).toBe(false);
    expect(await refused(allowing, 'http://127.0.0.2/')).toBe(true);
    expect(await refused(allowing, 'http://10.20.0.5/')).toBe(true);
    const cidr = createSsrfGuard({ resolve, allow: ['10.20.0.0/16'] });
    expect(await refused(cidr, 'http://internal.svc/')).toBe(false);
    expect(await refused(cidr, 'https://mixed.example/')).toBe(true);
  });

  it('rejects a malformed allow-list entry at construction', () => {
    expect(() => createSsrfGuard({ allow: ['10.0.0.0/40'] })).toThrow(ExecutorConfigError);
    expect(() => createSsrfGuard({ allow: ['not a host!'] })).toThrow(ExecutorConfigError);
  });
});
