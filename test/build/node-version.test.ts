// The npm bin on a Node too old for the bundle: one clear line (and a block under --fail-closed where the event
// can block), never an internal error. Checked on a real old Node binary, and the check itself row by row.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EVENT_NAMES, EVENTS } from '../../src/events.ts';
import { BLOCKABLE_EVENTS, MINIMUM_NODE, runtimeRefusal } from '../../src/platform/node-version.ts';
import { makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';

const BIN = join(ROOT, 'dist/peri-hooks.cjs');
const TOO_OLD = 'peri-hooks needs Node >= 22.19 (found v20.20.2); use the single binary or a newer Node\n';
const FAIL_CLOSED = 'peri-hooks: blocking because of --fail-closed\n';

test("the blockable events are the catalogue's events that can block", () => {
  assert.deepEqual(
    BLOCKABLE_EVENTS,
    EVENT_NAMES.filter((name) => EVENTS[name].family !== 'observe'),
  );
});

test('package.json engines declares the same minimum', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  assert.equal(pkg.engines.node, `>=${MINIMUM_NODE.major}.${MINIMUM_NODE.minor}`);
});

describe('runtimeRefusal', () => {
  const rows: Array<[version: string, argv: string[], exitCode: 1 | 2 | undefined]> = [
    ['v20.20.2', ['fire', 'PreToolUse'], 1],
    ['v20.20.2', ['fire', 'PreToolUse', '--fail-closed'], 2],
    ['v20.20.2', ['--fail-closed', 'fire', '--output', 'json', 'Stop'], 2],
    ['v20.20.2', ['fire', 'Notification', '--fail-closed'], 1],
    ['v20.20.2', ['validate', '--fail-closed'], 1],
    ['v20.20.2', ['--version'], 1],
    ['v22.9.0', ['fire', 'PreToolUse'], 1],
    ['v22.18.1', ['fire', 'PreToolUse'], 1],
    ['v18.0.0-nightly20220101', [], 1],
    ['v22.19.0', ['fire', 'PreToolUse', '--fail-closed'], undefined],
    ['v23.0.0', [], undefined],
    ['v24.21.0', [], undefined],
    ['v100.0.0', [], undefined],
  ];
  for (const [version, argv, exitCode] of rows) {
    test(`${version} ${argv.join(' ')} -> ${exitCode ?? 'runs'}`, () => {
      const refusal = runtimeRefusal(version, argv);
      assert.equal(refusal?.exitCode, exitCode);
      if (refusal)
        assert.ok(
          refusal.message.startsWith(
            `peri-hooks needs Node >= 22.19 (found ${version}); use the single binary or a newer Node\n`,
          ),
        );
      if (refusal) assert.equal(refusal.message.endsWith(FAIL_CLOSED), exitCode === 2);
    });
  }
});

/** A node binary older than the minimum: PERI_HOOKS_OLD_NODE, the system's, or any on PATH. */
function findOldNode(): { path: string; version: string } | undefined {
  const candidates = [
    process.env.PERI_HOOKS_OLD_NODE,
    '/usr/bin/node',
    '/usr/local/bin/node',
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')),
  ];
  for (const path of candidates) {
    if (!path || !existsSync(path)) continue;
    const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    if (/^v\d/.test(version) && runtimeRefusal(version, []) !== undefined) return { path, version };
  }
  return undefined;
}

const oldNode = findOldNode();
const skip = oldNode
  ? false
  : `no Node older than ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} on this machine (looked at PERI_HOOKS_OLD_NODE, /usr/bin/node, /usr/local/bin/node and PATH)`;

describe(`on a real old Node (${oldNode?.version ?? 'none'})`, { skip }, () => {
  let project: Project;
  before(() => {
    project = makeProject();
  });
  after(() => project.cleanup());

  const deny = JSON.stringify({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] },
  });
  const tooOld = () => TOO_OLD.replace('v20.20.2', oldNode!.version);
  /** `fixture` names a recorded input; its event is the part before the first dot. */
  const fire = (node: string, fixture: string, ...flags: string[]) =>
    runCli(['fire', fixture.split('.')[0]!, '--setting-sources', '', '--settings', deny, '--no-state', ...flags], {
      stdin: project.input(fixture),
      env: project.env(),
      cli: [node, [BIN]],
    });

  test('the bin says which Node it needs, exit 1, and nothing else', async () => {
    const result = await fire(oldNode!.path, 'PreToolUse.tool_name-Bash');
    assert.equal(result.stderr, tooOld());
    assert.equal(result.stdout, '');
    assert.equal(result.code, 1);
  });

  test('--fail-closed on an event that can block turns it into a block that says why', async () => {
    const result = await fire(oldNode!.path, 'PreToolUse.tool_name-Bash', '--fail-closed');
    assert.equal(result.stderr, tooOld() + FAIL_CLOSED);
    assert.equal(result.code, 2);
  });

  test('--fail-closed on an event that cannot block stays exit 1', async () => {
    const result = await fire(oldNode!.path, 'PostCompact', '--fail-closed');
    assert.equal(result.stderr, tooOld());
    assert.equal(result.code, 1);
  });

  test('the same firing on this Node runs the hooks (the deny blocks)', async () => {
    const result = await fire(process.execPath, 'PreToolUse.tool_name-Bash', '--fail-closed');
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /no/);
    assert.doesNotMatch(result.stderr, /needs Node|fail-closed/);
  });

  test("npm's own check-node script names the Node the npm scripts need", () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const source = /^node -e "(.*)"$/.exec(scripts['check-node']!)?.[1];
    assert.ok(source, 'check-node is `node -e "<script>"`');
    const result = spawnSync(oldNode!.path, ['-e', source], { encoding: 'utf8' });
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      new RegExp(`^peri-hooks: the npm scripts need Node >= 24 .*got ${oldNode!.version.replace(/\./g, '\\.')}\\n$`),
    );
  });
});
