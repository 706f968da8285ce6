// Each reporter over the same suite: the sample policy (8 passing, 5 deliberately failing cases), plus a hook
// that prints markup and control characters, plus an unreadable case file. TAP is parsed, JUnit is parsed
// as XML, GitHub annotations point at the lines of the failing expectations.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renderGithub } from '../../src/cases/report-github.ts';
import { renderHuman } from '../../src/cases/report-human.ts';
import { renderJunit } from '../../src/cases/report-junit.ts';
import { renderTap } from '../../src/cases/report-tap.ts';
import { runSuite, type SuiteResult } from '../../src/cases/run.ts';
import { makeProject, type Project, ROOT } from '../helpers/cli.ts';
import { parseTap, parseXml, type XmlElement } from './formats.ts';

let project: Project;
let suite: SuiteResult;
const context = { cwd: ROOT, colour: false };
const FAILING = join(ROOT, 'fixtures/policies/deliberately-failing.hooks.test.json');

before(async () => {
  project = makeProject();
  const odd = project.write('hooks/odd.sh', '#!/bin/sh\nprintf \'<b>&amp; "q" \\001 ]]> #1\\n\' >&2\nexit 1\n');
  project.write('odd/hooks.test.json', [
    {
      name: 'odd <output> & "#quotes"',
      tool: 'Bash',
      settings: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: odd }] }] } },
      expect: { decision: 'deny' },
    },
  ]);
  project.write('odd/broken.hooks.test.json', '[{"name": "a"},\n  {"name": }]');
  suite = await runSuite({ paths: ['fixtures/policies', join(project.dir, 'odd')], cwd: ROOT, env: project.env() });
});
after(() => project.cleanup());

/** 1-based line of the first line of the file that contains `text`, at or after `from`. */
function lineOf(file: string, text: string, from = 1): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.findIndex((line, index) => index + 1 >= from && line.includes(text)) + 1;
}

test('the suite: 8 passing, 5 failing sample cases, 1 failing odd case, 1 unreadable file', () => {
  assert.equal(suite.results.length, 14);
  assert.equal(suite.passed, 8);
  assert.equal(suite.failed, 7);
  assert.equal(suite.errors.length, 1);
});

describe('default', () => {
  test('one line per case, expected against actual and stderr for failures, the summary line last', () => {
    const text = renderHuman(suite, context);
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.at(-1), '8 passed, 7 failed');
    assert.ok(
      lines.some((line) =>
        /^✓ fixtures\/policies\/guard\/hooks\.test\.json > a force push is denied \(\d+ ms\)$/.test(line),
      ),
    );
    const failing = text.slice(
      text.indexOf('✗ fixtures/policies/deliberately-failing.hooks.test.json > expects allow'),
    );
    assert.match(
      failing,
      /^✗ .*\n {4}at fixtures\/policies\/deliberately-failing\.hooks\.test\.json:4:5\n {4}- decision: expected allow, got deny\n {4}- exit code: expected 0, got 2\n {4}hook sh "\$CLAUDE_PROJECT_DIR"\/hooks\/no-force-push\.sh \(exit 2\)\n {6}stderr \| force pushes are not allowed here/,
    );
    assert.match(
      text,
      /1 case file error:\nperi-hooks: error: .*broken\.hooks\.test\.json:2:12: the case file is not valid JSON/,
    );
    assert.doesNotMatch(text, /\u001b\[/, 'no colour unless asked');
  });
});

