// Display helpers: URLs as every message shows them, tables as a terminal shows them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { printable, shownUrl, table, visibleWidth } from '../src/text.ts';

test('shownUrl masks a user name and password, and leaves every other URL as written', () => {
  const rows: Array<[url: string | URL, shown: string]> = [
    ['http://127.0.0.1:9', 'http://127.0.0.1:9'],
    ['https://example.com/hook?token=in-query', 'https://example.com/hook?token=in-query'],
    ['http://alice:hunter2@example.com/x', 'http://***@example.com/x'],
    ['http://token-only@example.com', 'http://***@example.com/'],
    ['http://:hunter2@example.com/', 'http://***@example.com/'],
    ['HTTP://A:B@EXAMPLE.COM/', 'http://***@example.com/'],
    // What the URL parser reads as userinfo, though the text does not look like it.
    ['http:alice:hunter2@example.com/', 'http://***@example.com/'],
    [' http://alice:hunter2@example.com/', 'http://***@example.com/'],
    ['http://a@b:hunter2@example.com/', 'http://***@example.com/'],
    // Text no parser reads: masked up to the last @ of what would be the authority.
    ['http://alice:hunter2@bad host/', 'http://***@bad host/'],
    ['http://alice:hunter2@/', 'http://***@/'],
    ['not a url', 'not a url'],
    [new URL('http://alice:hunter2@example.com/x'), 'http://***@example.com/x'],
    [new URL('http://example.com'), 'http://example.com/'],
  ];
  for (const [url, shown] of rows) assert.equal(shownUrl(url), shown, String(url));
});

test('table aligns on what is visible: colour codes take no width', () => {
  const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;
  const shown = table([
    [dim('type'), dim('hook')],
    ['command', 'true'],
    [dim('http'), 'x'],
  ]);
  const plain = shown.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  assert.deepEqual(plain, ['type     hook', 'command  true', 'http     x']);
});

test('table: right-aligned columns; a terminal width cuts the widest column first, with …', () => {
  assert.equal(
    table(
      [
        ['Event', 'Calls'],
        ['Stop', '12'],
      ],
      { align: ['left', 'right'] },
    ),
    'Event  Calls\nStop      12',
  );
  const rows = [
    ['PreToolUse', 'a'.repeat(40), 'end'],
    ['Stop', 'short', 'x'],
  ];
  const cut = table(rows, { width: 30 }).split('\n');
  assert.ok(
    cut.every((line) => visibleWidth(line) <= 30),
    cut.join('\n'),
  );
  assert.match(cut[0]!, /^PreToolUse {2}a+… {2}end$/);
  assert.equal(cut[1], `Stop${' '.repeat(8)}short${' '.repeat(10)}x`);
  // Without a width (piped output) nothing is cut.
  assert.ok(table(rows).includes('a'.repeat(40)));
  // A coloured cell cut keeps its codes and resets after the …
  assert.equal(
    table([[`\x1b[31m${'r'.repeat(20)}\x1b[39m`, 'tail']], { width: 16 }),
    `\x1b[31m${'r'.repeat(9)}…\x1b[0m  tail`,
  );
});

test('printable takes every escape sequence and control character out of untrusted text, tabs and newlines stay', () => {
  const rows: Array<[text: string, shown: string]> = [
    ['plain text', 'plain text'],
    ['red \u001b[31mtext\u001b[0m', 'red text'],
    ['title \u001b]0;pwned\u0007 set', 'title  set'],
    ['link \u001b]8;;http://x\u001b\\here\u001b]8;;\u001b\\', 'link here'],
    ['clear \u001b[2J\u001b[H screen', 'clear  screen'],
    ['over\rwrite', 'overwrite'],
    ['bell\u0007 back\u0008space del\u007f', 'bell backspace del'],
    ['c1 \u009b31m csi', 'c1  csi'],
    ['keep\ttabs\nand lines', 'keep\ttabs\nand lines'],
    ['ünïcode ✓', 'ünïcode ✓'],
  ];
  for (const [text, shown] of rows) assert.equal(printable(text), shown, JSON.stringify(text));
});
