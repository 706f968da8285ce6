// Runs one case against the real Claude Code twice, offline: once with the case's hooks registered directly
// in the project's .claude/settings.json, once with them in policy files registered by `peri-hooks install`. Each run gets its own fake Messages API, HOME and project, and what it leaves behind is reduced to
// what can be compared: the hooks' inputs, the files the tools made, what the model was sent, the result.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ROOT } from '../helpers/cli.ts';
import { type RecordedRequest, startRecordingServer, streamMessage, text } from '../helpers/messages-api-server.ts';

export type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
/** One answer of the model: its content blocks, or an API error. */
export type Turn = Block[] | { status: number; error: string };

export interface ClaudeCase {
  name: string;
  /** A settings file's `hooks`, with commands from `hook()` so that every run is logged. */
  hooks: Record<string, unknown[]>;
  /** The model's answers in the main loop, in order; once they run out it answers "done". */
  model: Turn[];
  prompt?: string;
  /** Hooks of the user's settings (~/.claude/settings.json); through peri-hooks, a second policy file. */
  userHooks?: Record<string, unknown[]>;
  /** Other settings, the same in both runs; by default Bash is allowed without asking. */
  settings?: Record<string, unknown>;
  /** Settings that travel with the hooks: beside them in the user's and the project's settings files; through peri-hooks, in the policy files. */
  policySettings?: { user?: Record<string, unknown>; project?: Record<string, unknown> };
  /** Files to create in the project before the run (CLAUDE.md, scripts). */
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** MCP servers of the user scope (~/.claude.json), which Claude Code connects and peri-hooks finds, for mcp_tool hooks. */
  mcpServers?: Record<string, unknown>;
  /** What the direct run must show, so that a case that exercises nothing cannot pass. */
  expect: Expectation;
  /** What the run through peri-hooks must show besides, where it is the point of the case (a notice Claude Code shows the user). */
  periHooksExpect?: { userSees?: string[] };
  /** Expected to differ, for the reason given (an item of issue 14, or a new finding): the run reports the difference and fails when it is gone. */
  knownDifference?: string;
  /**
   * The run through `install --via mcp` is expected to differ from the direct run, for the reason given (a
   * difference an mcp_tool answer cannot avoid, listed in docs/agents/mcp.md): asserted, and fails when it is gone.
   */
  mcpDifference?: string;
}

export interface Expectation {
  /** Hooks (by their logged name) that ran, each at least once. */
  ran?: string[];
  /** How many times hooks ran, exactly. */
  runs?: Record<string, number>;
  /** Hooks that never ran. */
  notRan?: string[];
  /** Exactly the files the tools and hooks left in the project. */
  files?: string[];
  /** Texts that reach the model in some request (after normalisation). */
  modelSees?: string[];
  /** Texts that reach the model in no request. */
  modelNeverSees?: string[];
  /** Exactly the paths http hooks posted to (HOOK_SERVER). */
  hookRequests?: string[];
  /** How many main-loop requests the model got. */
  modelRequests?: number;
  exitCode?: number;
  /** Fields of the result (`--output-format json`), compared exactly. */
  result?: Record<string, unknown>;
}

/** What one run left behind, normalised so that the two runs of a case compare equal when they agree. */
export interface Observed {
  exitCode: number | null;
  result: Record<string, unknown> | string;
  /** Per logged hook, the inputs it received (sorted: parallel firings have no order). */
  hookInputs: Record<string, unknown[]>;
  /** Files in the project made by tools or hooks. */
  files: string[];
  /** The conversation of each main-loop request, as the model received it. */
  modelRequests: unknown[];
  /** The paths that http hooks posted to on the run's hook server (sorted: parallel hooks have no order). */
  hookRequests: string[];
}

