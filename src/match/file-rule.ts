// Read/Edit/Write/NotebookEdit specifiers, as Claude Code 2.1.332 matches them in `if` (spec §20.1 items
// 10-14, §20.3 item 25): gitignore semantics (the `ignore` package, case-insensitive) for files under the
// rule's root, then, for a pattern that starts with `*` or has no `*`, a case-sensitive wildcard test on the
// absolute path.
import { posix } from 'node:path';
import ignore from 'ignore';
import { wildcardMatches } from './rule-wildcard.ts';

interface Anchored {
  /** Directory the gitignore pattern is relative to. */
  root: string;
  /** The pattern as gitignore reads it. */
  pattern: string;
  /** The pattern as a wildcard on the absolute path, for the second test. */
  absolute: string;
}

export function fileRuleMatches(specifier: string, filePath: string, cwd: string, home: string): boolean {
  const file = absolutePath(filePath, cwd, home);
  const rule = anchor(specifier, posix.resolve('/', cwd), posix.resolve('/', home));
  const relative = posix.relative(rule.root, file);
  if (isInside(relative) && ignore().add(rule.pattern).ignores(relative)) return true;
  const wildcardTested = specifier.startsWith('*') || !specifier.includes('*');
  return wildcardTested && wildcardMatches(rule.absolute, file);
}

/** The tool's path as Claude Code sees it: `~/` expanded, relative paths taken from the cwd. */
function absolutePath(filePath: string, cwd: string, home: string): string {
  const expanded = filePath === '~' || filePath.startsWith('~/') ? home + filePath.slice(1) : filePath;
  return posix.resolve('/', cwd, expanded);
}

/**
 * `//x` is absolute, `~/x` is in HOME, `/x` is rooted at the cwd (not the settings file) for gitignore but
 * taken as written for the wildcard test, `./x` is just `x`.
 */
function anchor(specifier: string, cwd: string, home: string): Anchored {
  if (specifier.startsWith('//')) return { root: '/', pattern: specifier.slice(1), absolute: specifier.slice(1) };
  if (specifier.startsWith('~/'))
    return { root: home, pattern: specifier.slice(1), absolute: join(home, specifier.slice(1)) };
  if (specifier.startsWith('/')) return { root: cwd, pattern: specifier, absolute: specifier };
  const pattern = specifier.replace(/^(?:\.\/)+/, '');
  return { root: cwd, pattern, absolute: pattern };
}

function join(dir: string, rooted: string): string {
  return dir === '/' ? rooted : dir + rooted;
}

function isInside(relative: string): boolean {
  return relative !== '' && relative !== '..' && !relative.startsWith('../') && !posix.isAbsolute(relative);
}
