// GitHub Copilot CLI run for real, headless and offline: BYOK mode against the fake Chat Completions API on
// 127.0.0.1, `copilot -p` with every tool allowed and the folder trusted for this run (`--trust-folder`, without
// which Copilot does not load `.github/hooks/`). One run = one fresh run folder, one fake model, one agent process.
import { join } from 'node:path';
import { agentCache, installAgent } from '../../../scripts/install-agent.ts';
import { type ChatScript, chatTexts, type FakeChatApi, startChatApi } from '../../helpers/openai-chat-server.ts';
import { type AgentResult, periHooks, type RunFolder, runAgent } from './common.ts';

export const MODEL = 'fake-model';

export interface CopilotRun {
  result: AgentResult;
  api: FakeChatApi;
  /** Every text the model was sent in its last request. */
  lastSeen: string;
  /** Every text the model was sent, in every request. */
  allSeen: string;
}

/** The native registration: `.github/hooks/<name>.json`, Copilot's own format (`{version, hooks: {<event>: [handler]}}`). */
export function nativeHooks(
  folder: RunFolder,
  hooks: Record<string, Array<Record<string, unknown>>>,
  name = 'native',
): void {
  folder.write(`.github/hooks/${name}.json`, { version: 1, hooks });
}

/** One Copilot handler running a script (Copilot's `bash` key, its timeout in seconds). */
export function handler(script: string, timeoutSec?: number): Record<string, unknown> {
  return { type: 'command', bash: script, ...(timeoutSec !== undefined ? { timeoutSec } : {}) };
}

/** The same logic as a Claude Code policy, registered as a user would: `peri-hooks install --host copilot`. */
export async function installPolicy(
  folder: RunFolder,
  policy: { hooks: Record<string, unknown> },
  args: string[] = [],
): Promise<AgentResult> {
  const file = folder.write('policy.json', policy);
  // The policy as the agent's own hooks would act, unless the case asks for --fail-closed (install's default).
  const open = args.includes('--fail-closed') ? [] : ['--fail-open'];
  // The project named: found from the cwd, a .claude/ or .git that another process leaves in /tmp would win.
  const project = ['--project-dir', folder.project];
  const installed = await periHooks(['install', '--host', 'copilot', '--policy', file, ...project, ...open, ...args], {
    cwd: folder.project,
    env: folder.env,
  });
  if (installed.code !== 0) throw new Error(`install --host copilot failed (${installed.code}): ${installed.stderr}`);
  return installed;
}

export async function runCopilot(
  folder: RunFolder,
  script: ChatScript,
  prompt: string,
  options: { args?: string[]; timeoutMs?: number; allowAllTools?: boolean; trustFolder?: boolean } = {},
): Promise<CopilotRun> {
  const command = installAgent('copilot');
  const api = await startChatApi(script, MODEL);
  try {
    const env = {
      ...folder.env,
      COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'test-key',
      COPILOT_MODEL: MODEL,
      COPILOT_OFFLINE: 'true',
      // The unpacked package (235 MB) once per version, not once per run folder.
      COPILOT_PKG_CACHE_HOME: join(agentCache('copilot'), 'pkg'),
    };
    const args = [
      '-p',
      prompt,
      ...(options.allowAllTools === false ? [] : ['--allow-all-tools']),
      ...(options.trustFolder === false ? [] : ['--trust-folder']),
      '--disable-client-telemetry',
      '--no-auto-update',
      ...(options.args ?? []),
    ];
    const result = await runAgent(command, args, { cwd: folder.project, env, timeoutMs: options.timeoutMs ?? 120_000 });
    const last = api.chats.at(-1);
    return {
      result,
      api,
      lastSeen: last ? chatTexts(last).join('\n') : '',
      allSeen: api.chats.map((chat) => chatTexts(chat).join('\n')).join('\n'),
    };
  } finally {
    await api.close();
  }
}
