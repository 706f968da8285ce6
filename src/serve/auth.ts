// Who may reach the server: loopback only, unless --listen names another address and a bearer token is set;
// the token is compared in constant time (as digests, so that the lengths are equal too).
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { PeriHooksError } from '../errors.ts';

/** The token in --token-file: its first line, which must not be empty. */
export function readToken(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new PeriHooksError(
      'usage',
      `cannot read the --token-file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'give a file that holds the bearer token on its first line',
    );
  }
  const token = text.split(/\r?\n/)[0]!.trim();
  if (token === '')
    throw new PeriHooksError(
      'usage',
      `the --token-file ${file} is empty`,
      'write the bearer token on its first line, e.g. `openssl rand -hex 32 > token`',
    );
  return token;
}

/** Refuses to bind a non-loopback address without a token. */
export function checkExposure(host: string, token: string | undefined): void {
  if (token !== undefined || isLoopback(host)) return;
  throw new PeriHooksError(
    'usage',
    `--listen ${host} is reachable from other machines, and no bearer token is set`,
    'add --token-file <file> (clients send Authorization: Bearer <token>), or listen on 127.0.0.1',
  );
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.process(host);
  return address.range() === 'loopback';
}

/** Whether an Authorization header carries the token; a check that takes the same time for every wrong token. */
export function authorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
