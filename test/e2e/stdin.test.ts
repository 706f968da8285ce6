// The hook input on a non-blocking stdin: a read finds nothing yet, and the firing must go on reading to the end
// rather than fire on part of the input. Node clears O_NONBLOCK on the standard descriptors of every child it
// starts, so perl (Debian's perl-base, always there) sets it and execs peri-hooks, as a harness not written in
// Node may hand stdin over.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliCommand, makeProject, type Project } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const NONBLOCKING_STDIN =
  'my $flags = fcntl(STDIN, F_GETFL, 0) or die "F_GETFL: $!"; fcntl(STDIN, F_SETFL, $flags | O_NONBLOCK) or die "F_SETFL: $!"; exec @ARGV or die "exec: $!"';
const perl = spawnSync('perl', ['-MFcntl', '-e', '1']).status === 0;

test('an input that arrives in two parts on a non-blocking stdin is read whole', {
  skip: perl ? false : 'no perl to hand over a non-blocking stdin',
}, async () => {
  const received = join(project.dir, 'received.json');
  const settings = {
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: `cat > '${received}'; echo blocked >&2; exit 2` }] },
      ],
    },
  };
  const [command, prefix] = cliCommand('fire');
  const child = spawn(
    'perl',
    [
      '-MFcntl',
      '-e',
      NONBLOCKING_STDIN,
      '--',
      command,
      ...prefix,
      'fire',
      'PreToolUse',
      '--setting-sources',
      '',
      '--settings',
      JSON.stringify(settings),
    ],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: project.env(),
      cwd: project.dir,
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const input = project.input('PreToolUse.tool_name-Bash', { tool_input: { command: 'git push --force' } });
  const half = Math.floor(input.length / 2);
  child.stdin.write(input.slice(0, half));
  await waitingOnItsEventLoop(child.pid!);
  child.stdin.end(input.slice(half));
  assert.equal(await exited, 2, stderr);
  assert.match(stderr, /blocked/);
  assert.deepEqual(JSON.parse(readFileSync(received, 'utf8')), JSON.parse(input));
});

/**
 * Until the process waits in epoll, which a firing does first when its read of stdin came back empty (on Linux,
 * /proc tells; elsewhere half a second). The result is the same whenever the rest arrives: this only makes sure
 * the test takes the path it is about.
 */
async function waitingOnItsEventLoop(pid: number): Promise<void> {
  if (process.platform !== 'linux') return void (await sleep(500));
  for (let waited = 0; waited < 20_000; waited += 10) {
    try {
      if (readFileSync(`/proc/${pid}/wchan`, 'utf8').includes('epoll')) return;
    } catch {
      return;
    }
    await sleep(10);
  }
}
