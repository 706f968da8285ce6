// Seeded fuzzer of other agents' payloads (issue 29): every real payload sample of every host, mutated (a field
// dropped, a value of another type, Claude Code's name beside the agent's with another value, blanks before an
// apply_patch header), is either refused with a PeriHooksError or becomes Claude Code calls in which every tool
// carries the field it acts on; under --fail-closed a firing on an event that can block never throws.
// PERI_HOOKS_FUZZ_SEED replays or varies a run; a failure names its seed, sample and mutation.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { fireHost } from '../../src/hosts/fire.ts';
import { ACTS_ON, claudeInput, type Payload } from '../../src/hosts/normalise.ts';
import { MODULES } from '../../src/hosts/registry.ts';
import { HOSTS } from '../../src/hosts/table.ts';
import { HOST_NAMES, type HostName } from '../../src/hosts/types.ts';
import { ROOT } from '../helpers/cli.ts';
import { prng, type Random } from '../helpers/prng.ts';

const SEED = Number(process.env.PERI_HOOKS_FUZZ_SEED ?? 20_261_204);
const PAYLOADS = 3000;
const FIRINGS = 150;

const samples = HOST_NAMES.flatMap((host) => {
  const dir = path.join(ROOT, 'fixtures/hosts', host);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ host, name, payload: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Payload }));
});

/** The host event a sample is for: its event field, else its file name (Copilot's camelCase payloads name none). */
function eventOf(host: HostName, name: string, payload: Payload): string | undefined {
  const def = HOSTS[host];
  const named =
    def.eventField === undefined
      ? undefined
      : def.eventField
          .split('.')
          .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], payload);
  const candidates = [named, name.replace(/\.json$/, ''), name.split('.')[0]];
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && candidate in def.events);
}

/** Every object in the payload with its path, for mutations anywhere. */
function objects(value: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return found;
  if (!Array.isArray(value)) found.push(value as Record<string, unknown>);
  for (const inner of Object.values(value)) objects(inner, found);
  return found;
}

const ODD = [null, 0, 1.5, true, '', [], ['rm', '-rf', '/'], {}, { command: 'x' }, '.env', 'git push --force'];
const TWINS: Array<[string, string]> = [
  ['file_path', 'notes.txt'],
  ['command', 'ls'],
  ['path', '.env'],
  ['filePath', '.env'],
  ['cmd', 'git push --force'],
  ['CommandLine', 'rm -rf /'],
  ['TargetFile', '.env'],
];

const MUTATIONS: Readonly<Record<string, (payload: Payload, random: Random) => void>> = {
  none: () => {},
  'drop a field': (payload, random) => {
    const target = random.pick(objects(payload));
    const keys = Object.keys(target);
    if (keys.length > 0) delete target[random.pick(keys)];
  },
  'another type': (payload, random) => {
    const target = random.pick(objects(payload));
    const keys = Object.keys(target);
    if (keys.length > 0) target[random.pick(keys)] = structuredClone(random.pick(ODD));
  },
  'a twin field': (payload, random) => {
    const target = random.pick(objects(payload));
    const [key, value] = random.pick(TWINS);
    target[key] = value;
  },
  'blanks before a patch header': (payload, random) => {
    for (const target of objects(payload)) {
      for (const [key, value] of Object.entries(target)) {
        if (typeof value === 'string' && value.includes('*** '))
          target[key] = value.replace(
            /\n\*\*\* (Add|Update|Delete) File: /g,
            (header) => `\n${random.pick(['\t', '\u00a0', ' ', '\u0085', '', '\u200b'])}${header.slice(1)}`,
          );
      }
    }
  },
};

function calls(host: HostName, hostEvent: string, payload: Payload): Array<Record<string, unknown>> {
  const def = HOSTS[host].events[hostEvent]!;
  const module = MODULES[host];
  return module.calls
    ? module.calls({ host: HOSTS[host], hostEvent, def, payload }).map((call) => call.input)
    : [claudeInput(HOSTS[host], hostEvent, def, payload)];
}

