// Case worker processes: a real worker (the CLI the tests run, started as `test` starts it) runs cases as this process
// would, and a worker that cannot start costs no result.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCaseFile } from '../../src/cases/load.ts';
import { runSuite } from '../../src/cases/run.ts';
import { type CaseOutcome, runCase } from '../../src/cases/run-case.ts';
import { startCaseWorker } from '../../src/cases/workers.ts';
import { cliCommand, makeProject, type Project } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const [command, prefix] = cliCommand('test');
const WORKER = [command, ...prefix];
const cmd = (command: string) => ({ type: 'command', command });
const withoutTimes = ({ durationMs: _, ...outcome }: CaseOutcome) => ({ ...outcome, hooks: outcome.hooks });

describe('case workers', () => {
  test('a worker runs a case as this process does, and hands back the files its cases read', async (t) => {
    const deny = project.write(
      'hooks/deny.sh',
      '#!/bin/sh\ncase "$(cat)" in *"rm -rf"*) echo "no rm" >&2; exit 2;; esac\n',
    );
    const file = project.write('same/hooks.test.json', {
      settings: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(deny)] }] } },
      cases: [
        {
          name: 'rm',
          tool: 'Bash',
          toolInput: { command: 'rm -rf x' },
          expect: { decision: 'deny', reasonContains: 'no rm' },
        },
        { name: 'ls', tool: 'Bash', toolInput: { command: 'ls' }, expect: { decision: 'allow' } },
      ],
    });
    const { cases } = await loadCaseFile(file);
    const worker = startCaseWorker(WORKER, project.env(), project.dir, project.dir);
    t.after(() => worker.close());
    assert.equal(await worker.ready, true);
    const viaWorker = await Promise.all(
      cases.map(({ locate: _, ...testCase }, index) => worker.run(index, testCase, false)),
    );
    const here = await Promise.all(
      cases.map((testCase, index) =>
        runCase(testCase, project.env(), { stateDir: join(project.dir, 'state', String(index)) }),
      ),
    );
    assert.deepEqual(
      viaWorker.map((outcome) => withoutTimes(outcome!)),
      here.map(withoutTimes),
    );
    assert.deepEqual(
      viaWorker.map((outcome) => [outcome!.status, outcome!.actual?.decision]),
      [
        ['passed', 'deny'],
        ['failed', 'none'],
      ],
    );
    assert.deepEqual(await worker.close(), { watched: [deny] });
  });

  test('stop interrupts the cases running in the worker', async (t) => {
    const started = join(project.dir, 'slow-started');
    const slow = project.write('hooks/slow.sh', `#!/bin/sh\ntouch ${started}\nsleep 60\n`);
    const file = project.write('slow/hooks.test.json', [
      {
        name: 'slow',
        tool: 'Bash',
        settings: { hooks: { PreToolUse: [{ hooks: [cmd(slow)] }] } },
        expect: { decision: 'none' },
      },
    ]);
    const {
      cases: [slowCase],
    } = await loadCaseFile(file);
    const worker = startCaseWorker(WORKER, project.env(), project.dir, project.dir);
    t.after(() => worker.close());
    assert.equal(await worker.ready, true);
    const { locate: _, ...testCase } = slowCase!;
    const outcome = worker.run(0, testCase, false);
    // Stopped once the hook runs in the worker, so the stop has a running hook to interrupt.
    await until('the slow hook to start in the worker', () => existsSync(started));
    worker.stop();
    const stopped = await outcome;
    assert.ok(stopped!.durationMs < 30_000, `the case ran ${stopped!.durationMs} ms`);
  });

  test('a worker that cannot start takes no case: every case runs in this process', async () => {
    const log = join(project.dir, 'ran.txt');
    const record = project.write('hooks/record.sh', `#!/bin/sh\ncat >/dev/null\necho "$PPID" >> ${log}\n`);
    project.write(
      'many/hooks.test.json',
      Array.from({ length: 40 }, (_, index) => ({
        name: `case ${index}`,
        tool: 'Bash',
        settings: { hooks: { PreToolUse: [{ hooks: [cmd(record)] }] } },
        expect: { decision: 'none' },
      })),
    );
    const missing = startCaseWorker([join(project.dir, 'no-such-peri-hooks')], project.env(), project.dir, project.dir);
    assert.equal(await missing.ready, false);
    assert.equal(await missing.run(0, { name: 'x' } as never, false), undefined);
    const suite = await runSuite({
      paths: ['many'],
      cwd: project.dir,
      env: project.env(),
      jobs: 2,
      selfCommand: [join(project.dir, 'no-such-peri-hooks')],
      spawner: false,
    });
    assert.equal(suite.passed, 40);
    assert.deepEqual([...new Set(readFileSync(log, 'utf8').trim().split('\n'))], [String(process.pid)]);
    // Not silently: the suite says how each worker ended.
    assert.equal(suite.workersEnded.length, 2);
    assert.ok(
      suite.workersEnded.every((ended) => /^could not start \(.*ENOENT/.test(ended)),
      suite.workersEnded.join('; '),
    );
  });
  // Where the cases run in workers (Deno, which has no spawner helper; here with the helper turned off).
  test('a case worker that dies costs no result, and the suite says how it ended', async () => {
    // The hook kills the process that started it when that is a case worker; run again in this process, it passes.
    const hook = project.write(
      'dies/kill-worker.sh',
      '#!/bin/sh\ncat >/dev/null\nif tr "\\0" " " < /proc/$PPID/cmdline | grep -q __case-worker; then kill -9 $PPID; fi\nexit 0\n',
    );
    // Enough cases that the workers have started before this process has run them all.
    const CASES = 150;
    project.write('dies/suite.hooks.test.json', {
      settings: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(hook)] }] } },
      cases: Array.from({ length: CASES }, (_, index) => ({
        name: `case ${index}`,
        tool: 'Bash',
        toolInput: { command: `ls ${index}` },
        expect: { decision: 'none' },
      })),
    });
    const suite = await runSuite({
      paths: ['dies'],
      cwd: project.dir,
      env: project.env(),
      jobs: 2,
      selfCommand: WORKER,
      spawner: false,
    });
    assert.equal(suite.passed, CASES);
    assert.ok(
      suite.workersEnded.some((ended) => ended === 'was killed by SIGKILL'),
      suite.workersEnded.join('; '),
    );
  });
});
