// `type: "http"` hooks (spec §5.3, §11): POST the input JSON and turn the answer into the raw outcome a
// command hook would give (2xx body = stdout, exit 0), so one parser judges both. Never throws.
// undici and the SSRF guard are imported only here, when an http hook actually runs (start-up budget).

import { httpListsFor } from '../config/merge.ts';
import type { HttpHook } from '../config/schema.ts';
import type { PinnedAgentOptions } from '../net/pinned-dispatcher.ts';
import { isUrlAllowed } from '../net/url-allowlist.ts';
import { nowMs } from '../platform/clock.ts';
import { timerMs } from '../platform/timer.ts';
import { shownUrl } from '../text.ts';
import type { LoadedHook, RawOutcome, RunContext, Runner } from '../types.ts';
import { cancelledOutcome, errorOutcome, type Outcome, PASS } from './raw-outcome.ts';

/** Responses longer than this are not read further; the hook fails. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const ENV_REFERENCE = /\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)/g;
// Framing headers are undici's to write; Content-Type is always ours (§11.1).
const CONFIG_HEADERS_DROPPED = new Set(['content-length', 'transfer-encoding', 'content-type']);

type Finish = (outcome: Outcome) => RawOutcome;

/** Config headers with `$VAR`/`${VAR}` filled from allowed variables only. Warnings name variables, never values. */
function buildHeaders(
  handler: HttpHook,
  perSettings: string[] | undefined,
  ctx: RunContext,
  shown: string,
): Record<string, string> {
  const isAllowed = headerVariableAllowed(handler.allowedEnvVars, perSettings);
  const refused = new Set<string>();
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(handler.headers ?? {})) {
    if (CONFIG_HEADERS_DROPPED.has(name.toLowerCase())) continue;
    headers[name] = headerValue(template, ctx.env, isAllowed, refused);
  }
  const lists = perSettings === undefined ? 'allowedEnvVars' : 'both allowedEnvVars and httpHookAllowedEnvVars';
  for (const variable of refused) {
    ctx.warn(
      `HTTP hook ${shown}: header variable $${variable} is not listed in ${lists}; it was replaced by an empty string`,
    );
  }
  headers['content-type'] = 'application/json';
  return headers;
}

/** Whether Claude Code fills `$name` into a header: the hook's allowedEnvVars name it, and so does the settings' list where there is one. */
export function headerVariableAllowed(
  perHook: readonly string[] | undefined,
  perSettings: readonly string[] | undefined,
): (name: string) => boolean {
  const hookList = new Set(perHook);
  return (name) => hookList.has(name) && (perSettings === undefined || perSettings.includes(name));
}

/** One config header's value as Claude Code sends it: allowed variables filled in, others (added to `refused`) empty. */
export function headerValue(
  template: string,
  env: Record<string, string | undefined>,
  isAllowed: (name: string) => boolean,
  refused: Set<string>,
): string {
  const value = template.replace(ENV_REFERENCE, (_match, braced: string | undefined, bare: string | undefined) => {
    const variable = braced ?? bare ?? '';
    if (isAllowed(variable)) return env[variable] ?? '';
    refused.add(variable);
    return '';
  });
  return value.replace(/[\r\n\0]/g, '');
}

/**
 * A user name in the URL is sent as Basic credentials, as Claude Code's HTTP client (axios) does: as written in
 * the URL (percent-encoded), and in place of a configured Authorization header. undici alone would drop it.
 */
function withUrlCredentials(headers: Record<string, string>, url: URL): Record<string, string> {
  if (url.username === '') return headers;
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
  return { ...kept, authorization: `Basic ${Buffer.from(`${url.username}:${url.password}`).toString('base64')}` };
}

/** The body as text, or undefined when it is longer than `limit` bytes (reading stops there). */
async function readBounded(body: AsyncIterable<Buffer>, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) return undefined; // leaving the loop destroys the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** peri-hooks itself was stopped: cancelled like a timeout, with a message that says why. */
function interrupted(shown: string): string {
  return `HTTP hook ${shown} cancelled: peri-hooks was interrupted`;
}

