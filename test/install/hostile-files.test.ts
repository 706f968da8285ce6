// install, uninstall and doctor on settings files a repository (or an accident) can make hostile: links planted at
// the names it writes, FIFOs and devices, duplicate keys, bytes it cannot give back, links and modes a rewrite
// would break. Each is refused with its reason, or edited so that uninstall gives back every byte.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { readSettingsText, writeSettingsText } from '../../src/install/settings-file.ts';
import { readSettingsBytes } from '../../src/platform/files.ts';
import { makeProject, type Project } from '../helpers/cli.ts';
import { type Package, packageCopy } from './setup.ts';

let pkg: Package;
let project: Project;
before(() => {
  pkg = packageCopy();
});
after(() => pkg.cleanup());
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

const SETTINGS = '.claude/settings.json';
const settingsFile = () => join(project.dir, SETTINGS);
const policy = () =>
  project.write('team-policy.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] }] },
  });

/** The command run with a bound, so that a reader that hangs fails the test instead of hanging it. */
function bounded(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const [node, bin] = pkg.runner.split(' ') as [string, string];
  const run = spawnSync(node, [bin, ...args], {
    cwd: project.dir,
    env: project.env(),
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('temporary files', () => {
  test('links planted at the names of the old temporary files are never written through, and no temporary file stays', () => {
    const folder = join(project.dir, '.claude');
    mkdirSync(folder);
    const file = project.write(SETTINGS, '{\n  "model": "opus"\n}\n');
    const victim = project.write('victim.txt', 'precious\n');
    // The names the writer used to give its temporary files: the settings file's and the backup's.
    symlinkSync(victim, join(folder, `.settings.json.${process.pid}.tmp`));
    symlinkSync(victim, join(folder, `.settings.json.peri-hooks.bak.${process.pid}.tmp`));
    const backup = writeSettingsText(readSettingsText(file), '{\n  "model": "sonnet"\n}\n');
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    assert.equal(readFileSync(file, 'utf8'), '{\n  "model": "sonnet"\n}\n');
    assert.equal(readFileSync(backup!, 'utf8'), '{\n  "model": "opus"\n}\n');
    assert.deepEqual(readdirSync(folder).sort(), [
      `.settings.json.${process.pid}.tmp`,
      `.settings.json.peri-hooks.bak.${process.pid}.tmp`,
      'settings.json',
      'settings.json.peri-hooks.bak',
    ]);
  });

  test("a link planted at the backup's name is no backup: it is replaced by one, never written through nor read", () => {
    mkdirSync(join(project.dir, '.claude'));
    const file = project.write(SETTINGS, '{\n  "model": "opus"\n}\n');
    const victim = project.write('victim.txt', 'precious\n');
    symlinkSync(victim, `${file}.peri-hooks.bak`);
    writeSettingsText(readSettingsText(file), '{\n  "model": "sonnet"\n}\n');
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    assert.ok(lstatSync(`${file}.peri-hooks.bak`).isFile());
    assert.equal(readFileSync(`${file}.peri-hooks.bak`, 'utf8'), '{\n  "model": "opus"\n}\n');
  });
});

describe('files that are not plain settings files', () => {
  test('a FIFO or /dev/zero at the settings path: install, uninstall and doctor say so at once (exit 1), nothing is written', () => {
    mkdirSync(join(project.dir, '.claude'));
    const policyFile = policy();
    for (const make of [
      () => execFileSync('mkfifo', [settingsFile()]),
      () => symlinkSync('/dev/zero', settingsFile()),
    ]) {
      make();
      for (const args of [['install', '--policy', policyFile], ['uninstall']]) {
        const result = bounded(args);
        assert.equal(result.status, 1, `${args[0]}: ${result.stderr}`);
        assert.match(
          result.stderr,
          /^peri-hooks: cannot read .*settings\.json: it is not a regular file \(a FIFO, socket or device\); nothing was changed\n/,
        );
      }
      const doctor = bounded(['doctor', '--output', 'json']);
      assert.equal(doctor.status, 1, doctor.stderr);
      const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ title: string; status: string; detail: string }> })
        .checks;
      assert.ok(
        checks.some(
          (check) =>
            check.title === 'project settings' && check.status === 'fail' && /not a regular file/.test(check.detail),
        ),
        doctor.stdout,
      );
      assert.deepEqual(readdirSync(join(project.dir, '.claude')), ['settings.json']);
      execFileSync('rm', [settingsFile()]);
    }
  });

  test('the reader stops one byte past its limit, whatever the size the file claims', () => {
    const file = project.write('big.json', 'x'.repeat(101));
    assert.deepEqual(readSettingsBytes(file, 100), { refused: 'it is larger than 100 bytes' });
    const read = readSettingsBytes(file, 101);
    assert.ok('bytes' in read && read.bytes.length === 101);
    // /proc files say size 0 and still have text.
    const proc = readSettingsBytes('/proc/self/status');
    assert.ok('bytes' in proc && proc.bytes.toString().startsWith('Name:'));
  });
});

