// mcp_tool hooks end to end (spec §20.4): the CLI as a real process calls tools on a real MCP server, built
// with the official server SDK, over Streamable HTTP on 127.0.0.1 and over stdio. A tool's JSON text is judged
// as a command hook's stdout would be, so the oracle for every JSON answer is a command hook printing it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isAlive } from '../../src/session/lock.ts';
import { cliCommand, makeProject, type Project, runCli } from '../helpers/cli.ts';
import { fireAnswer } from '../helpers/fire.ts';
import { until } from '../helpers/wait.ts';
import { GUARD_SERVER, type HttpGuard, readLog, startHttpGuard, stdioGuard } from './guard.ts';

let project: Project;
let http: HttpGuard;
let httpLog: string;
before(async () => {
  project = makeProject();
  httpLog = join(project.dir, '..', 'http.log');
  http = await startHttpGuard(join(project.dir, '..'), httpLog);
});
after(async () => {
  await http.stop();
  project.cleanup();
});

const FIXTURES: Record<string, string> = {
  PreToolUse: 'PreToolUse.tool_name-Bash',
  PostToolUse: 'PostToolUse.tool_name-Bash',
  UserPromptSubmit: 'UserPromptSubmit',
  Stop: 'Stop',
  SessionStart: 'SessionStart',
  Setup: 'Setup',
};

/** What each guard tool answers (guard-server.ts), for the command hook that must be judged the same. */
const ANSWERS: Record<string, (event: string) => string> = {
  block: () => JSON.stringify({ decision: 'block', reason: 'blocked by guard' }),
  context: (event) =>
    JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: 'context from guard' } }),
  empty: () => '{}',
  deny: (event) =>
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: event,
        permissionDecision: 'deny',
        permissionDecisionReason: 'denied by guard',
      },
    }),
  allow: (event) =>
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: event,
        permissionDecision: 'allow',
        permissionDecisionReason: 'allowed by guard',
      },
    }),
  rewrite: (event) =>
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: event,
        permissionDecision: 'allow',
        updatedInput: { command: 'echo rewritten' },
      },
    }),
};

const mcp = (tool: string, extra: Record<string, unknown> = {}) => ({
  type: 'mcp_tool',
  server: 'guard',
  tool,
  input: { event: '${hook_event_name}' },
  ...extra,
});

interface Report {
  blocked: boolean;
  exitCode: number;
  reason?: string;
  output?: Record<string, unknown>;
  errors: string[];
  warnings: Array<{ message: string }>;
  hooks: Array<{
    outcome?: string;
    error?: string;
    stdout?: string;
    plainText?: string;
    blockingMessage?: string;
    timedOut?: boolean;
  }>;
}

/** `--no-state --mcp-config <servers>` in the test project, for fire() in this process. */
const firingOptions = (servers: Record<string, object>, env?: Record<string, string>) => ({
  env: project.env(env),
  home: project.home,
  managedDir: project.managed,
  noState: true,
  mcpConfigs: [JSON.stringify({ mcpServers: servers })],
});

