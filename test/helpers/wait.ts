/**
 * Polls `probe` until it yields a value other than undefined or false. Background work is awaited by its
 * effect, never by a fixed sleep; the bound is generous (the machine is shared) and, when it passes, the test
 * fails naming what it waited for instead of hanging the suite.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  boundMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${boundMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
