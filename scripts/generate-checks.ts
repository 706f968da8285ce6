// Writes src/generated/checks.ts: plain-JS checkers of the fire path's zod schemas (hook input, settings, session
// file, hook output), so that a firing whose input and settings are valid never evaluates zod. Each checker walks the same
// tree zod walks and returns exactly zod's output (z.object strips unknown keys, z.looseObject keeps them), or
// DEFER for anything it was not generated to be sure of: the caller then runs the zod schema itself, so every
// message stays zod's. test/build/checks.test.ts fails when the file is stale, and compares it with zod.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as z from 'zod';
import { hookHandlerSchema, matcherGroupSchema, settingsSchema } from '../src/config/schema.ts';
import { EVENT_NAMES, EVENTS } from '../src/events.ts';
import { inputSchema } from '../src/input/parse.ts';
import { hookOutputSchema, specificFieldSchema } from '../src/output/schema.ts';
import { sessionStateSchema } from '../src/session/schema.ts';

export const CHECKS_FILE = fileURLToPath(new URL('../src/generated/checks.ts', import.meta.url));

/** zod's internals the generator reads: the def, and how an object's field treats absence. */
interface Internals {
  def: Record<string, unknown> & { type: string; checks?: Array<{ _zod: { def: Record<string, unknown> } }> };
  optin?: string;
  optout?: string;
  propValues?: Record<string, Set<unknown>>;
}
const internals = (schema: z.ZodType) => (schema as unknown as { _zod: Internals })._zod;

class Generator {
  private readonly names = new Map<z.ZodType, string>();
  readonly functions: string[] = [];

  private readonly byBody = new Map<string, string>();

  /** The name of the checker function of `schema`, emitting it once per distinct body (each event builds its own schemas). */
  checker(schema: z.ZodType): string {
    const known = this.names.get(schema);
    if (known) return known;
    const body = this.body(schema)
      .map((line) => `  ${line}`)
      .join('\n');
    let name = this.byBody.get(body);
    if (!name) {
      name = `c${this.byBody.size}`;
      this.byBody.set(body, name);
      this.functions.push(`function ${name}(v: unknown): unknown {\n${body}\n}`);
    }
    this.names.set(schema, name);
    return name;
  }