/** `fire <event> --output json --no-state --mcp-config …`, in this process (the CLI as a process is tested below). */
async function fire(
  event: string,
  hooks: object[],
  options: {
    servers?: Record<string, object>;
    settings?: Record<string, unknown>;
    pluginDirs?: string[];
    env?: Record<string, string>;
  } = {},
): Promise<Report> {
  project.write('.claude/settings.json', {
    ...options.settings,
    hooks: { [event]: [{ ...(event.endsWith('ToolUse') ? { matcher: 'Bash' } : {}), hooks }] },
  });
  const servers = options.servers ?? { guard: { type: 'http', url: http.url } };
  const result = await fireAnswer(event, project.input(FIXTURES[event]!), 'json', {
    ...firingOptions(servers, options.env),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
  });
  assert.ok(result.code === 0 || result.code === 2, `exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Report;
}

const decision = ({ blocked, exitCode, reason, output }: Report) => ({ blocked, exitCode, reason, output });

describe("a tool's JSON answer is judged like a command hook printing it", () => {
  // A permission decision decides only on PreToolUse; elsewhere it must do what it does from a command hook.
  const events = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop'];
  for (const event of events) {
    const tools = ['deny', 'allow', 'rewrite', 'block', 'context', 'empty'];
    for (const tool of tools) {
      test(`${event}: ${tool}`, async () => {
        const fromTool = await fire(event, [mcp(tool)]);
        const printed = project.write(`answers/${event}-${tool}.json`, ANSWERS[tool]!(event));
        const fromCommand = await fire(event, [{ type: 'command', command: `cat ${printed}` }]);
        assert.equal(fromTool.hooks[0]!.outcome, fromCommand.hooks[0]!.outcome);
        assert.deepEqual(decision(fromTool), decision(fromCommand));
      });
    }
  }

  test('the deny split across two text blocks is honoured, with its reason', async () => {
    const report = await fire('PreToolUse', [mcp('deny')]);
    assert.equal(report.blocked, true);
    assert.equal(report.exitCode, 2);
    assert.equal(report.reason, 'denied by guard');
  });
});

describe('answers that decide nothing', () => {
  for (const event of ['PreToolUse', 'PostToolUse', 'Stop']) {
    test(`${event}: plain text is ignored, not passed on as context`, async () => {
      const report = await fire(event, [mcp('plain')]);
      assert.equal(report.blocked, false);
      assert.equal(report.output ?? null, null);
      assert.equal(report.hooks[0]!.outcome, 'success');
      assert.equal(report.hooks[0]!.plainText ?? null, null);
      assert.deepEqual(report.errors, []);
    });
  }

  for (const tool of ['plain', 'brace-then-words', 'empty-text', 'structured-only']) {
    test(`UserPromptSubmit: ${tool} is not passed on; the hook's success is the fixed "UserPromptSubmit completed"`, async () => {
      const report = await fire('UserPromptSubmit', [mcp(tool)]);
      assert.equal(report.blocked, false);
      assert.equal(report.hooks[0]!.plainText, 'UserPromptSubmit completed');
      assert.doesNotMatch(JSON.stringify(report), /some words/);
    });
  }

  test('UserPromptSubmit, --output claude: Claude Code gets "UserPromptSubmit completed" to frame as the hook\'s success; a command\'s text follows framed', async () => {
    const claude = async (hooks: object[]) => {
      project.write('.claude/settings.json', { hooks: { UserPromptSubmit: [{ hooks }] } });
      const result = await fireAnswer(
        'UserPromptSubmit',
        project.input(FIXTURES.UserPromptSubmit!),
        'claude',
        firingOptions({ guard: { type: 'http', url: http.url } }),
      );
      assert.equal(result.code, 0, result.stderr);
      return result.stdout;
    };
    assert.equal(await claude([mcp('plain')]), 'UserPromptSubmit completed\n');
    assert.equal(
      await claude([mcp('plain'), { type: 'command', command: 'echo CMD-PLAIN' }]),
      'UserPromptSubmit completed\n\nUserPromptSubmit hook success: CMD-PLAIN\n',
    );
  });

  for (const event of ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop']) {
    test(`${event}: isError is a non-blocking error, and the block JSON inside it is not honoured`, async () => {
      const report = await fire(event, [mcp('fail')]);
      assert.equal(report.blocked, false);
      assert.equal(report.hooks[0]!.outcome, 'non_blocking_error');
      assert.match(report.hooks[0]!.error!, /guard\/fail returned an error/);
      assert.equal(report.errors.length, 1);
    });

    test(`${event}: a tool that does not answer within the timeout is cancelled, and the request with it`, async () => {
      const before = readLog(httpLog).filter((entry) => entry.event === 'cancelled').length;
      const report = await fire(event, [mcp('hang', { timeout: 1 })]);
      assert.equal(report.blocked, false);
      assert.equal(report.hooks[0]!.outcome, 'cancelled');
      await until(
        'the server to get notifications/cancelled',
        () => readLog(httpLog).filter((entry) => entry.event === 'cancelled').length > before,
        15_000,
      );
    });
  }

  test("an unknown tool is called anyway, and the server's error is the hook's error", async () => {
    const report = await fire('PreToolUse', [mcp('nope')]);
    assert.equal(report.hooks[0]!.outcome, 'non_blocking_error');
    assert.equal(report.hooks[0]!.error, 'unknown tool nope');
  });

  test('a server no configuration defines gets no call: "not connected", with the known names', async () => {
    const report = await fire('PreToolUse', [{ ...mcp('deny'), server: 'nosuch' }]);
    assert.equal(report.blocked, false);
    assert.equal(report.hooks[0]!.error, "MCP server 'nosuch' not connected");
    assert.match(report.warnings.map((w) => w.message).join('\n'), /the configured servers are guard/);
  });

  test('SessionStart and Setup: no MCP client context, the server is never called and onFailure is ignored (§20.4 item 1)', async () => {
    for (const event of ['SessionStart', 'Setup'] as const) {
      const report = await fire(event, [mcp('context', { onFailure: 'block' })]);
      assert.equal(report.blocked, false, event);
      assert.equal(report.output?.hookSpecificOutput, undefined, event);
      assert.equal(report.hooks[0]!.outcome, 'non_blocking_error', event);
      assert.equal(
        report.hooks[0]!.error,
        `mcp_tool hooks are not available for the '${event}' hook event (no MCP client context)`,
        event,
      );
    }
  });
});

