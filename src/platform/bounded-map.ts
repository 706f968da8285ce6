// The bound of every cache a long-running process keeps (a server's settings per project, compiled matcher
// regexes): at most `capacity` entries, and the one used longest ago goes first, so that none grows for as long
// as the process runs, whatever its requests name.
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** The value, which becomes the most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key)!;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Stores the value as the most recently used, dropping the least recently used beyond the capacity. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
