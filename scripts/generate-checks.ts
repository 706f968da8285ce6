// Writes src/generated/checks.ts: plain-JS checkers of the fire path's zod schemas (hook input, settings, session
// file, hook output), so that a firing whose input and settings are valid never evaluates zod. Each checker walks the same
// tree zod walks and returns exactly zod's output (z.object strips unknown keys, z.looseObject keeps them), or
// DEFER for anything it was not generated to be sure of: the caller then runs the zod schema itself, so every
// message stays zod's. test/build/checks.test.ts fails when the file is stale, and compares it with zod.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { EVENT_NAMES } from '../src/events.ts';
import { inputSchema } from '../src/input.ts';
import { hookHandlerSchema, matcherGroupSchema, settingsSchema } from '../src/config/schema.ts';
import { sessionStateSchema } from '../src/session/schema.ts';
import { EVENTS } from '../src/events.ts';
import { hookOutputSchema, specificFieldSchema } from '../src/output-schema.ts';

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
    const body = this.body(schema).map((line) => `  ${line}`).join('\n');
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
        return [`return typeof v === 'string'${conditions.map((condition) => ` && ${condition}`).join('')} ? v : DEFER;`];
      }
      case 'number': {
        const conditions = checks.map((check) => numberCheck(check._zod.def));
        if (conditions.includes(undefined)) return ['return DEFER;'];
        return [`return typeof v === 'number' && Number.isFinite(v)${conditions.map((condition) => ` && ${condition}`).join('')} ? v : DEFER;`];
      }
      case 'boolean':
        return checks.length > 0 ? ['return DEFER;'] : ["return typeof v === 'boolean' ? v : DEFER;"];
      case 'unknown':
        return ['return v;'];
      case 'literal':
      case 'enum': {
        const values = def.type === 'literal' ? (def.values as unknown[]) : Object.values(def.entries as object);
        if (!values.every((value) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) return ['return DEFER;'];
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
        return [`if (v === undefined) return ${literal};`, `const r = ${this.checker(def.innerType as z.ZodType)}(v);`, `return r === undefined ? ${literal} : r;`];
      }
      case 'array': {
        if (checks.length > 0) return ['return DEFER;'];
        const element = this.checker(def.element as z.ZodType);
        return ['if (!Array.isArray(v)) return DEFER;', 'const out: unknown[] = [];', `for (const item of v as unknown[]) {`, `  const r = ${element}(item);`, '  if (r === DEFER) return DEFER;', '  out.push(r);', '}', 'return out;'];
      }
      case 'record': {
        const key = internals(def.keyType as z.ZodType).def;
        if (checks.length > 0 || key.type !== 'string' || key.format !== undefined || (key.checks ?? []).length > 0) return ['return DEFER;'];
        const value = this.checker(def.valueType as z.ZodType);
        return [
          'if (!isPlainRecord(v)) return DEFER;', 'const out: Record<string, unknown> = {};',
          'for (const k of Reflect.ownKeys(v)) {',
          "  if (typeof k !== 'string') return DEFER;",
          "  if (k === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, k)) continue;",
          `  const r = ${value}(v[k]);`, '  if (r === DEFER) return DEFER;', '  out[k] = r;', '}', 'return out;',
        ];
      }
      case 'object':
        return checks.length > 0 ? ['return DEFER;'] : this.object(def);
      case 'union':
        return this.discriminatedUnion(def);
      default:
        return ['return DEFER;'];
    }
  }

  /** zod's object parse: the shape's keys in order (absence as handlePropertyResult treats it), then the catchall's. */
  private object(def: Internals['def']): string[] {
    const shape = def.shape as Record<string, z.ZodType>;
    const lines = ['if (!isObject(v)) return DEFER;', 'const out: Record<string, unknown> = {};'];
    for (const [key, field] of Object.entries(shape)) {
      if (key === '__proto__') continue;
      const { optin, optout } = internals(field);
      lines.push(`if (!field(v, out, ${JSON.stringify(key)}, ${this.checker(field)}, ${JSON.stringify(optin)}, ${JSON.stringify(optout)})) return DEFER;`);
    }
    const catchall = def.catchall as z.ZodType | undefined;
    if (catchall) {
      const type = internals(catchall).def.type;
      const known = Object.keys(shape).map((key) => `k === ${JSON.stringify(key)}`).join(' || ');
      lines.push(`for (const k in v) {`, `  if (${known ? `${known} || ` : ''}k === '__proto__') continue;`);
      if (type === 'never') lines.push('  return DEFER;');
      else lines.push(`  const r = ${this.checker(catchall)}(v[k]);`, '  if (r === DEFER) return DEFER;', '  out[k] = r;');
      lines.push('}');
    }
    lines.push('return out;');
    return lines;
  }

  /** A discriminated union: the option named by the discriminator's value, as zod's lookup picks it. */
  private discriminatedUnion(def: Internals['def']): string[] {
    const discriminator = def.discriminator as string | undefined;
    if (discriminator === undefined || def.unionFallback) return ['return DEFER;'];
    const lines = ['if (!isObject(v)) return DEFER;', `const tag = v[${JSON.stringify(discriminator)}];`];
    for (const option of def.options as z.ZodType[]) {
      const values = [...(internals(option).propValues?.[discriminator] ?? [])];
      if (values.length === 0 || !values.every((value) => typeof value === 'string')) return ['return DEFER;'];
      lines.push(`if (${values.map((value) => `tag === ${JSON.stringify(value)}`).join(' || ')}) return ${this.checker(option)}(v);`);
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
  const settings = Object.entries(settingsSchema.shape).filter(([key]) => key !== 'hooks').map(([key, schema]) => entry(key, schema));
  const handler = generator.checker(hookHandlerSchema);
  const matcher = generator.checker(matcherGroupSchema.shape.matcher);
  const sequential = generator.checker(matcherGroupSchema.shape.sequential);
  const session = generator.checker(sessionStateSchema());
  const hookTypes = hookHandlerSchema.options.map((option) => option.shape.type.value);
  const output = generator.checker(hookOutputSchema());
  const fields = [...new Set(EVENT_NAMES.flatMap((event) => EVENTS[event].specificFields))].filter((field) => field !== 'permissionDecision').sort();
  const specific = fields.map((field) => entry(field, specificFieldSchema('PreToolUse', field)));
  const decisions = EVENT_NAMES.filter((event) => EVENTS[event].permissionDecisions).map((event) => entry(event, specificFieldSchema(event, 'permissionDecision')));
  return `// Generated by scripts/generate-checks.ts from the zod schemas: do not edit; run node scripts/generate-checks.ts.
// Each checker returns what the zod schema's safeParse would give as data, or DEFER: then run the zod schema.
/* eslint-disable */
import type { EventName } from '../events.ts';

export const DEFER: unique symbol = Symbol('defer to zod');
export type Checker = (value: unknown) => unknown;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** zod's isPlainObject, for JSON values; any other prototype defers. */
function isPlainRecord(v: unknown): v is Record<string | symbol, unknown> {
  if (!isObject(v)) return false;
  const prototype = Object.getPrototypeOf(v);
  return prototype === Object.prototype || prototype === null;
}

/** One key of an object, as zod's handlePropertyResult treats it (optin, optout: how the key's schema takes absence); false: defer. */
function field(v: Record<string, unknown>, out: Record<string, unknown>, key: string, check: Checker, optin: string | undefined, optout: string | undefined): boolean {
  const present = key in v;
  if (!present && optout === 'optional' && optin === 'optional') return true;
  if (!present && optin === undefined) return false;
  const r = check(v[key]);
  if (r === DEFER) return optin !== undefined && optout === 'optional' && !present;
  if (r !== undefined) out[key] = r;
  else if (present || (optin === 'defaulted' && optout !== 'optional')) out[key] = undefined;
  return true;
}

${generator.functions.join('\n\n')}

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