export interface RunOutput {
  observed: Observed;
  /** Claude Code's stderr and the requests it made outside the main loop, for the report. */
  stderr: string;
  sideRequests: string[];
  /** The hooks' system messages, as Claude Code's transcript keeps them for the user (`hook_system_message`). */
  userNotices: string[];
  debugLog?: string;
}

const PERI_HOOKS = join(ROOT, 'dist', 'peri-hooks.cjs');
const RUN_TIMEOUT_MS = 120_000;
// A loopback port nothing listens on: any request that tries to leave the machine through a proxy fails.
export const DEAD_PROXY = 'http://127.0.0.1:9';
// The result fields that say what happened, not how long it took or what it cost.
const RESULT_FIELDS = [
  'type',
  'subtype',
  'is_error',
  'result',
  'stop_reason',
  'terminal_reason',
  'num_turns',
  'permission_denials',
  'api_error_status',
];

/** In a case's hooks and settings, the address of the run's hook server: it records the paths http hooks post to and answers `{}`. */
export const HOOK_SERVER = 'http://hook-server.invalid';

/** A command hook that logs its input under `name`, then runs `script` (shell form; the input is in `$input`). */
export function hook(name: string, script = 'true', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'command',
    command: `input=$(cat); printf '%s' "$input" > "$HOOK_LOG/${name}.$(date +%s%N).json"; ${script}`,
    ...extra,
  };
}

export const bash = (id: string, command: string): Block => ({
  type: 'tool_use',
  id,
  name: 'Bash',
  input: { command, description: id },
});
export const say = (value: string): Block => text(value) as Block;

/** The failures of `expectation` in `observed`, as sentences (none when it holds). */
export function unmet(expectation: Expectation, observed: Observed): string[] {
  const problems: string[] = [];
  const sent = JSON.stringify(observed.modelRequests);
  for (const name of expectation.ran ?? []) if (!observed.hookInputs[name]) problems.push(`hook ${name} did not run`);
  for (const name of expectation.notRan ?? []) if (observed.hookInputs[name]) problems.push(`hook ${name} ran`);
  for (const [name, count] of Object.entries(expectation.runs ?? {})) {
    const actual = observed.hookInputs[name]?.length ?? 0;
    if (actual !== count) problems.push(`hook ${name} ran ${actual} times, expected ${count}`);
  }
  if (expectation.hookRequests && !isDeepStrictEqual(observed.hookRequests, expectation.hookRequests))
    problems.push(
      `http hooks posted to ${JSON.stringify(observed.hookRequests)}, expected ${JSON.stringify(expectation.hookRequests)}`,
    );
  if (expectation.files && !isDeepStrictEqual(observed.files, expectation.files))
    problems.push(`files ${JSON.stringify(observed.files)}, expected ${JSON.stringify(expectation.files)}`);
  const seen = (needle: string) => sent.includes(JSON.stringify(needle).slice(1, -1));
  for (const needle of expectation.modelSees ?? [])
    if (!seen(needle)) problems.push(`the model never saw ${JSON.stringify(needle)}`);
  for (const needle of expectation.modelNeverSees ?? [])
    if (seen(needle)) problems.push(`the model saw ${JSON.stringify(needle)}`);
  if (expectation.modelRequests !== undefined && observed.modelRequests.length !== expectation.modelRequests)
    problems.push(`${observed.modelRequests.length} model requests, expected ${expectation.modelRequests}`);
  if (expectation.exitCode !== undefined && observed.exitCode !== expectation.exitCode)
    problems.push(`exit code ${observed.exitCode}, expected ${expectation.exitCode}`);
  const result = typeof observed.result === 'string' ? {} : observed.result;
  for (const [field, value] of Object.entries(expectation.result ?? {})) {
    if (!isDeepStrictEqual(result[field], value))
      problems.push(`result.${field} ${JSON.stringify(result[field])}, expected ${JSON.stringify(value)}`);
  }
  return problems;
}

/** `mcp`: through `install --via mcp` (mcp_tool hooks calling peri-hooks mcp). */
export type Mode = 'direct' | 'peri-hooks' | 'mcp';

