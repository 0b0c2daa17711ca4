import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';

const BIN = join(import.meta.dirname, '..', 'bin', 'tourdesk.mjs');

/** A `tourdesk serve` process the benches started (its pid is what the office day reads its CPU from). */
export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<unknown>;
  output(): string;
}

/** A real `tourdesk serve` process, once it says where it listens. */
export function startServe(args: string[], env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  let out = '';
  return new Promise((resolveReady, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /TourDesk listening on (https?:\/\/\S+)/.exec(out);
      if (match) resolveReady({ child, baseUrl: match[1], exited, output: () => out });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`serve exited:\n${out}`)));
  });
}

/** Stops the bench's servers and waits until each process has exited. */
export async function stopServers(servers: readonly RunningServer[]): Promise<void> {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

/** A new empty database on a bench's cluster (the hub's migrations run when the first `serve` opens it). */
export async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}
