// Codex's apply_patch text read as Codex's parser reads it (codex-rs/apply-patch/src/parser.rs): headers with
// blanks around them are headers, every file Codex would touch becomes a call, and text Codex would not apply as
// written is refused rather than read some other way.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { patchCalls } from '../../src/hosts/apply-patch.ts';

const CWD = '/work/project';
const files = (text: string) => {
  const parsed = patchCalls(text, CWD);
  assert.ok('calls' in parsed, 'error' in parsed ? parsed.error : '');
  return parsed.calls.map((call) => [call.tool, call.input.file_path, call.input.content ?? call.input.new_string]);
};
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

test("a header after another file's hunk with a tab, an NBSP, spaces or a NEL before it is a header, as Codex trims it", () => {
  for (const blank of ['\t', '\u00a0', '   ', '\u0085', '\u3000']) {
    assert.deepEqual(
      files(patch('*** Add File: notes.txt', '+hello', `${blank}*** Delete File: .env`)),
      [
        ['Write', `${CWD}/notes.txt`, 'hello\n'],
        ['Write', `${CWD}/.env`, ''],
      ],
      JSON.stringify(blank),
    );
    assert.deepEqual(
      files(patch('*** Delete File: a.txt', `${blank}*** Add File: .env${blank}`, '+TOKEN=x')),
      [
        ['Write', `${CWD}/a.txt`, ''],
        ['Write', `${CWD}/.env`, 'TOKEN=x\n'],
      ],
      JSON.stringify(blank),
    );
  }
});

test("the envelope: trimmed, CRLF, Codex's heredoc form, inside a shell command; the move of an update", () => {
  const update = [
    '*** Update File: src/app.py',
    '*** Move to: src/main.py',
    '@@ def main():',
    '-    print("hi")',
    '+    print("hello")',
    ' pass',
  ];
  const expected = [
    ['Edit', `${CWD}/src/app.py`, '    print("hello")\npass'],
    ['Write', `${CWD}/src/main.py`, '    print("hello")\npass'],
  ];
  assert.deepEqual(files(`\n \u00a0${patch(...update)}\n\n`), expected);
  assert.deepEqual(files(patch(...update).replace(/\n/g, '\r\n')), expected);
  assert.deepEqual(files(`<<'EOF'\n${patch(...update)}\nEOF`), expected);
  assert.deepEqual(files(`apply_patch <<'EOF'\n${patch(...update)}\nEOF\n`), expected);
});

test('text Codex would not apply as written is refused, never read another way', () => {
  const rows: Array<[string, RegExp]> = [
    // A header inside an update's chunk: Codex wants an @@ there, it does not start a new file.
    [
      patch('*** Update File: a.txt', '@@', '-a', '+b', '\t*** Delete File: .env'),
      /line 6: "\\t\*\*\* Delete File: \.env" should start a chunk with @@/,
    ],
    [patch('*** Add File: a.txt', '+a', 'stray text'), /line 4: "stray text" is not a hunk header/],
    [patch('*** Update File: a.txt'), /line 2: the update of 'a\.txt' is empty/],
    [patch('*** Update File: a.txt', '@@'), /line 4: a chunk without lines/],
    [patch('*** Update File: a.txt', 'x'), /line 3: "x" is not a context, removed or added line/],
    ['*** Begin Patch\n*** Delete File: .env\n', /no '\*\*\* End Patch' line after '\*\*\* Begin Patch'/],
    ['*** End Patch', /no '\*\*\* Begin Patch' line/],
  ];
  for (const [text, reason] of rows) {
    const parsed = patchCalls(text, CWD);
    assert.ok('error' in parsed, JSON.stringify(text));
    assert.match(parsed.error, /^holds apply_patch text Codex would not apply as written \(/);
    assert.match(parsed.error, reason);
  }
  assert.deepEqual(patchCalls('not a patch', CWD), {
    error: 'holds no file of an apply_patch envelope (*** Begin Patch, *** Add/Update/Delete File:)',
  });
  assert.deepEqual(patchCalls(patch(), CWD), {
    error: 'holds no file of an apply_patch envelope (*** Begin Patch, *** Add/Update/Delete File:)',
  });
});
