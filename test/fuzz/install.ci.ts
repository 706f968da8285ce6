// Seeded fuzzer of install and uninstall on hostile settings files (issue 29): whatever the project's
// .claude/settings.json holds or is (odd formatting, comments, CRLF, empty containers, duplicate keys, bytes that
// are not UTF-8, deep nesting, a FIFO, a device, links), install either refuses with a PeriHooksError and leaves
// every byte and link as it was, or registers; and then uninstall gives back the file byte for byte, and the
// backup holds the original. PERI_HOOKS_FUZZ_SEED replays or varies a run; a failure names its seed and file.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { install } from '../../src/install/install.ts';
import { uninstall } from '../../src/install/uninstall.ts';
import { ROOT } from '../helpers/cli.ts';
import { HOSTILE_FILES } from '../helpers/hostile-settings.ts';
import { prng, type Random } from '../helpers/prng.ts';

const SEED = Number(process.env.PERI_HOOKS_FUZZ_SEED ?? 20_261_203);
const FILES = 400;

const EOLS = ['\n', '\r\n'];
const BLANKS = ['', ' ', '  ', '\t', '\n', '\r\n', ' \n\t'];
const KEYS = ['hooks', 'model', 'env', 'permissions', 'PreToolUse', 'Stop', 'é', ''];

/** A JSON object as text, its blanks, line breaks and comments chosen at random. */
function objectText(random: Random, members: Array<[string, string]>): string {
  const blank = () => random.pick(BLANKS) + (random.chance(0.1) ? random.pick(['/* c */', '// c\n']) : '');
  if (members.length === 0) return `{${blank()}}`;
  return `{${members.map(([key, value]) => `${blank()}${JSON.stringify(key)}${blank()}:${blank()}${value}`).join(`${blank()},`)}${blank()}}`;
}

function settingsText(random: Random): string {
  const members: Array<[string, string]> = [];
  if (random.chance(0.6)) {
    const events: Array<[string, string]> = random.chance(0.5)
      ? []
      : [[random.pick(['PreToolUse', 'Stop', 'Notification']), random.pick(['[]', '[ ]', '[\n]'])]];
    members.push(['hooks', objectText(random, events)]);
  }
  for (let i = random.int(3); i > 0; i--) {
    const key = random.pick(KEYS);
    if (!members.some(([name]) => name === key))
      members.push([key, random.pick(['"x"', '1', 'null', '{"A": "é"}', '["Bash(ls)"]', '{}'])]);
  }
  const text = objectText(random, random.chance(0.5) ? members : members.reverse());
  return random.chance(0.3) ? text.replace(/\n/g, random.pick(EOLS)) + random.pick(['', '\n', '\r\n']) : text;
}

type Made = { kind: 'bytes'; bytes: Buffer } | { kind: 'special'; name: string };

function hostile(random: Random, index: number): Made {
  const family = index % 6;
  if (family === 0) return { kind: 'bytes', bytes: Buffer.from(settingsText(random)) };
  if (family === 1) {
    const text = Buffer.from(settingsText(random));
    const at = random.int(text.length + 1);
    return {
      kind: 'bytes',
      bytes: Buffer.concat([
        text.subarray(0, at),
        Buffer.from([random.pick([0xff, 0xc3, 0xe9, 0x80, 0xed])]),
        text.subarray(at),
      ]),
    };
  }
  if (family === 2) {
    let text = settingsText(random);
    for (let i = random.int(3) + 1; i > 0; i--) {
      const at = random.int(text.length + 1);
      text = `${text.slice(0, at)}${random.pick(['{', '}', '"', ',', '"hooks":{},', '\u0000', '\ufeff', '//'])}${text.slice(at)}`;
    }
    return { kind: 'bytes', bytes: Buffer.from(text) };
  }
  if (family === 3) return { kind: 'bytes', bytes: Buffer.from(random.pick(Object.values(HOSTILE_FILES))) };
  if (family === 4)
    return { kind: 'special', name: random.pick(['fifo', 'dev-zero', 'dangling', 'hard link', 'read-only', 'folder']) };
  return {
    kind: 'bytes',
    bytes: Buffer.from(
      `{"hooks": {"PreToolUse": []${random.pick([', "PreToolUse": []', ''])}}${random.pick([', "hooks": {}', ''])}}`,
    ),
  };
}