let home: string;
before(() => {
  home = mkdtempSync(path.join(tmpdir(), 'peri-fuzz-hosts-'));
});
after(() => rmSync(home, { recursive: true, force: true }));

test(`${PAYLOADS} mutated host payloads (seed ${SEED}): refused with a clear error, or calls that carry the field each tool acts on`, () => {
  const random = prng(SEED);
  const names = Object.keys(MUTATIONS);
  const counts = { refused: 0, calls: 0 };
  for (let i = 0; i < PAYLOADS; i++) {
    const sample = random.pick(samples);
    const mutation = names[i % names.length]!;
    const payload = structuredClone(sample.payload);
    MUTATIONS[mutation]!(payload, random);
    const hostEvent = eventOf(sample.host, sample.name, sample.payload);
    if (hostEvent === undefined) continue;
    const where = `seed ${SEED}, payload ${i}: ${sample.host}/${sample.name}, ${mutation}: ${JSON.stringify(payload).slice(0, 300)}`;
    let inputs: Array<Record<string, unknown>>;
    try {
      inputs = calls(sample.host, hostEvent, payload);
    } catch (error) {
      if (!(error instanceof PeriHooksError)) assert.fail(`${where}\n${(error as Error).stack}`);
      assert.match(error.message, new RegExp(`^the ${HOSTS[sample.host].title.replace(/[()]/g, '\\$&')} `), where);
      counts.refused++;
      continue;
    }
    for (const input of inputs) {
      const field = ACTS_ON[input.tool_name as string];
      // Only where the firing decides whether the call runs; after it, the call is what it was.
      if (field === undefined || !['PreToolUse', 'PermissionRequest'].includes(String(input.hook_event_name))) continue;
      const value = (input.tool_input as Record<string, unknown>)[field];
      assert.ok(
        typeof value === 'string' && value !== '',
        `${where}: a ${String(input.tool_name)} call without its ${field}: ${JSON.stringify(input.tool_input)}`,
      );
      counts.calls++;
    }
  }
  assert.ok(
    counts.refused > PAYLOADS / 20 && counts.calls > PAYLOADS / 10,
    `both paths are taken: ${JSON.stringify(counts)}`,
  );
});

test(`${FIRINGS} mutated host firings under --fail-closed (seed ${SEED}): an event that can block never throws`, {
  timeout: 300_000,
}, async () => {
  const random = prng(SEED + 1);
  const names = Object.keys(MUTATIONS);
  const policy = JSON.stringify({
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; exit 0' }] }] },
  });
  for (let i = 0; i < FIRINGS; i++) {
    const sample = random.pick(samples);
    const hostEvent = eventOf(sample.host, sample.name, sample.payload);
    if (hostEvent === undefined || !HOSTS[sample.host].events[hostEvent]!.blocks) continue;
    const mutation = names[i % names.length]!;
    const payload = structuredClone(sample.payload);
    MUTATIONS[mutation]!(payload, random);
    const where = `seed ${SEED + 1}, firing ${i}: ${sample.host}/${sample.name}, ${mutation}: ${JSON.stringify(payload).slice(0, 300)}`;
    try {
      const fired = await fireHost({
        host: sample.host,
        event: hostEvent,
        text: JSON.stringify(payload),
        source: 'fuzz',
        options: {
          failClosed: true,
          settingSources: [],
          settings: [policy],
          noState: true,
          home,
          managedDir: home,
          projectDir: home,
          env: { PATH: process.env.PATH ?? '' },
        },
      });
      assert.ok(fired.exitCode === 0 || fired.exitCode === 2, `${where}: exit ${fired.exitCode}`);
    } catch (error) {
      assert.fail(`${where}\n${(error as Error).stack}`);
    }
  }
});
