// `peri-hooks schema [settings|input|output] [--event X]`: JSON Schema generated from the zod schemas that validate.
// Without --event, input and output cover every event, told apart by the event name.
import { EXIT, PeriHooksError } from '../../errors.ts';
import { checkEvent } from '../../events.ts';
import { inputJsonSchema, outputJsonSchema, serialise, settingsJsonSchema } from '../../schema-export.ts';
import { write } from '../io.ts';

const KINDS = ['settings', 'input', 'output'] as const;

export async function schemaCommand(kind: string | undefined, flags: { event?: string }): Promise<number> {
  const chosen = kind ?? 'settings';
  if (!KINDS.includes(chosen as (typeof KINDS)[number])) {
    throw new PeriHooksError('usage', `unknown schema "${chosen}"`, `use one of: ${KINDS.join(', ')}`);
  }
  const event = flags.event === undefined ? undefined : checkEvent(String(flags.event));
  if (chosen === 'settings' && event !== undefined) {
    throw new PeriHooksError('usage', '--event applies to the input and output schemas, not to settings', 'peri-hooks schema settings');
  }
  const schema = chosen === 'settings' ? settingsJsonSchema() : chosen === 'input' ? inputJsonSchema(event) : outputJsonSchema(event);
  await write(process.stdout, serialise(schema));
  return EXIT.ok;
}
