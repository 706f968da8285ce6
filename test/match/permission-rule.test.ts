// Golden table for `if` (spec §20.1): each row is (spec item, rule, tool, input, runs?), as observed in
// Claude Code 2.1.332. Rows marked "choice" encode peri-hooks decisions where §20 is silent (README, "Where peri-hooks had to choose").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesIf } from '../../src/match/permission-rule.ts';

const CWD = '/w/proj';
const HOME = '/home/u';

interface Row {
  item: string;
  rule: string;
  tool: string;
  input: Record<string, unknown>;
  runs: boolean;
  /** When set, whether peri-hooks must warn about the rule. */
  warns?: boolean;
}

const bash = (item: string, rule: string, command: string, runs: boolean, warns?: boolean): Row =>
  ({ item, rule, tool: 'Bash', input: { command }, runs, ...(warns === undefined ? {} : { warns }) });
const file = (item: string, rule: string, tool: string, path: string, runs: boolean): Row =>
  ({ item, rule, tool, input: tool === 'NotebookEdit' ? { notebook_path: path } : { file_path: path }, runs });
const read = (item: string, rule: string, path: string, runs: boolean): Row => file(item, rule, 'Read', path, runs);
const tool = (item: string, rule: string, name: string, input: Record<string, unknown>, runs: boolean, warns?: boolean): Row =>
  ({ item, rule, tool: name, input, runs, ...(warns === undefined ? {} : { warns }) });

