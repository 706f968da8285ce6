// The audit log's hash chain, in process: entries appended in order verify; each kind of tampering is named at
// the line where it stands; a torn line (a crash mid-write) is read past; rotation keeps the chain across files.

import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AuditEntry } from '../../src/audit/entry.ts';
import { appendEntry } from '../../src/audit/log.ts';
import { stats } from '../../src/audit/query.ts';
import { logFiles, readEntries, verifyChain } from '../../src/audit/read.ts';

const entry = (n: number, decision: AuditEntry['decision'] = 'none'): AuditEntry => ({
  v: 1,
  time: `2026-12-0${1 + (n % 3)}T10:00:0${n % 10}.000Z`,
  version: '0.1.0',
  host: 'claude',
  session: `s${n % 2}`,
  event: 'PreToolUse',
  cwd: '/p',
  tool: n % 2 ? 'Bash' : 'Write',
  summary: `call ${n}`,
  decision,
  durationMs: n,
  hooks: [
    {
      layer: 'project',
      file: '/p/.claude/settings.json',
      pointer: '/hooks/PreToolUse/0/hooks/0',
      type: 'command',
      label: 'guard.sh',
      status: 'ran',
      outcome: decision === 'deny' ? 'blocking' : 'success',
      exitCode: decision === 'deny' ? 2 : 0,
      durationMs: 10 * n,
      ...(decision === 'deny' ? { decided: true as const } : {}),
    },
  ],
});

async function log(
  count: number,
  maxBytes?: number,
): Promise<{ file: string; lines: () => string[]; write: (lines: string[]) => void; done: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'peri-hooks-audit-'));
  const file = join(dir, 'audit.jsonl');
  for (let n = 1; n <= count; n++)
    assert.equal(
      await appendEntry({ file, ...(maxBytes ? { maxBytes } : {}) }, entry(n, n % 4 === 0 ? 'deny' : 'none')),
      undefined,
    );
  return {
    file,
    lines: () => readFileSync(file, 'utf8').split('\n').filter(Boolean),
    write: (lines) => writeFileSync(file, `${lines.join('\n')}\n`),
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test('entries appended in order verify, and read back whole', async () => {
  const audit = await log(6);
  try {
    const report = verifyChain(logFiles(audit.file));
    assert.deepEqual(
      { ok: report.ok, entries: report.entries, notes: report.notes },
      { ok: true, entries: 6, notes: [] },
    );
    assert.deepEqual(
      readEntries(logFiles(audit.file)).map((read) => read.summary),
      ['call 1', 'call 2', 'call 3', 'call 4', 'call 5', 'call 6'],
    );
  } finally {
    audit.done();
  }
});

const TAMPERING: Array<[kind: string, tamper: (lines: string[]) => string[], line: number]> = [
  [
    'edited',
    (lines) => lines.map((line, i) => (i === 2 ? line.replace('"decision":"none"', '"decision":"allow"') : line)),
    3,
  ],
  ['removed', (lines) => lines.filter((_, i) => i !== 2), 3],
  ['removed', (lines) => lines.filter((_, i) => i !== 1 && i !== 2), 2],
  ['inserted', (lines) => [...lines.slice(0, 3), lines[1]!, ...lines.slice(3)], 4],
  ['reordered', (lines) => [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)], 2],
];

for (const [kind, tamper, line] of TAMPERING) {
  test(`verify names the first broken line: ${kind} (line ${line})`, async () => {
    const audit = await log(6);
    try {
      audit.write(tamper(audit.lines()));
      const report = verifyChain(logFiles(audit.file));
      assert.equal(report.ok, false);
      assert.deepEqual(
        { kind: report.problem?.kind, line: report.problem?.line },
        { kind, line },
        report.problem?.message,
      );
    } finally {
      audit.done();
    }
  });
}

test('a torn last line (a crash mid-write) is read past; the next append links to the last whole line', async () => {
  const audit = await log(3);
  try {
    appendFileSync(audit.file, '{"v":1,"time":"2026-12-0');
    assert.equal(verifyChain(logFiles(audit.file)).ok, true);
    assert.equal(await appendEntry({ file: audit.file }, entry(4)), undefined);
    const report = verifyChain(logFiles(audit.file));
    assert.equal(report.ok, true, report.problem?.message);
    assert.equal(report.entries, 4);
    assert.match(report.notes.join('\n'), /:4 is a torn line/);
  } finally {
    audit.done();
  }
});

test('rotation by size keeps the chain across files; verify reads them oldest first', async () => {
  const audit = await log(12, 2000);
  try {
    const files = logFiles(audit.file);
    assert.ok(files.length >= 3, files.join(', '));
    const report = verifyChain(files);
    assert.equal(report.ok, true, report.problem?.message);
    assert.equal(report.entries, 12);
    assert.deepEqual(
      readEntries(files)
        .map((read) => read.summary)
        .at(-1),
      'call 12',
    );
    // The oldest file gone: the chain is checked from the first file there is, and says so.
    rmSync(files[0]!);
    const rest = verifyChain(logFiles(audit.file));
    assert.equal(rest.ok, true);
    assert.match(rest.notes.join('\n'), /no longer there/);
  } finally {
    audit.done();
  }
});

test('stats: decisions per event, tool and day; the hooks that decided; the slowest with p50 and p95', async () => {
  const audit = await log(8);
  try {
    const result = stats(readEntries(logFiles(audit.file)));
    assert.deepEqual(result.decisions, { none: 6, deny: 2 });
    assert.deepEqual(result.byTool, { Bash: { none: 4 }, Write: { none: 2, deny: 2 } });
    assert.deepEqual(
      result.deciders.map((hook) => hook.count),
      [2],
    );
    assert.deepEqual(
      result.slowest.map(({ runs, p50Ms, p95Ms }) => ({ runs, p50Ms, p95Ms })),
      [{ runs: 8, p50Ms: 40, p95Ms: 80 }],
    );
  } finally {
    audit.done();
  }
});
