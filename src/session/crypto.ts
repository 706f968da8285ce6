// node:crypto takes ~5 ms to load, and most firings neither hash nor need a random name: load it on first use.
import type * as NodeCrypto from 'node:crypto';

let crypto: typeof NodeCrypto | undefined;

function load(): typeof NodeCrypto {
  crypto ??= process.getBuiltinModule('node:crypto') as typeof NodeCrypto;
  return crypto;
}

export function sha256Hex(text: string): string {
  return load().createHash('sha256').update(text).digest('hex');
}

export function randomHex(bytes: number): string {
  return load().randomBytes(bytes).toString('hex');
}