describe('duplicate keys', () => {
  test('"hooks" twice: install, uninstall and doctor refuse the file, naming the key and both lines (Claude Code reads only the last)', async () => {
    const text = '{\n  "hooks": {},\n  "model": "opus",\n  "hooks": { "Stop": [] }\n}\n';
    const file = project.write(SETTINGS, text);
    const policyFile = policy();
    const expected = `${file} has the key "hooks" twice in one object (lines 2 and 4): Claude Code reads only the last, so an edit of either could be the one it ignores; nothing was changed`;
    for (const args of [['install', '--policy', policyFile], ['uninstall']]) {
      const result = await pkg.run(args, project);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(
        result.stderr,
        `peri-hooks: ${expected}\n  fix: merge the two into one key, then run the command again\n`,
      );
    }
    assert.equal(readFileSync(file, 'utf8'), text);
    // A registration in the shadowed first "hooks" (as install used to write it) is invisible to Claude Code: doctor says why.
    const command = `${pkg.runner} fire PreToolUse --output claude --settings ${policyFile} --setting-sources none`;
    project.write(
      SETTINGS,
      `{\n  "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": ${JSON.stringify(command)}}]}]},\n  "hooks": {}\n}\n`,
    );
    const doctor = await pkg.run(['doctor', '--output', 'json'], project);
    assert.equal(doctor.code, 1);
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ title: string; status: string; detail: string }> })
      .checks;
    assert.ok(
      checks.some(
        (check) =>
          check.title === 'project settings' &&
          check.status === 'fail' &&
          check.detail.includes('has the key "hooks" twice in one object (lines 2 and 3)'),
      ),
      doctor.stdout,
    );
  });

  test('a key twice deeper down (an event inside "hooks") is refused too', async () => {
    const text = '{"hooks": {"PreToolUse": [], "PreToolUse": []}}';
    const file = project.write(SETTINGS, text);
    const result = await pkg.run(['install', '--policy', policy()], project);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /has the key "PreToolUse" twice in one object \(lines 1 and 1\)/);
    assert.equal(readFileSync(file, 'utf8'), text);
  });
});

