// `peri-hooks explain`: the plan of one firing, nothing run. Each filter once hit and once missed.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { explain } from '../../src/explain.ts';
import { fire } from '../../src/fire.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

/** A command that would leave a marker behind if anything ran it. */
const marker = (name: string) => ({ type: 'command', command: `touch ${join(project.dir, `ran-${name}`)}` });

async function explainJson(args: string[], stdin?: string) {
  const result = await runCli(['explain', ...args, '--project-dir', project.dir, '--output', 'json'], {
    env: project.env(),
    ...(stdin === undefined ? {} : { stdin }),
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  return {
    report,
    status: report.hooks.map(
      (h: { label: string; status: string; skipReason?: string }) =>
        `${h.label.split('/ran-')[1]}: ${h.skipReason ?? h.status}`,
    ),
  };
}

describe('filters', () => {
  before(() => {
    project.writeHome('.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [marker('dup')] }] },
    });
    project.write('.claude/settings.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [marker('bash'), marker('dup')] },
          { matcher: '^Edit$', hooks: [marker('edit')] },
          { matcher: 'Bash', hooks: [{ ...marker('push'), if: 'Bash(git push *)' }] },
        ],
        PermissionRequest: [{ hooks: [{ type: 'agent', prompt: 'ok?' }, marker('permission')] }],
        Stop: [{ matcher: 'ignored', hooks: [marker('stop'), { ...marker('stop-if'), if: 'Bash' }] }],
      },
    });
  });

  test('matcher and if hit: the hook would run; dedup keeps one copy', async () => {
    const { report, status } = await explainJson([
      'PreToolUse',
      '--tool',
      'Bash',
      '--tool-input',
      '{"command":"git push origin main"}',
    ]);
    assert.equal(report.matcherValue, 'Bash');
    assert.deepEqual(status, [
      'dup: deduplicated',
      'bash: would-run',
      'dup: would-run',
      'edit: matcher',
      'push: would-run',
    ]);
    const dup = report.hooks.find((h: { layer: string }) => h.layer === 'user');
    assert.match(
      dup.skipDetail,
      /^same handler as project:.*settings\.json#\/hooks\/PreToolUse\/0\/hooks\/1, which runs instead$/,
    );
    assert.equal(report.hooks.find((h: { label: string }) => h.label.endsWith('ran-bash')).timeoutMs, 600_000);
  });

  test('matcher and if miss, with the reason', async () => {
    const { report, status } = await explainJson([
      'PreToolUse',
      '--tool',
      'Edit',
      '--tool-input',
      '{"file_path":"a.txt"}',
    ]);
    assert.deepEqual(status, ['dup: matcher', 'bash: matcher', 'dup: matcher', 'edit: would-run', 'push: matcher']);
    assert.equal(report.hooks[0].skipDetail, 'matcher "Bash" does not match "Edit"');
    const ls = await explainJson(['PreToolUse', '--tool', 'Bash', '--tool-input', '{"command":"ls"}']);
    assert.equal(ls.status[4], 'push: if');
    assert.equal(
      ls.report.hooks.find((h: { label: string }) => h.label.endsWith('ran-push')).skipDetail,
      '"if": "Bash(git push *)" does not match this call',
    );
  });

  test('unsupported type: an agent hook on PermissionRequest; a real Claude Code input on stdin', async () => {
    const { report } = await explainJson(['PermissionRequest'], project.input('PermissionRequest.tool_name-Bash'));
    assert.deepEqual(
      report.hooks.map((h: { type: string; status: string; skipReason?: string }) => [
        h.type,
        h.skipReason ?? h.status,
      ]),
      [
        ['agent', 'unsupported-type'],
        ['command', 'would-run'],
      ],
    );
    assert.equal(report.hooks[0].skipDetail, 'agent hooks are not supported for PermissionRequest events');
  });

  test('events without a tool: the matcher is ignored, "if" never runs', async () => {
    const { report, status } = await explainJson(['Stop']);
    assert.equal(report.matcherValue, null);
    assert.deepEqual(status, ['stop: would-run', 'stop-if: if']);
  });

  test('human table on request; nothing ran', async () => {
    const result = await runCli(
      ['explain', 'PreToolUse', '--tool', 'Bash', '--project-dir', project.dir, '--output', 'human'],
      { env: project.env() },
    );
    assert.equal(result.code, 0);
    const lines = result.stdout.split('\n');
    assert.match(lines[0]!, /^peri-hooks explain PreToolUse\(Bash\): 2 of 5 configured hooks would run$/);
    assert.match(lines[1]!, /^ +type +matcher +source +hook +why$/);
    assert.match(
      result.stdout,
      /\nskip +command +Bash +user \S+settings\.json:7 +touch \S+ran-dup +deduplicated: same handler as /,
    );
    assert.match(
      result.stdout,
      /\nrun +command +Bash +project \S+settings\.json:\d+ +touch \S+ran-bash +timeout 600 s\n/,
    );
    assert.ok(
      !['dup', 'bash', 'edit', 'push', 'stop', 'permission'].some((name) =>
        existsSync(join(project.dir, `ran-${name}`)),
      ),
    );
  });

  test('usage errors: a tool event without a call, --tool on other events, bad --tool-input, unknown event', async () => {
    const run = (args: string[]) => runCli(['explain', ...args, '--project-dir', project.dir], { env: project.env() });
    const cases: Array<[string[], RegExp]> = [
      [['PreToolUse'], /^peri-hooks: PreToolUse needs a tool call to explain\n {2}fix: give --tool <name>/],
      [['Stop', '--tool', 'Bash'], /^peri-hooks: --tool applies to tool events only, not Stop\n/],
      [['PreToolUse', '--tool', 'Bash', '--tool-input', '[1]'], /^peri-hooks: --tool-input must be a JSON object\n/],
      [['pretooluse'], /^peri-hooks: unknown hook event "pretooluse"; did you mean PreToolUse\?\n/],
    ];
    for (const [args, expected] of cases) {
      const result = await run(args);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(result.stderr, expected);
    }
  });
});

