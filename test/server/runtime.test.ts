import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVING_V8_FLAGS } from '../../main/runtime';

// main/runtime.ts: the V8 options the serving processes set at start-up. V8's own trace of its
// pretenuring decisions (--trace-pretenuring-statistics, printed on stdout by the child) shows
// whether the option took effect in a process that was already running when it was set.

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'tourdesk-runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Objects from one place that all outlive young-generation collections: the pattern V8 pretenures
 * (its trace then says "=> tenure" or "=> maybe tenure" for the site).
 */
const WORKLOAD = `
  const kept = [];
  const make = (i) => ({ i, text: 'x' + i });
  for (let round = 0; round < 20; round++) for (let i = 0; i < 50000; i++) kept.push(make(i));
  console.log('WORKLOAD-DONE ' + kept.length);
`;

/** Runs `script` (an ES module body, run by tsx from the project root) with V8's pretenuring trace; answers its stdout. */
async function traced(script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--trace-pretenuring-statistics', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env: { ...process.env, TOURDESK_CLI_ENTRY: '' }, maxBuffer: 64 * 1024 * 1024 });
  expect(stdout).toContain('WORKLOAD-DONE 1000000');
  return stdout;
}
const decisions = (stdout: string) => stdout.split('\n').filter((line) => /pretenuring: AllocationSite.*=> (maybe )?tenure/.test(line));

describe('V8 options of the serving processes', () => {
  it('names the option that stops allocation-site pretenuring', () => {
    expect(SERVING_V8_FLAGS).toContain('--no-allocation-site-pretenuring');
  });

  it('takes effect when set at start-up: a workload V8 pretenures otherwise gets no such decision', async () => {
    const untuned = await traced(WORKLOAD);
    // The control: without the option V8 decides to pretenure the workload's allocation site.
    expect(decisions(untuned).length).toBeGreaterThan(0);
    const tuned = await traced(`import { tuneV8ForServing } from './main/runtime.ts'; tuneV8ForServing(); ${WORKLOAD}`);
    expect(decisions(tuned)).toEqual([]);
  }, 60_000);

  it('is set by `tourdesk serve` before it answers', async () => {
    const dataDir = join(dir, 'serve');
    // serve runs in the child; once it is listening, the same process runs the workload and exits.
    const script = `
      import { main } from './main/cli.ts';
      await new Promise((listening, failed) => {
        main(['serve', '--port', '0', '--data-dir', ${JSON.stringify(dataDir)}], (line) => { if (line.includes('listening on')) listening(); }).then((code) => failed(new Error('serve ended with ' + code)), failed);
      });
      console.log('SERVING');
      ${WORKLOAD}
      process.exit(0);
    `;
    // Loading the modules comes before serve sets the option (V8 may decide about their start-up code then):
    // what counts is every decision once it serves.
    const [, serving] = (await traced(script)).split('\nSERVING\n');
    expect(serving).toBeDefined();
    expect(decisions(serving)).toEqual([]);
  }, 60_000);
});
