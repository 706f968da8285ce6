// Where and how to reach the Messages API, from the hook's environment (never process.env).

/** Haiku-class: fast and cheap, which is what a yes/no judge on every tool call needs. */
export const DEFAULT_MODEL = 'claude-haiku-4-5';
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const API_VERSION = '2023-06-01';

export interface ModelConfig {
  endpoint: string;
  /** Scheme, host and port only: safe to print (no path, no userinfo). */
  origin: string;
  headers: Record<string, string>;
  /** The variables the credentials came from, named in 401/403 messages. */
  credentialVars: string[];
  model: string;
  /** Where `model` came from, named in 404 messages. */
  modelSource: string;
  /** Values that must never appear in any output. */
  secrets: string[];
}

export type Env = Record<string, string | undefined>;

export function resolveModelConfig(env: Env, hookModel: string | undefined): ModelConfig | { error: string } {
  const base = env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return { error: 'ANTHROPIC_BASE_URL is not a valid URL; set it to e.g. https://api.anthropic.com' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: `ANTHROPIC_BASE_URL must be an http(s) URL, not ${url.protocol}` };
  }
  const headers: Record<string, string> = { 'anthropic-version': API_VERSION };
  const credentialVars: string[] = [];
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  const authToken = env.ANTHROPIC_AUTH_TOKEN?.trim();
  if (apiKey) {
    headers['x-api-key'] = apiKey;
    credentialVars.push('ANTHROPIC_API_KEY');
  }
  if (authToken) {
    headers.authorization = `Bearer ${authToken}`;
    credentialVars.push('ANTHROPIC_AUTH_TOKEN');
  }
  // A gateway may need no key; the public API always does, so say so before sending anything.
  if (credentialVars.length === 0 && base === DEFAULT_BASE_URL) {
    return { error: 'no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token)' };
  }
  const [model, modelSource] = hookModel?.trim()
    ? [hookModel.trim(), `the hook's "model" field`]
    : env.PERI_HOOKS_MODEL?.trim()
      ? [env.PERI_HOOKS_MODEL.trim(), 'PERI_HOOKS_MODEL']
      : [DEFAULT_MODEL, 'the default; set PERI_HOOKS_MODEL to change it'];
  return {
    endpoint: `${url.origin}${url.pathname.replace(/\/+$/, '')}/v1/messages`,
    origin: url.origin,
    headers,
    credentialVars,
    model,
    modelSource,
    secrets: [apiKey, authToken].filter((value): value is string => Boolean(value)),
  };
}

/** Replaces every secret in `text`, longest first (one may contain another); a gateway may echo a key back in an error message. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret.length > 0) out = out.split(secret).join('[redacted]');
  return out;
}
