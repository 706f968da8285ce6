// Golden table for the group matcher (spec §8.1, observed behaviour in §19 and §20.2).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventName } from '../../src/events.ts';
import { matcherValue, matchesMatcher } from '../../src/match/matcher.ts';

type Row = [matcher: string | undefined, value: string, expected: boolean, event?: EventName];

const TOOLS: Row[] = [
  // match-all forms
  [undefined, 'Bash', true],
  ['', 'Bash', true],
  ['*', 'Bash', true],
  ['*', 'mcp__demo__echo', true],
  // exact names, case-sensitive
  ['Bash', 'Bash', true],
  ['bash', 'Bash', false],
  ['BASH', 'Bash', false],
  ['Bas', 'Bash', false],
  ['Edit', 'Edit', true],
  ['Edit', 'NotebookEdit', false],
  ['Read', 'Read', true],
  ['read', 'Read', false],
  // exact lists with | and , trimmed, empty entries ignored
  ['Edit|Write', 'Write', true],
  ['Edit|Write', 'Edit', true],
  ['Edit|Write', 'Bash', false],
  ['Edit|', 'Edit', true],
  ['|Edit', 'Edit', true],
  ['Edit,,Write', 'Write', true],
  ['Read , Edit', 'Edit', true],
  [' Edit ', 'Edit', true],
  ['Edit,Write', 'Write', true],
  ['Task, Bash', 'Bash', true],
  // internal spaces keep one name
  ['Bash Edit', 'Bash', false],
  ['Bash Edit', 'Edit', false],
  ['Edit|Write Bash', 'Edit', true],
  ['Edit|Write Bash', 'Bash', false],
  // hyphens allowed on the exact path
  ['mcp__demo__do-thing', 'mcp__demo__do-thing', true],
  ['mcp__demo__do-thing ', 'mcp__demo__do-thing', true],
  ['mcp__my-server__do_thing', 'mcp__my-server__do_thing', true],
  // exact path: only whole names
  ['do-thing', 'mcp__demo__do-thing', false],
  ['do_thing', 'mcp__demo__do_thing', false],
  ['mcp__demo', 'mcp__demo__echo', false],
  ['mcp__demo__', 'mcp__demo__echo', false],
  ['mcp__', 'mcp__demo__echo', false],
  ['mcp', 'mcp__demo__echo', false],
  ['Tool', 'ToolSearch', false],
  ['a-z', 'Bash', false],
  ['BASH|EDIT', 'Bash', false],
  // regex path: unanchored, case-sensitive
  ['Edit.*', 'NotebookEdit', true],
  ['Edit.*', 'Edit', true],
  ['^Edit$', 'NotebookEdit', false],
  ['^Edit$', 'Edit', true],
  ['mcp__demo__*', 'mcp__demo__echo', true],
  ['mcp__demo__*', 'mcp__demo__ask', true],
  ['mcp__demo__.*', 'mcp__demo__echo', true],
  ['mcp__memory__.*', 'mcp__demo__echo', false],
  ['Agent.*', 'ListAgents', true],
  ['\\w+', 'mcp__demo__echo', true],
  ['^\\w+$', 'Bash', true],
  ['Search$', 'ToolSearch', true],
  ['(?:Tool)', 'ToolSearch', true],
  ['Read|Edit(x)', 'Read', true],
  ['Read|Edit(x)', 'Edit', false],
  ['^(?!Bash).*', 'Bash', false],
  ['^(?!Bash).*', 'Edit', true],
  ['Bash$|^Edit', 'Bash', true],
  ['Bash$|^Edit', 'Edit', true],
  ['Bash$|^Edit', 'Write', false],
  ['^$', 'Bash', false],
  ['Bash(touch *)', 'Bash', false],
  ['B.sh', 'Bash', true],
  ['b.sh', 'Bash', false],
  // legacy aliases on both paths
  ['Task', 'Agent', true],
  ['^Task$', 'Agent', true],
  ['Ta.*', 'Agent', true],
  ['Task,Agent', 'Agent', true],
  ['Task|Bash', 'Agent', true],
  ['ListPeers', 'ListAgents', true],
  ['^ListPeers$', 'ListAgents', true],
  ['ListPeer.*', 'ListAgents', true],
  ['KillShell', 'TaskStop', true],
  ['KillBash', 'TaskStop', true],
  ['Brief', 'SendUserMessage', true],
  ['ProposeGoal', 'SetGoal', true],
  ['Agent', 'Task', false],
  // invalid regexes match nothing, not even valid-looking parts
  ['Write|*', 'Write', false],
  ['*|Write', 'Write', false],
  ['(?i)bash', 'Bash', false],
  ['[', 'Bash', false],
];

