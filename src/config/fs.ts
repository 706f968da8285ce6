// The settings loader's file calls, synchronous behind promises. A settings file is small and, by the time it is
// read, known to be a regular file (load.ts opens it without blocking and checks it first); a hop through libuv's
// thread pool per call, and starting the pool's four threads, cost a firing more than the reads themselves.
// node:fs/promises is not used: importing it also loads readline, the file watchers and more.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';

function settled<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

export const openFile = (file: string, flags: number) => settled(() => openSync(file, flags));
export const statOf = (fd: number) => settled<Stats>(() => fstatSync(fd));
export const readWhole = (fd: number) => settled(() => readFileSync(fd, 'utf8'));
export const closeFile = (fd: number) => settled(() => closeSync(fd));
export const namesIn = (dir: string) => settled(() => readdirSync(dir));
export const statPath = (file: string) => settled<Stats>(() => statSync(file));
