// peri-hooks' own registration: recognised in the forms install writes (and hand-written ones that start the
// same artefacts, and the portable form of a project's file), never in other commands; the loader runs the
// policy it names in its place, marked as coming through it, and says so where it cannot be followed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { portableCommand, readRegistration, shellCommand, shellWords } from '../../src/config/registration.ts';
import { commandOf, load, PROJECT, tree } from './tree.ts';

type Row = [command: string, expected: { event: string; runner: string[]; args: string[] } | undefined];

const ROWS: Row[] = [
  [
    '/opt/ph/dist/peri-hooks fire PreToolUse --output claude',
    { event: 'PreToolUse', runner: ['/opt/ph/dist/peri-hooks'], args: ['--output', 'claude'] },
  ],
  [
    '/usr/bin/node /opt/ph/dist/peri-hooks.cjs fire Stop --output claude --settings /p.json',
    {
      event: 'Stop',
      runner: ['/usr/bin/node', '/opt/ph/dist/peri-hooks.cjs'],
      args: ['--output', 'claude', '--settings', '/p.json'],
    },
  ],
  [
    `'/my dir/node' '/my dir/dist/peri-hooks.cjs' fire Stop --output=claude`,
    { event: 'Stop', runner: ['/my dir/node', '/my dir/dist/peri-hooks.cjs'], args: ['--output=claude'] },
  ],
  [
    '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/peri-hooks fire Stop --output claude',
    { event: 'Stop', runner: ['$CLAUDE_PROJECT_DIR/node_modules/.bin/peri-hooks'], args: ['--output', 'claude'] },
  ],
  ['C:\\tools\\peri-hooks.exe fire Stop --output claude', undefined], // a backslash escapes in sh: not that path
  ['peri-hooks fire Stop --output json', undefined],
  ['peri-hooks fire Stop', undefined],
  ['peri-hooks fire Stop --output claude; rm -rf x', undefined],
  ['peri-hooks fire Stop --output claude > log', undefined],
  ['echo peri-hooks fire Stop --output claude', undefined],
  ['node peri-hooks-helper.js fire Stop --output claude', undefined],
  ['node a.js peri-hooks.cjs fire Stop --output claude', undefined],
  [
    'nodejs /x/peri-hooks.cjs fire Stop --output claude',
    { event: 'Stop', runner: ['nodejs', '/x/peri-hooks.cjs'], args: ['--output', 'claude'] },
  ],
  ['peri-hooks validate --output claude', undefined],
  ["peri-hooks fire 'Stop --output claude", undefined],
];

test('what counts as a registration', () => {
  for (const [command, expected] of ROWS)
    assert.deepEqual(readRegistration({ type: 'command', command }), expected, command);
  assert.deepEqual(
    readRegistration({ type: 'command', command: '/b/peri-hooks', args: ['fire', 'Stop', '--output', 'claude'] }),
    { event: 'Stop', runner: ['/b/peri-hooks'], args: ['--output', 'claude'] },
  );
  assert.equal(readRegistration({ type: 'http' }), undefined);
});

test('the portable form: the project from a variable or a file, the words after peri-hooks as written', () => {
  const words = [
    'fire',
    'PreToolUse',
    '--output',
    'claude',
    '--settings',
    { inProject: 'my policy.json' },
    '--setting-sources',
    'none',
  ];
  const byVariable = portableCommand({ variable: 'CLAUDE_PROJECT_DIR' }, words, {
    message: "it's missing",
    exitCode: 2,
  });
  assert.equal(
    byVariable,
    `d="$CLAUDE_PROJECT_DIR"; p="$d"/node_modules/.bin/peri-hooks; { [ -x "$p" ] && command -v node >/dev/null; } || p=$(command -v peri-hooks) || { echo 'it'\\''s missing' >&2; exit 2; }; exec "$p" fire PreToolUse --output claude --settings "$d"/'my policy.json' --setting-sources none`,
  );
  const args = ['--output', 'claude', '--settings', '$d/my policy.json', '--setting-sources', 'none'];
  assert.deepEqual(readRegistration({ type: 'command', command: byVariable }), {
    event: 'PreToolUse',
    runner: [],
    args,
    project: { variable: 'CLAUDE_PROJECT_DIR' },
  });
  const byFile = portableCommand({ anchor: '.codex/hooks.json' }, words, { message: 'missing', exitCode: 1 });
  assert.deepEqual(readRegistration({ type: 'command', command: byFile }), {
    event: 'PreToolUse',
    runner: [],
    args,
    project: { anchor: '.codex/hooks.json' },
  });
  // Anything added around it is not the registration.
  assert.equal(readRegistration({ type: 'command', command: `${byVariable}; rm -rf x` }), undefined);
  assert.equal(
    readRegistration({ type: 'command', command: byVariable.replace('exec "$p" ', 'exec "$q" ') }),
    undefined,
  );
  assert.equal(readRegistration({ type: 'command', command: `x=1; ${byVariable}` }), undefined);
});

