// The real Qwen Code, headless and offline: `qwen -p <prompt> --approval-mode yolo` in a run folder, its OpenAI
// provider chosen by environment alone (OPENAI_API_KEY + OPENAI_MODEL + OPENAI_BASE_URL make the auth type
// "openai", getAuthTypeFromEnv in the package) and pointed at a fake Chat Completions API on 127.0.0.1. Hooks are
// registered either natively in `.qwen/settings.json` or as a Claude Code policy through
// `peri-hooks install --host qwen`, the registration a user gets.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installAgent } from '../../../scripts/install-agent.ts';
import type { RecordedRequest } from '../../helpers/messages-api-server.ts';
import { type ChatTurn, startChatApi } from '../../helpers/openai-chat-server.ts';
import { type AgentResult, periHooks, type RunFolder, runAgent, runFolder } from './common.ts';

export const PROMPT = 'Do the task.';

/** Hook groups per event, in Claude Code's nested shape (Qwen's is the same). */
export type Groups = Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;

export interface QwenCase {
  /** The model's answers to the main loop's requests, in order; past the end it answers "DONE". */
  turns: readonly ChatTurn[];
  /** Hooks for the native run (Qwen's tool names in matchers, timeouts in ms). */
  native?: Groups;
  /** The same logic as a Claude Code policy (Claude Code's tool names, timeouts in s), installed by peri-hooks. */
  policy?: Groups;
  failClosed?: boolean;
  env?: Record<string, string>;
}

export interface QwenRun {
  folder: RunFolder;
  result: AgentResult;
  /** Requests of the agent's main loop (its own system prompt and tools). */
  main: RecordedRequest[];
  /** Any other request (0.24.4: its managed memory extraction after a turn), answered apart so it cannot shift the script. */
  side: RecordedRequest[];
  /** What install printed, for the peri-hooks run. */
  install?: AgentResult;
}

const folders: RunFolder[] = [];
/** Removes every run folder of this process's runs (their processes are gone: runAgent kills each group). */
export function cleanupRuns(): void {
  for (const folder of folders.splice(0)) folder.cleanup();
}

let command: string | undefined;
/** The pinned Qwen Code, installed into its cache on first use. */
export function qwenCommand(): string {
  command ??= installAgent('qwen');
  return command;
}

/**
 * A main-loop request carries Qwen Code's own system prompt and no side agent's instructions (its memory
 * extraction is a fork of the conversation); anything else is a side request.
 */
export function isMain(request: RecordedRequest): boolean {
  const first = request.body?.messages?.[0];
  const own =
    first?.role === 'system' && typeof first.content === 'string' && first.content.startsWith('You are Qwen Code');
  return own && !texts(request).some((text) => text.includes('managed memory extraction subagent'));
}

/** Runs one case in its own folder (which `build` writes its hook scripts into): its native hooks, or its policy through install. */
export async function runQwen(mode: 'native' | 'policy', build: (folder: RunFolder) => QwenCase): Promise<QwenRun> {
  const folder = runFolder(`qwen-${mode}`);
  folders.push(folder);
  const kase = build(folder);
  let mainCount = 0;
  const api = await startChatApi((request) =>
    isMain(request) ? (kase.turns[mainCount++] ?? { text: 'DONE' }) : { text: '' },
  );
  try {
    const env = {
      ...folder.env,
      OPENAI_API_KEY: 'fake-key',
      OPENAI_BASE_URL: `${api.url}/v1`,
      OPENAI_MODEL: 'fake-model',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      ...kase.env,
    };
    let install: AgentResult | undefined;
    if (mode === 'native') {
      folder.write('.qwen/settings.json', { hooks: kase.native ?? {} });
    } else {
      const policy = folder.writeHome('policy.json', { hooks: kase.policy ?? {} });
      install = await periHooks(
        // The project named: found from the cwd, a .claude/ or .git that another process leaves in /tmp would win.
        [
          'install',
          '--host',
          'qwen',
          '--policy',
          policy,
          '--project-dir',
          folder.project,
          ...(kase.failClosed ? ['--fail-closed'] : ['--fail-open']),
        ],
        { cwd: folder.project, env },
      );
      if (install.code !== 0)
        throw new Error(`peri-hooks install --host qwen failed (${install.code}):\n${install.stdout}${install.stderr}`);
    }
    const result = await runAgent(qwenCommand(), ['-p', PROMPT, '--approval-mode', 'yolo'], {
      cwd: folder.project,
      env,
      timeoutMs: 120_000,
    });
    return {
      folder,
      result,
      main: api.requests.filter(isMain),
      side: api.requests.filter((request) => !isMain(request) && request.method === 'POST'),
      ...(install ? { install } : {}),
    };
  } finally {
    await api.close();
  }
}

/** The text of every message of a request: content strings and text parts. */
export function texts(request: RecordedRequest | undefined): string[] {
  const messages: Array<{ content?: unknown }> = request?.body?.messages ?? [];
  return messages.flatMap((message) => {
    if (typeof message.content === 'string') return [message.content];
    if (Array.isArray(message.content)) return message.content.map((part: { text?: string }) => part.text ?? '');
    return [];
  });
}

/** Everything the model was sent over the run (the last main request holds the whole conversation). */
export function modelSaw(run: QwenRun): string {
  return run.main.map((request) => texts(request).join('\n')).join('\n');
}

/** The tool results the model got, in order, from the last main request; the run folder reads `<run>`. */
export function toolResults(run: QwenRun): string[] {
  const messages: Array<{ role?: string; content?: unknown }> = run.main.at(-1)?.body?.messages ?? [];
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) =>
      (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)).replaceAll(
        run.folder.root,
        '<run>',
      ),
    );
}

export function projectFile(run: QwenRun, name: string): string | undefined {
  const path = join(run.folder.project, name);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** A command handler running a script. */
export function handler(command: string, timeout?: number): Record<string, unknown> {
  return { type: 'command', command, ...(timeout === undefined ? {} : { timeout }) };
}
