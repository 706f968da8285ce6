// The real Gemini CLI 0.61.0 (test/hosts/real/gemini.ts): each case runs with the hook registered natively in
// `.gemini/settings.json` and with the same logic as a Claude Code policy through `peri-hooks install --host
// gemini`, and Gemini must act the same — did the tool run, what the model saw, the exit status, the number of
// model calls — or, where it has no native equivalent (--fail-closed, a headless ask), meet the README's claim.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FAIL_CLOSED_REASON } from '../../../src/hosts/gemini.ts';
import type { GeminiScript } from '../../helpers/gemini-api-server.ts';
import { periHooks, type RunFolder, recordingHook, seen } from './common.ts';
import {
  abortAfter,
  type GeminiRun,
  geminiFolder,
  installPolicy,
  made,
  nativeHooks,
  registration,
  runGemini,
  scriptHook,
} from './gemini.ts';
import { mcpServer } from './mcp-server.ts';

const folders: RunFolder[] = [];
after(() => {
  for (const folder of folders) folder.cleanup();
});

function folderFor(name: string): RunFolder {
  const folder = geminiFolder(name);
  folders.push(folder);
  return folder;
}

const shell = (command: string) => ({ name: 'run_shell_command', args: { command, description: `run ${command}` } });
const json = (value: object) => `printf '%s' '${JSON.stringify(value).replace(/'/g, `'\\''`)}'`;
const pre = (fields: object) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

/** Gemini's only other request: per prompt, a routing classifier call (`:generateContent`, a JSON complexity score). */
function sideCalls(run: GeminiRun): string[] {
  return run.api.side.map(
    (request) =>
      `${request.path.replace(/^.*:/, ':')} ${JSON.stringify(request.body?.generationConfig?.responseJsonSchema?.required ?? [])}`,
  );
}

/** The MCP server's calls (their arguments), in order. */
const readCalls = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

/** What is compared between the native and the peri-hooks registration. */
function facts(run: GeminiRun, files: readonly string[], folder: RunFolder, texts: readonly string[]) {
  return {
    code: run.code,
    timedOut: run.timedOut,
    modelCalls: run.modelCalls,
    ran: Object.fromEntries(files.map((file) => [file, made(folder, file)])),
    saw: Object.fromEntries(texts.map((text) => [text, run.modelSaw.includes(text)])),
  };
}

/** Runs the case natively and through peri-hooks, at the same time. */
async function both<T>(
  name: string,
  native: (folder: RunFolder) => Promise<T>,
  policy: (folder: RunFolder) => Promise<T>,
): Promise<[T, T]> {
  return Promise.all([native(folderFor(`${name}-native`)), policy(folderFor(`${name}-policy`))]);
}

describe('Gemini CLI 0.61.0, native hooks against the same Claude Code policy through peri-hooks', {
  concurrency: 1,
}, () => {
  test('an exit-2 deny and a JSON deny before a tool block the call; a block after a tool hides its result; the model reads each reason', async () => {
    const script: GeminiScript = [
      { calls: [shell('touch EXIT2')] },
      { calls: [shell('touch JSONDENY')] },
      { calls: [shell('touch AFTERBLOCK')] },
      { text: 'FINAL' },
    ];
    // After a tool, Gemini sends the model the block as the call's error, in place of its output ("Output: (empty)").
    const texts = [
      'Tool execution blocked: no EXIT2 here',
      'Tool execution blocked: no JSONDENY here',
      'no AFTERBLOCK output',
      'Output: (empty)',
    ];
    const files = ['EXIT2', 'JSONDENY', 'AFTERBLOCK'];
    const deny = (jsonDeny: object) =>
      `case "$input" in *EXIT2*) echo 'no EXIT2 here' >&2; exit 2;; *JSONDENY*) ${json(jsonDeny)}; exit 0;; esac`;
    const hide = (block: object) => `case "$input" in *AFTERBLOCK*) ${json(block)};; esac`;
    const [native, policy] = await both(
      'deny',
      async (folder) => {
        nativeHooks(folder, {
          BeforeTool: [
            {
              matcher: 'run_shell_command',
              hooks: [{ command: scriptHook(folder, 'pre', deny({ decision: 'deny', reason: 'no JSONDENY here' })) }],
            },
          ],
          AfterTool: [
            {
              hooks: [
                { command: scriptHook(folder, 'post', hide({ decision: 'deny', reason: 'no AFTERBLOCK output' })) },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'make the files');
        return facts(run, files, folder, texts);
      },
      async (folder) => {
        await installPolicy(folder, {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  command: scriptHook(
                    folder,
                    'pre',
                    deny(pre({ permissionDecision: 'deny', permissionDecisionReason: 'no JSONDENY here' })),
                  ),
                },
              ],
            },
          ],
          PostToolUse: [
            {
              hooks: [
                {
                  type: 'command',
                  command: scriptHook(folder, 'post', hide({ decision: 'block', reason: 'no AFTERBLOCK output' })),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'make the files');
        const [first] = seen(folder, 'pre');
        assert.equal(first!.hook_event_name, 'PreToolUse');
        assert.equal(first!.tool_name, 'Bash');
        assert.equal(first!.tool_input.command, 'touch EXIT2');
        assert.equal(first!.peri_hooks_host.event, 'BeforeTool');
        return facts(run, files, folder, texts);
      },
    );
    assert.deepEqual(native, {
      code: 0,
      timedOut: false,
      modelCalls: 4,
      ran: { EXIT2: false, JSONDENY: false, AFTERBLOCK: true },
      saw: { [texts[0]!]: true, [texts[1]!]: true, 'no AFTERBLOCK output': true, 'Output: (empty)': false },
    });
    assert.deepEqual(policy, native);
  });

  test('allow; context at session start, with the prompt and after a tool reaches the model, context before a tool does not', async () => {
    const script: GeminiScript = [{ calls: [shell('touch ALLOWED')] }, { text: 'FINAL' }];
    const texts = ['CTX_START', 'CTX_PROMPT', 'CTX_BEFORE', '<hook_context>CTX_AFTER</hook_context>'];
    const [native, policy] = await both(
      'context',
      async (folder) => {
        const hook = (name: string, answer: object) => [
          { hooks: [{ command: recordingHook(folder, name, { stdout: answer }) }] },
        ];
        nativeHooks(folder, {
          SessionStart: hook('start', {
            hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'CTX_START' },
          }),
          BeforeAgent: hook('prompt', {
            hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'CTX_PROMPT' },
          }),
          BeforeTool: hook('pre', {
            decision: 'allow',
            hookSpecificOutput: { hookEventName: 'BeforeTool', additionalContext: 'CTX_BEFORE' },
          }),
          AfterTool: hook('post', {
            hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'CTX_AFTER' },
          }),
        });
        const run = await runGemini(folder, script, 'make the file');
        return { run, facts: facts(run, ['ALLOWED'], folder, texts), side: sideCalls(run) };
      },
      async (folder) => {
        const hook = (name: string, answer: object) => [
          { hooks: [{ type: 'command', command: recordingHook(folder, name, { stdout: answer }) }] },
        ];
        await installPolicy(folder, {
          SessionStart: hook('start', {
            hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'CTX_START' },
          }),
          UserPromptSubmit: hook('prompt', {
            hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'CTX_PROMPT' },
          }),
          PreToolUse: hook('pre', pre({ permissionDecision: 'allow', additionalContext: 'CTX_BEFORE' })),
          PostToolUse: hook('post', {
            hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'CTX_AFTER' },
          }),
        });
        const run = await runGemini(folder, script, 'make the file');
        assert.equal(seen(folder, 'start')[0]!.source, 'startup');
        // Gemini puts session-start context in front of the prompt that BeforeAgent then carries.
        assert.equal(seen(folder, 'prompt')[0]!.prompt, '<hook_context>CTX_START</hook_context>\n\nmake the file');
        const [post] = seen(folder, 'post');
        assert.equal(post!.hook_event_name, 'PostToolUse');
        assert.equal(post!.tool_input.command, 'touch ALLOWED');
        return { run, facts: facts(run, ['ALLOWED'], folder, texts), side: sideCalls(run) };
      },
    );
    assert.deepEqual(native.side, [':generateContent ["complexity_reasoning","complexity_score"]']);
    assert.deepEqual(policy.side, native.side);
    assert.deepEqual(native.facts, {
      code: 0,
      timedOut: false,
      modelCalls: 2,
      ran: { ALLOWED: true },
      saw: { CTX_START: true, CTX_PROMPT: true, CTX_BEFORE: false, '<hook_context>CTX_AFTER</hook_context>': true },
    });
    assert.deepEqual(policy.facts, native.facts);
  });

  test("BeforeTool: a rewrite runs the rewritten call, and Gemini tells the model its input was changed; read_file's start_line/end_line are Read's offset/limit, both ways", async () => {
    const read = { name: 'read_file', args: { file_path: 'lines.txt', start_line: 2, end_line: 3 } };
    const script: GeminiScript = [{ calls: [shell('touch ORIGINAL'), read] }, { text: 'FINAL' }];
    const texts = [
      '[System] Tool input parameters were modified by a hook before execution.',
      'LINE-TWO',
      'LINE-FOUR',
      'LINE-FIVE',
    ];
    const rewritten = { command: 'touch REWRITTEN', description: 'run touch REWRITTEN' };
    const lines = (folder: RunFolder) =>
      folder.write('lines.txt', 'LINE-ONE\nLINE-TWO\nLINE-THREE\nLINE-FOUR\nLINE-FIVE\n');
    const [native, policy] = await both(
      'rewrite',
      async (folder) => {
        lines(folder);
        const answer = (toolInput: object) => ({
          stdout: { decision: 'allow', hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: toolInput } },
        });
        nativeHooks(folder, {
          BeforeTool: [
            { matcher: 'run_shell_command', hooks: [{ command: recordingHook(folder, 'pre', answer(rewritten)) }] },
            {
              matcher: 'read_file',
              hooks: [
                {
                  command: recordingHook(
                    folder,
                    'read',
                    answer({ file_path: 'lines.txt', start_line: 4, end_line: 4 }),
                  ),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'make the file');
        return facts(run, ['ORIGINAL', 'REWRITTEN'], folder, texts);
      },
      async (folder) => {
        lines(folder);
        const answer = (updatedInput: object) => ({
          stdout: pre({ permissionDecision: 'allow', updatedInput }),
        });
        await installPolicy(folder, {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: recordingHook(folder, 'pre', answer(rewritten)) }] },
            {
              matcher: 'Read',
              hooks: [
                {
                  type: 'command',
                  command: recordingHook(
                    folder,
                    'read',
                    answer({ file_path: join(folder.project, 'lines.txt'), offset: 4, limit: 1 }),
                  ),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'make the file');
        const [seenRead] = seen(folder, 'read');
        assert.deepEqual(seenRead?.tool_input, { file_path: join(folder.project, 'lines.txt'), offset: 2, limit: 2 });
        assert.deepEqual(seenRead?.peri_hooks_host?.tool_input, read.args);
        return facts(run, ['ORIGINAL', 'REWRITTEN'], folder, texts);
      },
    );
    assert.deepEqual(native, {
      code: 0,
      timedOut: false,
      modelCalls: 2,
      ran: { ORIGINAL: false, REWRITTEN: true },
      saw: { [texts[0]!]: true, 'LINE-TWO': false, 'LINE-FOUR': true, 'LINE-FIVE': false },
    });
    assert.deepEqual(policy, native);
  });

  test('BeforeAgent: a blocked prompt never reaches the model; the run says why', async () => {
    const [native, policy] = await both(
      'prompt-block',
      async (folder) => {
        nativeHooks(folder, {
          BeforeAgent: [
            {
              hooks: [
                {
                  command: recordingHook(folder, 'prompt', {
                    stdout: { decision: 'deny', reason: 'no prompts about PROMPTSECRET' },
                  }),
                },
              ],
            },
          ],
        });
        return runGemini(folder, [{ text: 'FINAL' }], 'tell me the PROMPTSECRET');
      },
      async (folder) => {
        await installPolicy(folder, {
          UserPromptSubmit: [
            {
              hooks: [
                {
                  type: 'command',
                  command: recordingHook(folder, 'prompt', {
                    stdout: { decision: 'block', reason: 'no prompts about PROMPTSECRET' },
                  }),
                },
              ],
            },
          ],
        });
        return runGemini(folder, [{ text: 'FINAL' }], 'tell me the PROMPTSECRET');
      },
    );
    const shown = (run: GeminiRun) => ({
      code: run.code,
      modelCalls: run.modelCalls,
      said: `${run.stdout}${run.stderr}`.includes('no prompts about PROMPTSECRET'),
      final: `${run.stdout}`.includes('FINAL'),
    });
    assert.deepEqual(shown(native), { code: 0, modelCalls: 0, said: true, final: false });
    assert.deepEqual(shown(policy), shown(native));
  });

  test('AfterAgent: a Stop block that checks stop_hook_active makes Gemini go on once with the reason as the next prompt', async () => {
    const script: GeminiScript = [{ text: 'FIRST ANSWER' }, { text: 'SECOND ANSWER' }];
    const guarded = (block: object) => `case "$input" in *'"stop_hook_active":true'*) exit 0;; esac\n${json(block)}`;
    const [native, policy] = await both(
      'stop',
      async (folder) => {
        nativeHooks(folder, {
          AfterAgent: [
            {
              hooks: [
                {
                  command: scriptHook(
                    folder,
                    'stop',
                    guarded({ decision: 'deny', reason: 'STOP_REASON run the tests' }),
                  ),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'fix it');
        return {
          facts: facts(run, [], folder, ['STOP_REASON run the tests']),
          calls: seen(folder, 'stop').map((input) => input.stop_hook_active),
        };
      },
      async (folder) => {
        await installPolicy(folder, {
          Stop: [
            {
              hooks: [
                {
                  type: 'command',
                  command: scriptHook(
                    folder,
                    'stop',
                    guarded({ decision: 'block', reason: 'STOP_REASON run the tests' }),
                  ),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'fix it');
        const inputs = seen(folder, 'stop');
        assert.equal(inputs[0]!.hook_event_name, 'Stop');
        assert.equal(inputs[0]!.last_assistant_message, 'FIRST ANSWER');
        return {
          facts: facts(run, [], folder, ['STOP_REASON run the tests']),
          calls: inputs.map((input) => input.stop_hook_active),
        };
      },
    );
    assert.deepEqual(native, {
      facts: { code: 0, timedOut: false, modelCalls: 2, ran: {}, saw: { 'STOP_REASON run the tests': true } },
      calls: [false, true],
    });
    assert.deepEqual(policy, native);
  });

  test("AfterAgent: a Stop hook that always blocks: Gemini honours block after block (the test ends it at 11), peri-hooks' loop guard lets the 9th stop through", async () => {
    const script: GeminiScript = (_request, index) => ({ text: `ANSWER ${index}` });
    const [native, policy] = await both(
      'stop-loop',
      async (folder) => {
        // Gemini itself goes on for up to 100 turns per prompt: the hook stops blocking at its 11th call to end the run.
        const stop = scriptHook(
          folder,
          'stop',
          `[ "$(wc -l < '${join(folder.root, 'seen', 'stop.jsonl')}')" -ge 11 ] && exit 0\n${json({ decision: 'deny', reason: 'keep going' })}`,
        );
        nativeHooks(folder, { AfterAgent: [{ hooks: [{ command: stop }] }] });
        const run = await runGemini(folder, script, 'loop');
        return { code: run.code, modelCalls: run.modelCalls, stops: seen(folder, 'stop').length };
      },
      async (folder) => {
        await installPolicy(folder, {
          Stop: [
            {
              hooks: [
                {
                  type: 'command',
                  command: recordingHook(folder, 'stop', { stdout: { decision: 'block', reason: 'keep going' } }),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'loop');
        return { code: run.code, modelCalls: run.modelCalls, stops: seen(folder, 'stop').length };
      },
    );
    assert.deepEqual(native, { code: 0, modelCalls: 11, stops: 11 });
    assert.deepEqual(policy, { code: 0, modelCalls: 9, stops: 9 });
  });

  test('BeforeTool ask: natively a headless run waits forever; through peri-hooks the call is denied and the model told why', async () => {
    const script: GeminiScript = [{ calls: [shell('touch ASKED')] }, { text: 'FINAL' }];
    const [native, policy] = await both(
      'ask',
      async (folder) => {
        nativeHooks(folder, {
          BeforeTool: [
            {
              hooks: [
                { command: recordingHook(folder, 'pre', { stdout: { decision: 'ask', reason: 'sure about ASKED?' } }) },
              ],
            },
          ],
        });
        // Once the hook has answered, nothing more happens: the run is ended 20 s after its mark.
        const run = await runGemini(folder, script, 'make the file', {
          signal: abortAfter(() => seen(folder, 'pre').length > 0, 20_000),
        });
        return { ...facts(run, ['ASKED'], folder, []), asked: seen(folder, 'pre').length };
      },
      async (folder) => {
        await installPolicy(folder, {
          PreToolUse: [
            {
              hooks: [
                {
                  type: 'command',
                  command: recordingHook(folder, 'pre', {
                    stdout: pre({ permissionDecision: 'ask', permissionDecisionReason: 'sure about ASKED?' }),
                  }),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'make the file');
        return {
          ...facts(run, ['ASKED'], folder, [
            'Tool execution blocked: sure about ASKED? (the policy asks for confirmation; denied because Gemini CLI runs headless',
          ]),
          asked: seen(folder, 'pre').length,
        };
      },
    );
    assert.deepEqual(native, { code: null, timedOut: true, modelCalls: 1, ran: { ASKED: false }, saw: {}, asked: 1 });
    assert.deepEqual(policy, {
      code: 0,
      timedOut: false,
      modelCalls: 2,
      ran: { ASKED: false },
      saw: {
        'Tool execution blocked: sure about ASKED? (the policy asks for confirmation; denied because Gemini CLI runs headless': true,
      },
      asked: 1,
    });
  });

  test('a hook that crashes or times out: natively and through peri-hooks the calls run; under --fail-closed they are blocked and the model reads no command line or error; exit 127 (a missing command) Gemini itself denies', async () => {
    const script: GeminiScript = [
      { calls: [shell('touch CRASHED')] },
      { calls: [shell('touch SLOWED')] },
      { calls: [shell('touch MISSING')] },
      { text: 'FINAL' },
    ];
    const body = [
      'case "$input" in',
      `  *CRASHED*) echo 'Error: boom at /opt/STACKTRACE/policy.js:1' >&2; exit 1;;`,
      '  *SLOWED*) sleep 6;;',
      `  *MISSING*) echo 'sh: 1: policy-tool: not found' >&2; exit 127;;`,
      'esac',
    ].join('\n');
    const files = ['CRASHED', 'SLOWED', 'MISSING'];
    const texts = [
      FAIL_CLOSED_REASON,
      'STACKTRACE',
      'policy-hook.sh',
      'Tool execution blocked: sh: 1: policy-tool: not found',
    ];
    const [[native, policy], closed] = await Promise.all([
      both(
        'failure',
        async (folder) => {
          nativeHooks(folder, {
            BeforeTool: [{ hooks: [{ command: scriptHook(folder, 'policy-hook', body), timeout: 2000 }] }],
          });
          return facts(await runGemini(folder, script, 'make the files'), files, folder, texts);
        },
        async (folder) => {
          await installPolicy(folder, {
            PreToolUse: [
              { hooks: [{ type: 'command', command: scriptHook(folder, 'policy-hook', body), timeout: 2 }] },
            ],
          });
          return facts(await runGemini(folder, script, 'make the files'), files, folder, texts);
        },
      ),
      (async () => {
        const folder = folderFor('failure-closed');
        await installPolicy(
          folder,
          {
            PreToolUse: [
              { hooks: [{ type: 'command', command: scriptHook(folder, 'policy-hook', body), timeout: 2 }] },
            ],
          },
          { failClosed: true },
        );
        return facts(await runGemini(folder, script, 'make the files'), files, folder, texts);
      })(),
    ]);
    const none = { [FAIL_CLOSED_REASON]: false, STACKTRACE: false, 'policy-hook.sh': false };
    assert.deepEqual(native, {
      code: 0,
      timedOut: false,
      modelCalls: 4,
      ran: { CRASHED: true, SLOWED: true, MISSING: false },
      saw: { ...none, [texts[3]!]: true },
    });
    // Claude Code's rule: an exit code other than 0 and 2 is a non-blocking error, so the policy lets MISSING run.
    assert.deepEqual(policy, {
      ...native,
      ran: { CRASHED: true, SLOWED: true, MISSING: true },
      saw: { ...none, [texts[3]!]: false },
    });
    assert.deepEqual(closed, {
      code: 0,
      timedOut: false,
      modelCalls: 4,
      ran: { CRASHED: false, SLOWED: false, MISSING: false },
      saw: { ...none, [FAIL_CLOSED_REASON]: true, [texts[3]!]: false },
    });
  });

  test("AfterTool of a failed call: natively it carries the error object; the policy's PostToolUseFailure hook gets its message; context reaches the model in neither", async () => {
    const script: GeminiScript = [
      { calls: [{ name: 'read_file', args: { file_path: 'missing.txt' } }] },
      { text: 'FINAL' },
    ];
    const texts = ['CTX_FAILED', 'File not found'];
    const [native, policy] = await both(
      'failed-tool',
      async (folder) => {
        nativeHooks(folder, {
          AfterTool: [
            {
              hooks: [
                {
                  command: recordingHook(folder, 'post', {
                    stdout: { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'CTX_FAILED' } },
                  }),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'read it');
        const [input] = seen(folder, 'post');
        assert.equal(input!.tool_response.error.message, `File not found: ${folder.project}/missing.txt`);
        return facts(run, [], folder, texts);
      },
      async (folder) => {
        await installPolicy(folder, {
          PostToolUseFailure: [
            {
              hooks: [
                {
                  type: 'command',
                  command: recordingHook(folder, 'post', {
                    stdout: {
                      hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'CTX_FAILED' },
                    },
                  }),
                },
              ],
            },
          ],
        });
        assert.deepEqual(Object.keys(registration(folder).hooks), ['AfterTool']);
        const run = await runGemini(folder, script, 'read it');
        const [input] = seen(folder, 'post');
        assert.equal(input!.hook_event_name, 'PostToolUseFailure');
        assert.equal(input!.tool_name, 'Read');
        assert.equal(input!.error, `File not found: ${folder.project}/missing.txt`);
        return facts(run, [], folder, texts);
      },
    );
    assert.deepEqual(native, {
      code: 0,
      timedOut: false,
      modelCalls: 2,
      ran: {},
      saw: { CTX_FAILED: false, 'File not found': true },
    });
    assert.deepEqual(policy, native);
  });

  test('the trust gate: in a folder Gemini does not trust, no hook runs (headless, Gemini stops) and doctor fails; trusted in trustedFolders.json, the registration runs and doctor passes', async () => {
    const folder = folderFor('gate');
    await installPolicy(folder, {
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: 'command',
              command: recordingHook(folder, 'prompt', {
                stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'CTX_GATE' } },
              }),
            },
          ],
        },
      ],
    });
    const doctor = () =>
      periHooks(['doctor', '--project-dir', folder.project], { cwd: folder.project, env: folder.env });
    const [untrusted, refused] = await Promise.all([
      runGemini(folder, [{ text: 'FINAL' }], 'hello', { trustByEnv: false }),
      doctor(),
    ]);
    // Headless, Gemini refuses an untrusted folder outright; interactive, it runs there without the hooks.
    assert.equal(untrusted.code, 55);
    assert.match(untrusted.stderr, /Gemini CLI is not running in a trusted directory/);
    assert.deepEqual(seen(folder, 'prompt'), [], 'no hook ran');
    assert.equal(untrusted.modelSaw.includes('CTX_GATE'), false);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stdout + refused.stderr,
      /is not trusted \(no rule in .*trustedFolders\.json trusts it\): Gemini CLI runs no hook/,
    );
    folder.writeHome('.gemini/trustedFolders.json', { [folder.project]: 'TRUST_FOLDER' });
    const [trusted, passed] = await Promise.all([
      runGemini(folder, [{ text: 'FINAL' }], 'hello', { trustByEnv: false }),
      doctor(),
    ]);
    assert.equal(seen(folder, 'prompt').length, 1);
    assert.equal(trusted.modelSaw.includes('CTX_GATE'), true);
    assert.match(passed.stdout + passed.stderr, /is trusted \(TRUST_FOLDER in/);
  });

  /** a team policy as Claude Code users write it, one model turn of parallel calls: `Write|Edit`, `Read`, `if: Bash(git push:*)` beside an allow, two contexts after a tool, SessionEnd (`exit` is `other`), the project's own hooks kept and run */
  const teamPolicy = async () => {
    const script: GeminiScript = [
      {
        calls: [
          { name: 'write_file', args: { file_path: '.env.local', content: 'TOKEN=1\n' } },
          {
            name: 'replace',
            args: { file_path: 'notes.txt', old_string: 'old', new_string: 'new', instruction: 'fix' },
          },
          { name: 'read_file', args: { file_path: 'secret.txt' } },
          shell('git push origin main'),
          shell('echo HELLO_OUT > OUT.txt; echo HELLO_OUT'),
        ],
      },
      { text: 'FINAL' },
    ];
    const texts = [
      'Tool execution blocked: no .env files',
      'Tool execution blocked: no secrets',
      'Tool execution blocked: no pushes',
      'CTX_A',
      'CTX_B',
      'CTX_OWN',
    ];
    const files = ['.env.local', 'OUT.txt'];
    const ownSettings = `{\n  // the team's own Gemini settings\n  "general": { "vimMode": false },\n  "hooks": {\n    "AfterTool": [{ "matcher": "run_shell_command", "hooks": [{ "type": "command", "name": "own", "command": "printf '%s' '{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"AfterTool\\",\\"additionalContext\\":\\"CTX_OWN\\"}}'" }] }]\n  }\n}\n`;
    const prepare = (folder: RunFolder) => {
      folder.write('notes.txt', 'old text\n');
      folder.write('secret.txt', 'SECRET_BODY\n');
    };
    const denyIf = (pattern: string, reason: string, answer: (reason: string) => object) =>
      `case "$input" in ${pattern}) ${json(answer(reason))};; esac`;
    const nativeDeny = (reason: string) => ({ decision: 'deny', reason });
    const claudeDeny = (reason: string) => pre({ permissionDecision: 'deny', permissionDecisionReason: reason });
    const [native, policy] = await both(
      'team',
      async (folder) => {
        prepare(folder);
        const own = ownSettings.replace(
          '"AfterTool": [',
          `"BeforeTool": [
      { "matcher": "write_file|replace", "hooks": [{ "type": "command", "command": ${JSON.stringify(scriptHook(folder, 'files', denyIf('*.env*', 'no .env files', nativeDeny)))} }] },
      { "matcher": "read_file", "hooks": [{ "type": "command", "command": ${JSON.stringify(scriptHook(folder, 'read', json(nativeDeny('no secrets'))))} }] },
      { "matcher": "run_shell_command", "hooks": [
        { "type": "command", "command": ${JSON.stringify(scriptHook(folder, 'allow', json({ decision: 'allow' })))} },
        { "type": "command", "command": ${JSON.stringify(scriptHook(folder, 'push', denyIf('*\'"command":"git push\'*', 'no pushes', nativeDeny)))} }
      ] }
    ],
    "SessionEnd": [{ "hooks": [{ "type": "command", "command": ${JSON.stringify(recordingHook(folder, 'end'))} }] }],
    "AfterTool": [
      { "matcher": "run_shell_command", "hooks": [
        { "type": "command", "command": ${JSON.stringify(recordingHook(folder, 'ctx-a', { stdout: { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'CTX_A' } } }))} },
        { "type": "command", "command": ${JSON.stringify(recordingHook(folder, 'ctx-b', { stdout: { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'CTX_B' } } }))} }
      ] },`,
        );
        folder.write('.gemini/settings.json', own);
        const run = await runGemini(folder, script, 'do the chores');
        assert.deepEqual(
          seen(folder, 'end').map((input) => input.reason),
          ['exit'],
        );
        return facts(run, files, folder, texts);
      },
      async (folder) => {
        prepare(folder);
        folder.write('.gemini/settings.json', ownSettings);
        const hook = (command: string, extra: object = {}) => ({ type: 'command', command, ...extra });
        await installPolicy(folder, {
          PreToolUse: [
            {
              matcher: 'Write|Edit',
              hooks: [hook(scriptHook(folder, 'files', denyIf('*.env*', 'no .env files', claudeDeny)))],
            },
            { matcher: 'Read', hooks: [hook(scriptHook(folder, 'read', json(claudeDeny('no secrets'))))] },
            {
              matcher: 'Bash',
              hooks: [
                hook(scriptHook(folder, 'allow', json(pre({ permissionDecision: 'allow' })))),
                hook(scriptHook(folder, 'push', json(claudeDeny('no pushes'))), { if: 'Bash(git push:*)' }),
              ],
            },
          ],
          SessionEnd: [{ matcher: 'other', hooks: [hook(recordingHook(folder, 'end'))] }],
          PostToolUse: [
            { matcher: 'Write|Edit', hooks: [hook(recordingHook(folder, 'edited'))] },
            {
              matcher: 'Bash',
              hooks: [
                hook(
                  recordingHook(folder, 'ctx-a', {
                    stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'CTX_A' } },
                  }),
                ),
                hook(
                  recordingHook(folder, 'ctx-b', {
                    stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'CTX_B' } },
                  }),
                ),
              ],
            },
          ],
        });
        const written = readFileSync(join(folder.project, '.gemini/settings.json'), 'utf8');
        assert.ok(written.startsWith(ownSettings.slice(0, ownSettings.indexOf('"AfterTool": [') + 14)), written);
        const run = await runGemini(folder, script, 'do the chores');
        const at = (file: string) => join(folder.project, file);
        // Gemini's `exit` at the end of a run is Claude Code's `other`, which the matcher names.
        assert.deepEqual(
          seen(folder, 'end').map((input) => [input.hook_event_name, input.reason]),
          [['SessionEnd', 'other']],
        );
        assert.deepEqual(
          seen(folder, 'files')
            .map((input) => [input.tool_name, input.tool_input.file_path])
            .sort(),
          [
            ['Edit', at('notes.txt')],
            ['Write', at('.env.local')],
          ],
        );
        assert.deepEqual(seen(folder, 'read')[0]!.tool_input, { file_path: at('secret.txt') });
        // The `if` ran the push guard for the push alone.
        assert.deepEqual(
          seen(folder, 'push').map((input) => input.tool_input.command),
          ['git push origin main'],
        );
        const [after] = seen(folder, 'ctx-a');
        assert.deepEqual(after!.tool_response, { stdout: 'HELLO_OUT', stderr: '', interrupted: false, isImage: false });
        const [edited] = seen(folder, 'edited');
        assert.deepEqual(
          [edited!.tool_name, edited!.tool_response.filePath, edited!.tool_response.originalFile],
          ['Edit', at('notes.txt'), 'old text\n'],
        );
        return facts(run, files, folder, texts);
      },
    );
    assert.deepEqual(native, {
      code: 0,
      timedOut: false,
      modelCalls: 2,
      ran: { '.env.local': false, 'OUT.txt': true },
      saw: Object.fromEntries(texts.map((text) => [text, true])),
    });
    assert.deepEqual(policy, native);
  };

  /** MCP: Gemini names a server tool mcp_<server>_<tool>; a Claude Code `mcp__.*` guard sees mcp__<server>__<tool> and denies one of two parallel calls */
  const mcpTools = async () => {
    const call = (text: string) => ({ name: 'mcp_srv_ping_me', args: { text } });
    const script: GeminiScript = [{ calls: [call('hello'), call('FORBIDDEN')] }, { text: 'FINAL' }];
    const texts = ['PONG:hello', 'Tool execution blocked: no forbidden pings', 'PONG:FORBIDDEN'];
    const guard = (answer: object) => `case "$input" in *FORBIDDEN*) ${json(answer)};; esac`;
    const mcpRun = async (folder: RunFolder, hooks: object | undefined) => {
      const server = mcpServer(folder);
      folder.write('.gemini/settings.json', {
        mcpServers: { srv: { command: server.command, args: server.args } },
        ...(hooks ? { hooks } : {}),
      });
      return server;
    };
    const [native, policy] = await both(
      'mcp',
      async (folder) => {
        const server = await mcpRun(folder, {
          BeforeTool: [
            {
              matcher: 'mcp_srv_.*',
              hooks: [
                {
                  type: 'command',
                  name: 'guard',
                  command: scriptHook(folder, 'guard', guard({ decision: 'deny', reason: 'no forbidden pings' })),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'ping twice');
        return { ...facts(run, [], folder, texts), calls: readCalls(server.calls) };
      },
      async (folder) => {
        const server = await mcpRun(folder, undefined);
        await installPolicy(folder, {
          PreToolUse: [
            {
              matcher: 'mcp__.*',
              hooks: [
                {
                  type: 'command',
                  command: scriptHook(
                    folder,
                    'guard',
                    guard(pre({ permissionDecision: 'deny', permissionDecisionReason: 'no forbidden pings' })),
                  ),
                },
              ],
            },
          ],
        });
        const run = await runGemini(folder, script, 'ping twice');
        assert.deepEqual(
          seen(folder, 'guard')
            .map((input) => [input.tool_name, input.tool_input.text])
            .sort(),
          [
            ['mcp__srv__ping_me', 'FORBIDDEN'],
            ['mcp__srv__ping_me', 'hello'],
          ],
        );
        return { ...facts(run, [], folder, texts), calls: readCalls(server.calls) };
      },
    );
    assert.deepEqual(native, {
      code: 0,
      timedOut: false,
      modelCalls: 2,
      ran: {},
      saw: { 'PONG:hello': true, 'Tool execution blocked: no forbidden pings': true, 'PONG:FORBIDDEN': false },
      calls: [{ text: 'hello' }],
    });
    assert.deepEqual(policy, native);
  };

  // Independent, so at the same time: the describe runs its cases one at a time.
  test("a team policy as Claude Code users write it (Write|Edit, Read, an if beside an allow, parallel calls, two contexts, SessionEnd, the project's own settings); MCP tools under a mcp__.* guard", () =>
    Promise.all([teamPolicy(), mcpTools()]).then(() => undefined));
});
