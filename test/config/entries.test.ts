import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/types.ts';
import { commandOf, hooksFor, LOCAL, load, PROJECT, tree, USER } from './tree.ts';

/** Line and column of the one occurrence of `needle` in `text`. */
function at(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0 && text.indexOf(needle, offset + 1) === -1, `needle ${needle} must occur once`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

const BROKEN = `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "good-1" },
          { "type": "command", "command": "slow", "timeout": 30000 },
          { "type": "comand", "command": "typo" },
          { "type": "http" },
          { "type": "prompt", "prompt": "" },
          { "type": "command", "command": "good-2", "status_message": "Checking" }
        ]
      },
      { "type": "command", "command": "flat" },
      { "matcher": "Edit", "hooks": [ { "type": "mcp_tool", "server": "s" } ] }
    ],
    "Stop": { "hooks": [] },
    "stop": [],
    "OnSave": []
  }
}
`;

test('broken entries beside good ones: each costs only itself, with file, line, column, pointer, message and fix', async () => {
  const root = await tree({ [PROJECT]: BROKEN });
  const file = path.join(root, PROJECT);
  const result = await load(root);
  assert.deepEqual(
    result.hooks.map((h) => [h.provenance.pointer, h.handler]),
    [
      ['/hooks/PostToolUse/0/hooks/0', { type: 'command', command: 'good-1' }],
      ['/hooks/PostToolUse/0/hooks/1', { type: 'command', command: 'slow', timeout: 30000 }],
      ['/hooks/PostToolUse/0/hooks/4', { type: 'prompt', prompt: '' }],
      ['/hooks/PostToolUse/0/hooks/5', { type: 'command', command: 'good-2', statusMessage: 'Checking' }],
    ],
  );
  assert.deepEqual(result.sources[1], { layer: 'project', file, status: 'loaded', hooks: 4 });
  const d = (
    severity: Diagnostic['severity'],
    code: string,
    pointer: string,
    needle: string,
    message: string,
    fix?: string,
  ): Diagnostic => ({
    severity,
    code,
    message,
    file,
    pointer,
    ...(fix === undefined ? {} : { fix }),
    ...at(BROKEN, needle),
  });
  assert.deepEqual(result.diagnostics, [
    d(
      'warning',
      'timeout-in-ms',
      '/hooks/PostToolUse/0/hooks/1/timeout',
      '"timeout": 30000',
      'timeout is in seconds; did you mean 30?',
      'write "timeout": 30 (as written, the hook may run for 30000 seconds, about 8.3 hours)',
    ),
    d(
      'warning',
      'unknown-hook-type',
      '/hooks/PostToolUse/0/hooks/2/type',
      '"type": "comand"',
      'Unknown hook type "comand"; entry dropped',
      'did you mean "command"?',
    ),
    d(
      'warning',
      'missing-field',
      '/hooks/PostToolUse/0/hooks/3/url',
      '{ "type": "http" }',
      'http hook needs "url"; entry dropped',
      'add "url": "https://example.com/hook"',
    ),
    d(
      'warning',
      'empty-value',
      '/hooks/PostToolUse/0/hooks/4/prompt',
      '"prompt": ""',
      '"prompt" is empty; the hook still loads and runs, as in Claude Code',
      'add "prompt": "<what to check>"',
    ),
    d(
      'note',
      'peri-alias',
      '/hooks/PostToolUse/0/hooks/5/status_message',
      '"status_message"',
      '"status_message" is Peri\'s spelling, read as "statusMessage"',
      'rename it to "statusMessage": Claude Code reads only that spelling',
    ),
    d(
      'warning',
      'handler-without-group',
      '/hooks/PostToolUse/1',
      '{ "type": "command", "command": "flat" }',
      'a handler sits directly in the PostToolUse array, without a matcher group',
      'wrap it: {"matcher": ..., "hooks": [ ... ]}',
    ),
    d(
      'warning',
      'missing-field',
      '/hooks/PostToolUse/2/hooks/0/tool',
      '{ "type": "mcp_tool"',
      'mcp_tool hook needs "tool"; entry dropped',
      'add "tool": "<tool name on that server>"',
    ),
    d(
      'warning',
      'event-not-array',
      '/hooks/Stop',
      '"Stop"',
      '"Stop" must be an array of matcher groups',
      'write "Stop": [ {"matcher": ..., "hooks": [ ... ]} ]',
    ),
    d(
      'warning',
      'unknown-event',
      '/hooks/stop',
      '"stop"',
      'unknown hook event "stop"; entry ignored',
      'did you mean Stop?',
    ),
    d(
      'warning',
      'unknown-event',
      '/hooks/OnSave',
      '"OnSave"',
      'unknown hook event "OnSave"; entry ignored',
      'use one of the 34 event names, e.g. PreToolUse',
    ),
  ]);
});

test('handler problems name the field and the fix', async () => {
  const handlers = [
    { command: 'no-type' },
    { type: 'command' },
    { type: 'command', command: 'x', timeout: '30' },
    { type: 'command', command: 'x', timeout: 0 },
    { type: 'command', command: 'x', shell: 'zsh' },
    { type: 'http', url: 'not a url' },
    { type: 'agent' },
    { type: 'webhook', url: 'https://example.com' },
    'echo hi',
  ];
  const root = await tree({ [USER]: { hooks: { Stop: [{ hooks: handlers }] } } });
  const result = await load(root);
  assert.deepEqual(result.hooks, []);
  assert.deepEqual(
    result.diagnostics.map((x) => [x.pointer!.replace('/hooks/Stop/0/hooks/', ''), x.code, x.message, x.fix]),
    [
      [
        '0/type',
        'handler-missing-type',
        'handler has no "type"',
        'add "type": "command" (or http, mcp_tool, prompt, agent)',
      ],
      [
        '1/command',
        'missing-field',
        'command hook needs "command"; entry dropped',
        'add "command": "<shell command line>"',
      ],
      [
        '2/timeout',
        'invalid-timeout',
        '"timeout" must be a positive number of seconds, not "30"; entry dropped',
        'write e.g. "timeout": 30, or leave it out for the event default',
      ],
      [
        '3/timeout',
        'invalid-timeout',
        '"timeout" must be a positive number of seconds, not 0; entry dropped',
        'write e.g. "timeout": 30, or leave it out for the event default',
      ],
      ['4/shell', 'invalid-value', '"shell" must be one of "bash", "powershell"; entry dropped', undefined],
      [
        '5/url',
        'invalid-url',
        '"url" is not a valid URL: "not a url"; entry dropped',
        'use an absolute URL, e.g. "https://example.com/hook"',
      ],
      ['6/prompt', 'missing-field', 'agent hook needs "prompt"; entry dropped', 'add "prompt": "<what to check>"'],
      [
        '7/type',
        'unknown-hook-type',
        'Unknown hook type "webhook"; entry dropped',
        'use one of: command, http, mcp_tool, prompt, agent',
      ],
      ['8', 'handler-not-object', 'a hook handler must be an object', 'write {"type": "command", "command": "..."}'],
    ],
  );
  assert.ok(
    result.diagnostics.every((x) => x.severity === 'warning' && x.line !== undefined && x.column !== undefined),
  );
});

test('guard events: an unloadable entry makes its whole file inapplicable, with an error saying so', async () => {
  const text = `{
  "disableAllHooks": true,
  "hooks": {
    "Stop": [ { "hooks": [ { "type": "command", "command": "stop-hook" } ] } ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "guard-ok" } ] },
      { "matcher": "Edit", "hooks": [ { "type": "command", "command": "guard-bad", "timeout": -5 } ] }
    ]
  }
}`;
  const root = await tree({ [USER]: hooksFor('user-hook'), [PROJECT]: text });
  const file = path.join(root, PROJECT);
  const result = await load(root);
  // Nothing of the project file applies: no hooks of any event, and not its disableAllHooks either.
  assert.deepEqual(
    result.hooks.map((h) => commandOf(h)),
    ['user-hook'],
  );
  assert.equal(result.hooks[0]!.disabledReason, undefined);
  assert.equal(result.settings.disableAllHooks, false);
  assert.deepEqual(result.sources[1], { layer: 'project', file, status: 'inapplicable', hooks: 0 });
  const where = at(text, '"timeout": -5');
  assert.deepEqual(result.diagnostics, [
    {
      severity: 'error',
      code: 'invalid-timeout',
      message: '"timeout" must be a positive number of seconds, not -5; entry dropped',
      file,
      pointer: '/hooks/PreToolUse/1/hooks/0/timeout',
      fix: 'write e.g. "timeout": 30, or leave it out for the event default',
      ...where,
    },
    {
      severity: 'error',
      code: 'source-inapplicable',
      file,
      pointer: '/hooks/PreToolUse/1/hooks/0/timeout',
      ...where,
      message: `an unloadable PreToolUse entry makes the whole source inapplicable: nothing in ${file} is applied until the entry is fixed`,
      fix: "fix the PreToolUse entry above; until then none of this file's hooks or settings apply",
    },
  ]);
});

test('each guard event is fail-closed; other events and unknown (mis-cased) keys are not', async () => {
  const root = await tree({
    'a.json': {
      hooks: { PermissionRequest: [{ matcher: '*' }], Stop: [{ hooks: [{ type: 'command', command: 'a' }] }] },
    },
    'b.json': {
      hooks: {
        PreSkillShellCommand: [{ type: 'command', command: 'flat' }],
        Stop: [{ hooks: [{ type: 'command', command: 'b' }] }],
      },
    },
    'c.json': {
      hooks: { PostToolUse: [{ matcher: 7, hooks: [] }], Stop: [{ hooks: [{ type: 'command', command: 'c' }] }] },
    },
    'd.json': {
      hooks: { pretooluse: [{ hooks: [{ type: 'nope' }] }], Stop: [{ hooks: [{ type: 'command', command: 'd' }] }] },
    },
  });
  const result = await load(root, {
    settingSources: [],
    settings: ['a.json', 'b.json', 'c.json', 'd.json'].map((f) => path.join(root, f)),
  });
  assert.deepEqual(
    result.sources.map((s) => s.status),
    ['inapplicable', 'inapplicable', 'loaded', 'loaded'],
  );
  assert.deepEqual(
    result.hooks.map((h) => commandOf(h)),
    ['c', 'd'],
  );
  assert.deepEqual(
    result.diagnostics.map((x) => [path.basename(x.file!), x.severity, x.code, x.pointer]),
    [
      ['a.json', 'error', 'group-hooks-missing', '/hooks/PermissionRequest/0/hooks'],
      ['a.json', 'error', 'source-inapplicable', '/hooks/PermissionRequest/0/hooks'],
      ['b.json', 'error', 'handler-without-group', '/hooks/PreSkillShellCommand/0'],
      ['b.json', 'error', 'source-inapplicable', '/hooks/PreSkillShellCommand/0'],
      ['c.json', 'warning', 'matcher-not-string', '/hooks/PostToolUse/0/matcher'],
      ['d.json', 'warning', 'unknown-event', '/hooks/pretooluse'],
    ],
  );
});

test('an empty "command" or "prompt" is a string like any other: it loads, and a guard event\'s file stays applicable', async () => {
  const root = await tree({
    [PROJECT]: {
      disableAllHooks: false,
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: '' },
              { type: 'command', command: 'deny-it' },
              { type: 'prompt', prompt: '' },
            ],
          },
        ],
      },
    },
  });
  const result = await load(root);
  assert.deepEqual(result.sources[1]!.status, 'loaded');
  assert.deepEqual(
    result.hooks.map((h) => h.handler),
    [
      { type: 'command', command: '' },
      { type: 'command', command: 'deny-it' },
      { type: 'prompt', prompt: '' },
    ],
  );
  assert.deepEqual(
    result.diagnostics.map((x) => [x.severity, x.code, x.pointer]),
    [
      ['warning', 'empty-value', '/hooks/PreToolUse/0/hooks/0/command'],
      ['warning', 'empty-value', '/hooks/PreToolUse/0/hooks/2/prompt'],
    ],
  );
});

