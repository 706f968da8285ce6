// `peri-hooks schema [name] [--event X]`: JSON Schema generated from the zod schemas that validate: settings,
// input and output (without --event every event, told apart by the event name), and every JSON document peri-hooks prints.
import { EXIT, PeriHooksError } from '../../errors.ts';
import { checkEvent } from '../../events.ts';
import { closest } from '../../platform/suggest.ts';
import { write } from '../io.ts';
import { SCHEMA_KINDS } from '../options.ts';
import {
  documentJsonSchema,
  inputJsonSchema,
  outputJsonSchema,
  serialise,
  settingsJsonSchema,
} from '../schema-export.ts';

export async function schemaCommand(kind: string | undefined, flags: { event?: string }): Promise<number> {
  const name = kind ?? 'settings';
  const chosen = SCHEMA_KINDS.find((known) => known === name);
  if (chosen === undefined) {
    const near = closest(name, SCHEMA_KINDS);
    throw new PeriHooksError(
      'usage',
      `unknown schema "${name}"`,
      `${near ? `did you mean ${near}? ` : ''}known schemas: ${SCHEMA_KINDS.join(', ')}`,
    );
  }
  const event = flags.event === undefined ? undefined : checkEvent(String(flags.event));
  if (chosen !== 'input' && chosen !== 'output' && event !== undefined) {
    throw new PeriHooksError(
      'usage',
      `--event applies to the input and output schemas, not to ${chosen}`,
      `peri-hooks schema ${chosen}`,
    );
  }
  const schema =
    chosen === 'settings'
      ? settingsJsonSchema()
      : chosen === 'input'
        ? inputJsonSchema(event)
        : chosen === 'output'
          ? outputJsonSchema(event)
          : documentJsonSchema(chosen);
  await write(process.stdout, serialise(schema));
  return EXIT.ok;
}
