// opencode 1.18.33 run headless and offline: `opencode run --format json`, HOME and every XDG folder in the run
// folder, a provider in ~/.config/opencode/opencode.json that points the bundled @ai-sdk/openai-compatible at the
// fake Chat Completions API on 127.0.0.1, and every network feature it has a switch for turned off.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installAgent } from '../../../scripts/install-agent.ts';
import type { RecordedRequest } from '../../helpers/messages-api-server.ts';
import { type ChatTurn, type FakeChatApi, startChatApi } from '../../helpers/openai-chat-server.ts';
import { type AgentResult, periHooks, type RunFolder, runAgent } from './common.ts';

export const OPENCODE = installAgent('opencode');

/**
 * With a plugin present, opencode npm-installs @opencode-ai/plugin into each of its config folders (~70 s
 * offline before it gives up) unless the folder already has `node_modules` and a `package-lock.json` whose root
 * package depends on it: that state, written into the folders it scans.
 */
export function markPluginDependencyInstalled(folder: RunFolder): void {
  for (const dir of [
    join(folder.home, '.config/opencode'),
    join(folder.home, '.opencode'),
    join(folder.project, '.opencode'),
  ]) {
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { '@opencode-ai/plugin': '*' } }));
    writeFileSync(
      join(dir, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } }),
    );
  }
}

export interface OpencodeRun extends AgentResult {
  api: FakeChatApi;
  /** The agent's requests to the model (the title request left out), in order. */
  agentChats: RecordedRequest[];
  /** The `--format json` event lines. */
  events: Array<Record<string, any>>;
  /** Milliseconds the whole run took. */
  ms: number;
}

/**
 * Runs `opencode run` once against a fresh fake API; the model is `local/<model>`. opencode also asks the model
 * for a session title (a request without tools, at the same time as the first turn): that one is answered apart,
 * and `turns` and `agentChats` count only the agent's own requests.
 */
export async function runOpencode(
  folder: RunFolder,
  turns: readonly ChatTurn[],
  options: { model?: string; prompt?: string; timeoutMs?: number } = {},
): Promise<OpencodeRun> {
  const model = options.model ?? 'fake-model';
  const agentChats: RecordedRequest[] = [];
  const api = await startChatApi((request) => {
    if (!isAgentRequest(request)) return { text: 'Title' };
    return turns[agentChats.push(request) - 1] ?? { text: 'done' };
  }, model);
  try {
    folder.writeHome('.config/opencode/opencode.json', {
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: `local/${model}`,
      provider: {
        local: {
          npm: '@ai-sdk/openai-compatible',
          name: 'fake API',
          options: { baseURL: `${api.url}/v1`, apiKey: 'fake-key' },
          models: { [model]: { name: 'Fake model', tool_call: true } },
        },
      },
    });
    markPluginDependencyInstalled(folder);
    const env = {
      ...folder.env,
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      // Its built-in provider-auth plugins: none is needed against the fake API.
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    };
    const started = Date.now();
    const result = await runAgent(OPENCODE, ['run', '--format', 'json', options.prompt ?? 'Do the task.'], {
      cwd: folder.project,
      env,
      timeoutMs: options.timeoutMs ?? 300_000,
    });
    const events = result.stdout
      .split('\n')
      .filter((line) => line.trim().startsWith('{'))
      .map((line) => JSON.parse(line));
    return { ...result, api, agentChats, events, ms: Date.now() - started };
  } finally {
    await api.close();
  }
}

/** The agent's own turns offer tools; the title request offers none. */
function isAgentRequest(request: RecordedRequest): boolean {
  return Array.isArray(request.body?.tools) && request.body.tools.length > 0;
}

/** Writes a native opencode plugin (the same logic as a policy, in opencode's own form) into the project. */
export function nativePlugin(folder: RunFolder, source: string): void {
  folder.write('.opencode/plugins/native.js', source);
}

/** `peri-hooks install --host opencode` of a Claude Code policy (written into the run folder), as a user runs it. */
export async function installPolicy(
  folder: RunFolder,
  hooks: Record<string, unknown>,
  options: { failClosed?: boolean } = {},
): Promise<string> {
  const policy = join(folder.root, 'policy.json');
  writeFileSync(policy, JSON.stringify({ hooks }, null, 2));
  const result = await periHooks(
    [
      'install',
      '--host',
      'opencode',
      '--policy',
      policy,
      '--project-dir',
      folder.project,
      ...(options.failClosed ? ['--fail-closed'] : ['--fail-open']),
    ],
    { cwd: folder.project, env: folder.env },
  );
  if (result.code !== 0) throw new Error(`install --host opencode failed (${result.code}): ${result.stderr}`);
  return join(folder.project, '.opencode/plugins/peri-hooks.js');
}

/** What the model read as each tool's result, from the agent's request after the tool calls. */
export function toolResults(run: OpencodeRun): string[] {
  const messages: Array<{ role: string; content?: unknown }> = run.agentChats.at(-1)?.body?.messages ?? [];
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)));
}

/** The facts both registrations must agree on: tool results, exit status, number of agent requests. */
export function outcome(run: OpencodeRun): {
  toolResults: string[];
  code: number | null;
  agentRequests: number;
  timedOut: boolean;
} {
  return {
    toolResults: toolResults(run),
    code: run.code,
    agentRequests: run.agentChats.length,
    timedOut: run.timedOut,
  };
}