describe('structuredContent is not read: the text blocks are the answer', () => {
  test('a deny in structuredContent alone is not honoured, also under onFailure', async () => {
    for (const onFailure of ['continue', 'block']) {
      const report = await fire('PreToolUse', [mcp('structured-only', { onFailure })]);
      assert.equal(report.blocked, false, onFailure);
      assert.equal(report.hooks[0]!.outcome, 'success', onFailure);
    }
  });

  test('beside plain text, the deny in structuredContent is not honoured', async () => {
    const report = await fire('PreToolUse', [mcp('structured-beside-plain')]);
    assert.equal(report.blocked, false);
    assert.equal(report.hooks[0]!.outcome, 'success');
  });

  test('beside JSON text, the text decides', async () => {
    const report = await fire('PreToolUse', [mcp('structured-beside-json')]);
    assert.equal(report.blocked, true);
    assert.equal(report.reason, 'denied by the text');
  });
});

describe('onFailure', () => {
  const ONFAIL =
    'blocking because onFailure is "block" and the hook got no usable answer from its MCP server. The user needs to fix the cause (in a session, /mcp shows the server\'s state) or ask whoever manages the hook; Claude should not change the hook or work around it.';

  const DETAILS_LEFT_OUT =
    'Details are left out of this message, since the MCP server may have written them. To see them, start Claude Code with --debug and try again: they go to its debug log.';

  // PostToolUse honours it too: the failure is a PostToolUse block.
  for (const event of ['PreToolUse', 'PostToolUse']) {
    test(`isError blocks ${event} with the fixed message; the tool's own text is left out`, async () => {
      const report = await fire(event, [mcp('fail', { onFailure: 'block' })]);
      assert.equal(report.blocked, true);
      assert.equal(
        report.reason,
        `[guard/fail]: failed; ${ONFAIL}\nThe MCP tool returned an error. ${DETAILS_LEFT_OUT}`,
      );
    });
  }

  test('plain text blocks UserPromptSubmit under any value but "continue"', async () => {
    const report = await fire('UserPromptSubmit', [mcp('plain', { onFailure: 'stop' })]);
    assert.equal(report.blocked, true);
    assert.match(
      report.reason!,
      /^\[guard\/plain\]: failed; blocking because onFailure is "block" and the hook got no usable answer[^\n]*\nThe MCP tool's answer is not a hook's JSON output, \{\} or empty\./,
    );
  });

  test('a timeout blocks with "timed out" and no second line', async () => {
    const report = await fire('PreToolUse', [mcp('hang', { onFailure: 'block', timeout: 1 })]);
    assert.equal(report.reason, `[guard/hang]: timed out; ${ONFAIL}`);
  });

  test("a server that is not configured blocks with Claude Code's line", async () => {
    const report = await fire('PreToolUse', [{ ...mcp('deny'), server: 'nosuch', onFailure: 'block' }]);
    assert.equal(report.reason, `[nosuch/deny]: failed; ${ONFAIL}\nMCP server 'nosuch' not connected`);
  });

  // JSON without a hook field, with `reason` alone, and text that only starts like JSON.
  for (const tool of ['no-hook-fields', 'reason-only', 'brace-then-words']) {
    test(`an answer that is not hook JSON (${tool}) is a failure under onFailure, and no effect without it`, async () => {
      const blocked = await fire('PreToolUse', [mcp(tool, { onFailure: 'block' })]);
      assert.equal(blocked.blocked, true);
      assert.equal(
        blocked.reason,
        `[guard/${tool}]: failed; ${ONFAIL}\nThe MCP tool's answer is not a hook's JSON output, {} or empty. ${DETAILS_LEFT_OUT}`,
      );
      const ignored = await fire('PreToolUse', [mcp(tool)]);
      assert.equal(ignored.blocked, false);
      assert.equal(ignored.hooks[0]!.outcome, 'success');
    });
  }

  test('content other than text (an image) is a failure under onFailure; on UserPromptSubmit without it, the fixed success', async () => {
    const blocked = await fire('PreToolUse', [mcp('image', { onFailure: 'block' })]);
    assert.match(
      blocked.reason!,
      /^\[guard\/image\]: failed; [^\n]*\nThe MCP tool's answer is not a hook's JSON output, \{\} or empty\./,
    );
    assert.equal((await fire('UserPromptSubmit', [mcp('image')])).hooks[0]!.plainText, 'UserPromptSubmit completed');
  });

  test('empty text is no failure', async () => {
    const report = await fire('PreToolUse', [mcp('empty-text', { onFailure: 'block' })]);
    assert.equal(report.blocked, false);
    assert.equal(report.hooks[0]!.outcome, 'success');
  });

  test('{} is no failure', async () => {
    const report = await fire('PreToolUse', [mcp('empty', { onFailure: 'block' })]);
    assert.equal(report.blocked, false);
  });

  test('Stop ignores it', async () => {
    const report = await fire('Stop', [mcp('fail', { onFailure: 'block' })]);
    assert.equal(report.blocked, false);
    assert.equal(report.hooks[0]!.outcome, 'non_blocking_error');
  });
});

