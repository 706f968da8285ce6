// `allowedHttpHookUrls` patterns (spec §11.2). `*` is the only wildcard and matches any run of characters,
// matched in linear time (the tested strings are URL serialisations, which hold no raw line breaks).
import { domainToASCII } from 'node:url';
import { globMatches } from '../match/glob.ts';

interface ParsedPattern {
  scheme: string;
  host: string;
  /** undefined: the URL must use its scheme's default port. */
  port?: string;
  /** '' (no path, no trailing slash): any path. Else a glob over path + query. */
  pathAndQuery: string;
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

function starGlobMatches(glob: string, text: string, ignoreCase = false): boolean {
  return globMatches(glob.split('*'), text, ignoreCase);
}

function stripTrailingDots(host: string): string {
  return host.replace(/\.+$/, '');
}

function normalizePatternHost(host: string): string | undefined {
  if (host.includes('*')) {
    if (host.startsWith('[')) return host.toLowerCase();
    const ascii = domainToASCII(host);
    return ascii === '' ? undefined : stripTrailingDots(ascii);
  }
  // No wildcard: the URL parser writes the host as it writes the hook URL's (IDN, IPv4 forms, IPv6).
  try {
    return stripTrailingDots(new URL(`http://${host}/`).hostname);
  } catch {
    return undefined;
  }
}

function splitAuthority(authority: string): { host: string; portPart: string } | undefined {
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    return end < 0 ? undefined : { host: authority.slice(0, end + 1), portPart: authority.slice(end + 1) };
  }
  const colon = authority.lastIndexOf(':');
  return colon < 0
    ? { host: authority, portPart: '' }
    : { host: authority.slice(0, colon), portPart: authority.slice(colon) };
}

function parsePattern(pattern: string): ParsedPattern | undefined {
  const match = /^([a-z*][a-z0-9+.*-]*):\/\/([^/?#]*)([^#]*)/i.exec(pattern);
  if (!match) return undefined;
  const [, scheme = '', authority = '', pathAndQuery = ''] = match;
  const split = authority.includes('@') ? undefined : splitAuthority(authority);
  if (!split || split.host === '' || !/^(:\d*|:\*)?$/.test(split.portPart)) return undefined;
  const host = normalizePatternHost(split.host);
  if (host === undefined) return undefined;
  // ':' alone means the default port, as in a URL; leading zeros do not change a port.
  const port = split.portPart.length > 1 ? split.portPart.slice(1).replace(/^0+(?=\d)/, '') : undefined;
  return { scheme: scheme.toLowerCase(), host, port, pathAndQuery };
}

function portMatches(pattern: ParsedPattern, url: URL, scheme: string): boolean {
  if (pattern.port === '*') return true;
  if (pattern.port === undefined) return url.port === '';
  return (url.port || DEFAULT_PORTS[scheme]) === pattern.port;
}

/** Whether the hook URL matches one `allowedHttpHookUrls` pattern. */
export function urlMatchesPattern(url: URL, pattern: string): boolean {
  if (pattern === '*') return true;
  const scheme = url.protocol.slice(0, -1);
  const parsed = parsePattern(pattern);
  if (!parsed) return starGlobMatches(pattern, `${scheme}://${url.hostname}${url.pathname}${url.search}`);
  return (
    starGlobMatches(parsed.scheme, scheme, true) &&
    starGlobMatches(parsed.host, stripTrailingDots(url.hostname), true) &&
    portMatches(parsed, url, scheme) &&
    (parsed.pathAndQuery === '' || starGlobMatches(parsed.pathAndQuery, `${url.pathname}${url.search}`))
  );
}

/** undefined: every URL allowed; []: none. */
export function isUrlAllowed(url: URL, patterns: readonly string[] | undefined): boolean {
  return patterns === undefined || patterns.some((pattern) => urlMatchesPattern(url, pattern));
}
