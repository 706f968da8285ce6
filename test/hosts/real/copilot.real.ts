// The real GitHub Copilot CLI 1.0.102, each case twice: the hook registered natively in `.github/hooks/`, then the
// same logic as a Claude Code policy through `peri-hooks install --host copilot`. Compared: did the tool run, what
// the model saw, Copilot's exit status, how many model requests. Where they differ on purpose (peri-hooks gives
// the model an exit-2 reason; a timed-out policy hook denies), the case says so and the README documents it.

import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT } from '../../helpers/cli.ts';
import { type ChatScript, chatTexts } from '../../helpers/openai-chat-server.ts';
import { periHooks, type RunFolder, recordInput, recordingHook, runFolder, seen } from './common.ts';
import { handler, installPolicy, nativeHooks, runCopilot } from './copilot.ts';

interface Outcome {
  folder: RunFolder;
  code: number | null;
  chats: number;
  /** The tool call's own marker file exists: the tool ran. */
  ran: boolean;
  rewritten: boolean;
  /** Every text the model was sent, over the whole run. */
  saw: string;
  stdout: string;
}

interface Case {
  /** The model's turns (default: one bash call that touches MARKER, then "finished"). */
  script?: ChatScript;
  prompt?: string;
  allowAllTools?: boolean;
  /** Writes the native registration. */
  native(folder: RunFolder): void;
  /** The same logic as Claude Code policy hooks (by event). */
  policy(folder: RunFolder): Record<string, unknown>;
}

const folders: RunFolder[] = [];
after(() => {
  for (const folder of folders) folder.cleanup();
});

const touch = (file: string) => ({
  toolCalls: [{ name: 'bash', arguments: { command: `touch ${file}`, description: `touch ${file}` } }],
});
const BASH_ONCE: ChatScript = (_request, index) => (index === 0 ? touch('MARKER') : { text: 'finished' });

/** `how`: the native registration, install --host copilot, or a registration of peri-hooks the case writes itself. */
async function once(
  name: string,
  spec: Case,
  how: 'native' | 'peri-hooks' | ((folder: RunFolder) => void),
  installArgs: string[] = [],
): Promise<Outcome> {
  const folder = runFolder(`copilot-${name}-${typeof how === 'string' ? how : 'own'}`);
  folders.push(folder);
  if (how === 'native') spec.native(folder);
  else if (how === 'peri-hooks') await installPolicy(folder, { hooks: spec.policy(folder) }, installArgs);
  else how(folder);
  const run = await runCopilot(folder, spec.script ?? BASH_ONCE, spec.prompt ?? 'make the marker', {
    ...(spec.allowAllTools === false ? { allowAllTools: false } : {}),
  });
  assert.equal(run.result.timedOut, false, `${name} (${how}) timed out:\n${run.result.stderr}`);
  return {
    folder,
    code: run.result.code,
    chats: run.api.chats.length,
    ran: existsSync(join(folder.project, 'MARKER')),
    rewritten: existsSync(join(folder.project, 'REWRITTEN')),
    saw: run.allSeen,
    stdout: run.result.stdout,
  };
}

/** Both registrations of a case, side by side. */
async function pair(
  name: string,
  spec: Case,
  register?: (folder: RunFolder) => void,
): Promise<{ native: Outcome; peri: Outcome }> {
  const [native, peri] = await Promise.all([once(name, spec, 'native'), once(name, spec, register ?? 'peri-hooks')]);
  return { native, peri };
}

/** The facts both registrations must share. */
function same(native: Outcome, peri: Outcome): void {
  assert.deepEqual(
    { code: peri.code, chats: peri.chats, ran: peri.ran, rewritten: peri.rewritten },
    { code: native.code, chats: native.chats, ran: native.ran, rewritten: native.rewritten },
    `peri-hooks:\n${peri.stdout}\nnative:\n${native.stdout}`,
  );
}

const group = (command: string, matcher?: string) => [
  { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, timeout: 10 }] },
];
const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