/** `debug`: also keep Claude Code's hook debug log (`--debug hooks`) in the output. */
export async function runCase(
  claudeBinary: string,
  written: ClaudeCase,
  mode: Mode,
  debug = false,
): Promise<RunOutput> {
  const hookServer = await startRecordingServer((_request, _index, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  const testCase = JSON.parse(JSON.stringify(written).replaceAll(HOOK_SERVER, hookServer.url)) as ClaudeCase;
  const root = mkdtempSync(join(tmpdir(), 'peri-hooks-claude-'));
  let api: Awaited<ReturnType<typeof startFakeApi>> | undefined;
  try {
    const home = join(root, 'home');
    const project = join(root, 'project');
    const hookLog = join(root, 'hook-log');
    for (const folder of [home, project, hookLog]) mkdirSync(folder, { recursive: true });
    for (const [relative, content] of Object.entries(testCase.files ?? {})) writeUnder(project, relative, content);
    // Claude Code ignores a project's permission rules until its workspace is trusted.
    writeUnder(
      home,
      '.claude.json',
      JSON.stringify({
        hasCompletedOnboarding: true,
        ...(testCase.mcpServers ? { mcpServers: testCase.mcpServers } : {}),
        projects: { [project]: { hasTrustDialogAccepted: true } },
      }),
    );
    const policies = policyFiles(testCase, root);
    const settings = { ...(testCase.settings ?? { permissions: { allow: ['Bash'] } }) };
    let registration: Record<string, Group[]> = {};
    if (mode === 'direct') {
      writeUnder(
        project,
        '.claude/settings.json',
        JSON.stringify({ ...settings, ...policies.get(join(root, 'policy.json')) }, null, 2),
      );
      const user = policies.get(join(root, 'user-policy.json'));
      if (user) writeUnder(home, '.claude/settings.json', JSON.stringify(user, null, 2));
    } else {
      for (const [path, policy] of policies) writeFileSync(path, JSON.stringify(policy, null, 2));
      writeUnder(project, '.claude/settings.json', JSON.stringify(settings, null, 2));
      // As npm install of the package leaves it: the project's registration starts node_modules/.bin/peri-hooks.
      mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
      symlinkSync(PERI_HOOKS, join(project, 'node_modules/.bin/peri-hooks'));
      registration = installPeriHooks(
        { project, home, managed: join(root, 'managed') },
        [...policies.keys()],
        mode === 'mcp' ? ['--via', 'mcp'] : [],
      );
    }

    api = await startFakeApi(testCase.model);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: join(root, 'tmp'),
      HOOK_LOG: hookLog,
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-offline',
      HTTP_PROXY: DEAD_PROXY,
      HTTPS_PROXY: DEAD_PROXY,
      http_proxy: DEAD_PROXY,
      https_proxy: DEAD_PROXY,
      ALL_PROXY: DEAD_PROXY,
      all_proxy: DEAD_PROXY,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_BUG_COMMAND: '1',
      CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
      ...testCase.env,
      // The first request waits for the MCP servers (a case's, and peri-hooks' through mcp): otherwise whether the
      // model is told one is "still connecting" depends on how busy the machine is (docs/agents/mcp.md). Read from the
      // process environment only (a settings file's env is applied too late for it).
      CLAUDE_CODE_MCP_STARTUP_WAIT_MS: '30000',
    };
    mkdirSync(env.TMPDIR!, { recursive: true });
    const debugFile = join(root, 'debug.log');
    const args = [
      '-p',
      testCase.prompt ?? 'go',
      '--output-format',
      'json',
      ...(debug ? ['--debug', 'hooks', '--debug-file', debugFile] : []),
    ];
    const run = await runClaude(claudeBinary, args, project, env);
    const names = [...policies.values()].flatMap((policy) => hookCommands(policy.hooks));
    if (mode !== 'direct') names.push(...Object.values(registration).flatMap(hookCommandsOf));
    const normalise = normaliser(root, names, api.url);
    return {
      observed: normalise({
        exitCode: run.exitCode,
        result: resultFields(run.stdout),
        hookInputs: readHookLog(hookLog),
        files: listFiles(project).filter(
          (path) =>
            !path.startsWith('.claude/') &&
            !path.startsWith('node_modules/') &&
            path !== '.mcp.json' &&
            !(path in (testCase.files ?? {})),
        ),
        modelRequests: api.mainLoop().map((request) => request.body.messages),
        hookRequests: hookServer.requests.map((request) => request.path).sort(),
      }) as Observed,
      stderr: normalise(run.stderr) as string,
      sideRequests: api.side().map((request) => `${request.method} ${request.path}`),
      userNotices: normalise(transcriptNotices(join(home, '.claude', 'projects'))) as string[],
      ...(debug ? { debugLog: normalise(readFileSync(debugFile, 'utf8')) as string } : {}),
    };
  } finally {
    await api?.close();
    await hookServer.close();
    killStragglers(root);
    rmSync(root, { recursive: true, force: true });
  }
}

type Policy = { hooks: Record<string, unknown[]> } & Record<string, unknown>;

/** The hooks of a case, with the settings that travel with them, by the policy file that holds them through peri-hooks, the user's first. */
function policyFiles(testCase: ClaudeCase, root: string): Map<string, Policy> {
  const files = new Map<string, Policy>();
  if (testCase.userHooks || testCase.policySettings?.user)
    files.set(join(root, 'user-policy.json'), { ...testCase.policySettings?.user, hooks: testCase.userHooks ?? {} });
  files.set(join(root, 'policy.json'), { ...testCase.policySettings?.project, hooks: testCase.hooks });
  return files;
}

type Group = { hooks: Array<{ command?: string; server?: string; tool?: string }> };

/**
 * What a new user does: `peri-hooks install --policy …` into the project's existing settings, then `peri-hooks
 * doctor`, both of which must succeed. Returns the hooks the install registered.
 */
function installPeriHooks(
  folders: { project: string; home: string; managed: string },
  policies: string[],
  options: string[],
): Record<string, Group[]> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: folders.home,
    PERI_HOOKS_MANAGED_DIR: folders.managed,
  };
  const peri = (...args: string[]) =>
    spawnSync(process.execPath, [PERI_HOOKS, ...args], {
      cwd: folders.project,
      env,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT_MS,
    });
  // --fail-open: the cases compare with the hooks registered directly, where a failing hook does not block
  // (fail-closed, install's default, turns each such failure into a block).
  const installed = peri('install', '--fail-open', ...options, ...policies.flatMap((policy) => ['--policy', policy]));
  if (installed.status !== 0)
    throw new Error(
      `peri-hooks install exited ${installed.status ?? installed.signal}:\n${installed.stdout}${installed.stderr}`,
    );
  // No check may fail (warnings, such as validate's lints of a case's deliberately odd hooks, are allowed), but
  // the start-up, which is measured and depends on how busy the machine is.
  const doctor = peri('doctor', '--output', 'json');
  const checks = (JSON.parse(doctor.stdout || '{"checks":[]}') as { checks: Array<{ id: string; status: string }> })
    .checks;
  const failing = checks.filter((entry) => entry.status === 'fail' && entry.id !== 'startup');
  if (checks.length === 0 || failing.length > 0)
    throw new Error(`peri-hooks doctor does not pass:\n${doctor.stdout}${doctor.stderr}`);
  const written = JSON.parse(readFileSync(join(folders.project, '.claude', 'settings.json'), 'utf8')) as {
    hooks?: Record<string, Group[]>;
  };
  return written.hooks ?? {};
}