describe('byte for byte', () => {
  test('install then uninstall gives back every byte: empty "hooks", an empty event array, {\\r\\n}, {\\n}, non-ASCII, a BOM; the first backup is kept', async () => {
    const policyFile = policy();
    const originals = [
      '{\n  "hooks": {}\n}\n',
      '{\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": []\n  }\n}\n',
      '{"hooks": {"PreToolUse": [], "Stop": []}}',
      '{\r\n}',
      '{\n}\n',
      '{}',
      '{ "hooks": { } , "env": {"A": "é"} }\n',
      '\ufeff{\n  "model": "opus"\n}\n',
    ];
    for (const original of originals) {
      const file = project.write(SETTINGS, original);
      const installed = await pkg.run(['install', '--policy', policyFile], project);
      assert.equal(installed.code, 0, installed.stderr);
      assert.notEqual(readFileSync(file, 'utf8'), original);
      const removed = await pkg.run(['uninstall'], project);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(readFileSync(file, 'utf8'), original, JSON.stringify(original));
      assert.equal(readFileSync(`${file}.peri-hooks.bak`, 'utf8'), original, `backup of ${JSON.stringify(original)}`);
      execFileSync('rm', [`${file}.peri-hooks.bak`]);
    }
  });

  test("an agent's hook file too: install --host then uninstall --host gives back every byte, empty containers included", async () => {
    const policyFile = policy();
    const file = join(project.dir, '.codex/hooks.json');
    for (const original of [
      '{\r\n  "hooks": {}\r\n}\r\n',
      '{"hooks": {"PreToolUse": []}}',
      '{\n}\n',
      '{ "model": "x" }',
    ]) {
      project.write('.codex/hooks.json', original);
      const installed = await pkg.run(['install', '--host', 'codex', '--policy', policyFile], project);
      assert.equal(installed.code, 0, installed.stderr);
      assert.notEqual(readFileSync(file, 'utf8'), original);
      const removed = await pkg.run(['uninstall', '--host', 'codex'], project);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(readFileSync(file, 'utf8'), original, JSON.stringify(original));
      execFileSync('rm', [`${file}.peri-hooks.bak`]);
    }
  });

  test('an uninstall after the file was edited keeps the edit and the empty "hooks" that was there before install', async () => {
    const file = project.write(SETTINGS, '{\n  "hooks": {},\n  "model": "opus"\n}\n');
    assert.equal((await pkg.run(['install', '--policy', policy()], project)).code, 0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"opus"', '"sonnet"'));
    assert.equal((await pkg.run(['uninstall'], project)).code, 0);
    assert.equal(readFileSync(file, 'utf8'), '{\n  "hooks": {},\n  "model": "sonnet"\n}\n');
  });

  test('what a rewrite cannot give back is refused with the reason, before anything is written: invalid UTF-8, a dangling link, a hard link, a read-only file', async () => {
    const policyFile = policy();
    const folder = join(project.dir, '.claude');
    mkdirSync(folder);
    const cases: Array<[string, () => void, RegExp]> = [
      [
        'invalid UTF-8',
        () => writeFileSync(settingsFile(), Buffer.from('{"model": "caf\xe9"}\n', 'latin1')),
        /it is not valid UTF-8 \(byte 14\)/,
      ],
      [
        'dangling link',
        () => symlinkSync(join(project.dir, 'elsewhere/settings.json'), settingsFile()),
        /it is a symlink to .*elsewhere\/settings\.json, which does not exist: writing it would put a file in place of the link/,
      ],
      [
        'hard link',
        () => {
          writeFileSync(settingsFile(), '{}\n');
          linkSync(settingsFile(), join(project.dir, 'other-name.json'));
        },
        /it has 2 hard links: writing it would leave the other 1 with the old text/,
      ],
      [
        'read-only',
        () => {
          writeFileSync(settingsFile(), '{}\n');
          chmodSync(settingsFile(), 0o444);
        },
        /it is read-only \(mode 0444\)/,
      ],
    ];
    for (const [name, make, reason] of cases) {
      execFileSync('rm', ['-rf', folder, join(project.dir, 'other-name.json')]);
      mkdirSync(folder);
      make();
      const before = lstatSync(settingsFile()).isSymbolicLink()
        ? readlinkSync(settingsFile())
        : readFileSync(settingsFile()).toString('hex');
      const result = await pkg.run(['install', '--policy', policyFile], project);
      assert.equal(result.code, 1, `${name}: ${result.stderr}`);
      assert.match(result.stderr, /^peri-hooks: .*settings\.json cannot be edited faithfully: /, name);
      assert.match(result.stderr, reason, name);
      assert.equal(
        lstatSync(settingsFile()).isSymbolicLink()
          ? readlinkSync(settingsFile())
          : readFileSync(settingsFile()).toString('hex'),
        before,
        name,
      );
      assert.deepEqual(readdirSync(folder), ['settings.json'], name);
    }
    assert.equal(statSync(settingsFile()).mode & 0o777, 0o444);
  });
});