let root: string;
let argv1: string | undefined;
before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'peri-fuzz-install-'));
  // install registers the built bin it finds beside the running script: the checkout's dist/.
  argv1 = process.argv[1];
  process.argv[1] = path.join(ROOT, 'dist/peri-hooks.cjs');
});
after(() => {
  process.argv[1] = argv1!;
  rmSync(root, { recursive: true, force: true });
});

/** What stands at a path: the link, or the bytes; '-' for nothing. */
function snapshot(file: string): string {
  try {
    const stats = lstatSync(file);
    if (stats.isSymbolicLink()) return `link ${readlinkSync(file)}`;
    if (!stats.isFile()) return `${stats.mode.toString(8)}`;
    return `${(stats.mode & 0o777).toString(8)} ${stats.nlink} ${readFileSync(file).toString('hex')}`;
  } catch {
    return '-';
  }
}

test(`install and uninstall on ${FILES} hostile settings files (seed ${SEED}): refused untouched, or given back byte for byte`, {
  timeout: 300_000,
}, async () => {
  const random = prng(SEED);
  const policy = path.join(root, 'policy.json');
  writeFileSync(
    policy,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] }] } }),
  );
  const counts = { installed: 0, refused: 0 };
  for (let index = 0; index < FILES; index++) {
    const project = path.join(root, `p${index}`);
    const folder = path.join(project, '.claude');
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'settings.json');
    const made = hostile(random, index);
    if (made.kind === 'bytes') writeFileSync(file, made.bytes);
    else if (made.name === 'fifo') execFileSync('mkfifo', [file]);
    else if (made.name === 'dev-zero') symlinkSync('/dev/zero', file);
    else if (made.name === 'dangling') symlinkSync(path.join(project, 'nowhere.json'), file);
    else if (made.name === 'folder') mkdirSync(file);
    else {
      writeFileSync(file, '{}\n');
      if (made.name === 'hard link') linkSync(file, path.join(project, 'other.json'));
      else chmodSync(file, 0o444);
    }
    const where = `seed ${SEED}, file ${index} (${made.kind === 'bytes' ? JSON.stringify(made.bytes.toString('latin1').slice(0, 120)) : made.name})`;
    const before = snapshot(file);
    const options = {
      scope: 'project' as const,
      policies: [policy],
      failClosed: false,
      dryRun: false,
      moveHooks: false,
      cwd: project,
      load: { projectDir: project, home: path.join(root, 'home'), env: {}, managedDir: path.join(root, 'managed') },
    };
    try {
      await install(options);
    } catch (error) {
      if (!(error instanceof PeriHooksError)) assert.fail(`${where}: install threw ${(error as Error).stack}`);
      assert.equal(snapshot(file), before, `${where}: refused (${error.message}) but changed`);
      assert.deepEqual(readdirSync(folder), ['settings.json'], `${where}: refused but wrote beside it`);
      counts.refused++;
      continue;
    }
    counts.installed++;
    const original = made.kind === 'bytes' ? made.bytes : Buffer.from('{}\n');
    if (existsSync(`${file}.peri-hooks.bak`))
      assert.deepEqual(readFileSync(`${file}.peri-hooks.bak`), original, `${where}: the backup`);
    try {
      uninstall({ scope: 'project', dryRun: false, load: options.load });
    } catch (error) {
      assert.fail(`${where}: uninstall after a successful install threw ${(error as Error).stack}`);
    }
    assert.deepEqual(
      readFileSync(file),
      original,
      `${where}: uninstall did not give back every byte:\n${readFileSync(file, 'utf8')}`,
    );
  }
  assert.ok(
    counts.installed > FILES / 10 && counts.refused > FILES / 10,
    `both paths are taken: ${JSON.stringify(counts)}`,
  );
  console.log(
    `fuzz: ${FILES} hostile settings files, ${counts.installed} installed and given back, ${counts.refused} refused untouched, seed ${SEED}`,
  );
});