describe('the call', () => {
  test('placeholders are filled from the hook input at any depth; keys and other values stay', async () => {
    const input = {
      cmd: '${tool_input.command}',
      obj: '${tool_input}',
      missing: '${tool_input.nope}',
      mixed: '${hook_event_name}|${tool_name}',
      '${tool_name}': 'key',
      nested: { arr: ['${tool_name}', 1, true, null] },
      spaced: '${ tool_name }',
    };
    await fire('PreToolUse', [{ type: 'mcp_tool', server: 'guard', tool: 'echo', input }]);
    const call = readLog(httpLog)
      .filter((entry) => entry.event === 'call' && entry.tool === 'echo')
      .at(-1)!;
    const toolInput = JSON.parse(project.input(FIXTURES.PreToolUse!)).tool_input as Record<string, unknown>;
    assert.deepEqual(call.arguments, {
      cmd: toolInput.command,
      obj: JSON.stringify(toolInput),
      missing: '',
      mixed: 'PreToolUse|Bash',
      '${tool_name}': 'key',
      nested: { arr: ['Bash', 1, true, null] },
      spaced: '${ tool_name }',
    });
  });

  test('identical hooks run once; a different input runs apart', async () => {
    const before = readLog(httpLog).filter((entry) => entry.tool === 'echo').length;
    await fire('PreToolUse', [mcp('echo'), mcp('echo', { timeout: 30 }), mcp('echo', { input: { other: 1 } })]);
    assert.equal(readLog(httpLog).filter((entry) => entry.tool === 'echo').length - before, 2);
  });

  test('HTTP servers go through allowedHttpHookUrls: a URL outside them is not connected', async () => {
    const report = await fire('PreToolUse', [mcp('deny')], {
      settings: { allowedHttpHookUrls: ['https://hooks.example.com/*'] },
    });
    assert.equal(report.blocked, false);
    assert.match(
      report.hooks[0]!.error!,
      /^MCP server 'guard' not connected: .* does not match any pattern in allowedHttpHookUrls/,
    );
  });

  test('legacy SSE servers are called too', async () => {
    const report = await fire('PreToolUse', [mcp('deny')], {
      servers: { guard: { type: 'sse', url: http.url.replace(/\/mcp$/, '/sse') } },
    });
    assert.equal(report.reason, 'denied by guard');
  });

  test('a server entry with oauth is not connected: no sign-in, no browser', async () => {
    const report = await fire('PreToolUse', [mcp('deny')], {
      servers: { guard: { type: 'http', url: http.url, oauth: { clientId: 'x' } } },
    });
    assert.equal(report.blocked, false);
    assert.match(report.hooks[0]!.error!, /^MCP server 'guard' not connected: it needs OAuth sign-in/);
  });

  for (const type of ['http', 'sse']) {
    test(`a ${type} server that answers 401 is not connected: no OAuth discovery, no sign-in`, async () => {
      const needsAuth = http.url.replace(/\/mcp$/, `/needs-auth-${type}`);
      const report = await fire('PreToolUse', [mcp('deny')], { servers: { guard: { type, url: needsAuth } } });
      assert.equal(report.blocked, false);
      assert.match(report.hooks[0]!.error!, /^MCP server 'guard' not connected: it needs OAuth sign-in/);
      const paths = readLog(httpLog)
        .filter((entry) => entry.path !== undefined)
        .map((entry) => entry.path);
      assert.ok(paths.includes(`/needs-auth-${type}`), 'the server was asked');
      assert.ok(!paths.some((path) => path!.startsWith('/.well-known')), `no OAuth discovery: ${paths.join(', ')}`);
    });
  }

  test('the SSRF guard refuses a server at a metadata address before any socket opens', async () => {
    const report = await fire('PreToolUse', [mcp('deny')], {
      servers: { guard: { type: 'http', url: 'http://169.254.169.254/mcp' } },
    });
    assert.equal(report.blocked, false);
    assert.match(report.hooks[0]!.error!, /^MCP server 'guard' not connected: .*169\.254\.169\.254/);
  });

  test("a plugin's server is plugin:<plugin>:<server>, from --plugin-dir", async () => {
    const log = join(project.dir, '..', 'plugin-guard.log');
    const root = join(project.dir, '..', 'tools-plugin');
    project.write('../tools-plugin/.claude-plugin/plugin.json', { name: 'tools' });
    project.write('../tools-plugin/.mcp.json', { mcpServers: { guard: stdioGuard(log) } });
    const report = await fire('PreToolUse', [{ ...mcp('deny'), server: 'plugin:tools:guard' }], {
      servers: {},
      pluginDirs: [root],
    });
    assert.equal(report.reason, 'denied by guard');
    assert.equal(readLog(log).filter((entry) => entry.event === 'call').length, 1);
  });

  test("an unset ${VAR} in the server's entry stays as written, and the firing warns about it", async () => {
    const report = await fire('PreToolUse', [mcp('empty')], {
      servers: { guard: { type: 'http', url: http.url, headers: { 'X-Guard': '${GUARD_UNSET_VAR}' } } },
    });
    assert.match(
      report.warnings.map((w) => w.message).join('\n'),
      /MCP server "guard" uses \$\{GUARD_UNSET_VAR\}, which is not set; it stays as written/,
    );
    assert.equal(
      readLog(httpLog)
        .filter((entry) => entry.event === 'request')
        .at(-1)!.header,
      '${GUARD_UNSET_VAR}',
    );
  });

  test('${VAR:-default} expands in headers', async () => {
    await fire('PreToolUse', [mcp('empty')], {
      servers: { guard: { type: 'http', url: http.url, headers: { 'X-Guard': '${GUARD_TOKEN_UNSET:-fallback}' } } },
    });
    assert.equal(
      readLog(httpLog)
        .filter((entry) => entry.event === 'request')
        .at(-1)!.header,
      'fallback',
    );
  });
});

