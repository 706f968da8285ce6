// Node fires a timer longer than 2^31-1 ms at once (and AbortSignal.timeout throws beyond 2^32): hook
// timeouts are in seconds with no upper bound, so every timer is clamped here.
const MAX_TIMER_MS = 2 ** 31 - 1;

export function timerMs(ms: number): number {
  return Math.min(Math.max(1, ms), MAX_TIMER_MS);
}