/** Every error in a cause chain (and inside AggregateErrors), outermost first. */
function errorChain(error: unknown): Error[] {
  if (!(error instanceof Error)) return [];
  const nested = error instanceof AggregateError ? error.errors.flatMap(errorChain) : [];
  return [error, ...nested, ...errorChain(error.cause)];
}

function describeCause(error: unknown): string {
  const parts = errorChain(error)
    .map((e) => {
      const code = (e as NodeJS.ErrnoException).code;
      return code && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
    })
    .filter((text) => text !== '');
  return [...new Set(parts)].join(': ') || String(error);
}

async function post(
  url: URL,
  shown: string,
  headers: Record<string, string>,
  ctx: RunContext,
  seams: PinnedAgentOptions,
  finish: Finish,
): Promise<RawOutcome> {
  const [undici, pinned, ssrf] = await Promise.all([
    import('undici'),
    import('../net/pinned-dispatcher.ts'),
    import('../net/ssrf.ts'),
  ]);
  const agent = pinned.createPinnedAgent(undici, seams);
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timerMs(ctx.timeoutMs));
  const signal = AbortSignal.any([ctx.signal, timer.signal]);
  try {
    const response = await undici.request(url, {
      method: 'POST',
      headers,
      body: ctx.inputJson,
      dispatcher: agent,
      signal,
    });
    const status = response.statusCode;
    // Redirects are not followed: a 3xx is just another non-2xx answer.
    if (status < 200 || status > 299) return finish(errorOutcome(`HTTP ${status} from ${shown}`));
    const text = await readBounded(response.body, MAX_BODY_BYTES);
    if (text === undefined)
      return finish(
        errorOutcome(`HTTP hook response from ${shown} exceeded ${MAX_BODY_BYTES} bytes; reading stopped there`),
      );
    if (text.trim() === '') return finish({ ...PASS, stdout: '{}' });
    if (text.trim().startsWith('{')) return finish({ ...PASS, stdout: text });
    const contentType = response.headers['content-type'] ?? 'no content type';
    return finish(errorOutcome(`HTTP hook must return JSON: ${shown} answered ${status} with ${String(contentType)}`));
  } catch (error) {
    if (ctx.signal.aborted) return finish(cancelledOutcome(interrupted(shown)));
    if (signal.aborted) return finish(cancelledOutcome());
    const blocked = errorChain(error).find((e) => e instanceof ssrf.SsrfBlockedError);
    return finish(
      errorOutcome(blocked ? blocked.message : `HTTP hook request to ${shown} failed: ${describeCause(error)}`),
    );
  } finally {
    clearTimeout(timeout);
    await agent.destroy().catch(() => undefined);
  }
}

async function run(hook: LoadedHook, ctx: RunContext, seams: PinnedAgentOptions, finish: Finish): Promise<RawOutcome> {
  const handler = hook.handler;
  if (handler.type !== 'http') return finish(errorOutcome(`not an http hook: ${hook.id}`));
  let url: URL;
  try {
    url = new URL(handler.url);
  } catch {
    return finish(errorOutcome(`HTTP hook URL is not a valid URL: ${hook.id}`));
  }
  const shown = shownUrl(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return finish(errorOutcome(`HTTP hook URL must use http or https: ${shown}`));
  const lists = httpListsFor(hook.provenance.layer, ctx.settings);
  if (!isUrlAllowed(url, lists.urls))
    return finish(errorOutcome(`HTTP hook blocked: ${shown} does not match any pattern in allowedHttpHookUrls`));
  if (ctx.signal.aborted) return finish(cancelledOutcome(interrupted(shown)));
  return post(
    url,
    shown,
    withUrlCredentials(buildHeaders(handler, lists.envVars, ctx, shown), url),
    ctx,
    seams,
    finish,
  );
}

/** A runner with its network seams (resolver, socket connector) replaced; tests use it, the pipeline does not. */
export function createHttpRunner(seams: PinnedAgentOptions = {}): Runner {
  return async (hook, ctx) => {
    const started = nowMs();
    const finish: Finish = (outcome) => ({ ...outcome, durationMs: Math.round(nowMs() - started) });
    try {
      return await run(hook, ctx, seams, finish);
    } catch (error) {
      return finish(
        errorOutcome(`HTTP hook ${hook.id} failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  };
}

export const runHttpHook: Runner = createHttpRunner();
