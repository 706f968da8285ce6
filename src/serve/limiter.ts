// Bounded concurrency with a bounded queue: a firing waits for a free slot, and when the queue is full too the
// request is refused at once (503), so overload never turns into a hang or unbounded memory.
export interface Limiter {
  /** Runs `task` when a slot is free; undefined when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T> | undefined;
  /** Firings running and waiting. */
  readonly active: number;
  readonly queued: number;
}

export function limiter(maxActive: number, maxQueued: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    active--;
    waiting.shift()?.();
  };
  return {
    run<T>(task: () => Promise<T>): Promise<T> | undefined {
      if (active < maxActive) {
        active++;
        return task().finally(next);
      }
      if (waiting.length >= maxQueued) return undefined;
      return new Promise<void>((resolve) =>
        waiting.push(() => {
          active++;
          resolve();
        }),
      )
        .then(task)
        .finally(next);
    },
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
  };
}
