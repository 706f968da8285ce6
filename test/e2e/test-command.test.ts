// `peri-hooks test` as a real process: the sample policy in fixtures/policies, every reporter, discovery
// from the current folder, located errors, --update, usage errors.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { parseTap, parseXml } from '../cases/formats.ts';
import { cliCommand, makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const cli = (args: string[], cwd?: string) =>
  runCli(['test', ...args], { env: project.env(), ...(cwd ? { cwd } : {}) });

describe('the sample policy', () => {
  test('its passing cases pass: exit 0, the summary line last', async () => {
    const result = await cli(['fixtures/policies/guard']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 0 failed');
    assert.equal(result.stdout.match(/^✓ /gm)?.length, 8);
  });

  test("with the deliberately failing cases: exit 1, expected against actual, the hooks' stderr", async () => {
    const result = await cli(['fixtures/policies']);
    assert.equal(result.code, 1);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 5 failed');
    assert.match(result.stdout, /- decision: expected allow, got deny\n/);
    assert.match(result.stdout, /stderr \| force pushes are not allowed here/);
    assert.match(
      result.stdout,
      /- updatedInput: expected \{"command":"npm install --ignore-scripts"\}, got \{"command":"npm ci"\}/,
    );
    assert.match(result.stdout, /run peri-hooks test --update to record the actual decision/);
  });

  test('--reporter tap parses as TAP', async () => {
    const result = await cli(['fixtures/policies', '--reporter', 'tap']);
    assert.equal(result.code, 1);
    const tap = parseTap(result.stdout);
    assert.equal(tap.plan, 13);
    assert.equal(tap.points.filter((point) => !point.ok).length, 5);
    assert.deepEqual(tap.comments, ['8 passed, 5 failed']);
  });

  test('--reporter junit writes well-formed XML to --output-file; the console keeps the default report', async () => {
    const file = `${project.dir}/out/junit.xml`;
    project.write('out/.keep', '');
    const result = await cli(['fixtures/policies', '--reporter', 'junit', '--output-file', file]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /JUnit report written to .*junit\.xml/);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 5 failed');
    const root = parseXml(readFileSync(file, 'utf8'));
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['13', '5', '0']);
  });

  test('--reporter github prints annotations on the case file lines, with junit alongside', async () => {
    const result = await cli([
      'fixtures/policies',
      '--reporter',
      'github',
      '--reporter',
      'junit',
      '--output-file',
      `${project.dir}/gh.xml`,
    ]);
    assert.equal(result.code, 1);
    const annotations = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('::error file=fixtures/policies/deliberately-failing.hooks.test.json,line='));
    assert.equal(annotations.length, 6);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 5 failed');
  });
});

test('without paths, case files are found from the current folder', async () => {
  const dir = `${project.dir}/discovered`;
  const quiet = project.write('discovered/hooks/quiet.sh', '#!/bin/sh\nexit 0\n');
  const settings = {
    hooks: {
      PreToolUse: [{ hooks: [{ type: 'command', command: quiet }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: quiet }] }],
    },
  };
  project.write('discovered/hooks.test.json', [
    {
      name: 'a quiet hook, no decision',
      tool: 'Read',
      toolInput: { file_path: '${CLAUDE_PROJECT_DIR}/a' },
      settings,
      expect: { decision: 'none', exitCode: 0 },
    },
  ]);
  project.write('discovered/.claude/hooks-tests/more.json', [
    { name: 'a prompt', event: 'UserPromptSubmit', input: { prompt: 'hi' }, settings, expect: { decision: 'none' } },
  ]);
  const result = await cli(['--jobs', '1'], dir);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.equal(result.stdout.trimEnd().split('\n').at(-1), '2 passed, 0 failed');
});

// This case passed before: "no hooks, no decision" for a dangerous call was green. It fails now, deliberately.
test('no hooks, no decision: the case fails, naming the project folder and how it was chosen', async () => {
  const dir = `${project.dir}/unguarded`;
  project.write('unguarded/hooks.test.json', [
    {
      name: 'no hooks, no decision',
      tool: 'Bash',
      toolInput: { command: 'rm -rf /' },
      expect: { decision: 'none', exitCode: 0 },
    },
  ]);
  const result = await cli([], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    new RegExp(
      `no PreToolUse hooks loaded: no settings of project ${dir} \\(chosen by the folder holding the case file \\(no "projectDir" in it\\)\\) hold PreToolUse hooks; searched: `,
    ),
  );
  assert.equal(result.stdout.trimEnd().split('\n').at(-1), '0 passed, 1 failed');
});

