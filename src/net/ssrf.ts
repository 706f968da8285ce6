// SSRF guard of http hooks (spec §11.4): which addresses and host names a hook may reach.
// Allow-list logic: only loopback and global unicast pass; every other range is refused by name,
// so a range nobody thought of is refused rather than reached.

import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AddressVerdict {
  allowed: boolean;
  /** `loopback` or `unicast` when allowed, else the refused range, e.g. `private`, `metadata`. */
  range: string;
  /** Set when the address is IPv6 carrying an IPv4 address that was judged instead. */
  embedded?: { ipv4: string; form: string };
}

const METADATA_ADDRESSES = new Set(
  [
    '169.254.169.254',
    '100.100.100.200',
    '168.63.129.16',
    '192.0.0.192',
    'fd00:ec2::254',
    'fd00:ec2::23',
    'fd20:ce::254',
    'fd00:c1::a9fe:a9fe',
    'fd00:a9fe:a9fe::1',
  ].map((a) => ipaddr.parse(a).toNormalizedString()),
);

const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Our names for ipaddr.js ranges where they differ from its own (snake_case of the rest). */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'this_network',
  carrierGradeNat: 'carrier_nat',
  rfc6052: 'nat64',
  rfc6145: 'ipv4_translated',
};

function rangeName(ipaddrRange: string): string {
  return RANGE_NAMES[ipaddrRange] ?? ipaddrRange.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Lower case, no brackets, no trailing dots: the form names and literals are compared in. */
export function normalizeHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.+$/, '');
}

export function isMetadataHostName(host: string): boolean {
  const name = normalizeHost(host);
  return METADATA_NAMES.has(name) || /^instance-data\..+\.compute\.internal$/.test(name);
}

function judgeIPv4(address: ipaddr.IPv4): AddressVerdict {
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) return { allowed: false, range: 'metadata' };
  const range = address.range();
  if (range === 'loopback' || range === 'unicast') return { allowed: true, range };
  return { allowed: false, range: rangeName(range) };
}

function ipv4From(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** Every IPv4 address the IPv6 address may lead to, with the form that carries it. */
function embeddedIPv4(p: number[]): { ipv4: ipaddr.IPv4; form: string }[] {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = p as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => p.slice(0, n).every((x) => x === 0);
  const found: { ipv4: ipaddr.IPv4; form: string }[] = [];
  if (zeroTo(5) && p5 === 0xffff) found.push({ ipv4: ipv4From(p6, p7), form: 'ipv4_mapped' });
  if (zeroTo(4) && p4 === 0xffff && p5 === 0) found.push({ ipv4: ipv4From(p6, p7), form: 'ipv4_translated' });
  if (zeroTo(6)) found.push({ ipv4: ipv4From(p6, p7), form: 'ipv4_compatible' });
  if (p0 === 0x64 && p1 === 0xff9b && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0)
    found.push({ ipv4: ipv4From(p6, p7), form: 'nat64' });
  if (p0 === 0x2002) found.push({ ipv4: ipv4From(p1, p2), form: '6to4' });
  // ISATAP interface id: 0000:5efe or 0200:5efe (u/g bits may vary) followed by the IPv4 address, any prefix.
  if ((p4 & 0xfcff) === 0 && p5 === 0x5efe) found.push({ ipv4: ipv4From(p6, p7), form: 'isatap' });
  return found;
}

function judgeIPv6(address: ipaddr.IPv6): AddressVerdict {
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) return { allowed: false, range: 'metadata' };
  const parts = address.parts;
  if (parts.every((x) => x === 0)) return { allowed: false, range: 'unspecified' };
  if (parts.slice(0, 7).every((x) => x === 0) && parts[7] === 1) return { allowed: true, range: 'loopback' };
  const embedded = embeddedIPv4(parts).map((e) => ({
    ...judgeIPv4(e.ipv4),
    embedded: { ipv4: e.ipv4.toString(), form: e.form },
  }));
  // Several readings (e.g. 6to4 with an ISATAP id): all must pass, the first refusal is reported.
  const verdict = embedded.find((v) => !v.allowed) ?? embedded[0];
  if (verdict) return verdict;
  const range = address.range();
  // Global unicast is 2000::/3 only; ipaddr.js calls everything it has no name for "unicast".
  if (range === 'unicast')
    return (parts[0]! & 0xe000) === 0x2000 ? { allowed: true, range } : { allowed: false, range: 'reserved' };
  return { allowed: false, range: rangeName(range) };
}

/** Judges one IP address in Node's textual form; anything net.isIP rejects is refused as `invalid`. */
export function judgeAddress(address: string): AddressVerdict {
  const bare = normalizeHost(address);
  if (isIP(bare) === 0) return { allowed: false, range: 'invalid' };
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === 'ipv4' ? judgeIPv4(parsed as ipaddr.IPv4) : judgeIPv6(parsed as ipaddr.IPv6);
}

const LOOPBACK_NOTE = 'Loopback (127.0.0.1, ::1) is allowed for local dev.';

/** A refused host or address. Its message is the one the hook's outcome carries. */
export class SsrfBlockedError extends Error {
  readonly host: string;
  readonly address: string | undefined;
  readonly range: string;

  constructor(host: string, address: string | undefined, verdict: Pick<AddressVerdict, 'range' | 'embedded'>) {
    const why = verdict.embedded
      ? `${verdict.range}: IPv4 ${verdict.embedded.ipv4} in ${verdict.embedded.form}`
      : verdict.range;
    super(
      address === undefined
        ? `HTTP hook blocked: ${host} is a cloud metadata host name (${why}). ${LOOPBACK_NOTE}`
        : `HTTP hook blocked: ${host} resolves to ${address} (${why}). ${LOOPBACK_NOTE}`,
    );
    this.name = 'SsrfBlockedError';
    this.host = host;
    this.address = address;
    this.range = verdict.range;
  }
}

/** Throws SsrfBlockedError when `address` (an answer for `host`) may not be reached. */
export function assertAddressAllowed(host: string, address: string): void {
  const verdict = judgeAddress(address);
  if (!verdict.allowed) throw new SsrfBlockedError(host, address, verdict);
}

/** Checks what can be judged before any DNS query: a literal IP host, or a metadata host name. */
export function assertHostAllowed(host: string): void {
  const bare = normalizeHost(host);
  if (isIP(bare) !== 0) assertAddressAllowed(host, bare);
  else if (isMetadataHostName(host)) throw new SsrfBlockedError(host, undefined, { range: 'metadata' });
}
