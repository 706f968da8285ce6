// The firing's clocks stand in for performance.now() and Date.prototype.toISOString: they must agree with them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoTime, nowMs } from '../../src/platform/clock.ts';

test('isoTime prints what toISOString prints, across years, days and milliseconds', () => {
  const fixed = [
    0,
    1,
    -1,
    999,
    86_399_999,
    Date.UTC(2026, 11, 1, 23, 59, 59, 7),
    Date.UTC(2000, 1, 29),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    Date.UTC(10_000, 0, 1),
    Date.UTC(-1, 0, 1),
    Date.UTC(-271_821, 3, 20),
    8.64e15,
    -8.64e15,
  ];
  let state = 20_261_201;
  const random = Array.from({ length: 5000 }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return (state / 2 ** 31 - 0.5) * 2 * 8.64e15 * (state % 7 === 0 ? 1 : 1e-3);
  });
  for (const ms of [...fixed, ...random]) {
    const date = new Date(Math.trunc(ms));
    assert.equal(isoTime(date), date.toISOString(), String(ms));
  }
  assert.match(isoTime(), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
});

test('nowMs never goes back, and counts milliseconds', async () => {
  let last = nowMs();
  for (let i = 0; i < 1000; i++) {
    const next = nowMs();
    assert.ok(next >= last);
    last = next;
  }
  const [clock, standard] = [nowMs(), performance.now()];
  await new Promise((resolve) => setTimeout(resolve, 50));
  const [clockSpan, standardSpan] = [nowMs() - clock, performance.now() - standard];
  // Read around the same sleep, the two spans differ by the time between two calls, not by a factor of 1,000.
  assert.ok(
    clockSpan >= 40 && clockSpan <= standardSpan + 1000,
    `${clockSpan} ms against performance.now()'s ${standardSpan} ms`,
  );
});
