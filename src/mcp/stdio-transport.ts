// The stdio transport, spawned as a process group of its own so that closing it (end of the call, timeout,
// interruption, peri-hooks exiting) kills the server with every child it started (platform/process-group.ts), which
// the SDK's own transport, killing only its direct child, would leave running.
import { type ChildProcess, spawn } from 'node:child_process';
import { type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from '@modelcontextprotocol/client';
import { Capture, signalGroup, signalGroupOnExit, terminateGroup } from '../platform/process-group.ts';

export interface StdioServer {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd: string;
}

/** The SDK's ReadBuffer limit on one message (its STDIO_DEFAULT_MAX_BUFFER_SIZE). */
const MAX_MESSAGE_MIB = 10;

/** How long close() waits for the group to exit after SIGTERM (SIGKILL follows after 1 s). */
const EXIT_WAIT_MS = 2000;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the transport gave up on the server, when it did. */
  failure: string | undefined;
  /** The server's stderr, for the message when it fails to connect. */
  readonly stderr = new Capture();
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private forget = () => {};
  private readonly buffer = new ReadBuffer();
  private readonly server: StdioServer;

  constructor(server: StdioServer) {
    this.server = server;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, this.server.args, {
        cwd: this.server.cwd,
        env: this.server.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        const pid = child.pid!;
        this.forget = signalGroupOnExit(pid, 'SIGKILL');
        resolve();
      });
      child.once('close', () => {
        this.forget();
        this.onclose?.();
      });
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
      void this.stderr.attach(child.stderr);
    });
  }

  private read(chunk: Buffer): void {
    if (this.failure !== undefined) return;
    try {
      this.buffer.append(chunk);
    } catch {
      // A message past the SDK's limit (or that much output with no line end): the stream can no longer be read
      // in step, so the server is stopped, which fails its pending calls; `failure` says why.
      this.failure = `the MCP server's answer is over ${MAX_MESSAGE_MIB} MiB (or that much output without a line end); it was stopped`;
      this.onerror?.(new Error(this.failure));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('the MCP server process is not running'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Kills the whole group and waits (bounded) until it is gone. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) {
      this.buffer.clear();
      return;
    }
    child.stdin?.end();
    const cancelEscalation = terminateGroup(child.pid);
    const waited = await Promise.race([
      this.exited!.then(() => true),
      new Promise<boolean>((done) => setTimeout(() => done(false), EXIT_WAIT_MS).unref()),
    ]);
    if (!waited) signalGroup(child.pid, 'SIGKILL');
    cancelEscalation();
    // The leader is gone; children that outlived SIGTERM get the SIGKILL too.
    signalGroup(child.pid, 'SIGKILL');
    this.buffer.clear();
  }
}
