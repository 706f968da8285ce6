// `peri-hooks list`: the hooks panel. Every event with its hook count; per hook its type, matcher, source and command or URL.
import { loadSettings } from '../../config/index.ts';
import { sourcesToLoad } from '../../config/sources.ts';
import { EXIT } from '../../errors.ts';
import { EVENT_NAMES } from '../../events.ts';
import { describeHook } from '../../report/build.ts';
import { listDocumentSchema } from '../../report/documents.ts';
import { documentText } from '../../report/shape.ts';
import { sourceCell, table, terminalWidth } from '../../text.ts';
import { type HookTrust, needsTrust, trustView, trustWords } from '../../trust/check.ts';
import { pointerLocator } from '../../validate/locate.ts';
import { outputForm, type SourceFlags, sourceOptions, write } from '../io.ts';

export interface ListFlags extends SourceFlags {
  output?: string;
}

export async function listCommand(flags: ListFlags): Promise<number> {
  const output = outputForm(flags.output, 'human');
  const load = sourcesToLoad(sourceOptions(flags), process.cwd());
  const loaded = await loadSettings(load);
  const locate = await pointerLocator(load);
  // Project and local hooks with their trust state, read only where there are some.
  const { states, approvals } = loaded.hooks.some((hook) => needsTrust(hook, load.projectDir))
    ? await (await import('../../trust/enforce.ts')).trustStates(loaded.hooks, load.projectDir, {
        env: load.env,
        home: load.home,
      })
    : { states: new Map<string, HookTrust>(), approvals: false };
  // The human panel shows trust where it matters: trust is required, or the project was approved before.
  const showTrust = approvals || loaded.settings.requireTrust !== undefined;
  const hooks = await Promise.all(
    loaded.hooks.map(async (hook) => {
      const state = states.get(hook.id);
      return {
        ...describeHook(hook),
        line: (await locate(hook.provenance.file, hook.provenance.pointer))?.line,
        ...(hook.disabledReason ? { disabledReason: hook.disabledReason } : {}),
        ...(state ? { trust: trustView(state) } : {}),
      };
    }),
  );
  const events = EVENT_NAMES.map((event) => {
    const own = hooks.filter((_hook, i) => loaded.hooks[i]!.event === event);
    return { event, count: own.length, hooks: own };
  });
  if (output === 'json') {
    await write(process.stdout, documentText(listDocumentSchema(), { events, sources: loaded.sources }));
    return EXIT.ok;
  }
  const blocks = events
    .filter((e) => e.count > 0)
    .map((e) => {
      const rows = e.hooks.map((hook) => [
        `  ${hook.type}`,
        hook.matcher ?? '(all)',
        sourceCell(hook, hook.line),
        hook.label.replace(/\s+/g, ' ') +
          (hook.disabledReason ? `  (off: ${hook.disabledReason})` : '') +
          (showTrust && hook.trust ? `  (trust: ${trustWords(hook.trust)})` : ''),
      ]);
      return `${e.event} (${e.count})\n${table(rows, { width: terminalWidth(process.stdout) })}`;
    });
  const empty = events.filter((e) => e.count === 0).map((e) => e.event);
  const tail = empty.length === EVENT_NAMES.length ? 'no hooks are configured' : `no hooks: ${empty.join(', ')}`;
  await write(process.stdout, `${[...blocks, tail].join('\n\n')}\n`);
  return EXIT.ok;
}
