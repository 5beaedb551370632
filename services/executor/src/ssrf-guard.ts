import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ExecutorConfigError, SsrfRefusedError } from './errors.js';

/** One resolved address of a target host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the guard checks all of them). */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

/** Options of {@link createSsrfGuard}. */
export interface SsrfGuardOptions {
  /**
   * Allow-list entries: host names (exact, case-insensitive), IP addresses, or CIDR ranges (`10.0.0.0/8`,
   * `fd00::/8`). A listed host name is allowed whatever it resolves to; otherwise every address must be public or
   * inside a listed address/range. @default []
   */
  allow?: readonly string[];
  /** @default every address from `dns.lookup(host, { all: true })` */
  resolve?: HostResolver;
}

/** The SSRF guard (RS-6): checks a URL's host before anything is sent. */
export interface SsrfGuard {
  /** The vetted addresses of the URL's host; throws {@link SsrfRefusedError} when any is refused. */
  check(url: URL): Promise<ResolvedAddress[]>;
}

// Private, loopback, link-local and otherwise non-public ranges. A target in any of them can reach the executor's own
// network (metadata endpoints, databases, admin ports), so it needs an explicit allow-list entry.
const BLOCKED_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const BLOCKED_V6 = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const;

function blockedList(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of BLOCKED_V4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of BLOCKED_V6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/** The IPv4 address embedded in an IPv4-mapped, -compatible or NAT64 IPv6 address, if any. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return undefined;
}

const defaultResolve: HostResolver = async (host) => {
  const found = await dnsLookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Parses the allow-list; throws {@link ExecutorConfigError} naming a malformed entry. */
function parseAllow(entries: readonly string[]): { hosts: Set<string>; list: BlockList } {
  const hosts = new Set<string>();
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const [net, prefixText] = entry.split('/');
    const ip = net?.replace(/^\[|\]$/g, '') ?? '';
    const family = isIP(ip);
    if (prefixText !== undefined) {
      const prefix = Number(prefixText);
      const max = family === 4 ? 32 : 128;
      if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > max)
        throw new ExecutorConfigError(`SSRF allow-list entry "${raw}" is not a valid CIDR range`);
      list.addSubnet(ip, prefix, family === 4 ? 'ipv4' : 'ipv6');
    } else if (family !== 0) {
      list.addAddress(ip, family === 4 ? 'ipv4' : 'ipv6');
    } else if (/^[a-z0-9.-]+$/.test(entry)) {
      hosts.add(entry);
    } else {
      throw new ExecutorConfigError(
        `SSRF allow-list entry "${raw}" is neither a host name, an IP nor a CIDR`,
      );
    }
  }
  return { hosts, list };
}

/**
 * RS-6: refuses private, loopback, link-local and other non-public targets unless allow-listed. DNS is resolved and
 * every address (IPv4 and IPv6) is checked; the caller connects only to the vetted addresses, so a second lookup
 * cannot swap in a private one (DNS rebinding).
 */
export function createSsrfGuard(options: SsrfGuardOptions = {}): SsrfGuard {
  const { hosts, list: allowed } = parseAllow(options.allow ?? []);
  const blocked = blockedList();
  const resolve = options.resolve ?? defaultResolve;

  function isBlocked(address: string, family: 4 | 6): boolean {
    const v4 = family === 6 ? embeddedV4(address) : address;
    if (v4 !== undefined && isIP(v4) === 4) {
      if (allowed.check(v4, 'ipv4') || (family === 6 && allowed.check(address, 'ipv6'))) return false;
      return blocked.check(v4, 'ipv4');
    }
    if (allowed.check(address, 'ipv6')) return false;
    return blocked.check(address, 'ipv6');
  }

  return {
    async check(url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new SsrfRefusedError(`refused ${url.protocol} URL: only http and https are allowed`, url.host);
      const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      const literal = isIP(host);
      const addresses: ResolvedAddress[] =
        literal === 0 ? await resolve(host) : [{ address: host, family: literal === 4 ? 4 : 6 }];
      if (addresses.length === 0) throw new SsrfRefusedError(`${host} resolves to no address`, host);
      if (literal === 0 && hosts.has(host)) return addresses;
      const refused = addresses.filter((a) => isBlocked(a.address, a.family));
      if (refused.length > 0) {
        throw new SsrfRefusedError(
          `refused ${host}: ${refused.map((a) => a.address).join(', ')} is private, loopback or link-local ` +
            'and not in SIGNALBOX_EXECUTOR_ALLOW_HOSTS',
          host,
        );
      }
      return addresses;
    },
  };
}
