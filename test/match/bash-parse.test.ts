// How the Bash reader grades and splits commands (spec §20.1 items 2-8, §20.3 items 19-24).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyseBash } from '../../src/match/bash-parse.ts';

const HOME = '/home/u';

const parsed: Array<[item: string, command: string, commands: string[]]> = [
  ['2', 'ls -la;git push', ['ls -la', 'git push']],
  ['2', 'a&&b||c|d|&e&f', ['a', 'b', 'c', 'd', 'e', 'f']],
  ['2', '(a; (b)) && ! c', ['a', 'b', 'c']],
  ['2', 'if a; then b; elif c; then d; else e; fi', ['a', 'b', 'c', 'd', 'e']],
  ['2', 'for x in $(seq 3); do b; done', ['seq 3', 'b']],
  ['3', 'echo "a && b" \'c;d\' e\\ f', ['echo a && b c;d e f']],
  ['3', '  echo\t a   b  ', ['echo a b']],
  ['3', 'git push 2>&1 >/dev/null 3<in # note', ['git push']],
  ['3', 'echo ""', ['echo ']],
  ['4', 'A=1 B+=2 C[0]=3 git push', ['git push']],
  ['4', 'FOO=1', []],
  ['5', 'echo x | xargs rm -rf', ['echo x', 'xargs rm -rf', 'rm -rf']],
  ['8', "cat <<'EOF' | grep a\nrm -rf x\nEOF\nls", ['cat', 'grep a', 'ls']],
  ['8', 'x=$(echo hi) && git push', ['echo hi', 'git push']],
  ['8', 'echo $((1 + (2 * 3)))', ['echo $((1 + (2 * 3)))']],
  ['8', '', []],
  ['19', 'cd $HOME && ls "$HOME/x" ab$HOME', ['cd /home/u', 'ls /home/u/x ab/home/u']],
  [
    '21',
    'echo "ab$USER" "a $? b" "ab$!"',
    ['echo ab__TRACKED_VAR__ a __TRACKED_VAR__ b ab', 'echo ab__TRACKED_VAR__ a __TRACKED_VAR__ b ab__TRACKED_VAR__'],
  ],
  ['22', 'X=hi; Y="a b"; echo $X "$Y"', ['echo hi a b']],
  ['22', 'X=$(ls); echo "ab$X" "ab$(date)"', ['ls', 'date', 'echo ab__CMDSUB_OUTPUT__ ab__CMDSUB_OUTPUT__']],
];

for (const [item, command, commands] of parsed) {
  test(`§20.1 ${item}: ${JSON.stringify(command)} parses into ${JSON.stringify(commands)}`, () => {
    assert.deepEqual(analyseBash(command, HOME), { grade: 'parsed', commands });
  });
}

const partial: Array<[command: string, commands: string[]]> = [
  ['echo $(git push)', ['git push', 'echo __CMDSUB_OUTPUT__']],
  ['echo `date`', ['date', 'echo __CMDSUB_OUTPUT__']],
  ['echo "$(a | b)"', ['a', 'b', 'echo __CMDSUB_OUTPUT__']],
  ['echo $$ $PPID $1', ['echo $$ $PPID $1']],
  ['git push $REMOTE', ['git push $REMOTE']],
];

for (const [command, commands] of partial) {
  test(`§20.1 8: ${JSON.stringify(command)} is a partial fallback of ${JSON.stringify(commands)}`, () => {
    const analysis = analyseBash(command, HOME);
    assert.equal(analysis.grade, 'partial');
    assert.deepEqual(analysis.grade === 'partial' ? analysis.commands : [], commands);
  });
}

test('§20.3 19: a blank in HOME leaves $HOME unknown unquoted', () => {
  assert.equal(analyseBash('echo $HOME', '/h me').grade, 'partial');
  assert.equal(analyseBash('echo $HOME/x', '/h me').grade, 'full');
  assert.deepEqual(analyseBash('echo "$HOME"', '/h me'), { grade: 'parsed', commands: ['echo /h me'] });
});

const full = [
  'echo ${HOME}',
  'echo $$ && ls',
  `printf '%s' "$(date)"`,
  "echo 'a' $(ls)",
  'rm $FILE && ls',
  'echo $USER/x',
  "echo 'a' $USER",
  'echo "$USER"',
  'echo "ab$LANG"',
  'X=; echo $X',
  'X=hi; X=ho; echo $X',
  'X="a b"; echo $X',
  'cat <<EOF\ngit push\nEOF',
  '{ git push; }',
  'git \\\npush',
  'cat <(ls)',
  'tee >(cat)',
  'echo (x)',
  'echo "a',
  "echo 'a",
  'echo `a',
  'ls &&',
  '&& ls',
  'ls ;; ls',
  ')',
  'if a; then b',
  'for x in a; do b',
  'f() { a; }',
  '((i++))',
  'echo $(echo ${x})',
  "cat <<'EOF'\nno end",
  "echo $'a'",
  '$(which python) x.py',
  'echo $((1 + $(ls)))',
  `${'('.repeat(2000)}ls${')'.repeat(2000)}`,
];

for (const command of full) {
  test(`§20.1 8: ${JSON.stringify(command.slice(0, 40))} is a full fallback`, () => {
    assert.equal(analyseBash(command, HOME).grade, 'full');
  });
}