// An mcp_tool hook's label, where a command hook's messages show its command, is <server>/<tool>.
const hookCommandsOf = (groups: Group[]) =>
  groups.flatMap((group) =>
    group.hooks.map((handler) => handler.command ?? (handler.server ? `${handler.server}/${handler.tool}` : '')),
  );

function hookCommands(hooks: Record<string, unknown[]>): string[] {
  return Object.values(hooks).flatMap((groups) => hookCommandsOf(groups as Group[]));
}

export async function startFakeApi(turns: Turn[]) {
  let next = 0;
  const api = await startRecordingServer((request, _index, res) => {
    const known = request.path.startsWith('/v1/messages?') || request.path === '/v1/messages';
    const turn = !known
      ? { status: 404, error: `fake API: no ${request.method} ${request.path}` }
      : isMainLoop(request)
        ? (turns[next++] ?? [say('done')])
        : [say('ok')];
    if (!Array.isArray(turn)) {
      res.writeHead(turn.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: ERROR_TYPES[turn.status] ?? 'invalid_request_error', message: turn.error },
        }),
      );
      return;
    }
    const stopReason = turn.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const body = {
      id: `msg_fake${next}`,
      type: 'message',
      role: 'assistant',
      content: turn,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    };
    if (request.body?.stream) streamMessage(res, { body }, request);
    else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...body, model: request.body?.model }));
    }
  });
  return {
    ...api,
    mainLoop: () => api.requests.filter(isMainLoop),
    side: () => api.requests.filter((request) => !isMainLoop(request)),
  };
}

