// A small Messages API client: one POST, retried on 429/5xx/529 within the hook's deadline.
// undici is imported on first use so that firings without a model hook never pay for it.
import { setTimeout as sleep } from 'node:timers/promises';
import { type ModelConfig, redact } from './config.ts';
import type { ErrorBody, MessagesRequest, MessagesResponse } from './wire.ts';

export type CallResult = { ok: true; message: MessagesResponse } | { ok: false; error: string };

export interface CallOptions {
  /** Aborted on timeout or interruption; the caller tells the two apart. */
  signal: AbortSignal;
  /** Epoch ms after which no retry is started. */
  deadline: number;
}

const MAX_RETRIES = 4;
const MAX_DELAY_MS = 8000;

export async function createMessage(
  config: ModelConfig,
  body: MessagesRequest,
  options: CallOptions,
): Promise<CallResult> {
  const fail = (error: string): CallResult => ({ ok: false, error: redact(error, config.secrets) });
  const { request } = await import('undici');
  for (let attempt = 0; ; attempt++) {
    let status: number;
    let headers: Record<string, string | string[] | undefined>;
    let text: string;
    try {
      const response = await request(config.endpoint, {
        method: 'POST',
        headers: { ...config.headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: options.signal,
      });
      status = response.statusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (error) {
      if (options.signal.aborted) return fail('aborted');
      return fail(
        `cannot reach ${config.origin}: ${describeNetworkError(error)}; check ANTHROPIC_BASE_URL and the network`,
      );
    }
    if (status >= 200 && status < 300) return parseMessage(text, fail, config.secrets);
    const problem = parseError(text, config.secrets);
    const summary = `${status} ${problem.type}: ${problem.message}`;
    if (!isRetryable(status, headers) || attempt >= MAX_RETRIES) return fail(explain(status, summary, config));
    const delay = retryDelay(headers, attempt);
    if (Date.now() + delay >= options.deadline)
      return fail(`${summary} (not retried: the hook's timeout would pass first)`);
    try {
      await sleep(delay, undefined, { signal: options.signal });
    } catch {
      return fail('aborted');
    }
  }
}

function parseMessage(text: string, fail: (error: string) => CallResult, secrets: readonly string[]): CallResult {
  try {
    const message = JSON.parse(text) as MessagesResponse;
    if (message && typeof message === 'object' && Array.isArray(message.content)) return { ok: true, message };
  } catch {
    // fall through: same message as a wrong shape
  }
  return fail(`the response is not a Messages API message: ${clip(text, secrets)}`);
}

function parseError(text: string, secrets: readonly string[]): { type: string; message: string } {
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    if (body.type === 'error' && body.error)
      return { type: String(body.error.type), message: clip(String(body.error.message), secrets) };
  } catch {
    // not JSON: a proxy's HTML page, say
  }
  return { type: 'http_error', message: clip(text, secrets) || '(empty body)' };
}

function isRetryable(status: number, headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['x-should-retry'] === 'false') return false;
  return status === 429 || status >= 500;
}

/** `retry-after-ms` or `retry-after` (seconds or an HTTP date) when sent, else exponential backoff with jitter. */
function retryDelay(headers: Record<string, string | string[] | undefined>, attempt: number): number {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers['retry-after'];
  if (typeof after === 'string' && after.trim() !== '') {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  return Math.min(MAX_DELAY_MS, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.25);
}

/** Names the setting to fix for the errors a user can fix. */
function explain(status: number, summary: string, config: ModelConfig): string {
  const credentials = config.credentialVars.join(' and ') || 'ANTHROPIC_API_KEY (none is set)';
  if (status === 401) return `${summary}; check ${credentials}`;
  if (status === 403) return `${summary}; the credentials in ${credentials} may not use model "${config.model}"`;
  if (status === 404)
    return `${summary}; check the model "${config.model}" (from ${config.modelSource}) and ANTHROPIC_BASE_URL`;
  return summary;
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${code} (${error.message})` : error.message;
  }
  return String(error);
}

/** Secrets go before the cut: one across it would leave its first part behind. */
function clip(text: string, secrets: readonly string[]): string {
  const flat = redact(text, secrets).replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
