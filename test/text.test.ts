// Display helpers: URLs as every message shows them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shownUrl } from '../src/text.ts';

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