const ERROR_TYPES: Record<number, string> = {
  401: 'authentication_error',
  404: 'not_found_error',
  500: 'api_error',
  529: 'overloaded_error',
};

// The agent loop sends its tools; title and summary side requests send none.
const isMainLoop = (request: RecordedRequest) =>
  request.path.startsWith('/v1/messages?') && Array.isArray(request.body?.tools) && request.body.tools.length > 0;

interface ClaudeRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs claude in its own process group, killed whole when it ends or times out, so no hook outlives the run. */
export function runClaude(
  binary: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      stderr += `\n[harness] claude did not finish within ${RUN_TIMEOUT_MS} ms; killed\n`;
      killGroup();
    }, RUN_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      killGroup();
      resolve({ exitCode, stdout, stderr });
    });
  });
}

/**
 * Kills what a run started outside claude's process group (peri-hooks' detached async supervisor, a hook
 * that detached itself): every process whose environment points into the run's folder.
 */
export function killStragglers(root: string): void {
  const marker = `HOOK_LOG=${join(root, 'hook-log')}\0`;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (Number(pid) !== process.pid && readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker))
        process.kill(Number(pid), 'SIGKILL');
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
}

function resultFields(stdout: string): Record<string, unknown> | string {
  try {
    const result = JSON.parse(stdout) as Record<string, unknown>;
    return Object.fromEntries(RESULT_FIELDS.filter((field) => field in result).map((field) => [field, result[field]]));
  } catch {
    return stdout;
  }
}

function readHookLog(folder: string): Record<string, unknown[]> {
  const byHook: Record<string, Array<{ at: bigint; input: unknown }>> = {};
  for (const file of readdirSync(folder)) {
    const [name, at] = file.split('.');
    const raw = readFileSync(join(folder, file), 'utf8');
    let input: unknown = raw;
    try {
      input = JSON.parse(raw);
    } catch {
      // Logged as the text it was.
    }
    (byHook[name!] ??= []).push({ at: BigInt(at!), input });
  }
  return Object.fromEntries(
    Object.entries(byHook)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, runs]) => [name, runs.sort((a, b) => (a.at < b.at ? -1 : 1)).map((run) => run.input)]),
  );
}