/** A hook that answers `answer` the first time it runs and nothing after (a flag file beside its log). */
function blockOnce(folder: RunFolder, name: string, answer: object): string {
  const path = join(folder.root, 'hooks', `${name}.sh`);
  const log = join(folder.root, 'seen', `${name}.jsonl`);
  for (const file of [path, log]) mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    path,
    `#!/bin/sh\n${recordInput(log)}\n[ -e '${log}.done' ] && exit 0\ntouch '${log}.done'\nprintf '%s' '${JSON.stringify(answer)}'\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** A Stop hook with a loop guard: blocks once, then lets the agent stop when told the stop is a forced one. */
function stopGuard(folder: RunFolder, name: string, answer: string): string {
  const path = join(folder.root, 'hooks', `${name}.sh`);
  const log = join(folder.root, 'seen', `${name}.jsonl`);
  for (const file of [path, log]) mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    path,
    `#!/bin/sh\n${recordInput(log)}\nprintf '%s' "$input" | grep -Eq '"stop_?[hH]ook_?[aA]ctive": ?true' && exit 0\nprintf '%s' '${answer}'\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe('the real GitHub Copilot CLI, hooks native and through peri-hooks', { concurrency: 3 }, () => {
  test('deny by exit 2: the tool does not run either way; the model reads the reason only through peri-hooks', async () => {
    const { native, peri } = await pair('exit2', {
      native: (folder) =>
        nativeHooks(folder, {
          preToolUse: [handler(recordingHook(folder, 'deny', { stderr: 'EXIT2-REASON', exit: 2 }))],
        }),
      policy: (folder) => ({
        PreToolUse: group(recordingHook(folder, 'deny', { stderr: 'EXIT2-REASON', exit: 2 }), 'Bash'),
      }),
    });
    same(native, peri);
    assert.equal(native.ran, false);
    assert.match(native.saw, /Denied by preToolUse hook: hook exited with code 2/);
    assert.doesNotMatch(native.saw, /EXIT2-REASON/);
    assert.match(peri.saw, /Denied by preToolUse hook: EXIT2-REASON/);
    assert.deepEqual(seen(peri.folder, 'deny')[0]!.tool_input, {
      command: 'touch MARKER',
      description: 'touch MARKER',
    });
  });

  test('deny by JSON: the tool does not run, the model reads the reason', async () => {
    const { native, peri } = await pair('json-deny', {
      native: (folder) =>
        nativeHooks(folder, {
          preToolUse: [
            handler(
              recordingHook(folder, 'deny', {
                stdout: { permissionDecision: 'deny', permissionDecisionReason: 'JSON-REASON' },
              }),
            ),
          ],
        }),
      policy: (folder) => ({
        PreToolUse: group(
          recordingHook(folder, 'deny', {
            stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'JSON-REASON' }),
          }),
          'Bash',
        ),
      }),
    });
    same(native, peri);
    assert.equal(native.ran, false);
    for (const outcome of [native, peri]) assert.match(outcome.saw, /Denied by preToolUse hook: JSON-REASON/);
  });

  test("allow with a rewrite: the rewritten command runs instead; a Read rewrite's offset/limit reach Copilot as view_range", async () => {
    const view = { toolCalls: [{ name: 'view', arguments: { path: 'lines.txt', view_range: [2, 2] } }] };
    const lines = (folder: RunFolder) => folder.write('lines.txt', 'LINE-ONE\nLINE-TWO\n');
    /** A hook that rewrites the view call to line 1 (in `view`'s terms) and any other call to touch REWRITTEN. */
    const rewriteHook = (folder: RunFolder, bash: object, read: object) => {
      lines(folder);
      const path = join(folder.root, 'hooks', 'rewrite.sh');
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(
        path,
        `#!/bin/sh\ncase "$(cat)" in *view_range*) printf '%s' '${JSON.stringify(read)}';; *) printf '%s' '${JSON.stringify(bash)}';; esac\n`,
      );
      chmodSync(path, 0o755);
      return path;
    };
    const { native, peri } = await pair('rewrite', {
      script: (_request, index) => [touch('MARKER'), view][index] ?? { text: 'finished' },
      native: (folder) =>
        nativeHooks(folder, {
          preToolUse: [
            handler(
              rewriteHook(
                folder,
                { permissionDecision: 'allow', modifiedArgs: { command: 'touch REWRITTEN', description: 'rewritten' } },
                { permissionDecision: 'allow', modifiedArgs: { path: 'lines.txt', view_range: [1, 1] } },
              ),
            ),
          ],
        }),
      policy: (folder) => ({
        PreToolUse: group(
          rewriteHook(
            folder,
            pre({
              permissionDecision: 'allow',
              updatedInput: { command: 'touch REWRITTEN', description: 'rewritten' },
            }),
            pre({
              permissionDecision: 'allow',
              updatedInput: { file_path: join(folder.project, 'lines.txt'), offset: 1, limit: 1 },
            }),
          ),
        ),
      }),
    });
    same(native, peri);
    assert.deepEqual([peri.ran, peri.rewritten], [false, true]);
    // The view call asked for line 2; both rewrites make Copilot read line 1 alone.
    for (const outcome of [native, peri]) {
      assert.match(outcome.saw, /LINE-ONE/);
      assert.doesNotMatch(outcome.saw, /LINE-TWO/);
    }
  });

  test('context before a tool, after it, and after a failed one reaches the model', async () => {
    const script: ChatScript = (_request, index) =>
      [touch('MARKER'), { toolCalls: [{ name: 'view', arguments: { path: 'missing.txt' } }] }][index] ?? {
        text: 'finished',
      };
    const { native, peri } = await pair('context', {
      script,
      native: (folder) =>
        nativeHooks(folder, {
          preToolUse: [
            handler(
              recordingHook(folder, 'pre', {
                stdout: { permissionDecision: 'allow', additionalContext: 'PRE-CONTEXT' },
              }),
            ),
          ],
          postToolUse: [handler(recordingHook(folder, 'post', { stdout: { additionalContext: 'POST-CONTEXT' } }))],
          postToolUseFailure: [
            handler(recordingHook(folder, 'failure', { stdout: { additionalContext: 'FAILURE-CONTEXT' } })),
          ],
        }),
      policy: (folder) => ({
        PreToolUse: group(
          recordingHook(folder, 'pre', {
            stdout: pre({ permissionDecision: 'allow', additionalContext: 'PRE-CONTEXT' }),
          }),
        ),
        PostToolUse: group(
          recordingHook(folder, 'post', {
            stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'POST-CONTEXT' } },
          }),
        ),
        PostToolUseFailure: group(
          recordingHook(folder, 'failure', {
            stdout: {
              hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'FAILURE-CONTEXT' },
            },
          }),
        ),
      }),
    });
    same(native, peri);
    assert.equal(peri.ran, true);
    for (const outcome of [native, peri]) {
      assert.match(outcome.saw, /Additional context from preToolUse hook:\nPRE-CONTEXT/);
      assert.match(outcome.saw, /Additional guidance from postToolUse hooks:\nPOST-CONTEXT/);
      assert.match(outcome.saw, /FAILURE-CONTEXT/);
    }
    // Copilot's view and its relative path reach the policy as Claude Code's Read of an absolute path.
    const failed = seen(peri.folder, 'failure')[0]!;
    assert.deepEqual(
      [failed.tool_name, failed.tool_input],
      ['Read', { file_path: join(peri.folder.project, 'missing.txt') }],
    );
  });

  test("tool results, glob and grep reach the policy in Claude Code's shapes; Copilot's own fields are kept", async () => {
    const calls = [
      { name: 'bash', arguments: { command: 'echo out; echo err >&2; touch MARKER', description: 'x' } },
      { name: 'view', arguments: { path: 'notes.txt' } },
      { name: 'view', arguments: { path: 'notes.txt', view_range: [2, 2] } },
      { name: 'create', arguments: { path: 'new.txt', file_text: 'hello\n' } },
      { name: 'edit', arguments: { path: 'notes.txt', old_str: 'beta', new_str: 'gamma' } },
      { name: 'glob', arguments: { pattern: '*.ts', paths: ['src', 'lib'] } },
      { name: 'grep', arguments: { pattern: 'const', paths: 'src' } },
    ];
    const setup = (folder: RunFolder) => {
      folder.write('notes.txt', 'alpha\nbeta\n');
      folder.write('src/a.ts', 'const a = 1;\n');
      folder.write('lib/b.ts', 'const b = 2;\n');
    };
    const { native, peri } = await pair('shapes', {
      script: (_request, index) => (index < calls.length ? { toolCalls: [calls[index]!] } : { text: 'finished' }),
      native: (folder) => {
        setup(folder);
        nativeHooks(folder, {
          preToolUse: [handler(recordingHook(folder, 'pre'))],
          postToolUse: [handler(recordingHook(folder, 'post'))],
        });
      },
      policy: (folder) => {
        setup(folder);
        return { PreToolUse: group(recordingHook(folder, 'pre')), PostToolUse: group(recordingHook(folder, 'post')) };
      },
    });
    same(native, peri);
    const project = peri.folder.project;
    const post = seen(peri.folder, 'post');
    const response = (tool: string) => post.find((input) => input.tool_name === tool)?.tool_response;
    // Copilot merges the command's two streams into stdout, in whichever order its reads of the two pipes land.
    const bashResponse = response('Bash') as { stdout?: string } | undefined;
    assert.deepEqual(
      { ...bashResponse, stdout: bashResponse?.stdout?.split('\n').sort() },
      { stdout: ['err', 'out'], stderr: '', interrupted: false, isImage: false },
    );
    assert.deepEqual(response('Read'), {
      type: 'text',
      file: {
        filePath: join(project, 'notes.txt'),
        content: 'alpha\nbeta\n',
        numLines: 3,
        startLine: 1,
        totalLines: 3,
      },
    });
    assert.deepEqual(response('Write'), {
      type: 'create',
      filePath: join(project, 'new.txt'),
      content: 'hello\n',
      structuredPatch: [],
    });
    assert.deepEqual(response('Edit'), {
      filePath: join(project, 'notes.txt'),
      oldString: 'beta',
      newString: 'gamma',
      structuredPatch: [],
      userModified: false,
      replaceAll: false,
    });
    const bash = post.find((input) => input.tool_name === 'Bash')!.peri_hooks_host as Record<string, unknown>;
    assert.match(
      String((bash.tool_response as { textResultForLlm: string }).textResultForLlm),
      /completed with exit code 0>$/,
    );
    assert.equal(typeof (bash.fields as { timestamp: unknown }).timestamp, 'number');
    // Copilot's paths: one Claude Code call per path, each absolute.
    const searches = seen(peri.folder, 'pre')
      .filter((input) => input.tool_name === 'Glob' || input.tool_name === 'Grep')
      .map((input) => [input.tool_name, input.tool_input]);
    assert.deepEqual(searches, [
      ['Glob', { pattern: '*.ts', path: join(project, 'src') }],
      ['Glob', { pattern: '*.ts', path: join(project, 'lib') }],
      ['Grep', { pattern: 'const', path: join(project, 'src') }],
    ]);
    // view_range [2, 2] is line 2 alone (Copilot's 1-based, inclusive range, as its hooks get it): Read's offset 2, limit 1.
    const ranged = (input: Record<string, any>) => JSON.stringify(input).includes('view_range');
    assert.deepEqual(seen(native.folder, 'pre').filter(ranged)[0]!.toolArgs, { path: 'notes.txt', view_range: [2, 2] });
    assert.equal(seen(native.folder, 'post').filter(ranged)[0]!.toolResult.textResultForLlm, 'beta');
    const read = seen(peri.folder, 'pre').filter(ranged)[0]!;
    assert.deepEqual(
      [read.tool_name, read.tool_input, read.peri_hooks_host.tool_input],
      [
        'Read',
        { file_path: join(project, 'notes.txt'), offset: 2, limit: 1 },
        { path: 'notes.txt', view_range: [2, 2] },
      ],
    );
    const { content, startLine } = seen(peri.folder, 'post').filter(ranged)[0]!.tool_response.file;
    assert.deepEqual([content, startLine], ['beta', 2]);
  });

  test('a block after the tool: the model reads the reason instead of the result', async () => {
    const { native, peri } = await pair('post-block', {
      native: (folder) =>
        nativeHooks(folder, {
          postToolUse: [
            handler(recordingHook(folder, 'post', { stdout: { decision: 'block', reason: 'RESULT-WITHHELD' } })),
          ],
        }),
      policy: (folder) => ({
        PostToolUse: group(
          recordingHook(folder, 'post', { stdout: { decision: 'block', reason: 'RESULT-WITHHELD' } }),
          'Bash',
        ),
      }),
    });
    same(native, peri);
    assert.equal(peri.ran, true);
    for (const outcome of [native, peri]) {
      assert.match(outcome.saw, /Tool result blocked: RESULT-WITHHELD/);
      assert.doesNotMatch(outcome.saw, /completed with exit code 0/);
    }
  });

  test('a prompt block: no model request, Copilot exits 1', async () => {
    const { native, peri } = await pair('prompt-block', {
      native: (folder) =>
        nativeHooks(folder, {
          userPromptSubmitted: [
            handler(recordingHook(folder, 'prompt', { stdout: { decision: 'block', reason: 'PROMPT-BLOCKED' } })),
          ],
        }),
      policy: (folder) => ({
        UserPromptSubmit: group(recordingHook(folder, 'prompt', { stderr: 'PROMPT-BLOCKED', exit: 2 })),
      }),
    });
    same(native, peri);
    assert.deepEqual([peri.code, peri.chats, peri.ran], [1, 0, false]);
  });

  test('context at session start (source new is startup) and with the prompt reaches the model', async () => {
    const { native, peri } = await pair('start-context', {
      native: (folder) =>
        nativeHooks(folder, {
          sessionStart: [handler(recordingHook(folder, 'start', { stdout: { additionalContext: 'START-CONTEXT' } }))],
          userPromptSubmitted: [
            handler(recordingHook(folder, 'prompt', { stdout: { additionalContext: 'PROMPT-CONTEXT' } })),
          ],
        }),
      policy: (folder) => ({
        SessionStart: group(recordingHook(folder, 'start', { stdout: 'START-CONTEXT' }), 'startup'),
        UserPromptSubmit: group(
          recordingHook(folder, 'prompt', {
            stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'PROMPT-CONTEXT' } },
          }),
        ),
      }),
    });
    same(native, peri);
    for (const outcome of [native, peri]) {
      assert.match(outcome.saw, /START-CONTEXT/);
      assert.match(outcome.saw, /<system_reminder>\nPROMPT-CONTEXT\n<\/system_reminder>/);
    }
    assert.equal(seen(peri.folder, 'start')[0]!.source, 'startup');
  });

  test('Stop blocks once, and a loop guard on stop_hook_active lets the agent stop', async () => {
    const { native, peri } = await pair('stop-guard', {
      native: (folder) =>
        nativeHooks(folder, {
          agentStop: [
            handler(stopGuard(folder, 'stop', JSON.stringify({ decision: 'block', reason: 'ONE-MORE-TURN' }))),
          ],
        }),
      policy: (folder) => ({
        Stop: group(stopGuard(folder, 'stop', JSON.stringify({ decision: 'block', reason: 'ONE-MORE-TURN' }))),
      }),
    });
    same(native, peri);
    assert.equal(peri.chats, 3);
    for (const outcome of [native, peri]) assert.match(outcome.saw, /ONE-MORE-TURN/);
    assert.deepEqual(
      seen(peri.folder, 'stop').map((input) => input.stop_hook_active),
      [false, true],
    );
  });

  test('a Stop hook that always blocks: Copilot ends the turn after 8 blocks, through peri-hooks too', async () => {
    const { native, peri } = await pair('stop-loop', {
      native: (folder) =>
        nativeHooks(folder, {
          agentStop: [handler(recordingHook(folder, 'stop', { stdout: { decision: 'block', reason: 'AGAIN' } }))],
        }),
      policy: (folder) => ({
        Stop: group(recordingHook(folder, 'stop', { stdout: { decision: 'block', reason: 'AGAIN' } })),
      }),
    });
    same(native, peri);
    assert.deepEqual([native.code, native.chats], [0, 10]);
    for (const outcome of [native, peri]) assert.equal(seen(outcome.folder, 'stop').length, 9);
  });

  test('ask: a headless run has no one to ask, so Copilot denies, naming the reason', async () => {
    const { native, peri } = await pair('ask', {
      native: (folder) =>
        nativeHooks(folder, {
          preToolUse: [
            handler(
              recordingHook(folder, 'ask', {
                stdout: { permissionDecision: 'ask', permissionDecisionReason: 'ASK-REASON' },
              }),
            ),
          ],
        }),
      policy: (folder) => ({
        PreToolUse: group(
          recordingHook(folder, 'ask', {
            stdout: pre({ permissionDecision: 'ask', permissionDecisionReason: 'ASK-REASON' }),
          }),
        ),
      }),
    });
    same(native, peri);
    assert.equal(peri.ran, false);
    for (const outcome of [native, peri])
      assert.match(outcome.saw, /unable to ask user for confirmation\): ASK-REASON/);
  });

  test('a crashing preToolUse hook: Copilot denies, and so does peri-hooks, with or without --fail-closed', async () => {
    const spec: Case = {
      native: (folder) =>
        nativeHooks(folder, { preToolUse: [handler(recordingHook(folder, 'crash', { stderr: 'CRASHED', exit: 1 }))] }),
      policy: (folder) => ({ PreToolUse: group(recordingHook(folder, 'crash', { stderr: 'CRASHED', exit: 1 })) }),
    };
    const [native, peri, closed] = await Promise.all([
      once('crash', spec, 'native'),
      once('crash', spec, 'peri-hooks'),
      once('crash-closed', spec, 'peri-hooks', ['--fail-closed']),
    ]);
    same(native, peri);
    same(native, closed);
    assert.equal(native.ran, false);
    assert.match(native.saw, /\(hook errored\)/);
    assert.match(
      peri.saw,
      /Denied by preToolUse hook: a policy hook (failed|timed out) \(blocking because of GitHub Copilot CLI, which refuses the action when a preToolUse hook fails\)/,
    );
    assert.match(
      closed.saw,
      /Denied by preToolUse hook: a policy hook (failed|timed out) \(blocking because of --fail-closed\)/,
    );
    // The failed hook's command line stays out of what the model reads.
    for (const outcome of [peri, closed]) assert.doesNotMatch(outcome.saw, /crash\.sh|CRASHED/);
  });

  test('a preToolUse hook that times out: Copilot lets the tool run; peri-hooks denies, with or without --fail-closed', async () => {
    const spec: Case = {
      native: (folder) =>
        nativeHooks(folder, { preToolUse: [handler(recordingHook(folder, 'slow', { sleep: 30 }), 1)] }),
      policy: (folder) => ({
        PreToolUse: [
          { hooks: [{ type: 'command', command: recordingHook(folder, 'slow', { sleep: 30 }), timeout: 1 }] },
        ],
      }),
    };
    const [native, peri, closed] = await Promise.all([
      once('timeout', spec, 'native'),
      once('timeout', spec, 'peri-hooks'),
      once('timeout-closed', spec, 'peri-hooks', ['--fail-closed']),
    ]);
    assert.equal(native.ran, true);
    for (const outcome of [peri, closed]) {
      assert.equal(outcome.ran, false);
      assert.equal(outcome.chats, native.chats);
      assert.match(outcome.saw, /Denied by preToolUse hook: a policy hook (failed|timed out)/);
      assert.doesNotMatch(outcome.saw, /slow\.sh/);
    }
  });

  test('permission requests fire headless without --allow-all-tools; a deny stops the tool, the policy sees the command', async () => {
    const { native, peri } = await pair('permission', {
      allowAllTools: false,
      native: (folder) =>
        nativeHooks(folder, {
          permissionRequest: [
            handler(recordingHook(folder, 'perm', { stdout: { behavior: 'deny', message: 'PERMISSION-DENIED' } })),
          ],
        }),
      policy: (folder) => ({
        PermissionRequest: group(
          recordingHook(folder, 'perm', {
            stdout: {
              hookSpecificOutput: {
                hookEventName: 'PermissionRequest',
                decision: { behavior: 'deny', message: 'PERMISSION-DENIED' },
              },
            },
          }),
          'Bash',
        ),
      }),
    });
    same(native, peri);
    assert.equal(peri.ran, false);
    for (const outcome of [native, peri])
      assert.match(outcome.saw, /Permission denied by a PermissionRequest hook: PERMISSION-DENIED/);
    assert.deepEqual(seen(peri.folder, 'perm')[0]!.tool_input, { command: 'touch MARKER' });
  });

  test("PascalCase registrations (Claude Code's event names): rewrite and context before a tool, context after it, at session start and with the prompt, a Stop block", async () => {
    const script: ChatScript = (_request, index) =>
      [touch('MARKER'), { toolCalls: [{ name: 'view', arguments: { path: 'missing.txt' } }] }][index] ?? {
        text: 'finished',
      };
    const answers = {
      PreToolUse: [
        {
          permissionDecision: 'allow',
          modifiedArgs: { command: 'touch REWRITTEN', description: 'rewritten' },
          additionalContext: 'PRE-CONTEXT',
        },
        pre({
          permissionDecision: 'allow',
          updatedInput: { command: 'touch REWRITTEN', description: 'rewritten' },
          additionalContext: 'PRE-CONTEXT',
        }),
      ],
      PostToolUse: [
        { additionalContext: 'POST-CONTEXT' },
        { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'POST-CONTEXT' } },
      ],
      PostToolUseFailure: [
        { additionalContext: 'FAILURE-CONTEXT' },
        { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'FAILURE-CONTEXT' } },
      ],
      SessionStart: [{ additionalContext: 'START-CONTEXT' }, 'START-CONTEXT'],
      UserPromptSubmit: [
        { additionalContext: 'PROMPT-CONTEXT' },
        { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'PROMPT-CONTEXT' } },
      ],
    } as const;
    const events = Object.keys(answers) as Array<keyof typeof answers>;
    const { native, peri } = await pair(
      'pascal',
      {
        script,
        native: (folder) =>
          nativeHooks(folder, {
            ...Object.fromEntries(
              events.map((event) => [event, [handler(recordingHook(folder, event, { stdout: answers[event][0] }))]]),
            ),
            Stop: [handler(blockOnce(folder, 'Stop', { decision: 'block', reason: 'PASCAL-STOP' }))],
          }),
        policy: () => ({}),
      },
      (folder) => {
        const policy = folder.write('policy.json', {
          hooks: {
            ...Object.fromEntries(
              events.map((event) => [event, group(recordingHook(folder, event, { stdout: answers[event][1] }))]),
            ),
            Stop: group(blockOnce(folder, 'Stop', { decision: 'block', reason: 'PASCAL-STOP' })),
          },
        });
        const command = [
          process.execPath,
          join(ROOT, 'dist/peri-hooks.cjs'),
          'fire',
          '--host',
          'copilot',
          '--settings',
          policy,
          '--setting-sources',
          'none',
        ]
          .map((word) => `'${word}'`)
          .join(' ');
        nativeHooks(
          folder,
          Object.fromEntries([...events, 'Stop'].map((event) => [event, [handler(command, 10)]])),
          'peri-hooks-pascal',
        );
      },
    );
    same(native, peri);
    assert.deepEqual([peri.ran, peri.rewritten], [false, true]);
    for (const [name, outcome] of [
      ['native', native],
      ['peri-hooks', peri],
    ] as const) {
      for (const text of [
        'PRE-CONTEXT',
        'POST-CONTEXT',
        'FAILURE-CONTEXT',
        'START-CONTEXT',
        'PROMPT-CONTEXT',
        'PASCAL-STOP',
      ])
        assert.ok(outcome.saw.includes(text), `${text} reached the model (${name})`);
    }
    const read = seen(peri.folder, 'PreToolUse').find((input) => input.tool_name === 'Read');
    assert.deepEqual(read?.tool_input, { file_path: join(peri.folder.project, 'missing.txt') });
    assert.equal(seen(peri.folder, 'SessionStart')[0]!.source, 'startup');
  });

  test("subagents: context at their start reaches them; a block at their stop runs them again (Copilot caps no such loop; peri-hooks' guard does)", async () => {
    let main = 0;
    const delegate: ChatScript = (request) => {
      if (chatTexts(request).join('\n').includes('SUBTASK')) return { text: 'sub done' };
      main += 1;
      return main === 1
        ? {
            toolCalls: [
              {
                name: 'task',
                arguments: { name: 'helper', prompt: 'SUBTASK: say hi', agent_type: 'explore', description: 'say hi' },
              },
            ],
          }
        : { text: 'finished' };
    };
    const spec = (answers: { start: object | string; stop: object }): Case => ({
      script: (request, index) => delegate(request, index),
      prompt: 'delegate it',
      native: (folder) =>
        nativeHooks(folder, {
          subagentStart: [handler(recordingHook(folder, 'start', { stdout: { additionalContext: 'SUB-CONTEXT' } }))],
          subagentStop: [handler(blockOnce(folder, 'stop', answers.stop))],
        }),
      policy: (folder) => ({
        SubagentStart: group(recordingHook(folder, 'start', { stdout: answers.start }), 'explore'),
        SubagentStop: group(blockOnce(folder, 'stop', answers.stop)),
      }),
    });
    const native = await once(
      'subagent',
      spec({ start: {}, stop: { decision: 'block', reason: 'SUB-AGAIN' } }),
      'native',
    );
    main = 0;
    const peri = await once(
      'subagent',
      spec({
        start: { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'SUB-CONTEXT' } },
        stop: { decision: 'block', reason: 'SUB-AGAIN' },
      }),
      'peri-hooks',
    );
    same(native, peri);
    for (const outcome of [native, peri]) {
      assert.match(outcome.saw, /SUB-CONTEXT/);
      assert.match(outcome.saw, /SUB-AGAIN/);
    }
    const started = seen(peri.folder, 'start')[0]!;
    assert.equal(started.agent_type, 'explore');
    assert.match(String(started.agent_id), /^[0-9a-f-]{36}$/, "Copilot's agentId");
    // A subagentStop hook that always blocks: Copilot would run the subagent for ever; peri-hooks stops after 8.
    main = 0;
    const loop = await once(
      'subagent-loop',
      {
        ...spec({ start: {}, stop: {} }),
        policy: (folder) => ({
          SubagentStop: group(recordingHook(folder, 'stop', { stdout: { decision: 'block', reason: 'SUB-AGAIN' } })),
        }),
      },
      'peri-hooks',
    );
    assert.equal(loop.code, 0);
    assert.equal(seen(loop.folder, 'stop').length, 9);
  });

  test("doctor's folder-trust verdict is what Copilot does: without trust it skips .github/hooks/ silently, but not personal hooks", async () => {
    const policy = (folder: RunFolder) => ({
      UserPromptSubmit: group(
        recordingHook(folder, 'prompt', {
          stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'GUARDED' } },
        }),
      ),
    });
    const run = async (name: string, trust: (folder: RunFolder) => void, scope = 'project') => {
      const folder = runFolder(`copilot-gate-${name}`);
      folders.push(folder);
      await installPolicy(folder, { hooks: policy(folder) }, ['--scope', scope]);
      trust(folder);
      const doctor = await periHooks(['doctor', '--output', 'json'], { cwd: folder.project, env: folder.env });
      const gate = (JSON.parse(doctor.stdout) as { checks: Array<{ title: string; status: string }> }).checks.find(
        (entry) => entry.title === 'GitHub Copilot CLI folder trust',
      );
      const agent = await runCopilot(folder, [{ text: 'hi' }], 'hello', { trustFolder: false });
      return {
        gate: gate?.status,
        hookRan: seen(folder, 'prompt').length > 0,
        modelSaw: /GUARDED/.test(agent.allSeen),
        code: agent.result.code,
      };
    };
    const [untrusted, trusted, personal] = await Promise.all([
      run('untrusted', () => {}),
      run('trusted', (folder) => folder.writeHome('.copilot/config.json', { trustedFolders: [folder.root] })),
      // Personal hooks (~/.copilot/hooks/) have no such gate.
      run('user', () => {}, 'user'),
    ]);
    assert.deepEqual(untrusted, { gate: 'fail', hookRan: false, modelSaw: false, code: 0 });
    assert.deepEqual(trusted, { gate: 'pass', hookRan: true, modelSaw: true, code: 0 });
    assert.deepEqual(personal, { gate: undefined, hookRan: true, modelSaw: true, code: 0 });
  });
});