test('Peri aliases: status_message and allowed_env_vars are read as Claude Code spellings, with a note; the file is untouched', async () => {
  const settings = {
    hooks: {
      PostToolUse: [
        {
          hooks: [
            { type: 'http', url: 'https://example.com/h', allowed_env_vars: ['TOKEN'], status_message: 'Posting' },
            { type: 'command', command: 'x', statusMessage: 'Claude', status_message: 'Peri' },
          ],
        },
      ],
    },
  };
  const root = await tree({ [LOCAL]: settings });
  const result = await load(root);
  assert.deepEqual(
    result.hooks.map((h) => h.handler),
    [
      { type: 'http', url: 'https://example.com/h', allowedEnvVars: ['TOKEN'], statusMessage: 'Posting' },
      { type: 'command', command: 'x', statusMessage: 'Claude' },
    ],
  );
  assert.deepEqual(
    result.diagnostics.map((x) => [x.severity, x.code, x.pointer, x.message]),
    [
      [
        'note',
        'peri-alias',
        '/hooks/PostToolUse/0/hooks/0/allowed_env_vars',
        '"allowed_env_vars" is Peri\'s spelling, read as "allowedEnvVars"',
      ],
      [
        'note',
        'peri-alias',
        '/hooks/PostToolUse/0/hooks/0/status_message',
        '"status_message" is Peri\'s spelling, read as "statusMessage"',
      ],
      [
        'note',
        'peri-alias-shadowed',
        '/hooks/PostToolUse/0/hooks/1/status_message',
        '"status_message" is ignored: "statusMessage" is also set',
      ],
    ],
  );
  const { readFile } = await import('node:fs/promises');
  assert.equal(await readFile(path.join(root, LOCAL), 'utf8'), JSON.stringify(settings, null, 2));
});