/** The content of every `hook_system_message` attachment in the session transcripts under `folder`. */
function transcriptNotices(folder: string): string[] {
  const transcripts = (existsSync(folder) ? listFiles(folder) : []).filter((path) => path.endsWith('.jsonl'));
  return transcripts.flatMap((path) =>
    readFileSync(join(folder, path), 'utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          const entry = JSON.parse(line) as { attachment?: { type?: string; content?: unknown } };
          return entry.attachment?.type === 'hook_system_message' && typeof entry.attachment.content === 'string'
            ? [entry.attachment.content]
            : [];
        } catch {
          return [];
        }
      }),
  );
}

/** The notices the case expects the user to see, missing from those shown. */
export function unseen(expected: { userSees?: string[] } | undefined, notices: readonly string[]): string[] {
  return (expected?.userSees ?? [])
    .filter((needle) => !notices.some((notice) => notice.includes(needle)))
    .map((needle) => `the user was never shown ${JSON.stringify(needle)}`);
}

function listFiles(folder: string, prefix = ''): string[] {
  return readdirSync(join(folder, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? listFiles(folder, relative) : [relative];
    })
    .sort();
}

function writeUnder(folder: string, relative: string, content: string): void {
  const path = join(folder, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode: relative.endsWith('.sh') ? 0o755 : 0o644 });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const AGENT_ID = /\ba[0-9a-f]{16}\b/g;
// Claude Code's reminder when the date changes during a session, on its own or appended to a message.
const DATE_CHANGED =
  /(\n\n)?The date has changed\. Today's date is now \d{4}-\d{2}-\d{2}\. No need to announce the new date — the user's own clock shows it\./g;

/** A system message left empty once the date-change reminder is taken out of it. */
function isEmptySystemMessage(item: unknown): boolean {
  if (!item || typeof item !== 'object' || (item as { role?: unknown }).role !== 'system') return false;
  const content = (item as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every(
      (part) =>
        (part as { type?: unknown; text?: unknown }).type === 'text' && (part as { text?: unknown }).text === '',
    )
  );
}

// Fields whose values are per run (ids, timings), whatever they hold.
const PER_RUN_FIELDS = new Set(['session_id', 'prompt_id', 'agent_id', 'cache_control', 'duration_ms']);
const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces what necessarily differs between the two runs: the run's folder, the fake API's port, ids, durations, and the hook
 * labels (Claude Code names a hook by its command, which through peri-hooks is the peri-hooks command).
 */
function normaliser(root: string, hookCommands: string[], apiUrl: string): (value: unknown) => unknown {
  const labels = [...new Set(hookCommands)].filter(Boolean).sort((a, b) => b.length - a.length);
  const labelPattern = labels.length > 0 ? new RegExp(labels.map(escapeRegExp).join('|'), 'g') : undefined;
  // Claude Code also names the project's transcript folder after its path, every non-alphanumeric a dash.
  const rootPattern = new RegExp(`${escapeRegExp(root)}|${escapeRegExp(root.replace(/[^a-zA-Z0-9]/g, '-'))}`, 'g');
  const inText = (value: string) => {
    let result = labelPattern ? value.replace(labelPattern, '<hook>') : value;
    result = result
      .replaceAll(new URL(apiUrl).host, '<api>')
      .replace(rootPattern, '<root>')
      .replace(UUID, '<uuid>')
      .replace(AGENT_ID, '<agent-id>');
    result = result
      .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, '<duration>')
      .replace(/<duration_ms>\d+<\/duration_ms>/g, '<duration_ms><duration></duration_ms>');
    // A run that crosses midnight gets Claude Code's date-change reminder, which the other run may not.
    return result.replace(DATE_CHANGED, '').replace(/(Today's date is (?:now )?)\d{4}-\d{2}-\d{2}/g, '$1<date>');
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return inText(value);
    if (Array.isArray(value)) return value.map(walk).filter((item) => !isEmptySystemMessage(item));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([key]) => !PER_RUN_FIELDS.has(key))
          .map(([key, inner]) => [key, walk(inner)]),
      );
    }
    return value;
  };
  return walk;
}