describe('stdio', () => {
  test("the server gets the user's environment and CLAUDE_PROJECT_DIR; hooks of one firing share its one process", async () => {
    const log = join(project.dir, '..', 'stdio-shared.log');
    const report = await fire('PreToolUse', [mcp('echo'), mcp('deny')], {
      servers: { guard: stdioGuard(log, { GUARD_ENV_PROBE: '${HOME}' }) },
    });
    assert.equal(report.blocked, true);
    const entries = readLog(log);
    const starts = entries.filter((entry) => entry.event === 'start');
    assert.equal(starts.length, 1, 'one server process for both hooks');
    assert.equal(starts[0]!.env, project.home);
    assert.equal(starts[0]!.projectDir, project.dir);
    assert.deepEqual(
      entries.filter((entry) => entry.event === 'call').map((entry) => entry.pid),
      [starts[0]!.pid, starts[0]!.pid],
    );
    await until('the server to be gone after the firing', () => !isAlive(starts[0]!.pid), 15_000);
  });

  test('a timeout cancels the request and leaves nothing running: the server and its child are killed', async () => {
    const log = join(project.dir, '..', 'stdio-hang.log');
    const report = await fire('PreToolUse', [mcp('hang', { timeout: 1 })], { servers: { guard: stdioGuard(log) } });
    assert.equal(report.hooks[0]!.outcome, 'cancelled');
    const entries = readLog(log);
    const server = entries.find((entry) => entry.event === 'start')!.pid;
    const child = entries.find((entry) => entry.event === 'hang')!.child!;
    assert.ok(
      entries.some((entry) => entry.event === 'cancelled'),
      'the server got notifications/cancelled',
    );
    await until('every process of the server to be gone', () => !isAlive(server) && !isAlive(child), 15_000);
  });

  test('peri-hooks interrupted during a call exits 1, and the server and its child are killed', async () => {
    const log = join(project.dir, '..', 'stdio-interrupted.log');
    project.write('.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mcp('hang', { timeout: 120 })] }] },
    });
    const [command, prefix] = cliCommand('fire');
    const cli = spawn(
      command,
      [
        ...prefix,
        'fire',
        'PreToolUse',
        '--output',
        'json',
        '--no-state',
        '--mcp-config',
        JSON.stringify({ mcpServers: { guard: stdioGuard(log) } }),
      ],
      { env: project.env(), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => cli.once('close', (code) => resolve(code)));
    cli.stdin.end(project.input(FIXTURES.PreToolUse!));
    try {
      await until('the call to reach the server', () => readLog(log).some((entry) => entry.event === 'hang'), 15_000);
      cli.kill('SIGTERM');
      assert.equal(await exited, 1, 'an interrupted firing is a runner error');
    } finally {
      cli.kill('SIGKILL');
    }
    const entries = readLog(log);
    const server = entries.find((entry) => entry.event === 'start')!.pid;
    const child = entries.find((entry) => entry.event === 'hang')!.child!;
    await until('every process of the server to be gone', () => !isAlive(server) && !isAlive(child), 15_000);
  });

  test('a server that does not answer initialize within MCP_TIMEOUT is not connected, and is killed', async () => {
    const log = join(project.dir, '..', 'stdio-mute.log');
    // The shell logs the server's pid before Node starts (exec keeps it): under load Node may not have started
    // when the 1 s runs out, and the kill must be checked all the same.
    const mute = {
      command: 'sh',
      args: [
        '-c',
        `echo "{\\"event\\":\\"start\\",\\"pid\\":$$}" >> "$GUARD_LOG"; exec "$0" "$1" mute`,
        process.execPath,
        GUARD_SERVER,
      ],
      env: { GUARD_LOG: log },
    };
    const report = await fire('PreToolUse', [mcp('deny', { timeout: 60 })], {
      servers: { guard: mute },
      env: { MCP_TIMEOUT: '1000' },
    });
    assert.equal(report.blocked, false);
    assert.equal(
      report.hooks[0]!.error,
      "MCP server 'guard' not connected: it did not connect within 1 s (MCP_TIMEOUT)",
    );
    const server = readLog(log).find((entry) => entry.event === 'start')!.pid;
    await until('the server to be gone after the firing', () => !isAlive(server), 15_000);
  });

  test('a server that cannot start is not connected, with why', async () => {
    const report = await fire('PreToolUse', [mcp('deny')], {
      servers: { guard: { command: join(project.dir, 'no-such-server') } },
    });
    assert.equal(report.blocked, false);
    assert.match(report.hooks[0]!.error!, /^MCP server 'guard' not connected: .*ENOENT/);
  });
});

