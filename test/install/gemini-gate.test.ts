// doctor's check of Gemini CLI's gate: the folder must be trusted as Gemini 0.61 decides it (checkPathTrust), or
// the registration never runs. Rows: the environment, the user's settings, trustedFolders.json.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { geminiGate } from '../../src/doctor/gemini-gate.ts';

const root = mkdtempSync(join(tmpdir(), 'peri-hooks-gemini-gate-'));
after(() => rmSync(root, { recursive: true, force: true }));
const project = join(root, 'work', 'project');
mkdirSync(project, { recursive: true });
symlinkSync(join(root, 'work'), join(root, 'link'));

interface Row {
  name: string;
  env?: Record<string, string>;
  settings?: object;
  /** trustedFolders.json: an object, or text as it is. */
  folders?: object | string;
  status: 'pass' | 'fail';
  detail: RegExp;
}

const rows: Row[] = [
  {
    name: 'nothing trusts it',
    status: 'fail',
    detail: /is not trusted \(no rule in .*trustedFolders\.json trusts it\): Gemini CLI runs no hook/,
  },
  {
    name: 'GEMINI_CLI_TRUST_WORKSPACE=true',
    env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    status: 'pass',
    detail: /GEMINI_CLI_TRUST_WORKSPACE=true/,
  },
  {
    name: 'GEMINI_CLI_TRUST_WORKSPACE=false wins over a rule',
    env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' },
    folders: { [project]: 'TRUST_FOLDER' },
    status: 'fail',
    detail: /GEMINI_CLI_TRUST_WORKSPACE=false/,
  },
  {
    name: 'GEMINI_RESTRICTED_MODE=true',
    env: { GEMINI_RESTRICTED_MODE: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    status: 'fail',
    detail: /GEMINI_RESTRICTED_MODE/,
  },
  {
    name: 'folder trust off in the user settings',
    settings: { security: { folderTrust: { enabled: false } } },
    status: 'pass',
    detail: /folder trust is off/,
  },
  {
    name: 'TRUST_FOLDER on the folder',
    folders: { [project]: 'TRUST_FOLDER' },
    status: 'pass',
    detail: /TRUST_FOLDER in/,
  },
  {
    name: 'TRUST_FOLDER on a parent, through a symlink',
    folders: { [join(root, 'link')]: 'TRUST_FOLDER' },
    status: 'pass',
    detail: /TRUST_FOLDER in/,
  },
  {
    name: 'TRUST_PARENT on a sibling trusts its parent',
    folders: { [join(root, 'work', 'other')]: 'TRUST_PARENT' },
    status: 'pass',
    detail: /TRUST_PARENT in/,
  },
  {
    name: 'the longest rule wins: DO_NOT_TRUST inside a trusted parent',
    folders: { [join(root, 'work')]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' },
    status: 'fail',
    detail: /DO_NOT_TRUST in/,
  },
  {
    name: 'a rule for a folder whose name only starts the same',
    folders: { [join(root, 'work', 'proj')]: 'TRUST_FOLDER' },
    status: 'fail',
    detail: /no rule/,
  },
  {
    name: 'comments are fine, as Gemini reads them',
    folders: `// mine\n{ "${project}": "TRUST_FOLDER" }`,
    status: 'pass',
    detail: /TRUST_FOLDER/,
  },
  { name: 'a file that does not parse stops Gemini', folders: '{ "a": ', status: 'fail', detail: /does not parse/ },
];

describe('doctor: Gemini CLI trust', () => {
  for (const [index, row] of rows.entries()) {
    test(row.name, () => {
      const home = join(root, `home-${index}`);
      mkdirSync(join(home, '.gemini'), { recursive: true });
      if (row.settings) writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(row.settings));
      if (row.folders)
        writeFileSync(
          join(home, '.gemini', 'trustedFolders.json'),
          typeof row.folders === 'string' ? row.folders : JSON.stringify(row.folders),
        );
      const result = geminiGate({ projectDir: project, home, env: { HOME: home, ...row.env } });
      assert.equal(result.status, row.status, result.detail);
      assert.match(result.detail, row.detail);
      if (row.status === 'fail')
        assert.match(result.fix ?? '', /TRUST_FOLDER.*--skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true/);
    });
  }

  test('GEMINI_CLI_TRUSTED_FOLDERS_PATH names the file', () => {
    const file = join(root, 'elsewhere.json');
    writeFileSync(file, JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    assert.equal(
      geminiGate({ projectDir: project, home: join(root, 'home-none'), env: { GEMINI_CLI_TRUSTED_FOLDERS_PATH: file } })
        .status,
      'pass',
    );
  });
});
