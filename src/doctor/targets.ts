// What each http, prompt, agent and mcp_tool hook of the policy would reach, checked without calling it: the
// URL allowlist and the SSRF guard (a DNS lookup, no connection) for http hooks, the model client's
// configuration for prompt and agent hooks, where the MCP configuration defines an mcp_tool hook's server.
import { lookup } from 'node:dns/promises';
import type { LoadedSettings } from '../config/index.ts';
import type { ServerOrigin } from '../config/mcp/origins.ts';
import { httpListsFor } from '../config/merge.ts';
import { labelOf } from '../hook-label.ts';
import { resolveModelConfig } from '../llm/config.ts';
import { resolveChecked } from '../net/pinned-dispatcher.ts';
import { SsrfBlockedError } from '../net/ssrf.ts';
import { isUrlAllowed } from '../net/url-allowlist.ts';
import { shownUrl } from '../text.ts';
import type { EffectiveSettings, LoadedHook } from '../types.ts';
import { type Check, check } from './check.ts';

const DNS_TIMEOUT_MS = 5000;

export async function targetChecks(
  { hooks, settings, mcpServers }: Pick<LoadedSettings, 'hooks' | 'settings' | 'mcpServers'>,
  env: Record<string, string | undefined>,
): Promise<Check[]> {
  const servers = hooks.flatMap((hook) => (hook.handler.type === 'mcp_tool' ? [hook.handler.server] : []));
  const origins =
    servers.length > 0 ? (await import('../config/mcp/origins.ts')).serverOrigins(servers, await mcpServers()) : [];
  return Promise.all(
    hooks.filter((hook) => hook.handler.type !== 'command').map((hook) => targetCheck(hook, settings, env, origins)),
  );
}

async function targetCheck(
  hook: LoadedHook,
  settings: EffectiveSettings,
  env: Record<string, string | undefined>,
  origins: readonly ServerOrigin[],
): Promise<Check> {
  const { handler } = hook;
  const title = `${hook.event} ${handler.type} hook`;
  const fail = (detail: string, fix?: string) => check('target', 'fail', title, detail, fix);
  if (handler.type === 'mcp_tool') {
    const origin = origins.find((each) => each.server === handler.server)!;
    if ('missing' in origin)
      return fail(`${labelOf(hook)}: ${origin.missing}, so this hook fails at every firing`, origin.fix);
    return check(
      'target',
      'pass',
      title,
      `${labelOf(hook)}: ${origin.transport} ${origin.target}, from the ${origin.scope} scope (${origin.file}#${origin.pointer}); not started here`,
    );
  }
  if (handler.type === 'prompt' || handler.type === 'agent') {
    const model = resolveModelConfig(env, handler.model);
    if ('error' in model) return fail(`${labelOf(hook)}: ${model.error} (in this environment)`);
    return check('target', 'pass', title, `the Messages API at ${model.origin}, model ${model.model}`);
  }
  if (handler.type !== 'http') return fail(`unknown hook type of ${hook.id}`);
  const url = new URL(handler.url);
  const shown = shownUrl(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return fail(`${shown}: an http hook URL must use http or https`);
  if (!isUrlAllowed(url, httpListsFor(hook.provenance.layer, settings).urls))
    return fail(
      `${shown} does not match any pattern in allowedHttpHookUrls`,
      'add a pattern for it to allowedHttpHookUrls in the policy, or fix the URL',
    );
  try {
    const answers = await withTimeout(
      resolveChecked(url.hostname, (host) => lookup(host, { all: true, order: 'verbatim' })),
    );
    return check(
      'target',
      'pass',
      title,
      `${shown}: allowed, ${url.hostname} resolves to ${answers.map((answer) => answer.address).join(', ')}`,
    );
  } catch (error) {
    if (error instanceof SsrfBlockedError)
      return fail(error.message, 'point the hook at a public address, or at loopback for a local service');
    return check(
      'target',
      'warn',
      title,
      `${shown}: ${url.hostname} cannot be resolved from here (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the SSRF guard checks it again at every call`,
    );
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${DNS_TIMEOUT_MS / 1000} s`)), DNS_TIMEOUT_MS);
    timer.unref();
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