test('a case file that cannot be parsed is an error with its line, column and a fix; never a stack trace', async () => {
  const file = project.write('broken/hooks.test.json', '[\n  { "name": "a", "expect": { "decision": "deny" }, }\n]\n');
  project.write('broken/typo.hooks.test.json', '[\n  { "name": "a", "expect": { "decison": "deny" } }\n]\n');
  const result = await cli([`${project.dir}/broken`]);
  assert.equal(result.code, 1);
  assert.ok(result.stdout.includes(`peri-hooks: error: ${file}:2:52: the case file is not valid JSON`), result.stdout);
  assert.match(
    result.stdout,
    /typo\.hooks\.test\.json:2:30 \(\/0\/expect\/decison\): unknown field "decison"\n {2}fix: did you mean "decision"\?/,
  );
  assert.equal(result.stdout.trimEnd().split('\n').at(-1), '0 passed, 2 failed');
  assert.doesNotMatch(result.stdout + result.stderr, /\n\s+at .*\.ts:\d+/);
});

test('--update records the decisions of new cases and the next run passes', async () => {
  const deny = project.write('hooks/deny.sh', '#!/bin/sh\necho "not here" >&2\nexit 2\n');
  const file = project.write('snap/hooks.test.json', {
    settings: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: deny }] }] } },
    cases: [{ name: 'new policy', tool: 'Bash' }],
  });
  const first = await cli([file, '--update']);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.match(first.stderr, /recorded expectations in .*hooks\.test\.json for "new policy"/);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).cases[0].expect, {
    decision: 'deny',
    exitCode: 2,
    reasonContains: 'not here',
  });
  const second = await cli([file]);
  assert.equal(second.code, 0);
});

test('usage errors exit 1 with a fix', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['--reporter', 'nope'], /unknown --reporter "nope"\n {2}fix: use one of: default, tap, junit, github/],
    [
      ['--jobs', '0'],
      /--jobs must be a whole number of at least 1, not "0"\n {2}fix: e\.g\. --jobs 4 \(default: four per core\)/,
    ],
    [
      ['--reporter', 'tap', '--reporter', 'github'],
      /only one of default, tap, github and json can write to the console\n {2}fix: /,
    ],
    [['--watch', '--update'], /--watch and --update cannot be combined/],
    [['--output-file', 'x.xml'], /--output-file names the JUnit file, but --reporter junit is not given\n {2}fix: /],
    [['no/such/path'], /cannot read no\/such\/path: ENOENT[\s\S]*fix: /],
  ];
  for (const [args, message] of cases) {
    const result = await cli(args);
    assert.equal(result.code, 1, args.join(' '));
    assert.match(result.stderr + result.stdout, /fix: /, args.join(' '));
    assert.match(result.stderr + result.stdout, message, args.join(' '));
  }
});

