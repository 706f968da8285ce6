// peri-hooks' own registration: recognised in the forms install writes (and hand-written ones that start the
// same artefacts), never in other commands; the loader leaves it out with a note.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readRegistration, shellCommand, shellWords } from '../../src/config/registration.ts';
import { commandOf, load, PROJECT, tree } from './tree.ts';

type Row = [command: string, expected: { event: string; runner: string[]; args: string[] } | undefined];

const ROWS: Row[] = [
  ['/opt/ph/dist/peri-hooks fire PreToolUse --output claude', { event: 'PreToolUse', runner: ['/opt/ph/dist/peri-hooks'], args: ['--output', 'claude'] }],
  ['/usr/bin/node /opt/ph/dist/peri-hooks.cjs fire Stop --output claude --settings /p.json', { event: 'Stop', runner: ['/usr/bin/node', '/opt/ph/dist/peri-hooks.cjs'], args: ['--output', 'claude', '--settings', '/p.json'] }],
  [`'/my dir/node' '/my dir/dist/peri-hooks.cjs' fire Stop --output=claude`, { event: 'Stop', runner: ['/my dir/node', '/my dir/dist/peri-hooks.cjs'], args: ['--output=claude'] }],
  ['"$CLAUDE_PROJECT_DIR"/node_modules/.bin/peri-hooks fire Stop --output claude', { event: 'Stop', runner: ['$CLAUDE_PROJECT_DIR/node_modules/.bin/peri-hooks'], args: ['--output', 'claude'] }],
  ['C:\\tools\\peri-hooks.exe fire Stop --output claude', undefined], // a backslash escapes in sh: not that path
  ['peri-hooks fire Stop --output json', undefined],
  ['peri-hooks fire Stop', undefined],
  ['peri-hooks fire Stop --output claude; rm -rf x', undefined],
  ['peri-hooks fire Stop --output claude > log', undefined],
  ['echo peri-hooks fire Stop --output claude', undefined],
  ['node peri-hooks-helper.js fire Stop --output claude', undefined],
  ['node a.js peri-hooks.cjs fire Stop --output claude', undefined],
  ['nodejs /x/peri-hooks.cjs fire Stop --output claude', { event: 'Stop', runner: ['nodejs', '/x/peri-hooks.cjs'], args: ['--output', 'claude'] }],
  ['peri-hooks validate --output claude', undefined],
  ["peri-hooks fire 'Stop --output claude", undefined],
];

test('what counts as a registration', () => {
  for (const [command, expected] of ROWS) assert.deepEqual(readRegistration({ type: 'command', command }), expected, command);
  assert.deepEqual(readRegistration({ type: 'command', command: '/b/peri-hooks', args: ['fire', 'Stop', '--output', 'claude'] }), { event: 'Stop', runner: ['/b/peri-hooks'], args: ['--output', 'claude'] });
  assert.equal(readRegistration({ type: 'http' }), undefined);
});

test('shellCommand quotes only what needs it, and shellWords reads it back', () => {
  const words = ['/usr/bin/node', '/a b/it\'s/peri-hooks.cjs', 'fire', 'Stop', '--settings', '/x/policy.json', '', '$HOME', 'a"b\\c'];
  const line = shellCommand(words);
  assert.equal(line, `/usr/bin/node '/a b/it'\\''s/peri-hooks.cjs' fire Stop --settings /x/policy.json '' '$HOME' 'a"b\\c'`);
  assert.deepEqual(shellWords(line), words);
  assert.deepEqual(shellWords(`a "b \\"c\\" \\$d \\x" e\\ f`), ['a', 'b "c" $d \\x', 'e f']);
});

test('the loader leaves its own registration out, with a located note, and keeps every other hook', async () => {
  const registration = '/opt/ph/dist/peri-hooks fire PreToolUse --output claude --settings /team/policy.json --setting-sources none';
  const root = await tree({
    [PROJECT]: {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command', command: registration, timeout: 602 }, { type: 'command', command: 'guard.sh' }] }],
        // Firing another event is not this firing: kept.
        Stop: [{ hooks: [{ type: 'command', command: '/opt/ph/dist/peri-hooks fire PreToolUse --output claude' }] }],
      },
    },
  });
  const result = await load(root);
  assert.deepEqual(result.hooks.map(commandOf), ['guard.sh', '/opt/ph/dist/peri-hooks fire PreToolUse --output claude']);
  assert.deepEqual(result.diagnostics.map((d) => [d.severity, d.code, d.pointer, d.line, d.message]), [
    ['note', 'own-registration', '/hooks/PreToolUse/0/hooks/0', 6, 'peri-hooks\' own registration for PreToolUse: not run as a hook by peri-hooks itself'],
  ]);
});