const OTHER_EVENTS: Row[] = [
  ['startup', 'startup', true, 'SessionStart'],
  ['startup|resume', 'resume', true, 'SessionStart'],
  ['Startup', 'startup', false, 'SessionStart'],
  ['manual', 'auto', false, 'PreCompact'],
  ['auto', 'auto', true, 'PostCompact'],
  ['rate_limit|server_error', 'server_error', true, 'StopFailure'],
  ['rate_limit,server_error', 'server_error', false, 'StopFailure'],
  ['.envrc', '.envrc', true, 'FileChanged'],
  ['package.json', 'package.json', true, 'FileChanged'],
  ['.envrc', 'xenvrc', true, 'FileChanged'],
  ['my-plugin:reviewer', 'my-plugin:reviewer', true, 'SubagentStart'],
  ['^my-plugin:reviewer$', 'my-plugin:reviewer', true, 'SubagentStart'],
  ['Explore', 'Explore', true, 'SubagentStop'],
  ['claude-opus-4-6[1m]', 'claude-opus-4-6', true, 'PreModelSwitch'],
  ['claude-haiku-4-5|claude-opus-4-6[2m]', 'claude-opus-4-6', true, 'PostModelSwitch'],
  ['demo', 'demo', true, 'Elicitation'],
  ['user_settings', 'project_settings', false, 'ConfigChange'],
];

for (const [matcher, value, expected, event = 'PreToolUse'] of [...TOOLS, ...OTHER_EVENTS]) {
  test(`${event} matcher ${JSON.stringify(matcher)} vs ${value} -> ${expected}`, () => {
    assert.equal(matchesMatcher(event, matcher, value).matches, expected);
  });
}

test('the table has at least 60 rows', () => {
  assert.ok(TOOLS.length + OTHER_EVENTS.length >= 60);
});

test('an invalid regex says why', () => {
  const check = matchesMatcher('PreToolUse', '(?i)bash', 'Bash');
  assert.equal(check.matches, false);
  assert.match(check.invalid ?? '', /Invalid regex pattern in hook matcher "\(\?i\)bash"/);
});

test('events without a matcher field ignore the matcher', () => {
  const value = matcherValue('Stop', { stop_hook_active: false });
  assert.equal(value, undefined);
  assert.equal(matchesMatcher('Stop', 'anything-at-all', value).matches, true);
  assert.equal(
    matchesMatcher('UserPromptSubmit', '[', matcherValue('UserPromptSubmit', { prompt: 'x' })).matches,
    true,
  );
});

test('FileChanged matches the basename of file_path', () => {
  assert.equal(matcherValue('FileChanged', { file_path: '/home/dev/project/.envrc' }), '.envrc');
  assert.equal(matcherValue('PreToolUse', { tool_name: 'Bash' }), 'Bash');
});

test('a regex too large for V8 is an invalid matcher, and the message does not repeat 60,000 characters', () => {
  const matcher = `${'('.repeat(30_000)}${')'.repeat(30_000)}`;
  const check = matchesMatcher('PreToolUse', matcher, 'Bash');
  assert.equal(check.matches, false);
  assert.match(
    check.invalid ?? '',
    /^Invalid regex pattern in hook matcher "\(+…" \(60000 characters\): .*Stack overflow|too large/,
  );
  assert.ok(check.invalid!.length < 400, check.invalid!.slice(0, 400));
});

// Tool names are short, and these regexes take exponential time on them; Claude Code hangs, peri-hooks answers.
const TOOL = `mcp__server__${'a'.repeat(40)}`;

test('a catastrophic regex V8 can run in linear time gives the same answer, without the exponential wait', () => {
  assert.equal(matchesMatcher('PreToolUse', '^(\\w|\\w)*$', TOOL).matches, true);
  assert.equal(matchesMatcher('PreToolUse', '^(\\w|\\w)*$', `${TOOL}!`).matches, false);
  assert.equal(matchesMatcher('PreToolUse', '^(a+)+b', TOOL.slice(13)).matches, false);
  assert.equal(matchesMatcher('PreToolUse', `${'.*'.repeat(40)}Z`, TOOL).matches, false);
});

test('lookaheads and backreferences still work', () => {
  assert.equal(matchesMatcher('PreToolUse', '^(?!Bash$)', 'Bash').matches, false);
  assert.equal(matchesMatcher('PreToolUse', '^(?!Bash$)', 'Edit').matches, true);
  assert.equal(matchesMatcher('PreToolUse', '^(B)ash|(T)\\2', 'Bash').matches, true);
  assert.equal(matchesMatcher('PreToolUse', '(?=Ta)', 'Agent').matches, true, 'legacy names are tested too');
});

test('a regex that V8 must backtrack and that does not finish in time matches nothing, and says so', () => {
  const matcher = '^(?!x)(\\w|\\w)*$';
  const check = matchesMatcher('PreToolUse', matcher, `${TOOL}!`);
  assert.equal(check.matches, false);
  assert.match(
    check.invalid ?? '',
    /^Regex matcher "\^\(\?!x\)\(\\w\|\\w\)\*\$" did not finish within 1 s on "mcp__server__a+!"; it matches nothing/,
  );
  assert.deepEqual(
    matchesMatcher('PreToolUse', matcher, `${TOOL}!`),
    check,
    'asked again, the same answer (its second is spent once)',
  );
  assert.equal(
    matchesMatcher('PreToolUse', matcher, TOOL).matches,
    true,
    'the same regex still answers where it is fast',
  );
});
