// `peri-hooks mcp` as the agent meets it: a real process started by the official MCP client over stdio, its fire
// tool called with arguments as Claude Code substitutes them. The answers are hook JSON, calls run concurrently,
// a policy edit is seen by the next call, and closing stdin ends the server with every hook process it started.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isAlive } from '../../src/session/lock.ts';
import { cliCommand, makeProject, type Project } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';

interface Connected {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
}

async function connect(project: Project, policy: string, extra: string[] = []): Promise<Connected> {
  const [command, prefix] = cliCommand('fire');
  const transport = new StdioClientTransport({
    command,
    args: [...prefix, 'mcp', '--settings', policy, '--setting-sources', '', ...extra],
    env: project.env(),
    cwd: project.dir,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, pid: transport.pid! };
}

/** Arguments as Claude Code substitutes a PreToolUse input: every value text, tool_input compact JSON. */
function preToolUse(project: Project, command: string): Record<string, string> {
  return {
    hook_event_name: 'PreToolUse',
    session_id: 'mcp-session',
    transcript_path: '',
    cwd: project.dir,
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: JSON.stringify({ command }),
    tool_use_id: 'toolu_1',
    agent_id: '',
  };
}

async function fire(
  connected: Connected,
  args: Record<string, unknown>,
): Promise<{ json?: Record<string, any>; text: string; isError: boolean }> {
  const result = (await connected.client.callTool({ name: 'fire', arguments: args })) as {
    content: Array<{ text: string }>;
    isError?: boolean;
  };
  const text = result.content.map((block) => block.text).join('\n');
  return { text, isError: result.isError === true, ...(text.startsWith('{') ? { json: JSON.parse(text) } : {}) };
}

describe('peri-hooks mcp', () => {
  let project: Project;
  let policy: string;
  let server: Connected;
  before(async () => {
    project = makeProject();
    project.write(
      'hooks/guard.sh',
      '#!/bin/sh\ninput=$(cat)\ncase "$input" in *"push -f"*) echo "no force push" >&2; exit 2;; esac\ncase "$input" in *slow-a*) timeout 20 sh -c "until [ -e \\"$0\\" ]; do sleep 0.05; done" "$(dirname "$0")/b.mark" && echo "a saw b";; *slow-b*) touch "$(dirname "$0")/b.mark";; esac\n',
    );
    policy = project.write('policy.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: join(project.dir, 'hooks/guard.sh') }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "on branch main"' }] }],
      },
    });
    server = await connect(project, policy);
  });
  after(async () => {
    await server.client.close();
    project.cleanup();
  });

  test('lists no tool, so that the model is not offered one; fire answers all the same', async () => {
    const { tools } = await server.client.listTools();
    assert.deepEqual(tools, []);
    assert.equal((await fire(server, preToolUse(project, 'ls'))).isError, false);
  });

  test('an exit-2 block comes back as the deny JSON Claude Code renders like the exit code', async () => {
    const answer = await fire(server, preToolUse(project, 'git push -f'));
    assert.equal(answer.isError, false);
    assert.equal(answer.json?.hookSpecificOutput?.permissionDecision, 'deny');
    assert.equal(
      answer.json?.hookSpecificOutput?.permissionDecisionReason,
      `[${join(project.dir, 'hooks/guard.sh')}]: no force push\n`,
    );
  });

  test('an allowed call answers {}; plain-text context on UserPromptSubmit becomes additionalContext', async () => {
    assert.deepEqual((await fire(server, preToolUse(project, 'ls'))).json, {});
    const prompt = await fire(server, {
      hook_event_name: 'UserPromptSubmit',
      session_id: 'mcp-session',
      transcript_path: '',
      cwd: project.dir,
      permission_mode: 'default',
      prompt: 'hi',
    });
    assert.deepEqual(prompt.json, {
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'on branch main' },
    });
  });

  test('two calls run at once: the first finishes only because the second ran meanwhile', async () => {
    const [a, b] = await Promise.all([
      fire(server, preToolUse(project, 'slow-a')),
      fire(server, preToolUse(project, 'slow-b')),
    ]);
    assert.deepEqual(b.json, {});
    assert.deepEqual(a.json, {}, a.text);
  });

  test('bad arguments are a tool error naming the field; the server goes on', async () => {
    const bad = await fire(server, { ...preToolUse(project, 'ls'), tool_input: '{not json' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /argument \$\.tool_input is not JSON/);
    assert.deepEqual((await fire(server, preToolUse(project, 'ls'))).json, {});
  });

  test('an edited policy is seen by the next call', async () => {
    const original = readFileSync(policy, 'utf8');
    project.write('policy.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no Bash today" >&2; exit 2' }] }],
      },
    });
    try {
      assert.match(
        (await fire(server, preToolUse(project, 'ls'))).json?.hookSpecificOutput?.permissionDecisionReason ?? '',
        /no Bash today/,
      );
    } finally {
      project.write('policy.json', original);
    }
  });
});

describe('peri-hooks mcp --fail-closed, and its end', () => {
  test('under --fail-closed, arguments it cannot read block where the event can block', async () => {
    const project = makeProject();
    const server = await connect(project, project.write('policy.json', { hooks: {} }), ['--fail-closed']);
    try {
      const answer = await fire(server, { ...preToolUse(project, 'ls'), tool_input: '{not json' });
      assert.equal(answer.json?.hookSpecificOutput?.permissionDecision, 'deny');
      assert.match(
        answer.json?.hookSpecificOutput?.permissionDecisionReason,
        /not JSON[\s\S]*blocking because of --fail-closed/,
      );
    } finally {
      await server.client.close();
      project.cleanup();
    }
  });

  test('closing stdin ends the server and every hook process it started', async () => {
    const project = makeProject();
    const pidFile = join(project.dir, 'sleep.pid');
    const policy = project.write('policy.json', {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `sleep 300 & echo $! > ${pidFile}; wait` }] }] },
    });
    const server = await connect(project, policy);
    try {
      const pending = fire(server, preToolUse(project, 'ls')).catch(() => undefined);
      const sleeper = await until('the hook to start its child', () => {
        try {
          return Number(readFileSync(pidFile, 'utf8')) || undefined;
        } catch {
          return undefined;
        }
      });
      await server.client.close();
      await pending;
      await until(
        "the server and the hook's child to be gone",
        () => !isAlive(server.pid) && !isAlive(sleeper),
        30_000,
      );
    } finally {
      project.cleanup();
    }
  });
});