describe('suites: streaming, --filter, --bail, --shard, --reporter json', () => {
  // A suite of 12 cases against one script: the even ones are denied, the odd ones pass through.
  const suite = () => {
    const guard = project.write(
      'suite/hooks/guard.sh',
      '#!/bin/sh\ncase "$(cat)" in *deny-me*) echo "denied" >&2; exit 2;; esac\nexit 0\n',
    );
    const cases = Array.from({ length: 12 }, (_, index) =>
      index % 2 === 0
        ? {
            name: `deny ${index}`,
            tool: 'Bash',
            toolInput: { command: `deny-me ${index}` },
            expect: { decision: 'deny' },
          }
        : { name: `pass ${index}`, tool: 'Bash', toolInput: { command: `ls ${index}` }, expect: { decision: 'none' } },
    );
    return project.write('suite/big.hooks.test.json', {
      settings: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: guard }] }] } },
      cases,
    });
  };

  test('piped, each case streams as one line as it finishes; the summary comes last', async () => {
    const file = suite();
    const result = await cli([file, '--jobs', '3']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(
      lines.filter((line) => /^✓ .*big\.hooks\.test\.json > (deny|pass) \d+ \(\d+ ms\)$/.test(line)).length,
      12,
    );
    assert.equal(lines.at(-1), '12 passed, 0 failed');
  });

  test('--reporter json: one document, cases in file order whatever the finish order, summary counts', async () => {
    const file = suite();
    const result = await cli([file, '--jobs', '4', '--reporter', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      report.cases.map((each: { name: string }) => each.name),
      Array.from({ length: 12 }, (_, index) => `${index % 2 ? 'pass' : 'deny'} ${index}`),
    );
    assert.deepEqual(report.summary, { ...report.summary, passed: 12, failed: 0, notRun: 0, leftOut: 0 });
    assert.equal(report.cases[0].actual.decision, 'deny');
    // Piped stderr gets the progress, one line per case.
    assert.equal(result.stderr.split('\n').filter((line) => line.startsWith('✓ ')).length, 12);
  });

  test('-t/--filter runs only the cases whose name matches; a bad pattern is a usage error', async () => {
    const file = suite();
    const result = await cli([file, '-t', '^pass [13]$', '--reporter', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      report.cases.map((each: { name: string }) => each.name),
      ['pass 1', 'pass 3'],
    );
    assert.equal(report.summary.leftOut, 10);
    const bad = await cli([file, '--filter', '(']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--filter "\(" is not a valid regular expression: .*\n {2}fix: /);
  });

  test("--shard i/n: the shards' union is exactly the suite, each case in exactly one shard", async () => {
    const file = suite();
    const names: string[] = [];
    for (let index = 1; index <= 5; index++) {
      const result = await cli([file, '--shard', `${index}/5`, '--reporter', 'json']);
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout);
      assert.ok(
        report.cases.length >= 2 && report.cases.length <= 3,
        `shard ${index}/5 holds ${report.cases.length} cases`,
      );
      assert.equal(report.summary.leftOut, 12 - report.cases.length);
      names.push(...report.cases.map((each: { name: string }) => each.name));
    }
    assert.equal(names.length, 12, 'no case is in two shards');
    assert.deepEqual(
      new Set(names),
      new Set(Array.from({ length: 12 }, (_, index) => `${index % 2 ? 'pass' : 'deny'} ${index}`)),
    );
    for (const shard of ['0/3', '4/3', '1/0', 'x']) {
      const bad = await cli([file, '--shard', shard]);
      assert.equal(bad.code, 1, shard);
      assert.match(bad.stderr, /--shard must be i\/n with 1 ≤ i ≤ n, not .*\n {2}fix: /, shard);
    }
  });

  test('--bail: nothing starts after the first failure, running cases are interrupted, and it says how many did not run', async () => {
    const pids = `${project.dir}/bail/pids`;
    // Each slow hook notes its pid, then sleeps far longer than the run may take; an interrupted one is gone when the run ends.
    const slow = project.write('bail/hooks/slow.sh', `#!/bin/sh\ncat >/dev/null\necho $$ >> ${pids}\nsleep 600\n`);
    // The failing case ends only once the slow hook beside it has started, so that there is a running case to interrupt.
    const passes = project.write(
      'bail/hooks/passes.sh',
      `#!/bin/sh\ncat >/dev/null\nwhile [ ! -s ${pids} ]; do sleep 0.05; done\nexit 0\n`,
    );
    const hook = (command: string) => ({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command }] }] } });
    const cases = [
      { name: 'slow first', tool: 'Bash', settings: hook(slow), expect: { decision: 'none' } },
      { name: 'fails', tool: 'Bash', settings: hook(passes), expect: { decision: 'deny' } },
      ...Array.from({ length: 6 }, (_, index) => ({
        name: `never started ${index}`,
        tool: 'Bash',
        settings: hook(slow),
        expect: { decision: 'none' },
      })),
    ];
    const file = project.write('bail/hooks.test.json', cases);
    const result = await cli([file, '--bail', '--jobs', '2']);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '0 passed, 1 failed, 7 not run (--bail)');
    assert.match(result.stderr, /--bail: stopped after the first failure; 7 cases were not run/);
    assert.match(result.stdout, /- decision: expected deny, got none/);
    // Only the slow case that ran beside the failing one started its hook, and that hook was killed.
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.equal(started.length, 1, 'no case started after the failure');
    assert.throws(() => process.kill(started[0]!, 0), { code: 'ESRCH' }, "the running case's hook was killed");
  });
});

