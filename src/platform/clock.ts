// The firing's clocks, without the loaders behind the standard ones: the first performance.now() makes Node load
// perf_hooks (about 1.4 ms), and Date.prototype.toISOString makes V8 load the host's time zone (ICU reads
// /etc/localtime, a quarter of a millisecond). process.hrtime and the UTC getters need neither.

/** Milliseconds from an arbitrary origin, for durations (what performance.now() gives). */
export function nowMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** What `date.toISOString()` returns, for any valid date. */
export function isoTime(date = new Date()): string {
  const year = date.getUTCFullYear();
  const yearText = year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
  return `${yearText}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}Z`;
}
