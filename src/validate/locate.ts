// Line and column of a pointer in any source the loader read: the file on disk, or the inline --settings text.
import { readFile } from 'node:fs/promises';
import { discover } from '../config/discover.ts';
import type { LoadOptions } from '../config/index.ts';
import { createLocator, type Position } from '../config/locate.ts';

export type PointerLocator = (file: string, pointer: string) => Promise<Position | undefined>;

export async function pointerLocator(options: LoadOptions): Promise<PointerLocator> {
  const { specs } = await discover(options);
  const inline = new Map(specs.flatMap((spec) => (spec.kind === 'inline' ? [[spec.file, spec.text] as const] : [])));
  const locators = new Map<string, Promise<((pointer: string) => Position) | undefined>>();
  return async (file, pointer) => {
    let locator = locators.get(file);
    if (!locator) {
      locator = textOf(file, inline).then(
        (text) => (text === undefined ? undefined : createLocator(text)),
        () => undefined,
      );
      locators.set(file, locator);
    }
    return (await locator)?.(pointer);
  };
}

async function textOf(file: string, inline: ReadonlyMap<string, string>): Promise<string | undefined> {
  const text = inline.get(file) ?? (await readFile(file, 'utf8').catch(() => undefined));
  return text?.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
