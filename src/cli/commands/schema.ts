// `peri-hooks schema [settings|input|output|report|error] [--event X]`: JSON Schema generated from the zod schemas that validate.
// Without --event, input and output cover every event, told apart by the event name.
import { EXIT, PeriHooksError } from '../../errors.ts';
import { checkEvent } from '../../events.ts';
import { documentJsonSchema, inputJsonSchema, outputJsonSchema, serialise, settingsJsonSchema } from '../../schema-export.ts';
import { write } from '../io.ts';
import { SCHEMA_KINDS } from '../options.ts';

export async function schemaCommand(kind: string | undefined, flags: { event?: string }): Promise<number> {
  const chosen = SCHEMA_KINDS.find((known) => known === (kind ?? 'settings'));
  if (chosen === undefined) throw new PeriHooksError('usage', `unknown schema "${kind}"`, `use one of: ${SCHEMA_KINDS.join(', ')}`);
  const event = flags.event === undefined ? undefined : checkEvent(String(flags.event));
  if ((chosen === 'settings' || chosen === 'report' || chosen === 'error') && event !== undefined) {
    throw new PeriHooksError('usage', `--event applies to the input and output schemas, not to ${chosen}`, `peri-hooks schema ${chosen}`);
  }
  const schema = chosen === 'settings' ? settingsJsonSchema()
    : chosen === 'input' ? inputJsonSchema(event)
      : chosen === 'output' ? outputJsonSchema(event)
        : documentJsonSchema(chosen);
  await write(process.stdout, serialise(schema));
  return EXIT.ok;
}
