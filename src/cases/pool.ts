// A bounded pool: at most `limit` tasks at once; results keep the order of the items.
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  // Never stopped, every item runs: no result is left undefined.
  return runPoolUntil(items, limit, task, () => false) as Promise<R[]>;
}

/** The same, but once `stopped()` says so no further task starts: the items never started stay undefined. */
export async function runPoolUntil<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
  stopped: () => boolean,
): Promise<Array<R | undefined>> {
  return runLanesUntil(
    items,
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () => task),
    stopped,
  );
}

/** One task per lane: each lane takes the next item when its last one is done, so a faster lane takes more. */
export async function runLanesUntil<T, R>(
  items: readonly T[],
  lanes: ReadonlyArray<(item: T, index: number) => Promise<R>>,
  stopped: () => boolean,
): Promise<Array<R | undefined>> {
  const results = new Array<R | undefined>(items.length).fill(undefined);
  let next = 0;
  const lane = async (task: (item: T, index: number) => Promise<R>): Promise<void> => {
    while (next < items.length && !stopped()) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(lanes.map(lane));
  return results;
}
