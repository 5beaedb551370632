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
    const allowing = createSsrfGuard({
      resolve,
      allow: ['internal.svc:80', '127.0.0.1:9', '[fd00::]/8:80'],
    });
    expect(await refused(allowing, 'http://internal.svc/')).toBe(false);
    expect(await refused(allowing, 'http://127.0.0.1:9/')).toBe(false);
    expect(await refused(allowing, 'http://[fd12::1]/')).toBe(false);
    expect(await refused(allowing, 'http://127.0.0.2:9/')).toBe(true);
    expect(await refused(allowing, 'http://10.20.0.5/')).toBe(true);
    const cidr = createSsrfGuard({ resolve, allow: ['10.20.0.0/16:80'] });
    expect(await refused(cidr, 'http://internal.svc/')).toBe(false);
    expect(await refused(cidr, 'https://mixed.example/')).toBe(true);
  });

  it('rejects a malformed allow-list entry at construction', () => {
    expect(() => createSsrfGuard({ allow: ['10.0.0.0/40'] })).toThrow(ExecutorConfigError);
    expect(() => createSsrfGuard({ allow: ['not a host!'] })).toThrow(ExecutorConfigError);
    for (const entry of [
      '127.0.0.1:0',
      '127.0.0.1:65536',
      'demo-tools:http',
      '[fd00::1',
      '[fd00::1]x',
      'fd00::/8:80',
    ])
      expect(() => createSsrfGuard({ allow: [entry] }), entry).toThrow(ExecutorConfigError);
  });
});

