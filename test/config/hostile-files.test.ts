// A settings file is attacker-controlled (a repository's .claude/settings.json): whatever it holds, it is at
// worst unreadable, the loader returns diagnostics instead of throwing, and the other files load and run.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { createLocator, syntaxErrorPosition } from '../../src/config/locate.ts';
import { EVENT_NAMES } from '../../src/events.ts';
import { plan } from '../../src/plan.ts';
import { validate } from '../../src/validate/index.ts';
import { HOSTILE_FILES, MANAGED_DENY } from '../helpers/hostile-settings.ts';
import { load, MANAGED, PROJECT, tree } from './tree.ts';

const BASH_CALL = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/w' };

const EXPECTED: Record<string, { status: string; codes: string[] }> = {
  'valid JSON nested 50,000 deep, plus a diagnostic': { status: 'invalid', codes: ['too-deeply-nested'] },
  'invalid JSON with 50,000 unclosed brackets': { status: 'invalid', codes: ['too-deeply-nested'] },
  'a matcher regex too large for V8': { status: 'loaded', codes: [] },
  'an if rule with 100,000 stars': { status: 'loaded', codes: [] },
  'an mcp_tool input nested 20,000 deep': { status: 'invalid', codes: ['too-deeply-nested'] },
};

for (const [shape, text] of Object.entries(HOSTILE_FILES)) {
  test(`${shape}: the project file is at worst unreadable, and the managed deny still loads and plans`, async () => {
    const root = await tree({ [PROJECT]: text, [MANAGED]: MANAGED_DENY });
    const loaded = await load(root);
    const project = loaded.sources.find((source) => source.layer === 'project')!;
    assert.equal(project.status, EXPECTED[shape]!.status);
    assert.deepEqual(
      loaded.diagnostics.map((d) => d.code),
      EXPECTED[shape]!.codes,
    );
    assert.ok(
      loaded.diagnostics.every((d) => d.message.length < 500 && d.line !== undefined),
      JSON.stringify(loaded.diagnostics).slice(0, 500),
    );
    const planned = plan('PreToolUse', BASH_CALL, loaded.hooks, { home: path.join(root, 'home'), env: {} });
    assert.ok(
      planned.run.some((run) => run.hook.provenance.layer === 'managed'),
      'the managed deny runs',
    );

    const report = await validate({
      projectDir: path.join(root, 'project'),
      home: path.join(root, 'home'),
      managedDir: path.join(root, 'managed'),
      env: {},
    });
    assert.equal(report.sources.find((source) => source.layer === 'project')!.status, EXPECTED[shape]!.status);
    assert.equal(report.hooks, loaded.hooks.length);
    assert.deepEqual(
      report.diagnostics.filter((d) => d.code === 'too-deeply-nested').map((d) => d.severity),
      EXPECTED[shape]!.codes.map(() => 'error'),
    );
  });
}

test('the nesting limit: 128 levels load, 129 are too deep, with the place and the fix', async () => {
  const nested = (depth: number) => `{"hooks":{},"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  const root = await tree({ [PROJECT]: nested(128), 'project/.claude/settings.local.json': nested(129) });
  const loaded = await load(root);
  assert.deepEqual(
    loaded.sources.map((s) => [s.layer, s.status]),
    [
      ['user', 'missing'],
      ['project', 'loaded'],
      ['local', 'invalid'],
      ['managed', 'missing'],
    ],
  );
  const [diagnostic] = loaded.diagnostics;
  assert.deepEqual(
    { ...diagnostic, message: undefined, fix: undefined },
    {
      severity: 'warning',
      code: 'too-deeply-nested',
      file: path.join(root, 'project/.claude/settings.local.json'),
      line: 1,
      column: 144,
      message: undefined,
      fix: undefined,
    },
  );
  assert.match(
    diagnostic!.message,
    /settings\.local\.json nests arrays and objects more than 128 levels deep; its settings are skipped$/,
  );
  assert.match(diagnostic!.fix!, /flatten/);
});

test('brackets inside strings and comments do not count', async () => {
  const root = await tree({
    [PROJECT]: `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo ${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}]}]}}`,
    'project/.claude/settings.local.json': `// ${'['.repeat(1000)}\n{}`,
  });
  const loaded = await load(root);
  assert.equal(loaded.sources.find((s) => s.layer === 'project')!.status, 'loaded');
  assert.deepEqual(
    loaded.diagnostics.map((d) => d.code),
    ['invalid-json'],
  );
});

test('an inline --settings value nested too deep is skipped the same way', async () => {
  const root = await tree({ [MANAGED]: MANAGED_DENY });
  const loaded = await load(root, { settings: [`{"hooks":${'['.repeat(10_000)}`] });
  assert.deepEqual(
    loaded.diagnostics.map((d) => [d.code, d.file]),
    [['too-deeply-nested', '--settings']],
  );
  assert.equal(loaded.hooks.length, 1);
});

test('the locators do not recurse into a text nested too deep (cases files and validate read texts again)', async () => {
  const deep = `{"a":${'['.repeat(50_000)}`;
  assert.deepEqual((await createLocator(`${deep}${']'.repeat(50_000)}}`))('/a/0'), { line: 1, column: 1 });
  assert.deepEqual(await syntaxErrorPosition(deep, 'Unexpected end of JSON input'), { line: 1, column: 133 });
});

test('a 1 MB unknown event key is reported, without a "did you mean" search over a million characters', async () => {
  const root = await tree({ [PROJECT]: { hooks: { [`Pre${'X'.repeat(1_000_000)}`]: [] } }, [MANAGED]: MANAGED_DENY });
  const loaded = await load(root);
  assert.deepEqual(
    loaded.diagnostics.map((d) => [d.code, d.fix]),
    [['unknown-event', `use one of the ${EVENT_NAMES.length} event names, e.g. PreToolUse`]],
  );
  assert.equal(loaded.hooks.length, 1);
});

test('a settings file over 10 MiB is unreadable, never read whole; the managed deny still loads', async () => {
  const root = await tree({ [PROJECT]: `{"hooks":{},"x":"${'a'.repeat(10 * 1024 * 1024)}"}`, [MANAGED]: MANAGED_DENY });
  const loaded = await load(root);
  assert.deepEqual(
    loaded.sources.map((s) => [s.layer, s.status]),
    [
      ['user', 'missing'],
      ['project', 'invalid'],
      ['local', 'missing'],
      ['managed', 'loaded'],
    ],
  );
  assert.deepEqual(
    loaded.diagnostics.map((d) => [d.code, d.message.replace(root, '<root>')]),
    [
      [
        'settings-unreadable',
        `cannot read <root>/project/.claude/settings.json: it is larger than ${10 * 1024 * 1024} bytes; its settings are skipped`,
      ],
    ],
  );
});