test('settings values of the wrong type are ignored with a warning; handler fields on a group are flagged', async () => {
  const root = await tree({
    [PROJECT]: {
      disableAllHooks: 'yes',
      allowManagedHooksOnly: true,
      httpHookAllowedEnvVars: 'TOKEN',
      hooks: { Stop: [{ onFailure: 'block', hooks: [{ type: 'command', command: 'x' }] }] },
    },
  });
  const result = await load(root);
  assert.equal(result.hooks.length, 1);
  assert.deepEqual(result.settings.disableAllHooks, false);
  assert.deepEqual(result.settings.allowManagedHooksOnly, false);
  assert.deepEqual(
    result.diagnostics.map((x) => [x.severity, x.code, x.pointer, x.message, x.fix]),
    [
      [
        'warning',
        'invalid-setting',
        '/disableAllHooks',
        '"disableAllHooks" must be true or false; ignored',
        'write "disableAllHooks" as true or false',
      ],
      [
        'note',
        'managed-only-setting',
        '/allowManagedHooksOnly',
        '"allowManagedHooksOnly" is honoured only in managed settings; ignored here',
        'move it to managed-settings.json',
      ],
      [
        'warning',
        'invalid-setting',
        '/httpHookAllowedEnvVars',
        '"httpHookAllowedEnvVars" must be an array of strings; ignored',
        'write "httpHookAllowedEnvVars" as an array of strings',
      ],
      [
        'warning',
        'field-on-group',
        '/hooks/Stop/0/onFailure',
        '"onFailure" on a matcher group is ignored',
        'move it into each handler of "hooks"',
      ],
    ],
  );
});