// Issue 21, hole 7: every IPv6 form that embeds an IPv4 address is judged by the IPv4 address it embeds.
describe('SSRF guard: IPv6 forms that embed an IPv4 address', () => {
  const guard = createSsrfGuard({ resolve });
  // Teredo keeps the client's address inverted: 127.0.0.1 → 80ff:fffe, 192.168.1.1 → 3f57:fefe,
  // 169.254.169.254 → 5601:5601, 93.184.216.34 → a247:27dd.
  it.each([
    ['IPv4-compatible, dotted', 'http://[::127.0.0.2]/'],
    ['IPv4-compatible, hex', 'http://[::7f00:2]/'],
    ['IPv4-compatible, private', 'http://[::10.0.0.1]/'],
    ['IPv4-mapped, dotted', 'http://[::ffff:10.1.2.3]/'],
    ['IPv4-mapped, hex', 'http://[::ffff:7f00:1]/'],
    ['IPv4-mapped, fully written', 'http://[0:0:0:0:0:ffff:7f00:1]/'],
    ['IPv4-translated (RFC 6145)', 'http://[::ffff:0:127.0.0.1]/'],
    ['NAT64 well-known prefix, hex', 'http://[64:ff9b::7f00:1]/'],
    ['NAT64 well-known prefix, dotted', 'http://[64:ff9b::169.254.169.254]/'],
    ['NAT64 local-use prefix', 'http://[64:ff9b:1::a00:1]/'],
    ['6to4 of loopback', 'http://[2002:7f00:1::]/'],
    ['6to4 of the metadata endpoint', 'http://[2002:a9fe:a9fe::1]/'],
    ['6to4 of a private address', 'http://[2002:c0a8:101:1::1]/'],
    ['Teredo of loopback', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/'],
    ['Teredo of a private address', 'http://[2001:0:4136:e378:8000:63bf:3f57:fefe]/'],
    ['Teredo of the metadata endpoint', 'http://[2001::5601:5601]/'],
  ])('refuses %s (%s)', async (_form, url) => {
    expect(await refused(guard, url)).toBe(true);
  });

  it.each([
    ['the unspecified address', 'http://[::]/'],
    ['loopback', 'http://[::1]:8080/'],
    ['link-local', 'http://[fe80::abcd:1]/'],
    ['unique-local fc00::/7 (fc)', 'http://[fc00::1]/'],
    ['unique-local fc00::/7 (fd)', 'http://[fdff:ffff::1]/'],
    ['multicast', 'http://[ff02::1]/'],
    ['site-local', 'http://[fec0::1]/'],
    ['documentation', 'http://[2001:db8::1]/'],
  ])('refuses %s (%s)', async (_form, url) => {
    expect(await refused(guard, url)).toBe(true);
  });

  it('refuses an embedding form that a name resolves to', async () => {
    const sneaky = createSsrfGuard({
      resolve: () => Promise.resolve([{ address: '::7f00:1', family: 6 }]),
    });
    expect(await refused(sneaky, 'http://sneaky.example/')).toBe(true);
  });

  it('allows an embedding form whose IPv4 address is public', async () => {
    expect(await refused(guard, 'http://[::ffff:93.184.216.34]/')).toBe(false);
    expect(await refused(guard, 'http://[64:ff9b::5db8:d822]/')).toBe(false);
    expect(await refused(guard, 'http://[2002:5db8:d822::1]/')).toBe(false);
    expect(await refused(guard, 'http://[2001:0:4136:e378:8000:63bf:a247:27dd]/')).toBe(false);
    expect(await refused(guard, 'http://[2606:2800:220:1::1]/')).toBe(false);
  });
});

// Issue 21, hole 2: an allow-list entry names a host AND a port.
describe('SSRF guard: the allow-list is per host and port', () => {
  it('an address:port entry allows that port only — not PostgreSQL on the same host', async () => {
    const guard = createSsrfGuard({ resolve, allow: ['127.0.0.1:8088'] });
    expect(await refused(guard, 'http://127.0.0.1:8088/tools/x')).toBe(false);
    expect(await refused(guard, 'http://127.0.0.1:5432/')).toBe(true);
    expect(await refused(guard, 'http://127.0.0.1/')).toBe(true);
    expect(await refused(guard, 'https://127.0.0.1/')).toBe(true);
    // The IPv4-mapped form is the same host: same rule.
    expect(await refused(guard, 'http://[::ffff:127.0.0.1]:8088/')).toBe(false);
    expect(await refused(guard, 'http://[::ffff:127.0.0.1]:5432/')).toBe(true);
    // Other embedding forms go elsewhere (a relay, a translator): the IPv4 entry does not cover them.
    expect(await refused(guard, 'http://[::127.0.0.1]:8088/')).toBe(true);
    expect(await refused(guard, 'http://[2002:7f00:1::]:8088/')).toBe(true);
  });

  it('an entry without a port allows only the scheme default port', async () => {
    const guard = createSsrfGuard({ resolve, allow: ['127.0.0.1', 'internal.svc', 'fd00::/8'] });
    expect(await refused(guard, 'http://127.0.0.1/')).toBe(false);
    expect(await refused(guard, 'http://127.0.0.1:80/')).toBe(false);
    expect(await refused(guard, 'https://127.0.0.1/')).toBe(false);
    expect(await refused(guard, 'http://127.0.0.1:5432/')).toBe(true);
    expect(await refused(guard, 'http://127.0.0.1:443/')).toBe(true);
    expect(await refused(guard, 'http://internal.svc/')).toBe(false);
    expect(await refused(guard, 'http://internal.svc:5432/')).toBe(true);
    expect(await refused(guard, 'https://[fd12::1]/')).toBe(false);
    expect(await refused(guard, 'http://[fd12::1]:6379/')).toBe(true);
  });

  it('host names, CIDR ranges and bracketed IPv6 take ports; * is any port', async () => {
    const guard = createSsrfGuard({
      resolve,
      allow: ['internal.svc:8443', '10.30.0.0/16:9000', '[fd00::7]:8080', '[fd00::]/16:9090', '127.0.0.1:*'],
    });
    expect(await refused(guard, 'https://internal.svc:8443/')).toBe(false);
    expect(await refused(guard, 'http://internal.svc/')).toBe(true);
    expect(await refused(guard, 'http://10.30.1.2:9000/')).toBe(false);
    expect(await refused(guard, 'http://10.30.1.2:9001/')).toBe(true);
    expect(await refused(guard, 'http://[fd00::7]:8080/')).toBe(false);
    expect(await refused(guard, 'http://[fd00::8]:8080/')).toBe(true);
    expect(await refused(guard, 'http://[fd00::8]:9090/')).toBe(false);
    expect(await refused(guard, 'http://127.0.0.1:5432/')).toBe(false);
    expect(await refused(guard, 'http://127.0.0.2:5432/')).toBe(true);
  });

  it('public addresses are allowed on any port', async () => {
    const guard = createSsrfGuard({ resolve, allow: ['127.0.0.1:8088'] });
    expect(await refused(guard, 'https://public.example:8443/')).toBe(false);
  });

  it('names the port in the refusal', async () => {
    const guard = createSsrfGuard({ resolve, allow: ['127.0.0.1:8088'] });
    await expect(guard.check(new URL('http://127.0.0.1:5432/'))).rejects.toThrow(/port 5432/);
  });
});
