// The real Gemini CLI 0.61.0, headless and offline: `gemini -p <prompt> --approval-mode yolo -o json` against the
// fake Gemini API (test/helpers/gemini-api-server.ts) through GOOGLE_GEMINI_BASE_URL, with an API key and
// `security.auth.selectedType: "gemini-api-key"` in the run folder's user settings, the project trusted by
// GEMINI_CLI_TRUST_WORKSPACE (Gemini runs project hooks only in trusted folders), usage statistics and update
// checks off. A hook is registered natively (`.gemini/settings.json` `hooks`) or as a Claude Code policy through
// `peri-hooks install --host gemini`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installAgent } from '../../../scripts/install-agent.ts';
import { type FakeGeminiApi, type GeminiScript, geminiTexts, startGeminiApi } from '../../helpers/gemini-api-server.ts';
import { type AgentResult, periHooks, type RunFolder, recordInput, runAgent, runFolder } from './common.ts';

export const GEMINI = installAgent('gemini');

/** A Gemini hook group: `{matcher?, hooks: [{type: "command", command, timeout (ms), name}]}`. */
export interface NativeGroup {
  matcher?: string;
  hooks: Array<{ command: string; timeout?: number; name?: string }>;
}

export interface GeminiRun extends AgentResult {
  api: FakeGeminiApi;
  /** `-o json`'s answer (`response`, `stats`, `error`), when stdout held one. */
  json: Record<string, any> | undefined;
  /** Every text the model was sent in its main-loop requests (prompts, hook context, function responses). */
  modelSaw: string;
  /** The main-loop requests: how many model calls the agent made. */
  modelCalls: number;
}

/** A run folder with Gemini's user settings: API-key auth, no usage statistics, no update checks. */
export function geminiFolder(prefix: string): RunFolder {
  const folder = runFolder(`gemini-${prefix}`);
  folder.writeHome('.gemini/settings.json', {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  });
  return folder;
}

/** Registers hooks natively in the project's `.gemini/settings.json` (Gemini's event names, timeouts in ms). */
export function nativeHooks(folder: RunFolder, events: Record<string, NativeGroup[]>): void {
  folder.write('.gemini/settings.json', {
    hooks: Object.fromEntries(
      Object.entries(events).map(([event, groups]) => [
        event,
        groups.map((group) => ({
          ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
          hooks: group.hooks.map((hook, index) => ({
            type: 'command',
            name: hook.name ?? `${event}-${index}`,
            command: hook.command,
            ...(hook.timeout !== undefined ? { timeout: hook.timeout } : {}),
          })),
        })),
      ]),
    ),
  });
}

/** Writes the Claude Code policy and registers it as a user would: `peri-hooks install --host gemini --policy …`. */
export async function installPolicy(
  folder: RunFolder,
  hooks: Record<string, unknown>,
  options: { failClosed?: boolean } = {},
): Promise<void> {
  const policy = folder.write('policy.json', { hooks });
  const result = await periHooks(
    [
      'install',
      '--host',
      'gemini',
      '--policy',
      policy,
      '--project-dir',
      folder.project,
      ...(options.failClosed ? ['--fail-closed'] : ['--fail-open']),
    ],
    { cwd: folder.project, env: folder.env },
  );
  if (result.code !== 0) throw new Error(`install --host gemini failed (${result.code}): ${result.stderr}`);
}

/** Runs the real Gemini CLI once against a fresh fake API that follows `script`. */
export async function runGemini(
  folder: RunFolder,
  script: GeminiScript,
  prompt: string,
  options: { timeoutMs?: number; trustByEnv?: false; signal?: AbortSignal } = {},
): Promise<GeminiRun> {
  const api = await startGeminiApi(script);
  try {
    const env = {
      ...folder.env,
      GOOGLE_GEMINI_BASE_URL: api.url,
      GEMINI_API_KEY: 'fake-gemini-key',
      ...(options.trustByEnv === false ? {} : { GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
    };
    const result = await runAgent(GEMINI, ['-p', prompt, '--approval-mode', 'yolo', '-o', 'json'], {
      cwd: folder.project,
      env,
      timeoutMs: options.timeoutMs ?? 120_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return {
      ...result,
      api,
      json: parseJson(result.stdout),
      modelSaw: api.turns.flatMap(geminiTexts).join('\n'),
      modelCalls: api.turns.length,
    };
  } finally {
    await api.close();
  }
}

function parseJson(text: string): Record<string, any> | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}

/** Whether the project holds this file (a tool's mark that it ran). */
export const made = (folder: RunFolder, file: string) => existsSync(join(folder.project, file));

/** The registration `install --host gemini` wrote. */
export const registration = (folder: RunFolder) =>
  JSON.parse(readFileSync(join(folder.project, '.gemini/settings.json'), 'utf8'));

/**
 * A hook whose answer depends on its input: it records its stdin as recordingHook does (seen/<name>.jsonl), then
 * runs `body`, a shell snippet that finds the input in "$input".
 */
export function scriptHook(folder: RunFolder, name: string, body: string): string {
  const seenFile = join(folder.root, 'seen', `${name}.jsonl`);
  return folder.write(
    `../hooks/${name}.sh`,
    ['#!/bin/sh', `mkdir -p '${join(folder.root, 'seen')}'`, recordInput(seenFile), body, ''].join('\n'),
  );
}

/** Aborts once `mark` holds (polled), plus `graceMs`: ends a run that is expected to wait for good after the mark. */
export function abortAfter(mark: () => boolean, graceMs: number): AbortSignal {
  const controller = new AbortController();
  const poll = setInterval(() => {
    if (!mark()) return;
    clearInterval(poll);
    setTimeout(() => controller.abort(), graceMs).unref();
  }, 250);
  poll.unref();
  return controller.signal;
}