describe('policy and once (library)', () => {
  test('disabled by policy: disableAllHooks in local settings turns off project hooks, not managed ones', async () => {
    const other = makeProject();
    try {
      other.write('.claude/settings.json', {
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo project' }] }] },
      });
      other.write('.claude/settings.local.json', { disableAllHooks: true });
      other.writeManaged('managed-settings.json', {
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo managed' }] }] },
      });
      const input = JSON.parse(other.input('Stop'));
      const report = await explain('Stop', input, { projectDir: other.dir, env: other.env(), home: other.home });
      assert.deepEqual(
        report.hooks.map((h) => [h.label, h.status, h.skipReason]),
        [
          ['echo project', 'skipped', 'disabled'],
          ['echo managed', 'would-run', undefined],
        ],
      );
      assert.match(report.hooks[0]!.skipDetail!, /^disableAllHooks: true in local settings /);
    } finally {
      other.cleanup();
    }
  });

  test('once: skipped after a successful run in the session, planned before', async () => {
    const other = makeProject();
    try {
      other.write('.claude/settings.json', {
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo once', once: true }] }] },
      });
      const input = JSON.parse(other.input('Stop'));
      const stateDir = `${other.dir}/state`;
      const options = { projectDir: other.dir, env: other.env(), home: other.home, stateDir };
      const first = await explain('Stop', input, options);
      assert.equal(first.hooks[0]!.status, 'would-run');
      const fired = await fire('Stop', input, options);
      assert.equal(fired.hooks[0]!.status, 'ran');
      const again = await explain('Stop', input, options);
      assert.deepEqual(
        [again.hooks[0]!.skipReason, again.hooks[0]!.skipDetail],
        ['once', 'once: already ran successfully in this session'],
      );
    } finally {
      other.cleanup();
    }
  });
});

describe('sequential groups', () => {
  test('the JSON report shows the chains fire would run: a sequential group in order, other hooks alone', async () => {
    const other = makeProject();
    try {
      const hook = (name: string) => ({ type: 'command', command: `echo ${name}` });
      other.write('.claude/settings.json', {
        hooks: { Stop: [{ hooks: [hook('alone')] }, { sequential: true, hooks: [hook('first'), hook('second')] }] },
      });
      const result = await runCli(['explain', 'Stop', '--project-dir', other.dir, '--output', 'json'], {
        env: other.env(),
      });
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout);
      const labels = new Map(report.hooks.map((h: { id: string; label: string }) => [h.id, h.label]));
      assert.deepEqual(
        report.chains.map((chain: string[]) => chain.map((id) => labels.get(id))),
        [['echo alone'], ['echo first', 'echo second']],
      );
    } finally {
      other.cleanup();
    }
  });
});