  private body(schema: z.ZodType): string[] {
    const { def } = internals(schema);
    const checks = def.checks ?? [];
    switch (def.type) {
      case 'string': {
        if (def.format !== undefined) return ['return DEFER;'];
        const conditions = checks.map((check) => this.stringCheck(check._zod.def));
        if (conditions.includes(undefined)) return ['return DEFER;'];
        return [
          `return typeof v === 'string'${conditions.map((condition) => ` && ${condition}`).join('')} ? v : DEFER;`,
        ];
      }
      case 'number': {
        const conditions = checks.map((check) => numberCheck(check._zod.def));
        if (conditions.includes(undefined)) return ['return DEFER;'];
        return [
          `return typeof v === 'number' && Number.isFinite(v)${conditions.map((condition) => ` && ${condition}`).join('')} ? v : DEFER;`,
        ];
      }
      case 'boolean':
        return checks.length > 0 ? ['return DEFER;'] : ["return typeof v === 'boolean' ? v : DEFER;"];
      case 'unknown':
        return ['return v;'];
      case 'literal':
      case 'enum': {
        const values = def.type === 'literal' ? (def.values as unknown[]) : Object.values(def.entries as object);
        if (
          !values.every((value) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        )
          return ['return DEFER;'];
        return [`return ${values.map((value) => `v === ${JSON.stringify(value)}`).join(' || ')} ? v : DEFER;`];
      }
      case 'optional': {
        // zod's optional hands an absent value to an inner default, which substitutes its value.
        const inner = def.innerType as z.ZodType;
        if (internals(inner).optin === 'defaulted') return [`return ${this.checker(inner)}(v);`];
        return [`return v === undefined ? undefined : ${this.checker(inner)}(v);`];
      }
      case 'nullable':
        return [`return v === null ? null : ${this.checker(def.innerType as z.ZodType)}(v);`];
      case 'default': {
        // The default is a fresh copy on every parse, as zod's getter gives; a function default is not generated.
        const fallback = (schema as unknown as { _zod: { def: { defaultValue: unknown } } })._zod.def.defaultValue;
        if (typeof fallback === 'function' || JSON.stringify(fallback) === undefined) return ['return DEFER;'];
        const literal = JSON.stringify(fallback);
        return [
          `if (v === undefined) return ${literal};`,
          `const r = ${this.checker(def.innerType as z.ZodType)}(v);`,
          `return r === undefined ? ${literal} : r;`,
        ];
      }
      case 'array': {
        if (checks.length > 0) return ['return DEFER;'];
        const element = this.checker(def.element as z.ZodType);
        return [`return array(v, ${element});`];
      }
      case 'record': {
        const key = internals(def.keyType as z.ZodType).def;
        if (checks.length > 0 || key.type !== 'string' || key.format !== undefined || (key.checks ?? []).length > 0)
          return ['return DEFER;'];
        const value = this.checker(def.valueType as z.ZodType);
        return [`return record(v, ${value});`];
      }
      case 'object':
        return checks.length > 0 ? ['return DEFER;'] : this.object(def);
      case 'union':
        return this.discriminatedUnion(def);
      default:
        return ['return DEFER;'];
    }
  }

  /** zod's object parse (check-runtime.ts's object): the shape's keys with how each takes absence, then the catchall. */
  private object(def: Internals['def']): string[] {
    const fields = Object.entries(def.shape as Record<string, z.ZodType>)
      .filter(([key]) => key !== '__proto__')
      .map(([key, field]) => {
        const { optin, optout } = internals(field);
        const absence =
          optin === undefined && optout === undefined ? [] : [JSON.stringify(optin), JSON.stringify(optout)];
        return `[${[JSON.stringify(key), this.checker(field), ...absence].join(', ')}]`;
      });
    const catchall = def.catchall as z.ZodType | undefined;
    const rest =
      catchall === undefined ? '' : `, ${internals(catchall).def.type === 'never' ? 'refuse' : this.checker(catchall)}`;
    return [`return object(v, [${fields.join(', ')}]${rest});`];
  }

  /** A discriminated union: the option named by the discriminator's value, as zod's lookup picks it. */
  private discriminatedUnion(def: Internals['def']): string[] {
    const discriminator = def.discriminator as string | undefined;
    if (discriminator === undefined || def.unionFallback) return ['return DEFER;'];
    const lines = ['if (!isObject(v)) return DEFER;', `const tag = v[${JSON.stringify(discriminator)}];`];
    for (const option of def.options as z.ZodType[]) {
      const values = [...(internals(option).propValues?.[discriminator] ?? [])];
      if (values.length === 0 || !values.every((value) => typeof value === 'string')) return ['return DEFER;'];
      lines.push(
        `if (${values.map((value) => `tag === ${JSON.stringify(value)}`).join(' || ')}) return ${this.checker(option)}(v);`,
      );
    }
    lines.push('return DEFER;');
    return lines;
  }

  /** A refinement is emitted as its own source, and only when that source closes over nothing (an arrow of one parameter). */
  private stringCheck(check: Record<string, unknown>): string | undefined {
    if (check.check !== 'custom' || typeof check.fn !== 'function') return undefined;
    const source = String(check.fn);
    const parameter = /^\(?([A-Za-z_$][\w$]*)\)?\s*=>/.exec(source)?.[1];
    if (!parameter) return undefined;
    const body = source.slice(source.indexOf('=>') + 2);
    const identifiers = body.replace(/'(?:[^'\\]|\\.)*'/g, '').match(/(?<![.\w$])[A-Za-z_$][\w$]*/g) ?? [];
    if (identifiers.some((identifier) => identifier !== parameter)) return undefined;
    return `!!(${source})(v)`;
  }
}

