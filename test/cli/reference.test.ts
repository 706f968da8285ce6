// docs/reference/cli.md is generated from src/cli/options.ts (scripts/cli-reference.ts): it must be in step
// with the table that the parser and `--help` are built from.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLI_REFERENCE, cliReference } from '../../scripts/cli-reference.ts';
import { COMMANDS, FLAGS } from '../../src/cli/options.ts';

const written = readFileSync(CLI_REFERENCE, 'utf8');

test('docs/reference/cli.md is what scripts/cli-reference.ts generates from src/cli/options.ts', () => {
  assert.equal(written, cliReference(), 'run `node scripts/cli-reference.ts --write`');
});

test('the reference has a section per command, and each command row names every flag it takes', () => {
  for (const spec of COMMANDS) {
    const start = written.indexOf(`\n## ${spec.name}\n`);
    assert.ok(start >= 0, `a section for ${spec.name}`);
    const body = written.slice(start + 1, written.indexOf('\n## ', start + 1));
    for (const name of spec.flags) {
      const flag = FLAGS[name] as { value?: string };
      assert.ok(body.includes(`--${name}${flag.value ? ` ${flag.value}` : ''}\``), `${spec.name} --${name}`);
    }
    for (const code of Object.keys(spec.exits)) assert.match(body, new RegExp(`^\\| ${code} \\| `, 'm'));
  }
});
