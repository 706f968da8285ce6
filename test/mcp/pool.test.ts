// The connection pool that `serve` can keep across firings: one connection per server, reused while it lives,
// and connected again on the next call after the server went away.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { DefinedServer } from '../../src/config/mcp/servers.ts';
import { type CallOptions, createConnectionPool } from '../../src/mcp/pool.ts';
import { isAlive } from '../../src/session/lock.ts';
import { until } from '../helpers/wait.ts';
import { GUARD_SERVER, readLog } from './guard.ts';

const dir = mkdtempSync(join(tmpdir(), 'peri-hooks-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a pooled stdio server is reused, and after it crashed the next call starts it again', async () => {
  const log = join(dir, 'pool.log');
  const server: DefinedServer = {
    name: 'guard',
    entry: { type: 'stdio', command: process.execPath, args: [GUARD_SERVER, 'stdio'], env: { GUARD_LOG: log } },
    source: { scope: 'flag', file: '--mcp-config', pointer: '/mcpServers/guard' },
  };
  const options: CallOptions = {
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    projectDir: dir,
    env: { PATH: process.env.PATH },
    urlPatterns: undefined,
  };
  const pool = createConnectionPool();
  try {
    assert.equal((await pool.call(server, 'empty', {}, options)).kind, 'result');
    assert.equal((await pool.call(server, 'empty', {}, options)).kind, 'result');
    const [first] = readLog(log).filter((entry) => entry.event === 'start');
    assert.equal(
      readLog(log).filter((entry) => entry.event === 'start').length,
      1,
      'the second call reused the connection',
    );

    process.kill(first!.pid, 'SIGKILL');
    await until('the crashed server to be gone', () => !isAlive(first!.pid), 15_000);
    // The call that meets the dead connection may fail; the pool must not keep it.
    let result = await pool.call(server, 'empty', {}, options);
    if (result.kind !== 'result') result = await pool.call(server, 'empty', {}, options);
    assert.equal(result.kind, 'result');
    const starts = readLog(log).filter((entry) => entry.event === 'start');
    assert.equal(starts.length, 2);
    assert.ok(isAlive(starts[1]!.pid));
  } finally {
    await pool.close();
  }
  const last = readLog(log)
    .filter((entry) => entry.event === 'start')
    .at(-1)!;
  await until('close() to stop the server', () => !isAlive(last.pid), 15_000);
});
