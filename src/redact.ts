// The one set of rules by which peri-hooks keeps secrets out of what it writes down (recorded cases, the audit
// log): URL credentials become `***`, and the values of the model API's credentials, of environment variables
// whose names say they hold a secret, and of well-known token shapes become `[redacted]`.
import { redact, resolveModelConfig } from './llm/config.ts';
import { shownUrl } from './text.ts';

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH/i;
/** Values shorter than this are too likely to stand in ordinary text to be replaced everywhere. */
const MIN_SECRET_LENGTH = 8;
/** Token shapes that are secrets wherever they appear, and `name=value` / `Bearer value` where the name says so. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\b(?:sk|rk|pk)-[A-Za-z0-9_-]{16,}/g,
  /\bgh[opusr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];
const NAMED_VALUE =
  /\b([A-Za-z0-9_-]*(?:token|secret|password|passwd|api[_-]?key|auth)[A-Za-z0-9_-]*)(\s*[=:]\s*)(["']?)([^\s"']+)\3/gi;
const BEARER = /\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/** The secrets of this environment whose values are replaced wherever they appear. */
export function secretsOf(env: Record<string, string | undefined>): string[] {
  const config = resolveModelConfig(env, undefined);
  const model = 'secrets' in config ? config.secrets : [];
  const named = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= MIN_SECRET_LENGTH)
    .map(([, value]) => value as string);
  return [...new Set([...model, ...named])];
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = redact(
    text.replace(URL_IN_TEXT, (url) => shownUrl(url)),
    secrets,
  );
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, '[redacted]');
  out = out.replace(
    NAMED_VALUE,
    (_match, name: string, separator: string, quote: string) => `${name}${separator}${quote}[redacted]${quote}`,
  );
  return out.replace(BEARER, (match) => `${match.split(/\s+/)[0]} [redacted]`);
}

/** Every string inside `value`, redacted. */
export function redactStrings(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, secrets));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, secrets)]));
  return value;
}
