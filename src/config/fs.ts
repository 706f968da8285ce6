// The settings loader's file calls over Node's callback API: importing node:fs/promises also loads readline,
// the file watchers and more (about 3 ms of a firing's start), and these four calls are all it needs.
import { close, fstat, open, readdir, readFile, stat, type Stats } from 'node:fs';

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;
const promised = <T>(call: (done: Callback<T>) => void) => new Promise<T>((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));

export const openFile = (file: string, flags: number) => promised<number>((done) => open(file, flags, done));
export const statOf = (fd: number) => promised<Stats>((done) => fstat(fd, done));
export const readWhole = (fd: number) => promised<string>((done) => readFile(fd, 'utf8', done));
export const closeFile = (fd: number) => promised<void>((done) => close(fd, (error) => done(error, undefined)));
export const namesIn = (dir: string) => promised<string[]>((done) => readdir(dir, done));
export const statPath = (file: string) => promised<Stats>((done) => stat(file, done));
