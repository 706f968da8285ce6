// Every link in the README, docs/ and the fixtures' READMEs resolves: a relative link to a file that exists, and an anchor (`#…`) to a
// heading of that file, slugged as GitHub slugs them. A moved section or a renamed file fails here first.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers/cli.ts';

function markdownFiles(): string[] {
  const files = [join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(ROOT, 'docs'))) walk(join(ROOT, 'docs'));
  walk(join(ROOT, 'fixtures'));
  return files;
}

/** GitHub's heading anchors: lower case, punctuation but `-` and `_` dropped, spaces to `-`; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = heading[1]!
        .replace(/<[^>]+>/g, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/ /g, '-');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      result.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a (?:name|id)="([^"]+)"/g)) result.add(match[1]!);
  }
  return result;
}

/** The links of a markdown text outside code: `[text](target)`. A code span may run over a line break, not a blank line. */
function links(markdown: string): string[] {
  const outsideCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`(?:[^`\n]|\n(?!\n))*`/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

test('anchors are slugged as GitHub slugs them', () => {
  assert.deepEqual(
    [...anchors('# A resident server: `peri-hooks serve`\n## Install\n## Install\n```\n# not a heading\n```\n')],
    ['a-resident-server-peri-hooks-serve', 'install', 'install-1'],
  );
});

test('a code span that runs over a line break hides no link after it', () => {
  assert.deepEqual(links('run `npm\nci` first ([Install](#install)); then `x`'), ['#install']);
});

test('docs/index.md, linked from the README, links every file of docs/', () => {
  const index = join(ROOT, 'docs/index.md');
  assert.ok(links(readFileSync(join(ROOT, 'README.md'), 'utf8')).includes('docs/index.md'));
  const linked = new Set(
    links(readFileSync(index, 'utf8')).map((target) => resolve(dirname(index), target.split('#')[0]!)),
  );
  const unlinked = markdownFiles().filter(
    (file) => file.startsWith(join(ROOT, 'docs')) && file !== index && !linked.has(file),
  );
  assert.deepEqual(
    unlinked.map((file) => relative(ROOT, file)),
    [],
  );
});

test('every link and anchor in the README, docs/ and fixtures/ resolves', () => {
  const broken: string[] = [];
  const cache = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    if (!cache.has(file)) cache.set(file, anchors(readFileSync(file, 'utf8')));
    return cache.get(file)!;
  };
  for (const file of markdownFiles()) {
    for (const target of links(readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const linked = path === '' ? file : resolve(dirname(file), decodeURI(path));
      const where = `${relative(ROOT, file)} → ${target}`;
      if (!existsSync(linked)) broken.push(`${where}: no such file`);
      else if (
        anchor !== undefined &&
        statSync(linked).isFile() &&
        linked.endsWith('.md') &&
        !anchorsOf(linked).has(decodeURIComponent(anchor))
      )
        broken.push(`${where}: no such heading`);
    }
  }
  assert.deepEqual(broken, []);
});

/** The section numbers of a spec: `## 20. …` gives 20, `### 20.4 …` gives 20.4. */
function sections(file: string): Set<string> {
  return new Set([...readFileSync(file, 'utf8').matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((match) => match[1]!));
}

test('every § the code cites is a section of the spec in docs/spec/ (harnesses § of harnesses.md)', () => {
  const specs = {
    spec: sections(join(ROOT, 'docs/spec/claude-code-hooks.md')),
    harnesses: sections(join(ROOT, 'docs/spec/harnesses.md')),
  };
  const missing: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(/(FIPS [\d-]+ |harnesses )?§(\d+(?:\.\d+)*)/g)) {
          if (match[1]?.startsWith('FIPS')) continue;
          const spec = match[1] ? specs.harnesses : specs.spec;
          if (!spec.has(match[2]!)) missing.push(`${relative(ROOT, path)}: ${match[0]}`);
        }
      }
    }
  };
  walk(join(ROOT, 'src'));
  assert.deepEqual(missing, []);
});
