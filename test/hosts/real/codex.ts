// The real Codex CLI, headless and offline: `codex exec --json` against the fake Responses API on 127.0.0.1,
// CODEX_HOME inside the run folder, the project trusted. Hooks run only when Codex trusts them: the native
// registration is trusted with the hashes Codex itself lists (`codex app-server`, `hooks/list`), the peri-hooks
// one by `install --host codex --trust`.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installAgent } from '../../../scripts/install-agent.ts';
import {
  type FakeResponsesApi,
  type ResponsesScript,
  startResponsesApi,
} from '../../helpers/openai-responses-server.ts';
import { type AgentResult, periHooks, type RunFolder, recordingHook, runAgent, runFolder } from './common.ts';

export const CODEX = installAgent('codex');
/** A model Codex knows (its bundled metadata): it offers apply_patch, as the gpt-5 family gets it. */
const MODEL = 'gpt-5.5';

export interface CodexRun {
  folder: RunFolder;
  api: FakeResponsesApi;
  codexHome: string;
  env: Record<string, string>;
  /** `codex exec --json` in the project; the result, and the JSON events of stdout. */
  exec(prompt: string, timeoutMs?: number): Promise<AgentResult & { events: Array<Record<string, any>> }>;
  /** The project's .codex/hooks.json, native: Codex's own format. */
  nativeHooks(hooks: Record<string, unknown[]>): void;
  /** Trusts every hook Codex lists as not trusted, with the hash Codex computes (what its /hooks review writes). */
  trustListed(): Promise<void>;
  /** Codex's own listing of the project's hooks (`hooks/list` of `codex app-server`). */
  listHooks(): Promise<Array<Record<string, any>>>;
  /** `peri-hooks <args>` in the project, with the run's HOME and CODEX_HOME. */
  periHooks(args: string[]): Promise<AgentResult>;
  close(): Promise<void>;
}

export async function codexRun(name: string, script: ResponsesScript): Promise<CodexRun> {
  const folder = runFolder(`codex-${name}`);
  const api = await startResponsesApi(script);
  const codexHome = join(folder.home, '.codex');
  const env = { ...folder.env, CODEX_HOME: codexHome, FAKE_OPENAI_KEY: 'fake-key', RUST_LOG: 'error' };
  folder.writeHome(
    '.codex/config.toml',
    [
      `model = "${MODEL}"`,
      'model_provider = "fake"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${api.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_OPENAI_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      // Codex's workspace-write sandbox makes /tmp and $TMPDIR writable roots, and mounts an empty .git over each
      // (creating /tmp/.git, which is left behind and becomes the project of every folder under /tmp).
      '[sandbox_workspace_write]',
      'exclude_slash_tmp = true',
      'exclude_tmpdir_env_var = true',
      '',
      `[projects."${folder.project}"]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  const run: CodexRun = {
    folder,
    api,
    codexHome,
    env,
    async exec(prompt, timeoutMs = 90_000) {
      const result = await runAgent(CODEX, ['exec', '--json', '--skip-git-repo-check', '-C', folder.project, prompt], {
        cwd: folder.project,
        env,
        timeoutMs,
      });
      const events = result.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      return { ...result, events };
    },
    nativeHooks(hooks) {
      folder.write('.codex/hooks.json', { hooks });
    },
    listHooks: () => listHooks(folder.project, env),
    async trustListed() {
      const state = (await run.listHooks())
        .filter((hook) => hook.trustStatus !== 'trusted')
        .map((hook) => `\n[hooks.state.${JSON.stringify(hook.key)}]\ntrusted_hash = "${hook.currentHash}"\n`);
      appendFileSync(join(codexHome, 'config.toml'), state.join(''));
    },
    // --project-dir: peri-hooks would otherwise take the nearest folder up that has a .claude folder for the project.
    periHooks: (args) => periHooks([...args, '--project-dir', folder.project], { cwd: folder.project, env }),
    async close() {
      await api.close();
      folder.cleanup();
    },
  };
  return run;
}

/** `codex app-server` over stdio (JSON-RPC, one message a line): initialize, then hooks/list for the project. */
export function listHooks(project: string, env: Record<string, string>): Promise<Array<Record<string, any>>> {
  return new Promise((resolve, reject) => {
    const child = spawn(CODEX, ['app-server'], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('exit', (code) => {
      clearTimeout(bound);
      reject(new Error(`codex app-server ended (exit ${code}) before its hooks/list answer: ${stderr.slice(-2000)}`));
    });
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('codex app-server gave no hooks/list answer within 30 s'));
    }, 30_000);
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method: 'hooks/list', params: { cwds: [project] } });
        } else if (message.id === 2) {
          clearTimeout(bound);
          child.kill('SIGKILL');
          if (message.error) reject(new Error(`hooks/list: ${JSON.stringify(message.error)}`));
          else resolve(message.result.data.flatMap((entry: { hooks: unknown[] }) => entry.hooks));
        }
      }
    });
    child.on('error', reject);
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'peri-hooks-test', version: '1' } } });
  });
}

/** The text of a file in the project, or undefined. */
export function projectFile(run: CodexRun, relative: string): string | undefined {
  const file = join(run.folder.project, relative);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/**
 * A hook script that records its stdin as recordingHook does, then runs `body` (sh) with the input in $input:
 * for hooks whose answer depends on the call (`case "$input" in *denied*) …`).
 */
export function scriptHook(folder: RunFolder, name: string, body: string): string {
  const path = recordingHook(folder, name);
  const text = readFileSync(path, 'utf8').split('\n');
  // Keep recordingHook's first two lines (shebang, record) and answer by the body instead.
  writeFileSync(path, [...text.slice(0, 2), body, ''].join('\n'));
  return path;
}

/** Every text the model was sent, over all requests: user and hook messages, tool outputs, instructions. */
export function modelSaw(run: CodexRun): string {
  return run.api.turns.map((request) => JSON.stringify(request.body?.input ?? [])).join('\n');
}