test('--watch runs again when a hook script changes, also when it is saved during a run, until it is interrupted', {
  timeout: 180_000,
}, async () => {
  const script = project.write('watch/hooks/guard.sh', '#!/bin/sh\nexit 0\n');
  const running = `${project.dir}/watch/second-run-started`;
  const file = project.write('watch/hooks.test.json', [
    {
      name: 'quiet',
      tool: 'Bash',
      settings: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: script }] }] } },
      expect: { decision: 'none' },
    },
  ]);
  // Saved as editors save: a new file renamed over the old one.
  const save = (text: string) => {
    writeFileSync(`${script}.new`, text, { mode: 0o755 });
    renameSync(`${script}.new`, script);
  };
  const [command, prefix] = cliCommand('test');
  const child = spawn(command, [...prefix, 'test', file, '--watch'], {
    env: project.env(),
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const summaries = () => stdout.split('\n').filter((line) => /^\d+ passed, \d+ failed$/.test(line));
  const until = async (what: string, probe: () => boolean) => {
    for (const deadline = Date.now() + 60_000; !probe(); await new Promise((resolve) => setTimeout(resolve, 50))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stdout: ${stdout}; stderr: ${stderr}`);
    }
  };
  try {
    await until('the first run and the watch', () => summaries().length === 1 && /watching \d+ files/.test(stderr));
    // The second run's hook denies, but first says it started and waits, so that the next save lands during the run.
    save(`#!/bin/sh\ntouch ${running}\nsleep 2\necho "now it denies" >&2\nexit 2\n`);
    await until('the second run to start', () => existsSync(running));
    save('#!/bin/sh\nexit 0\n');
    await until('the third run, started by the save during the second', () => summaries().length === 3);
    assert.deepEqual(summaries(), ['1 passed, 0 failed', '0 passed, 1 failed', '1 passed, 0 failed']);
    assert.match(stderr, /guard\.sh changed; running again/);
    assert.match(stdout, /- decision: expected none, got deny/);
  } finally {
    child.kill('SIGTERM');
    // A watcher that ignored the signal would outlive the test: it is killed for sure after a generous wait.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited.finally(() => clearTimeout(stuck));
  }
  // It ends on the signal by itself, with the last run's exit code (not killed by it, not crashed).
  assert.equal(await exited, 0);
});

describe('record', () => {
  const input = (command: string) =>
    project.input('PreToolUse.tool_name-Bash', { tool_input: { command, description: 'x' } });

  test('appends each input as a case without expectations, concurrently without losing one, secrets redacted; prints nothing, exits 0', async () => {
    const into = `${project.dir}/recorded/.claude/hooks-tests/recorded.json`;
    const env = project.env({ ANTHROPIC_API_KEY: 'sk-ant-secret-key-123' });
    const commands = Array.from(
      { length: 8 },
      (_, index) => `curl https://alice:pa55word@example.com/${index} -H "x-api-key: sk-ant-secret-key-123"`,
    );
    const results = await Promise.all(
      commands.map((command) => runCli(['record', '--into', into], { env, stdin: input(command) })),
    );
    for (const result of results) assert.deepEqual([result.code, result.stdout, result.stderr], [0, '', '']);
    const text = readFileSync(into, 'utf8');
    const cases = JSON.parse(text);
    assert.equal(cases.length, 8);
    assert.equal(new Set(cases.map((each: { name: string }) => each.name)).size, 8);
    assert.ok(
      cases.every(
        (each: { name: string; event: string; expect?: unknown }) =>
          /^PreToolUse Bash #\d$/.test(each.name) && each.event === 'PreToolUse' && each.expect === undefined,
      ),
    );
    assert.doesNotMatch(text, /pa55word|sk-ant-secret-key-123/);
    assert.deepEqual(
      cases.map((each: { input: { tool_input: { command: string } } }) => each.input.tool_input.command).sort(),
      commands.map((_, index) => `curl https://***@example.com/${index} -H "x-api-key: [redacted]"`).sort(),
    );
  });

  test('test --update then records the decisions of the recorded cases', async () => {
    const deny = project.write(
      'recorded-update/hooks/deny.sh',
      '#!/bin/sh\ncase "$(cat)" in *"rm -rf"*) echo "no rm" >&2; exit 2;; esac\n',
    );
    project.write('recorded-update/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny }] }] },
    });
    const into = `${project.dir}/recorded-update/.claude/hooks-tests/recorded.json`;
    for (const command of ['rm -rf build', 'ls']) {
      const result = await runCli(['record', '--into', into], { env: project.env(), stdin: input(command) });
      assert.deepEqual([result.code, result.stdout, result.stderr], [0, '', '']);
    }
    const update = await cli([into, '--update']);
    assert.equal(update.code, 0, update.stdout + update.stderr);
    assert.deepEqual(
      JSON.parse(readFileSync(into, 'utf8')).map((each: { expect: object }) => each.expect),
      [
        { decision: 'deny', exitCode: 2, reasonContains: 'no rm' },
        { decision: 'none', exitCode: 0 },
      ],
    );
  });

  test('bad input, a broken case file, no --into: a message on stderr, nothing on stdout, exit 0', async () => {
    const broken = project.write('recorded-bad/cases.json', '{ not json');
    const rows: Array<[string[], string, RegExp]> = [
      [['record', '--into', `${project.dir}/recorded-bad/new.json`], 'not json', /the hook input on stdin is not JSON/],
      [['record', '--into', broken], input('ls'), /is not a case file .*nothing recorded/],
      [['record'], input('ls'), /no --into <case file> given; nothing recorded\. Fix: /],
    ];
    for (const [args, stdin, message] of rows) {
      const result = await runCli(args, { env: project.env(), stdin });
      assert.deepEqual([result.code, result.stdout], [0, ''], args.join(' '));
      assert.match(result.stderr, message);
    }
    assert.equal(readFileSync(broken, 'utf8'), '{ not json');
  });
});
