// A real headless Chromium (Debian's package) driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
// no port, nothing but node's own streams), for tests of pages peri-hooks writes: the console errors and the
// requests a page makes, values evaluated in it, and screenshots, decoded (decodePng) to check what they show.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { inflateSync } from 'node:zlib';

export const CHROMIUM = process.env.PERI_HOOKS_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumPresent(): boolean {
  return spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).status === 0;
}

export interface Page {
  /** Console errors, uncaught exceptions and browser log errors, as text. */
  errors: string[];
  /** Every URL the page asked for. */
  requests: string[];
  evaluate<T>(expression: string): Promise<T>;
  /** A PNG of the page, or of a part of it. */
  screenshot(clip?: { x: number; y: number; width: number; height: number }): Promise<Buffer>;
  close(): Promise<void>;
}

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
  sessionId?: string;
};

/** Opens `url` in a fresh headless Chromium and waits for its load event. */
export async function openPage(url: string): Promise<Page> {
  const profile = mkdtempSync(join(tmpdir(), 'peri-hooks-chromium-'));
  const browser: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--hide-scrollbars',
      '--window-size=1200,1800',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true },
  );
  const exited = new Promise<void>((resolve) => browser.once('exit', () => resolve()));
  const toBrowser = browser.stdio[3] as Writable;
  const fromBrowser = browser.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners: Array<(message: Message) => void> = [];
  let buffered = '';
  fromBrowser.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as Message;
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined && pending.has(message.id)) {
        const call = pending.get(message.id)!;
        pending.delete(message.id);
        if (message.error) call.reject(new Error(JSON.stringify(message.error)));
        else call.resolve(message.result);
      } else for (const listener of listeners) listener(message);
    }
  });
  const send = <T>(method: string, params: object = {}, sessionId?: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const close = async () => {
    try {
      process.kill(-browser.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await exited;
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const errors: string[] = [];
    const requests: string[] = [];
    let loaded: () => void = () => {};
    const load = new Promise<void>((resolve) => {
      loaded = resolve;
    });
    listeners.push((message) => {
      if (message.sessionId !== sessionId) return;
      const params = message.params ?? {};
      if (message.method === 'Runtime.consoleAPICalled' && params.type === 'error')
        errors.push(`console.error: ${JSON.stringify(params.args)}`);
      if (message.method === 'Runtime.exceptionThrown')
        errors.push(`exception: ${JSON.stringify(params.exceptionDetails)}`);
      if (message.method === 'Log.entryAdded') {
        const entry = params.entry as { level: string; text: string; url?: string };
        if (entry.level === 'error') errors.push(`log: ${entry.text} ${entry.url ?? ''}`);
      }
      if (message.method === 'Network.requestWillBeSent') requests.push((params.request as { url: string }).url);
      if (message.method === 'Page.loadEventFired') loaded();
    });
    for (const domain of ['Runtime', 'Log', 'Network', 'Page']) await send(`${domain}.enable`, {}, sessionId);
    await send('Page.navigate', { url }, sessionId);
    await load;
    return {
      errors,
      requests,
      evaluate: async <T>(expression: string) =>
        (
          await send<{ result: { value: T } }>(
            'Runtime.evaluate',
            { expression, returnByValue: true, awaitPromise: true },
            sessionId,
          )
        ).result.value,
      screenshot: async (clip) =>
        Buffer.from(
          (
            await send<{ data: string }>(
              'Page.captureScreenshot',
              { format: 'png', captureBeyondViewport: true, ...(clip ? { clip: { ...clip, scale: 1 } } : {}) },
              sessionId,
            )
          ).data,
          'base64',
        ),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The pixels of an 8-bit RGB or RGBA PNG (what Chromium writes), as RGBA rows. */
export function decodePng(png: Buffer): { width: number; height: number; rgba: Buffer } {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0)
        throw new Error(`not an 8-bit RGB(A) PNG without interlace (depth ${body[8]}, colour type ${body[9]})`);
      channels = body[9] === 6 ? 4 : 3;
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predicted =
        filter === 0
          ? 0
          : filter === 1
            ? left
            : filter === 2
              ? up
              : filter === 3
                ? (left + up) >> 1
                : paeth(left, up, upLeft);
      pixels[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = Buffer.alloc(width * height * 4, 0xff);
  for (let i = 0; i < width * height; i++) pixels.copy(rgba, i * 4, i * 3, i * 3 + 3);
  return { width, height, rgba };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** How many pixels of each colour (`#rrggbb`) the image has. */
export function colourCounts(image: { rgba: Buffer }): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < image.rgba.length; i += 4) {
    const colour = `#${image.rgba.subarray(i, i + 3).toString('hex')}`;
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  return counts;
}
