// `peri-hooks test` over a suite large enough for case worker processes: every case runs exactly once,
// whichever process runs it, and the results are those of the cases (and --bail still stops the run).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const CASES = 64;

function writeSuite(folder: string, log: string): void {
  const hook = project.write(
    `${folder}/no-rm.sh`,
    `#!/bin/sh\ninput=$(cat)\necho "$input" | grep -o 'marker-[0-9]*' >> ${log}\ncase "$input" in *'rm -rf'*) echo "no rm -rf" >&2; exit 2;; esac\n`,
  );
  const cases = Array.from({ length: CASES }, (_, index) =>
    index % 2
      ? {
          name: `ls ${index}`,
          tool: 'Bash',
          toolInput: { command: `ls marker-${index}` },
          expect: { decision: 'none' },
        }
      : {
          name: `rm ${index}`,
          tool: 'Bash',
          toolInput: { command: `rm -rf marker-${index}` },
          expect: { decision: 'deny', reasonContains: 'no rm -rf' },
        },
  );
  project.write(`${folder}/suite.hooks.test.json`, {
    settings: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] } },
    cases,
  });
}

test('every case runs once and passes, with --jobs 2', async () => {
  const log = join(project.dir, 'all.log');
  writeSuite('all', log);
  const result = await runCli(['test', 'all', '--jobs', '2', '--reporter', 'json'], {
    env: project.env(),
    cwd: project.dir,
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as { cases: Array<{ name: string; status: string }> };
  assert.deepEqual(
    report.cases.map((entry) => entry.name),
    Array.from({ length: CASES }, (_, index) => `${index % 2 ? 'ls' : 'rm'} ${index}`),
  );
  assert.ok(report.cases.every((entry) => entry.status === 'passed'));
  assert.deepEqual(
    readFileSync(log, 'utf8').trim().split('\n').sort(),
    Array.from({ length: CASES }, (_, index) => `marker-${index}`).sort(),
  );
});

test('--bail stops the run at the first failure: at most the cases already running finish', async () => {
  writeSuite('bail', join(project.dir, 'bail.log'));
  const file = join(project.dir, 'bail/suite.hooks.test.json');
  const suite = JSON.parse(readFileSync(file, 'utf8')) as { cases: Array<{ expect: object }> };
  // Every case expects the wrong decision, so whichever finishes first fails.
  for (const entry of suite.cases) entry.expect = { decision: 'ask' };
  project.write('bail/suite.hooks.test.json', suite);
  const result = await runCli(['test', 'bail', '--jobs', '2', '--bail', '--reporter', 'json'], {
    env: project.env(),
    cwd: project.dir,
  });
  assert.equal(result.code, 1, result.stderr);
  const { summary } = JSON.parse(result.stdout) as { summary: { passed: number; failed: number; notRun: number } };
  assert.equal(summary.passed, 0);
  assert.ok(summary.failed >= 1 && summary.failed <= 2, JSON.stringify(summary));
  assert.equal(summary.failed + summary.notRun, CASES);
});