const rows: Row[] = [
  // 1. Wildcards and word boundaries
  bash('1', 'Bash(ls *)', 'ls', true),
  bash('1', 'Bash(ls *)', 'ls -la', true),
  bash('1', 'Bash(ls *)', 'ls *.txt', true),
  bash('1', 'Bash(ls *)', 'lsof', false),
  bash('1', 'Bash(ls*)', 'lsof', true),
  bash('1', 'Bash(ls:*)', 'ls', true),
  bash('1', 'Bash(ls:*)', 'ls -la', true),
  bash('1', 'Bash(ls:*)', 'lsof', false),
  bash('1', 'Bash(git push:*)', 'git pushx', false),
  bash('1', 'Bash(git push:*)', 'git push', true),
  bash('1', 'Bash(git push:*)', 'git push origin main', true),
  bash('1', 'Bash(*push*)', 'git push', true),
  bash('1', 'Bash(* push)', 'git push', true),
  bash('1', 'Bash(* push)', 'git push origin', false),
  bash('1', 'Bash(echo \\*)', "echo '*'", true),
  bash('1', 'Bash(echo \\*)', 'echo \\*', true),
  bash('1', 'Bash(echo \\*)', 'echo x', false),
  bash('1', 'Bash()', 'rm -rf /', true),
  bash('1', 'Bash(*)', 'rm -rf /', true),
  bash('1', 'Bash(**)', 'rm -rf /', true),
  bash('1', 'Bash', 'rm -rf /', true),
  bash('1', 'Bash(git push)', 'git push', true, false),
  bash('1', 'Bash(git push)', 'git push origin', false),
  bash('1', 'Bash(npm run test:unit)', 'npm run test:unit', true),
  bash('1', 'Bash(git * main)', 'git push origin main', true),
  bash('1 choice: optional tail only when ` *` is the single wildcard', 'Bash(* push *)', 'git push', false),
  bash('1', 'Bash(rm -rf *)', 'rm -rf /tmp/x', true),
  bash('1', 'Bash(rm -rf *)', 'rm -r x', false),

  // 2. Compound commands: every part is checked, with or without spaces around operators
  bash('2', 'Bash(git push)', 'ls -la;git push', true),
  bash('2', 'Bash(git push)', 'ls -la&&git push', true),
  bash('2', 'Bash(git push)', 'ls -la && git push', true),
  bash('2', 'Bash(git push)', 'false || git push', true),
  bash('2', 'Bash(git push)', 'false||git push', true),
  bash('2', 'Bash(git push)', 'ls | git push', true),
  bash('2', 'Bash(git push)', 'ls|git push', true),
  bash('2', 'Bash(git push)', 'ls |& git push', true),
  bash('2', 'Bash(git push)', 'ls & git push', true),
  bash('2', 'Bash(git push)', 'git push &', true),
  bash('2', 'Bash(git push)', 'ls\ngit push', true),
  bash('2', 'Bash(git push)', '(git push)', true),
  bash('2', 'Bash(git push)', '(cd x && git push) > log', true),
  bash('2', 'Bash(git push)', 'if true; then git push; fi', true),
  bash('2', 'Bash(git push)', 'if git push; then ls; fi', true),
  bash('2', 'Bash(git push)', 'if false; then ls; elif true; then :; else git push; fi', true),
  bash('2', 'Bash(git push)', 'for i in 1 2; do git push; done', true),
  bash('2', 'Bash(git push)', 'for i in 1 2\ndo\n  git push\ndone', true),
  bash('2', 'Bash(git push)', 'while false; do git push; done', true),
  bash('2', 'Bash(git push)', 'until true; do git push; done', true),
  bash('2', 'Bash(git push)', '! git push', true),
  bash('2', 'Bash(rm -rf *)', 'ls; rm -rf /', true),
  bash('2', 'Bash(rm *)', 'ls && echo ok', false),
  bash('2', 'Bash(ls -la&&git push)', 'ls -la&&git push', false),
  bash('2', 'Bash(touch *)', 'echo a && touch B', true),
  bash('2', 'Bash(git push)', 'ls &&\ngit push', true),

  // 3. Normalisation: quotes removed, blanks collapsed, redirections and comments dropped
  bash('3', 'Bash(echo a && git push)', 'echo "a && git push"', true),
  bash('3', 'Bash(*git push*)', 'echo "a && git push"', true),
  bash('3', 'Bash(* push)', 'echo "a && git push"', true),
  bash('3', 'Bash(echo "a && git push")', 'echo "a && git push"', false),
  bash('3', 'Bash(git push)', 'echo "a && git push"', false),
  bash('3', 'Bash(rm *)', 'echo "x; rm -rf /"', false),
  bash('3', 'Bash(rm *)', "echo 'x | rm -rf /'", false),
  bash('3', 'Bash(echo a;b)', "echo 'a;b'", true),
  bash('3', 'Bash(echo a b)', 'echo "a"  "b"', true),
  bash('3', 'Bash(echo a b)', 'echo a\tb', true),
  bash('3', 'Bash(echo a b)', '   echo a b', true),
  bash('3', 'Bash(echo ab)', 'echo a"b"', true),
  bash('3', 'Bash(git push)', 'git push > out.txt', true),
  bash('3', 'Bash(git push)', 'git push 2>&1', true),
  bash('3', 'Bash(git push)', 'git push >> log 2>&1', true),
  bash('3', 'Bash(git push)', 'git push &> log', true),
  bash('3', 'Bash(git push)', '> out.txt git push', true),
  bash('3', 'Bash(git push)', 'git push; # comment', true),
  bash('3', 'Bash(git push)', 'git push # comment', true),
  bash('3', 'Bash(cat)', 'cat < in.txt', true),
  bash('3', 'Bash(cat)', 'cat <<< "hi"', true),
  bash('3', 'Bash(* 2>&1)', 'git push 2>&1', false),
  bash('3', 'Bash(* > out.txt)', 'git push > out.txt', false),
  bash('3', 'Bash(echo a#b)', 'echo a#b', true),
  bash('3', 'Bash( ls *)', 'ls -la', true),
  bash('3', 'Bash(ls  *)', 'ls -la', true),
  bash('3', 'Bash(ls  *)', 'lsof', false),

  // 4. VAR=value prefixes are stripped, so rules that spell one never match
  bash('4', 'Bash(git push)', 'FOO=1 git push', true),
  bash('4', 'Bash(git push)', 'A=1 B="x y" git push', true),
  bash('4', 'Bash(FOO=1 *)', 'FOO=1 git push', false, true),
  bash('4', 'Bash(FOO=1 git push)', 'FOO=1 git push', false, true),
  bash('4', 'Bash(FOO=1)', 'FOO=1', false, true),
  bash('4', 'Bash(echo FOO=1)', 'echo FOO=1', true, false),

  // 5. Wrappers are not unwrapped; only a bare `xargs cmd`
  bash('5', 'Bash(git push)', 'sudo git push', false),
  bash('5', 'Bash(git *)', 'sudo git push', false),
  bash('5', 'Bash(sudo *)', 'sudo git push', true),
  bash('5', 'Bash(*git push*)', 'sudo git push', true),
  bash('5', 'Bash(git push)', 'env FOO=1 git push', false),
  bash('5', 'Bash(git push)', 'timeout 5 git push', false),
  bash('5', 'Bash(git push)', 'nice git push', false),
  bash('5', 'Bash(git push)', 'command git push', false),
  bash('5', 'Bash(git push)', 'time git push', false),
  bash('5', 'Bash(git push)', 'exec git push', false),
  bash('5', 'Bash(git push)', 'nohup git push', false),
  bash('5', 'Bash(git push)', 'bash -c "git push"', false),
  bash('5', 'Bash(git push)', "sh -c 'git push'", false),
  bash('5', 'Bash(git push)', 'eval git push', false),
  bash('5', 'Bash(bash *)', 'bash -c "git push"', true),
  bash('5', 'Bash(rm -rf *)', 'echo x | xargs rm -rf', true),
  bash('5', 'Bash(rm *)', 'echo x | xargs rm -rf', true),
  bash('5', 'Bash(rm:*)', 'echo x | xargs rm -rf', true),
  bash('5', 'Bash(xargs *)', 'echo x | xargs rm -rf', true),
  bash('5', 'Bash(rm *)', 'find . | xargs -0 rm', false),
  bash('5', 'Bash(rm -rf *)', 'ls | xargs -I{} rm -rf {}', false),

  // 6. Case-sensitive
  bash('6', 'Bash(LS *)', 'ls', false),
  bash('6', 'bash', 'ls', false),
  bash('6', 'BASH(ls *)', 'ls', false),
  tool('6', 'webfetch', 'WebFetch', { url: 'https://example.com' }, false),

  // 7. Absolute command paths
  bash('7', 'Bash(ls *)', '/bin/ls -la', false),
  bash('7', 'Bash(/bin/ls *)', '/bin/ls -la', true),

  // 8. Partial fallback: $(…), backticks, "$(…)", $VAR
  bash('8 partial', 'Bash(git push origin main)', 'echo $(git push)', true),
  bash('8 partial', 'Bash(rm -rf *)', 'echo $(git push)', true),
  bash('8 partial', 'Bash(true)', 'echo $(git push)', true),
  bash('8 partial', 'Bash(npm run test:unit)', 'echo $(git push)', true),
  bash('8 partial', 'Bash(ls *)', 'echo $(git push)', false),
  bash('8 partial', 'Bash(cat *)', 'echo $(git push)', false),
  bash('8 partial', 'Bash(cat:*)', 'echo $(git push)', false),
  bash('8 partial', 'Bash(echo *)', 'echo $(git push)', true),
  bash('8 partial', 'Bash(git *)', 'echo $(git push)', true),
  bash('8 partial', 'Bash(git:*)', 'echo $(git push)', true),
  bash('8 partial', 'Bash(ls *)', 'echo `git push`', false),
  bash('8 partial', 'Bash(git push)', 'echo `date`', true),
  bash('8 partial', 'Bash(date *)', 'echo `date`', true),
  bash('8 partial', 'Bash(ls *)', 'echo "$(date)"', false),
  bash('8 partial', 'Bash(x y)', 'echo "$(date)"', true),
  bash('8 partial', 'Bash(ls *)', 'echo $HOME', false),
  bash('8 partial', 'Bash(echo *)', 'echo $HOME', true),
  bash('8 partial', 'Bash(git push)', 'echo $HOME', true),
  bash('8 partial', 'Bash(git push)', 'echo "$HOME"', true),
  bash('8 partial', 'Bash(ls *)', 'ls -la && echo $(whoami)', true),
  bash('8 partial', 'Bash(git push)', "echo '$HOME'", false),
  bash('8 partial', 'Bash(git push)', "echo '$(git push)'", false),
  bash('8 partial', 'Bash(rm *)', 'for f in *.tmp; do rm "$f"; done', true),
  bash('8 full', 'Bash(git push *)', 'echo ${HOME}', true),
  bash('8 full', 'Bash(ls *)', 'echo ${HOME}', true),
  bash('8 full', 'Bash(ls *)', 'echo "${HOME}"', true),
  bash('8 full', 'Bash(ls *)', 'echo $PPID', true),
  bash('8 full', 'Bash(ls *)', 'echo $$', true),
  bash('8 full', 'Bash(ls *)', 'cat <<EOF\ngit push\nEOF', true),
  bash('8 full', 'Bash(git push)', 'cat <<EOF\ngit push\nEOF', true),
  bash('8 full', 'Bash(ls *)', '{ git push; }', true),
  bash('8 full', 'Bash(ls *)', 'git \\\npush', true),
  bash('8 full', 'Bash(ls *)', 'diff <(ls a) <(ls b)', true),
  bash('8 full', 'Bash(ls *)', 'echo (x)', true),
  bash('8 full', 'Bash(ls *)', 'echo "unterminated', true),
  bash('8 full', 'Bash(ls *)', 'ls &&', true),
  bash('8 full', 'Bash(ls *)', 'if true; then git push', true),
  bash('8 full choice: computed command name', 'Bash(ls *)', '$CMD -rf /', true),
  bash('8 full choice: [[ … ]]', 'Bash(ls *)', '[[ -f x ]] && rm x', true),
  bash('8 full choice: case', 'Bash(ls *)', 'case x in x) rm x;; esac', true),
  bash('8 full choice: $?', 'Bash(ls *)', 'echo $?', true),
  bash('8 quoted heredoc', 'Bash(rm *)', "cat <<'EOF'\nrm -rf x\nEOF", false),
  bash('8 quoted heredoc', 'Bash(rm *)', 'cat <<"EOF"\nrm -rf x\nEOF', false),
  bash('8 quoted heredoc', 'Bash(rm *)', "cat <<-'EOF'\n\trm -rf x\n\tEOF", false),
  bash('8 quoted heredoc', 'Bash(cat)', "cat <<'EOF'\nrm -rf x\nEOF", true),
  bash('8 quoted heredoc', 'Bash(git push)', "cat <<'EOF' > f\nbody\nEOF\ngit push", true),
  bash('8 quoted heredoc', 'Bash(git push)', "x=$(cat <<'EOF'\nbody\nEOF\n) && git push", true),
  bash('8 arithmetic', 'Bash(git push)', 'echo $((1+2)) && git push', true),
  bash('8 arithmetic', 'Bash(ls *)', 'echo $((1+2)) && git push', false),
  bash('8 assignment', 'Bash(echo hi)', 'x=$(echo hi) && git push', true),
  bash('8 assignment', 'Bash(git push)', 'x=$(echo hi) && git push', true),
  bash('8 assignment', 'Bash(ls *)', 'x=$(echo hi) && git push', false),

  // 15. No tool families; legacy aliases work
  file('15', 'Edit', 'Write', '/w/proj/a.txt', false),
  file('15', 'Edit(*.txt)', 'Write', '/w/proj/a.txt', false),
  file('15', 'Write(*.txt)', 'Edit', '/w/proj/a.txt', false),
  file('15', 'Read(*)', 'Edit', '/w/proj/a.txt', false),
  file('15', 'Read(*)', 'Write', '/w/proj/a.txt', false),
  tool('15', 'Read(*)', 'Glob', { pattern: '*' }, false),
  tool('15', 'Read(*)', 'Grep', { pattern: 'x' }, false),
  file('15', 'Edit(*.txt)', 'Edit', '/w/proj/a.txt', true),
  file('15', 'Write(src/**)', 'Write', '/w/proj/src/a.ts', true),
  file('15', 'Edit', 'Edit', '/w/proj/a.txt', true),
  file('15 choice: NotebookEdit reads notebook_path', 'NotebookEdit(*.ipynb)', 'NotebookEdit', '/w/proj/n.ipynb', true),
  file('15 choice: NotebookEdit reads notebook_path', 'NotebookEdit(src/**)', 'NotebookEdit', '/w/proj/n.ipynb', false),
  tool('15', 'Task', 'Agent', { subagent_type: 'Explore' }, true),
  tool('15', 'ListPeers', 'ListAgents', {}, true),
  tool('15', 'Agent', 'Agent', { subagent_type: 'Explore' }, true),
  tool('15', 'KillShell', 'TaskStop', { task_id: '1' }, true),
  tool('15', 'Task', 'ListAgents', {}, false),

  // 10. File rules are case-insensitive
  read('10', 'Read(*.TXT)', '/w/proj/a.txt', true),
  read('10', 'Read(SRC/**)', '/w/proj/src/a.txt', true),
  read('10', 'Read(*.txt)', '/w/proj/A.TXT', true),
  read('10', 'Read(*.txt)', '/w/proj/new.TXT', true),
  read('10', 'Read(/src/**)', '/w/proj/SRC/a.txt', true),

  // 11. Gitignore semantics inside the cwd
  read('11', 'Read(a.txt)', '/w/proj/a.txt', true),
  read('11', 'Read(a.txt)', '/w/proj/src/a.txt', true),
  read('11', 'Read(a.txt)', '/w/proj/SRC/a.txt', true),
  read('11', 'Read(./a.txt)', '/w/proj/src/a.txt', true),
  read('11', 'Read(b.txt)', '/w/proj/a.txt', false),
  read('11', 'Read(src)', '/w/proj/src/x.ts', true),
  read('11', 'Read(src)', '/w/proj/lib/src/x.ts', true),
  read('11', 'Read(src/)', '/w/proj/lib/src/x.ts', true),
  read('11', 'Read(src/*)', '/w/proj/src/deep/b.ts', true),
  read('11', 'Read(src/**)', '/w/proj/src/a.ts', true),
  read('11', 'Read(src/**)', '/w/proj/lib/src/a.ts', false),
  read('11', 'Read(./src/**)', '/w/proj/src/a.ts', true),
  read('11', 'Read(./src/**)', '/w/proj/lib/src/a.ts', false),
  read('11', 'Read(/src/**)', '/w/proj/lib/src/a.ts', false),
  read('11', 'Read(**/src/**)', '/w/proj/lib/src/a.ts', true),
  read('11', 'Read(src/**)', 'src/a.ts', true),

  // 12. `/` is the session cwd, not the settings file
  read('12', 'Read(/a.txt)', '/w/proj/a.txt', true),
  read('12', 'Read(/h.txt)', '/home/u/h.txt', false),
  read('12', 'Read(/.claude/**)', '/home/u/.claude/settings.json', false),
  read('12', 'Read(/settings.json)', '/home/u/.claude/settings.json', false),
  read('12', 'Read(/etc/**)', '/etc/hostname', false),

  // 13. `//abs` and `~/`
  read('13', 'Read(//etc/**)', '/etc/hostname', true),
  read('13', 'Read(//tmp/**)', '/tmp/x/y', true),
  read('13', 'Read(//w/proj/src/**)', '/w/proj/src/a.ts', true),
  read('13', 'Read(~/**)', '/home/u/h.txt', true),
  read('13', 'Read(~/h.txt)', '/home/u/h.txt', true),
  read('13', 'Read(~/*.txt)', '/home/u/h.txt', true),
  read('13', 'Read(~/h.txt)', '~/h.txt', true),
  read('13', 'Read(~/h.txt)', '/w/proj/h.txt', false),
  read('13', 'Read(/w/proj/src/**)', '/w/proj/src/a.ts', false),
  read('13', 'Read(../outside/**)', '/w/outside/o.txt', false),

  // 14. Patterns starting with `*`, and files outside the cwd: wildcard on the absolute path
  read('14', 'Read(*.txt)', '/w/outside/o.txt', true),
  read('14', 'Read(*.txt)', '/home/u/h.txt', true),
  read('14', 'Read(*.txt)', '~/h.txt', true),
  read('14', 'Read(*)', '/etc/hostname', true),
  read('14', 'Read(*.md)', '/etc/hostname', false),
  read('14', 'Read(/**)', '/w/proj/a/b.txt', true),
  read('14', 'Read(/**)', '/etc/hostname', false),
  read('14', 'Read(a.txt)', '/w/outside/a.txt', false),
  read('14', 'Read(**/*.txt)', '/w/outside/deep/o.txt', true),
  tool('14', 'Read(*.txt)', 'Read', {}, false),

  // 16. Specifiers only for tools with a permission matcher; MCP rules name the exact tool
  tool('16', 'WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.com/' }, false, true),
  tool('16', 'WebFetch(domain:*.example.com)', 'WebFetch', { url: 'https://a.example.com/' }, false, true),
  tool('16', 'WebFetch(domain:*)', 'WebFetch', { url: 'https://example.com/' }, false, true),
  tool('16', 'WebFetch(https://example.com/*)', 'WebFetch', { url: 'https://example.com/x' }, false, true),
  tool('16', 'WebFetch(example.com)', 'WebFetch', { url: 'https://example.com/' }, false, true),
  tool('16', 'WebFetch', 'WebFetch', { url: 'https://example.com/' }, true, false),
  tool('16', 'WebFetch()', 'WebFetch', { url: 'https://example.com/' }, true, false),
  tool('16', 'WebFetch(*)', 'WebFetch', { url: 'https://example.com/' }, true, false),
  tool('16', 'Agent(Explore)', 'Agent', { subagent_type: 'Explore' }, false, true),
  tool('16', 'Agent(explore)', 'Agent', { subagent_type: 'Explore' }, false),
  tool('16', 'Agent(Exp*)', 'Agent', { subagent_type: 'Explore' }, false),
  tool('16', 'Task(Explore)', 'Agent', { subagent_type: 'Explore' }, false, true),
  tool('16', 'Agent(subagent_type:Explore)', 'Agent', { subagent_type: 'Explore' }, false),
  tool('16', 'Agent()', 'Agent', { subagent_type: 'Explore' }, true),
  tool('16', 'Agent(*)', 'Agent', { subagent_type: 'Explore' }, true),
  tool('16', 'mcp__demo', 'mcp__demo__echo', { text: 'hi' }, false),
  tool('16', 'mcp__demo__*', 'mcp__demo__echo', { text: 'hi' }, false),
  tool('16', 'mcp__*', 'mcp__demo__echo', { text: 'hi' }, false),
  tool('16', 'mcp__*__echo', 'mcp__demo__echo', { text: 'hi' }, false),
  tool('16', 'mcp__demo__ech*', 'mcp__demo__echo', { text: 'hi' }, false),
  tool('16', 'mcp__my-server', 'mcp__my-server__do_thing', {}, false),
  tool('16', 'mcp__Demo__echo', 'mcp__demo__echo', { text: 'hi' }, false),
  tool('16', 'mcp__demo__echo', 'mcp__demo__echo', { text: 'hi' }, true, false),
  tool('16', 'mcp__demo__echo()', 'mcp__demo__echo', { text: 'hi' }, true),
  tool('16', 'mcp__demo__echo(*)', 'mcp__demo__echo', { text: 'hi' }, true),
  tool('16', 'mcp__demo__echo(text:hi)', 'mcp__demo__echo', { text: 'hi' }, false, true),
  tool('16', 'mcp__my-server__do_thing', 'mcp__my-server__do_thing', {}, true),
  tool('16', 'mcp__demo__do-thing', 'mcp__demo__do-thing', {}, true),
  tool('16', 'Grep(hello)', 'Grep', { pattern: 'hello' }, true),
  tool('16', 'Grep(hel*)', 'Grep', { pattern: 'hello' }, true),
  tool('16', 'Grep(hello)', 'Grep', { pattern: 'hello world' }, false),
  tool('16', 'Glob(*.txt)', 'Glob', { pattern: '*.txt' }, true),
  tool('16', 'Glob(*.ts)', 'Glob', { pattern: '**/*.ts' }, true),
  tool('16', 'Glob(*.ts)', 'Glob', { pattern: 'src/**/*.ts' }, true),
  tool('16', 'Glob(src/**)', 'Glob', { pattern: '*.ts', path: '/w/proj/src' }, false),
  tool('16', 'Grep(src/**)', 'Grep', { pattern: 'x', path: '/w/proj/src' }, false),
  tool('16 choice: Monitor reads command like Bash', 'Monitor(npm run *)', 'Monitor', { command: 'npm run dev' }, true),
  tool('16 choice: Monitor reads command like Bash', 'Monitor(npm run *)', 'Monitor', { command: 'tail -f log' }, false),
  tool('16 choice: Monitor reads command like Bash', 'Monitor(tail *)', 'Monitor', { command: 'cd x && tail -f log' }, true),
  tool('16 choice: PowerShell', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'Remove-Item -Recurse x' }, true),
  tool('16 choice: PowerShell', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'Get-ChildItem; Remove-Item x' }, true),
  tool('16 choice: PowerShell', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'Get-ChildItem | Remove-Item' }, true),
  tool('16 choice: PowerShell is case-insensitive', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'remove-item x' }, true),
  tool('16 choice: PowerShell', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'Get-ChildItem' }, false),
  tool('16 choice: PowerShell', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'Write-Output "a; Remove-Item x"' }, false),
  tool('16 choice: PowerShell', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'Get-ChildItem > out.txt 2>&1' }, false),
  tool('16 choice: PowerShell partial', 'PowerShell(Remove-Item *)', 'PowerShell', { command: 'Get-ChildItem $env:TEMP' }, false),
  tool('16 choice: PowerShell partial', 'PowerShell(Get-Content x)', 'PowerShell', { command: 'Get-ChildItem $env:TEMP' }, true),
  tool('16 choice: PowerShell full', 'PowerShell(Get-Date)', 'PowerShell', { command: '& { Remove-Item x }' }, true),
  tool('16 choice: PowerShell full', 'PowerShell(Get-Date)', 'PowerShell', { command: 'Write-Output $(Remove-Item x)' }, true),

  // 17. Malformed strings never match, except Bash-parsed ones in the full fallback; an empty `if` is no condition
  bash('17', '*', 'ls', false, true),
  bash('17', 'Bash,Edit', 'ls', false, true),
  bash('17', 'Bash|Edit', 'ls', false, true),
  bash('17', 'Bash(ls', 'ls', false, true),
  bash('17', 'Bash (ls)', 'ls', false, true),
  bash('17', 'Bash(ls)x', 'ls', false, true),
  bash('17', ' Bash(ls)', 'ls', false, true),
  bash('17', 'Bash(ls) ', 'ls', false, true),
  bash('17', 'Bash:ls', 'ls', false, true),
  bash('17', 'Nope', 'ls', false, false),
  bash('17', 'Bash(ls) || Bash(echo *)', 'ls', false, true),
  bash('17', 'Bash(ls) || Bash(echo *)', 'echo hi', false, true),
  bash('17', 'Bash(ls) Bash(echo *)', 'echo hi', false, true),
  bash('17', 'Bash(ls))', 'ls', false, true),
  bash('17', 'Bash(:*)', 'ls', false, true),
  bash('17', '(ls)', 'ls', false, true),
  bash('17 full fallback', 'Bash(ls))', 'echo (x)', true, true),
  bash('17 full fallback', 'Bash(:*)', 'echo (x)', true, true),
  bash('17 full fallback', 'Bash(ls) || Bash(echo *)', 'echo (x)', true, true),
  bash('17 full fallback', 'Bash(ls) Bash(echo *)', 'echo (x)', true, true),
  bash('17 full fallback choice: no Bash tool part, no firing', 'Bash(ls', 'echo (x)', false, true),
  bash('17 full fallback choice: no Bash tool part, no firing', 'Bash (ls)', 'echo (x)', false, true),
  bash('17 full fallback choice: no Bash tool part, no firing', ' Bash(ls)', 'echo (x)', false, true),
  bash('17 full fallback choice: no Bash tool part, no firing', 'Bash,Edit', 'echo (x)', false, true),
  bash('17', '', 'rm -rf /', true, false),
  file('17', '', 'Write', '/w/proj/a.txt', true),
  bash('17', 'Bash(echo \\(x\\))', 'echo "(x)"', true, false),

  // Input without the field the specifier reads
  tool('input', 'Bash(ls)', 'Bash', {}, false),
  tool('input', 'Bash', 'Bash', {}, true),
  tool('input', 'Grep(x)', 'Grep', { pattern: 42 }, false),
];