test('shellCommand quotes only what needs it, and shellWords reads it back', () => {
  const words = [
    '/usr/bin/node',
    "/a b/it's/peri-hooks.cjs",
    'fire',
    'Stop',
    '--settings',
    '/x/policy.json',
    '',
    '$HOME',
    'a"b\\c',
  ];
  const line = shellCommand(words);
  assert.equal(
    line,
    `/usr/bin/node '/a b/it'\\''s/peri-hooks.cjs' fire Stop --settings /x/policy.json '' '$HOME' 'a"b\\c'`,
  );
  assert.deepEqual(shellWords(line), words);
  assert.deepEqual(shellWords(`a "b \\"c\\" \\$d \\x" e\\ f`), ['a', 'b "c" $d \\x', 'e f']);
});

test('the loader runs the policy a registration names in its place, marked; one it cannot follow is a warning', async () => {
  const registration =
    '/opt/ph/dist/peri-hooks fire PreToolUse --output claude --settings policy.json --setting-sources none';
  const root = await tree({
    [PROJECT]: {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: registration, timeout: 602 },
              { type: 'command', command: 'guard.sh' },
            ],
          },
        ],
        // Firing another event is not this firing: kept.
        Stop: [{ hooks: [{ type: 'command', command: '/opt/ph/dist/peri-hooks fire PreToolUse --output claude' }] }],
        // Without --setting-sources none it would load these settings again: not followed, and said.
        PostToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: '/opt/ph/dist/peri-hooks fire PostToolUse --output claude --settings policy.json',
              },
            ],
          },
        ],
      },
    },
    // Only the registered event's hooks of the policy run through it.
    'project/policy.json': {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'policy-guard.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'not-registered.sh' }] }],
      },
    },
  });
  const result = await load(root);
  // The followed policy comes after the sources, as a --settings file of the registration's layer.
  assert.deepEqual(result.hooks.map(commandOf), [
    'guard.sh',
    '/opt/ph/dist/peri-hooks fire PreToolUse --output claude',
    'policy-guard.sh',
  ]);
  const followed = result.hooks.find((hook) => commandOf(hook) === 'policy-guard.sh')!;
  assert.deepEqual(
    [followed.provenance.layer, followed.provenance.file, followed.provenance.via],
    ['project', `${root}/project/policy.json`, `${root}/${PROJECT}#/hooks/PreToolUse/0/hooks/0`],
  );
  assert.equal(result.hooks.find((hook) => commandOf(hook) === 'guard.sh')!.provenance.via, undefined);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.severity, d.code, d.pointer, d.line, d.message]),
    [
      [
        'note',
        'own-registration',
        '/hooks/PreToolUse/0/hooks/0',
        6,
        "peri-hooks' own registration for PreToolUse: its PreToolUse hooks in policy.json run here, as the registration runs them",
      ],
      [
        'warning',
        'registration-not-followed',
        '/hooks/PostToolUse/0/hooks/0',
        31,
        "peri-hooks' own registration for PostToolUse is not run by peri-hooks itself, and the policy it runs cannot be read from it (it loads settings besides its policy files: add --setting-sources none): its hooks are not shown or run here",
      ],
    ],
  );
});