// Issue 29 item 1: an answer over the stdio client's 10 MiB line limit threw from the transport's data handler,
// outside every error handling: fire died with a stack trace and exit 1, even under --fail-closed, and took a
// sibling's deny with it.
describe('a hostile stdio server', () => {
  const command = { type: 'command', command: 'echo "command says no" >&2; exit 2' };
  for (const tool of ['huge', 'unterminated']) {
    test(`${tool}: over 10 MiB is that hook's failure; the sibling's deny stands, --fail-closed blocks on it, the server is killed`, async () => {
      const log = join(project.dir, '..', `stdio-${tool}.log`);
      const servers = { guard: stdioGuard(log) };
      project.write('.claude/settings.json', {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mcp(tool, { timeout: 60 }), command] }] },
      });
      const run = (extra: string[]) =>
        runCli(
          ['fire', 'PreToolUse', '--no-state', '--mcp-config', JSON.stringify({ mcpServers: servers }), ...extra],
          { stdin: project.input(FIXTURES.PreToolUse!), env: project.env() },
        );
      const denied = await run(['--output', 'json']);
      assert.equal(denied.code, 2, denied.stderr);
      assert.doesNotMatch(denied.stderr, /internal error|\n\s+at /);
      const report = JSON.parse(denied.stdout) as Report;
      assert.match(report.reason!, /command says no/);
      assert.equal(report.hooks[0]!.outcome, 'non_blocking_error');
      assert.match(report.hooks[0]!.error!, /answer is over 10 MiB/);
      // Alone, under --fail-closed: the failure blocks.
      project.write('.claude/settings.json', {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mcp(tool, { timeout: 60 })] }] },
      });
      const closed = await run(['--fail-closed']);
      assert.equal(closed.code, 2, closed.stderr);
      assert.match(closed.stderr, /answer is over 10 MiB[\s\S]*blocking because of --fail-closed/);
      for (const start of readLog(log).filter((entry) => entry.event === 'start'))
        await until('the server to be gone', () => !isAlive(start.pid), 15_000);
    });
  }

  test('an error text with terminal escape sequences is shown without them', async () => {
    const report = await fire('PreToolUse', [mcp('escapes')], {
      servers: { guard: stdioGuard(join(project.dir, '..', 'stdio-escapes.log')) },
    });
    assert.equal(report.hooks[0]!.error, 'MCP tool guard/escapes returned an error: redover');
    const human = await runCli(
      [
        'fire',
        'PreToolUse',
        '--no-state',
        '--mcp-config',
        JSON.stringify({ mcpServers: { guard: stdioGuard(join(project.dir, '..', 'stdio-escapes.log')) } }),
      ],
      { stdin: project.input(FIXTURES.PreToolUse!), env: project.env() },
    );
    assert.doesNotMatch(human.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  test('on a terminal, a deny reason from an MCP answer is shown without its escape sequences', {
    skip: spawnSync('sh', ['-c', 'command -v script']).status === 0 ? false : 'needs script(1) for a terminal',
  }, async () => {
    const log = join(project.dir, '..', 'stdio-escapes-deny.log');
    project.write('.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mcp('escapes-deny')] }] },
    });
    const input = join(project.dir, '..', 'escapes-input.json');
    writeFileSync(input, project.input(FIXTURES.PreToolUse!));
    const [command, prefix] = cliCommand('fire');
    const line = [
      command,
      ...prefix,
      'fire',
      'PreToolUse',
      '--no-state',
      '--input',
      input,
      '--mcp-config',
      JSON.stringify({ mcpServers: { guard: stdioGuard(log) } }),
    ]
      .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
      .join(' ');
    // script(1) gives peri-hooks a terminal on stdout and stderr; what it writes there comes back on script's stdout.
    const result = await runCli([], { env: project.env(), cli: ['script', ['-qec', `${line} 2>&1`, '/dev/null']] });
    assert.equal(result.code, 2, result.stdout);
    assert.match(result.stdout, /denied by guard/);
    assert.doesNotMatch(result.stdout, /\u001b\]0;|\u001b\[2J|\u0007/);
  });
});