test('the golden table has rows for every numbered item of §20.1 except 9 and 18', () => {
  const items = new Set(rows.map((row) => row.item.split(' ')[0]));
  for (const item of ['1', '2', '3', '4', '5', '6', '7', '8', '10', '11', '12', '13', '14', '15', '16', '17']) {
    assert.ok(items.has(item), `no row for item ${item}`);
  }
  assert.ok(rows.length >= 250, `only ${rows.length} rows`);
});

for (const row of rows) {
  const input = JSON.stringify(row.input);
  test(`§20.1 ${row.item}: if ${JSON.stringify(row.rule)} on ${row.tool} ${input} ${row.runs ? 'runs' : 'is skipped'}`, () => {
    const check = matchesIf(row.rule, { toolName: row.tool, toolInput: row.input, cwd: CWD, home: HOME });
    assert.equal(check.matches, row.runs);
    if (row.warns !== undefined) assert.equal(check.malformed !== undefined, row.warns, check.malformed ?? 'no warning');
  });
}

test('the warning names the rule and says why', () => {
  const cases: [rule: string, tool: string, why: RegExp][] = [
    ['Bash(ls) || Bash(echo *)', 'Bash', /exactly one rule/],
    ['WebFetch(domain:x.com)', 'WebFetch', /never matches/],
    ['Bash (ls)', 'Bash', /spaces/],
  ];
  for (const [rule, toolName, why] of cases) {
    const warning = matchesIf(rule, { toolName, toolInput: {}, cwd: CWD, home: HOME }).malformed ?? '';
    assert.ok(warning.includes(`"${rule}"`), `${rule}: ${warning}`);
    assert.match(warning, why);
  }
});

test('a cwd with a trailing slash and a relative file path resolve the same way', () => {
  const call = { toolName: 'Read', toolInput: { file_path: 'src/a.ts' }, cwd: '/w/proj/', home: HOME };
  assert.equal(matchesIf('Read(/src/**)', call).matches, true);
  assert.equal(matchesIf('Read(//w/proj/src/*)', call).matches, true);
});
