import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
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
   * Allow-list entries, each a host AND a port: a host name (exact, case-insensitive), an IP address or a CIDR range,
   * then `:<port>` or `:*` (any port): `demo-tools:8090`, `127.0.0.1:8088`, `10.20.0.0/16:443`, `[fd00::1]:8443`,
   * `[fd00::]/8:9000`. An entry without a port allows only the URL scheme's default port (80 for http, 443 for
   * https), so allow-listing a host for one tool never opens its other ports (a database on 5432, an admin port).
   * An unbracketed IPv6 address or range (`fd00::/8`) takes no port: it means the default port. A listed host name
   * is allowed (on its port) whatever it resolves to; otherwise every address must be public or inside a listed
   * address/range whose port matches. @default []
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

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

const cidr = (text: string): Range => ipaddr.parseCIDR(text);

// Private, loopback, link-local and otherwise non-public ranges. A target in any of them can reach the executor's own
// network (metadata endpoints, databases, admin ports), so it needs an explicit allow-list entry. On top of these,
// every address ipaddr.js does not classify as plain `unicast` is refused (its list of special-purpose ranges).
const BLOCKED_V4: Range[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map(cidr);
const BLOCKED_V6: Range[] = [
  '::/128',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
  '2001:db8::/32',
  '100::/64',
  // RFC 8215 local-use NAT64: the embedded IPv4 address sits where the operator's prefix length puts it, so it
  // cannot be read back reliably — and a local-use prefix is never a public destination.
  '64:ff9b:1::/48',
].map(cidr);

// IPv6 forms that carry an IPv4 address; each is judged by the class of the address it embeds.
const MAPPED = cidr('::ffff:0:0/96'); // IPv4-mapped (RFC 4291)
const TRANSLATED = cidr('::ffff:0:0:0/96'); // IPv4-translated (RFC 6145)
const COMPATIBLE = cidr('::/96'); // IPv4-compatible, deprecated (RFC 4291)
const NAT64 = cidr('64:ff9b::/96'); // NAT64 well-known prefix (RFC 6052)
const SIX_TO_FOUR = cidr('2002::/16'); // 6to4 (RFC 3056): the IPv4 address in bits 16–47
const TEREDO = cidr('2001::/32'); // Teredo (RFC 4380): the client's IPv4 address, inverted, in the last 32 bits

function v4Of(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** The IPv4 address an IPv6 address embeds (mapped, translated, compatible, NAT64, 6to4, Teredo), if any. */
export function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const at = (i: number) => p[i] ?? 0;
  if (address.match(MAPPED) || address.match(TRANSLATED) || address.match(COMPATIBLE) || address.match(NAT64))
    return v4Of(at(6), at(7));
  if (address.match(SIX_TO_FOUR)) return v4Of(at(1), at(2));
  if (address.match(TEREDO)) return v4Of(at(6) ^ 0xffff, at(7) ^ 0xffff);
  return undefined;
}

/** Parses an address as the resolver or the URL gives it; undefined when it is not one (refused). */
function parseAddress(text: string): Address | undefined {
  const bare = text.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return undefined;
  try {
    return family === 4 ? ipaddr.IPv4.parse(bare) : ipaddr.IPv6.parse(bare);
  } catch {
    return undefined;
  }
}

function inAny(address: Address, ranges: readonly Range[]): boolean {
  return ranges.some(([net, bits]) => net.kind() === address.kind() && address.match(net, bits));
}

/** True when the address is private, loopback, link-local or otherwise not a public destination. */
export function isRefusedAddress(address: Address): boolean {
  if (address instanceof ipaddr.IPv4) return inAny(address, BLOCKED_V4) || address.range() !== 'unicast';
  if (inAny(address, BLOCKED_V6)) return true;
  const v4 = embeddedV4(address);
  if (v4) return isRefusedAddress(v4);
  return address.range() !== 'unicast';
}

/** `*` (any port), `default` (the URL scheme's default port) or one port. */
type AllowedPort = number | '*' | 'default';

type AllowEntry = { port: AllowedPort } & ({ host: string } | { range: Range });

const defaultPort = (url: URL): number => (url.protocol === 'https:' ? 443 : 80);
const portOf = (url: URL): number => (url.port ? Number(url.port) : defaultPort(url));

function portAllows(allowed: AllowedPort, url: URL): boolean {
  if (allowed === '*') return true;
  return portOf(url) === (allowed === 'default' ? defaultPort(url) : allowed);
}

/** Parses one allow-list entry; throws {@link ExecutorConfigError} naming a malformed one. */
function parseAllowEntry(raw: string): AllowEntry {
  const entry = raw.trim().toLowerCase();
  const bad = (why: string) => new ExecutorConfigError(`SSRF allow-list entry "${raw}" ${why}`);
  let target: string;
  let portText: string | undefined;
  if (entry.startsWith('[')) {
    // [v6], [v6]:port, [v6]/len, [v6]/len:port, [v6/len]:port
    const close = entry.indexOf(']');
    if (close < 0) throw bad('has an unclosed [');
    const after = /^(\/\d+)?(?::(.*))?$/.exec(entry.slice(close + 1));
    if (!after) throw bad('is not [IPv6], [IPv6]:port or [IPv6]/prefix:port');
    target = entry.slice(1, close) + (after[1] ?? '');
    portText = after[2];
    if (isIP(target.split('/')[0] ?? '') !== 6) throw bad('has no IPv6 address inside [ ]');
  } else if ((entry.match(/:/g) ?? []).length > 1) {
    // An unbracketed IPv6 address or range: no port can follow it unambiguously.
    target = entry;
  } else {
    const colon = entry.lastIndexOf(':');
    target = colon < 0 ? entry : entry.slice(0, colon);
    portText = colon < 0 ? undefined : entry.slice(colon + 1);
  }
  let port: AllowedPort = 'default';
  if (portText !== undefined) {
    const n = Number(portText);
    if (portText === '*') port = '*';
    else if (/^\d+$/.test(portText) && n >= 1 && n <= 65535) port = n;
    else throw bad(`has an invalid port "${portText}" (1–65535 or *)`);
  }
  const [net, prefixText] = target.split('/');
  const family = isIP(net ?? '');
  if (prefixText !== undefined) {
    const prefix = Number(prefixText);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || !/^\d+$/.test(prefixText) || prefix > max) throw bad('is not a valid CIDR range');
    return { range: cidr(`${net ?? ''}/${prefixText}`), port };
  }
  if (family !== 0) {
    const address = parseAddress(target);
    if (!address) throw bad('is not a valid IP address');
    return { range: [address, family === 4 ? 32 : 128], port };
  }
  if (/^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/.test(target)) return { host: target, port };
  throw bad('is neither a host name, an IP nor a CIDR (each optionally followed by :port)');
}

