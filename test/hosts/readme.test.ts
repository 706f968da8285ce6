// The host × event table of docs/agents/other-agents.md is generated from the adapter data; it must be in step
// with it. The page's worked examples run as written.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { HOSTS_DOC, hostsTable, MARKERS, withHostsTable } from '../../scripts/hosts-table.ts';
import { HOSTS } from '../../src/hosts/table.ts';
import { HOST_NAMES } from '../../src/hosts/types.ts';
import { ROOT, runCli } from '../helpers/cli.ts';

const page = readFileSync(HOSTS_DOC, 'utf8');
// The examples run with an empty home of their own: no user settings of this machine take part.
const home = mkdtempSync(join(tmpdir(), 'peri-hooks-readme-home-'));
after(() => rmSync(home, { recursive: true, force: true }));

test('docs/agents/other-agents.md holds the hosts table generated from src/hosts/table.ts', () => {
  assert.equal(withHostsTable(page), page, 'run `node scripts/hosts-table.ts --write`');
  assert.ok(page.includes(`${MARKERS.start}\n${hostsTable()}\n${MARKERS.end}`));
});

const examples = page.slice(page.indexOf('## Worked examples'));
/** Each example: the command line, what it prints (on stdout, or on stderr where marked), its exit code. */
const cases = [...examples.matchAll(/^\$ peri-hooks (fire .+) < (\S+)\n(.*)\n\(exit (\d)\)$/gm)].map(
  ([, args, stdin, printed, code]) => ({
    args: args!.split(' '),
    stdin: stdin!,
    printed: printed!,
    code: Number(code),
  }),
);

test('docs/agents/other-agents.md has a worked example for every host', () => {
  const hosts = new Set(cases.map(({ args }) => args[2]));
  assert.deepEqual([...hosts].sort(), [...HOST_NAMES].sort());
});

for (const example of cases) {
  test(`docs example: peri-hooks ${example.args.slice(0, 4).join(' ')} < ${example.stdin}`, async () => {
    const result = await runCli([...example.args, '--no-state'], {
      stdin: readFileSync(join(ROOT, example.stdin), 'utf8'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    });
    assert.equal(result.code, example.code, result.stderr);
    const stderr = / +\(stderr\)$/.exec(example.printed);
    if (stderr) {
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.endsWith(`${example.printed.slice(0, stderr.index)}\n`), result.stderr);
    } else {
      assert.equal(result.stdout, `${example.printed}\n`);
    }
  });
}

test('the rows that claim the real agent are exactly the agents test:hosts runs, each with a case file; the others name their documentation', async () => {
  const { AGENTS } = await import('../../scripts/install-agent.ts');
  const { existsSync } = await import('node:fs');
  const real = HOST_NAMES.filter((name) => 'realAgent' in HOSTS[name].evidence);
  assert.deepEqual(real.sort(), Object.keys(AGENTS).sort());
  for (const name of real) assert.ok(existsSync(join(ROOT, 'test/hosts/real', `${name}.real.ts`)), name);
  for (const name of HOST_NAMES.filter((host) => !real.includes(host)))
    assert.match((HOSTS[name].evidence as { docs: string }).docs, /\S/, name);
});

test('events no headless run of the real agent fires are claimed from the documentation they are read in, named in the table', () => {
  // Codex exec never asks (approval policy never) and starts no subagent; headless Qwen declines before asking.
  for (const name of ['codex', 'qwen'] as const) {
    const events = HOSTS[name].events;
    for (const event of ['PermissionRequest', 'SubagentStart', 'SubagentStop']) {
      assert.match(events[event]?.evidence?.docs ?? '', /\S/, `${name} ${event}`);
      const row = hostsTable()
        .split('\n')
        .find((line) => line.includes(`(\`${name}\`)`))!;
      assert.ok(row.includes(`\`${event}\``) && row.includes(`: documentation: ${events[event]!.evidence!.docs}`), row);
    }
  }
  // Copilot's fire headless and are shown there (test/hosts/real/copilot.real.ts).
  assert.equal(HOSTS.copilot.events.subagentStart?.evidence, undefined);
});
