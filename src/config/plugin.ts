// A plugin's hooks: hooks/hooks.json, then the files or inline hooks its plugin.json names.
import path from 'node:path';
import { walkHooks } from './entries.ts';
import type { FileResult } from './load.ts';
import { parseDocument, type Read, readText } from './read.ts';
import { add, finish, isRecord, type Origin, type Walk, walked } from './walk.ts';

/** A plugin: hooks/hooks.json, then plugin.json `hooks` (inline, a path, or paths relative to the root). */
export async function loadPlugin(root: string, everyEntry: boolean): Promise<FileResult[]> {
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const standardFile = path.join(root, 'hooks', 'hooks.json');
  const [manifestRead, standardRead] = await Promise.all([readText(manifestFile), readText(standardFile)]);
  const manifest = await parseDocument({ layer: 'plugin', file: manifestFile }, manifestRead, false);
  const name =
    manifest.ok && typeof manifest.value.name === 'string' && manifest.value.name !== ''
      ? manifest.value.name
      : path.basename(root);
  const origin = (file: string): Origin => ({ layer: 'plugin', file, pluginRoot: root, pluginName: name });
  const results = [await loadPluginHooksFile(origin(standardFile), standardRead, everyEntry)];
  if (!manifest.ok) return [...results, manifest.result];

  let refs: Array<{ file: string; pointer: string }> = [];
  const walk = await walked(origin(manifestFile), everyEntry, (walk) => {
    refs = manifestRefs(walk, manifest.value.hooks, standardFile, root);
  });
  const reads = await Promise.all(refs.map((ref) => readText(ref.file)));
  refs.forEach((ref, i) => {
    if (reads[i]!.kind === 'missing')
      add(
        walk,
        'warning',
        'file-missing',
        ref.pointer,
        `hooks file named in plugin.json does not exist: ${ref.file}`,
        'paths in plugin.json "hooks" are relative to the plugin root',
      );
  });
  const loaded = refs.map((ref, i) => loadPluginHooksFile(origin(ref.file), reads[i]!, everyEntry));
  return [...results, await finish(walk, manifest.text), ...(await Promise.all(loaded))];
}

/** The hook files plugin.json names; inline hooks are walked on the spot. */
function manifestRefs(
  walk: Walk,
  hooks: unknown,
  standardFile: string,
  root: string,
): Array<{ file: string; pointer: string }> {
  if (hooks === undefined) return [];
  if (isRecord(hooks)) {
    walkHooks(walk, hooks, '/hooks');
    return [];
  }
  const entries =
    typeof hooks === 'string'
      ? [{ value: hooks, pointer: '/hooks' }]
      : Array.isArray(hooks)
        ? hooks.map((value, i) => ({ value, pointer: `/hooks/${i}` }))
        : undefined;
  if (!entries || entries.some((entry) => typeof entry.value !== 'string')) {
    add(
      walk,
      'warning',
      'plugin-hooks-invalid',
      '/hooks',
      '"hooks" in plugin.json must be an object of hooks, a path, or an array of paths',
      'e.g. "hooks": "./config/hooks.json"',
    );
    return [];
  }
  const seen = new Set([standardFile]);
  const refs: Array<{ file: string; pointer: string }> = [];
  for (const entry of entries) {
    const file = path.resolve(root, entry.value as string);
    if (seen.has(file)) {
      add(
        walk,
        'note',
        'plugin-hooks-duplicate',
        entry.pointer,
        `${file} is already loaded; read once`,
        'remove the repeated entry (hooks/hooks.json is always loaded)',
      );
      continue;
    }
    seen.add(file);
    refs.push({ file, pointer: entry.pointer });
  }
  return refs;
}

/** A plugin hooks file, with or without the `hooks` wrapper. */
async function loadPluginHooksFile(origin: Origin, read: Read, everyEntry: boolean): Promise<FileResult> {
  const parsed = await parseDocument(origin, read, false);
  if (!parsed.ok) return parsed.result;
  const wrapped = Object.hasOwn(parsed.value, 'hooks');
  const walk = await walked(origin, everyEntry, (walk) =>
    walkHooks(
      walk,
      wrapped ? parsed.value.hooks : parsed.value,
      wrapped ? '/hooks' : '',
      wrapped ? [] : ['description'],
    ),
  );
  return await finish(walk, parsed.text);
}