describe('tap', () => {
  test('parses as TAP 13: a point per case and per unreadable file, YAML diagnostics, the summary as a comment', () => {
    const tap = parseTap(renderTap(suite, context));
    assert.equal(tap.plan, 15);
    assert.equal(tap.points.filter((point) => point.ok).length, 8);
    assert.deepEqual(tap.comments, ['8 passed, 7 failed']);
    const allow = tap.points.find((point) =>
      point.description.endsWith('expects allow, but the policy denies force pushes'),
    )!;
    assert.equal(allow.ok, false);
    assert.deepEqual(allow.diagnostic, {
      message: 'decision: expected allow, got deny\nexit code: expected 0, got 2',
      severity: 'fail',
      at: undefined,
      failures: undefined,
      stderr:
        '[sh "$CLAUDE_PROJECT_DIR"/hooks/no-force-push.sh] force pushes are not allowed here; push a new branch instead',
    });
    const odd = tap.points.find((point) => point.description.includes('odd'))!;
    assert.match(odd.description, /odd <output> & "\\#quotes"$/, '# is escaped in descriptions');
    const broken = tap.points.at(-1)!;
    assert.match(broken.description, /broken\.hooks\.test\.json:2:12 cannot be read$/);
    assert.equal(broken.diagnostic!.severity, 'error');
  });
});

describe('junit', () => {
  test('is well-formed XML with counts, failures, errors and stderr', () => {
    const xml = renderJunit(suite, context);
    const root = parseXml(xml);
    assert.equal(root.name, 'testsuites');
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['15', '6', '1']);
    const files = root.children.map((child) => child.attributes.name);
    assert.ok(files.includes('fixtures/policies/deliberately-failing.hooks.test.json'));
    const cases = root.children.flatMap((child) => child.children);
    assert.equal(cases.length, 15);
    assert.ok(cases.every((item) => item.name === 'testcase' && Number.isFinite(Number(item.attributes.time))));
    const allow = cases.find((item) => item.attributes.name === 'expects allow, but the policy denies force pushes')!;
    const failure = allow.children.find((child) => child.name === 'failure')!;
    assert.equal(failure.attributes.message, 'decision: expected allow, got deny\nexit code: expected 0, got 2');
    assert.match(
      failure.text,
      new RegExp(
        `deliberately-failing\\.hooks\\.test\\.json:${lineOf(FAILING, '"decision": "allow"')}:\\d+: decision: expected allow, got deny`,
      ),
    );
    assert.match(child(allow, 'system-err').text, /force pushes are not allowed/);
    const odd = cases.find((item) => item.attributes.name === 'odd <output> & "#quotes"')!;
    assert.equal(child(odd, 'system-err').text, `[${project.dir}/hooks/odd.sh] <b>&amp; "q" \uFFFD ]]> #1`);
    const broken = cases.find((item) => item.children.some((inner) => inner.name === 'error'))!;
    assert.match(child(broken, 'error').attributes.message!, /not valid JSON/);
  });
});

describe('github', () => {
  test('one ::error annotation per failed expectation, on its line; errors too; then the summary', () => {
    const lines = renderGithub(suite, context).trimEnd().split('\n');
    assert.equal(lines.at(-1), '8 passed, 7 failed');
    const file = 'fixtures/policies/deliberately-failing.hooks.test.json';
    const annotations = lines.filter((line) => line.startsWith(`::error file=${file},`));
    assert.equal(annotations.length, 6);
    const decisionLine = lineOf(FAILING, '"decision": "allow"');
    assert.match(
      annotations[0]!,
      new RegExp(
        `^::error file=${file.replaceAll('.', '\\.')},line=${decisionLine},col=\\d+,title=peri-hooks test%3A expects allow%2C but the policy denies force pushes::decision: expected allow, got deny%0A\\[sh "\\$CLAUDE_PROJECT_DIR"/hooks/no-force-push\\.sh\\] stderr: force pushes`,
      ),
    );
    const none = annotations.find((line) => line.includes('has no expectations'))!;
    assert.match(
      none,
      new RegExp(`,line=${lineOf(FAILING, '"has no expectations yet"') - 1},`),
      'a case without expectations is annotated on the case',
    );
    const broken = lines.find((line) => line.includes('broken.hooks.test.json'))!;
    assert.match(
      broken,
      /^::error file=[^,]*broken\.hooks\.test\.json,line=2,col=12,title=peri-hooks test%3A case file error::.*not valid JSON.*%0Afix: /,
    );
  });
});

function child(element: XmlElement, name: string): XmlElement {
  const found = element.children.find((item) => item.name === name);
  assert.ok(found, `<${element.name}> has no <${name}>`);
  return found;
}