function numberCheck(check: Record<string, unknown>): string | undefined {
  if (check.check === 'number_format' && check.format === 'safeint') return 'Number.isSafeInteger(v)';
  if ((check.check === 'greater_than' || check.check === 'less_than') && typeof check.value === 'number') {
    return `v ${check.check === 'greater_than' ? '>' : '<'}${check.inclusive ? '=' : ''} ${check.value}`;
  }
  return undefined;
}

/** The generated module's text. */
export function checksSource(): string {
  const generator = new Generator();
  const entry = (name: string, schema: z.ZodType) => `  ${JSON.stringify(name)}: ${generator.checker(schema)},`;
  const inputs = EVENT_NAMES.map((event) => entry(event, inputSchema(event)));
  const settings = Object.entries(settingsSchema.shape)
    .filter(([key]) => key !== 'hooks')
    .map(([key, schema]) => entry(key, schema));
  const handler = generator.checker(hookHandlerSchema);
  const matcher = generator.checker(matcherGroupSchema.shape.matcher);
  const sequential = generator.checker(matcherGroupSchema.shape.sequential);
  const session = generator.checker(sessionStateSchema());
  const hookTypes = hookHandlerSchema.options.map((option) => option.shape.type.value);
  const output = generator.checker(hookOutputSchema());
  const fields = [...new Set(EVENT_NAMES.flatMap((event) => EVENTS[event].specificFields))]
    .filter((field) => field !== 'permissionDecision')
    .sort();
  const specific = fields.map((field) => entry(field, specificFieldSchema('PreToolUse', field)));
  const decisions = EVENT_NAMES.filter((event) => EVENTS[event].permissionDecisions).map((event) =>
    entry(event, specificFieldSchema(event, 'permissionDecision')),
  );
  const body = generator.functions.join('\n\n');
  const helpers = ['DEFER', 'array', 'isObject', 'object', 'record', 'refuse']
    .filter((name) => new RegExp(`\\b${name}\\b`).test(body))
    .map((name) => `${name}, `)
    .join('');
  return `// Generated by scripts/generate-checks.ts from the zod schemas: do not edit; run node scripts/generate-checks.ts.
// Each checker returns what the zod schema's safeParse would give as data, or DEFER: then run the zod schema.
/* eslint-disable */
import { ${helpers}type Checker } from '../platform/check-runtime.ts';
import type { EventName } from '../events.ts';

export { DEFER, type Checker } from '../platform/check-runtime.ts';

${body}

/** The hook input of each event (inputSchema). */
export const inputChecks: Readonly<Record<EventName, Checker>> = {
${inputs.join('\n')}
};

/** The scalar keys of a settings file (settingsSchema.shape). */
export const settingChecks: Readonly<Record<string, Checker>> = {
${settings.join('\n')}
};

/** One hook handler (hookHandlerSchema), a matcher group's "matcher" and "sequential". */
export const handlerCheck: Checker = ${handler};
export const matcherCheck: Checker = ${matcher};
export const sequentialCheck: Checker = ${sequential};

/** The handler types, in hookHandlerSchema's order. */
export const HOOK_TYPES: readonly string[] = ${JSON.stringify(hookTypes)};

/** A session state file (sessionStateSchema). */
export const sessionStateCheck: Checker = ${session};

/** A hook's JSON output (hookOutputSchema), its hookSpecificOutput fields, and each event's permissionDecision. */
export const hookOutputCheck: Checker = ${output};
export const specificFieldChecks: Readonly<Record<string, Checker>> = {
${specific.join('\n')}
};
export const permissionDecisionChecks: Readonly<Partial<Record<EventName, Checker>>> = {
${decisions.join('\n')}
};
`;
}

if (import.meta.main) {
  writeFileSync(CHECKS_FILE, checksSource());
  console.log(`scripts/generate-checks.ts: wrote ${CHECKS_FILE}`);
}