const defaultResolve: HostResolver = async (host) => {
  const found = await dnsLookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * RS-6: refuses private, loopback, link-local and other non-public targets unless allow-listed for the URL's port.
 * DNS is resolved and every address (IPv4 and IPv6) is checked; an IPv6 address that embeds an IPv4 one
 * (IPv4-mapped/-translated/-compatible, NAT64, 6to4, Teredo) is judged by the IPv4 address it embeds. The caller
 * connects only to the vetted addresses, so a second lookup cannot swap in a private one (DNS rebinding).
 */
export function createSsrfGuard(options: SsrfGuardOptions = {}): SsrfGuard {
  const entries = (options.allow ?? []).filter((e) => e.trim()).map(parseAllowEntry);
  const hostEntries = entries.filter((e): e is AllowEntry & { host: string } => 'host' in e);
  const rangeEntries = entries.filter((e): e is AllowEntry & { range: Range } => 'range' in e);
  const resolve = options.resolve ?? defaultResolve;

  function allowed(address: Address, url: URL): boolean {
    // An IPv4-mapped address is the IPv4 host itself, so an entry for the IPv4 address covers it. The other
    // embedding forms go through a relay or translator elsewhere: they need an entry of their own.
    const alias = address instanceof ipaddr.IPv6 && address.match(MAPPED) ? embeddedV4(address) : undefined;
    return rangeEntries.some(
      (e) => portAllows(e.port, url) && (inAny(address, [e.range]) || (alias && inAny(alias, [e.range]))),
    );
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
      if (literal === 0 && hostEntries.some((e) => e.host === host && portAllows(e.port, url)))
        return addresses;
      const refused = addresses.filter((a) => {
        const address = parseAddress(a.address);
        return !address || (isRefusedAddress(address) && !allowed(address, url));
      });
      if (refused.length > 0) {
        const port = String(portOf(url));
        throw new SsrfRefusedError(
          `refused ${host} port ${port}: ${refused.map((a) => a.address).join(', ')} is private, loopback or ` +
            `link-local and not in SIGNALBOX_EXECUTOR_ALLOW_HOSTS for port ${port}`,
          host,
        );
      }
      return addresses;
    },
  };
}
