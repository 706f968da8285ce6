// A unified diff of two versions of one file, for `--dry-run`: what the edit would write, in the form `git diff`
// and `patch` read. Settings files are small, so a longest-common-subsequence table over the changed middle
// (common head and tail cut off first) is enough.

import type { FileChange } from './install.ts';

const CONTEXT = 3;

type Line = { kind: ' ' | '-' | '+'; text: string };

/** '' when nothing changes. A file that does not exist yet is `before` = undefined (shown against /dev/null). */
export function unifiedDiff(file: string, before: string | undefined, after: string): string {
  if (before === after) return '';
  const a = lines(before ?? '');
  const b = lines(after);
  const ops = diffLines(a, b);
  const changed = ops.flatMap((op, i) => (op.kind === ' ' ? [] : [i]));
  // Changes with at most twice the context between them share one hunk.
  const groups: number[][] = [];
  for (const i of changed) {
    const group = groups.at(-1);
    if (group && i - group.at(-1)! - 1 <= 2 * CONTEXT) group.push(i);
    else groups.push([i]);
  }
  const hunks = groups.map((group) => {
    const start = Math.max(0, group[0]! - CONTEXT);
    const stop = Math.min(ops.length, group.at(-1)! + 1 + CONTEXT);
    const head = ops.slice(0, start);
    const hunk = ops.slice(start, stop);
    const count = (list: Line[], skip: Line['kind']) => list.filter((op) => op.kind !== skip).length;
    return `@@ -${range(count(head, '+'), count(hunk, '+'))} +${range(count(head, '-'), count(hunk, '-'))} @@\n${hunk.map((op) => `${op.kind}${op.text}\n`).join('')}`;
  });
  return `--- ${before === undefined ? '/dev/null' : `a${file}`}\n+++ b${file}\n${hunks.join('')}`;
}

function range(start: number, count: number): string {
  return count === 0 ? `${start},0` : `${start + 1}${count === 1 ? '' : `,${count}`}`;
}

function lines(text: string): string[] {
  const all = text.split(/\r?\n/);
  return all.at(-1) === '' ? all.slice(0, -1) : all;
}

function diffLines(a: string[], b: string[]): Line[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
  const lcs = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const middle: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      middle.push({ kind: ' ', text: x[i++]! });
      j++;
    } else if (i < x.length && (j >= y.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      middle.push({ kind: '-', text: x[i++]! });
    } else {
      middle.push({ kind: '+', text: y[j++]! });
    }
  }
  const same = (text: string): Line => ({ kind: ' ', text });
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

/** Every change as a unified diff, for --dry-run. */
export function diffs(changes: readonly FileChange[]): string {
  return changes.map((change) => unifiedDiff(change.file, change.before, change.after)).join('');
}
