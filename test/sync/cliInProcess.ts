import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { aSyncNode, type SyncNode } from './nodes';
import { main } from '../../main/cli';

/** What a test made (hubs, folders), undone after each test of the file that imports this module. */
export const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

/** Runs one `tourdesk` command in this process, as bin/tourdesk.mjs does: its exit code and what it printed. */
export async function tourdesk(...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  let code: number;
  try {
    code = await main(argv, (line) => lines.push(line));
  } catch (error) {
    lines.push(error instanceof Error ? error.message : String(error));
    code = 2;
  }
  return { code, out: lines.join('\n') };
}

/** A hub engine listening on a loopback port, closed after the test. */
export async function aListeningHub(): Promise<{ hub: SyncNode; url: string }> {
  const hub = await aSyncNode('hub', { instanceNo: 1 });
  cleanup.push(() => hub.close());
  await hub.app.listen({ port: 0, host: '127.0.0.1' });
  const address = hub.app.server.address();
  return { hub, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** A fresh data folder, removed after the test. */
export function aFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tourdesk-cli-${name}-`));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
