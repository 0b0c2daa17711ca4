import { parseArgs } from 'node:util';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultDataDir } from '../config';
import { bootEngine } from '../boot';
import { UsageError, databaseOf, type Out } from './usage';
import type { Engine } from '../engine';
import { DomainError } from '../domain/errors';
import { compactionLine, DAY_MS, horizonDaysOf } from '../sync/compaction';

/* Sync from the command line: the peers this instance exchanges with, and one exchange now. */

export async function peer(args: string[], out: Out): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { key: { type: 'string' }, 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  if (sub !== 'add' && sub !== 'list' && sub !== 'remove' && sub !== 'forget') throw new UsageError('peer takes add, list, remove or forget');
  if (sub === 'forget' && !/^\d{1,3}$/.test(positionals[0] ?? '')) throw new UsageError('peer forget needs the instance number `tourdesk peer list` shows (1 to 999)');
  if (sub !== 'list' && !positionals[0]) throw new UsageError(`peer ${sub} needs the peer's URL`);
  if (sub === 'add' && !values.key) throw new UsageError('peer add needs --key (a supplier or sync key of the peer)');
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  // `peer add` may make a desk's folder (a fresh desk pairs first); one it made for a pairing that
  // failed goes again, so a mistyped address or key leaves no stray instance behind.
  const madeHere = sub === 'add' && !existsSync(dataDir) && databaseOf(values) === undefined;
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  let paired = false;
  try {
    if (sub === 'add') {
      const added = await engine.sync.addPeer(positionals[0], values.key!);
      paired = true;
      out(`Paired with ${positionals[0]} (instance ${added.instanceNo})${added.hub ? '; it is this desk’s hub: the catalogue comes from it' : ''}. Run \`tourdesk sync\` or let serve sync in the background.`);
    } else if (sub === 'list') {
      const { peers, seenBy, turnedAway = [] } = await engine.sync.status();
      if (peers.length === 0) out(seenBy.length + turnedAway.length === 0 ? 'No peers.' : 'No peers of its own (desks pair with it).');
      for (const p of peers) out(`${p.url}\tinstance ${p.instanceNo ?? '?'}\t${p.summary}`);
      // A hub's desks: they pair with it, so they are not its peers, but an operator asks here who syncs and why one does not.
      if (seenBy.length > 0) out('Instances that sync with this one:');
      for (const s of seenBy) out(`instance ${s.instanceNo}\t${s.origin}\t${s.summary}`);
      if (turnedAway.length > 0) out('Instances refused here:');
      for (const s of turnedAway) out(`instance ${s.instanceNo}\t${s.origin}\t${s.summary}`);
    } else if (sub === 'forget') {
      return await forget(engine, Number(positionals[0]), out);
    } else {
      const removed = await engine.sync.removePeer(positionals[0]);
      // A mistyped address is an error a script can see, as the API's 404 is.
      out(removed ? `Removed ${removed}.` : `No peer ${positionals[0]}; \`tourdesk peer list\` shows the peers.`);
      if (!removed) return 1;
    }
  } finally {
    await engine.close();
    if (madeHere && !paired) rmSync(dataDir, { recursive: true, force: true });
  }
  return 0;
}

async function forget(engine: Engine, instanceNo: number, out: Out): Promise<number> {
  try {
    await engine.sync.forgetInstance(instanceNo);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
    out(`No instance ${instanceNo} syncs with this one or was refused here; \`tourdesk peer list\` shows them.`);
    return 1;
  }
  out(`Forgot instance ${instanceNo}: it no longer shows in \`tourdesk peer list\`. Its number stays taken; if it syncs here again, it shows again.`);
  return 0;
}

export async function syncNow(args: string[], out: Out): Promise<number> {
  const { values } = parseArgs({ args, options: { 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    const results = await engine.sync.syncAll(out);
    if (results.length === 0) {
      out('No peers to sync with; add one with `tourdesk peer add <url> --key KEY`.');
      return 1;
    }
    const failed = results.filter((r) => r.error !== null);
    for (const f of failed) out(`${f.url}: sync failed: ${f.error}`);
    return failed.length > 0 ? 1 : 0;
  } finally {
    await engine.close();
  }
}

/** `tourdesk compact`: the op log's compaction now (serve runs it daily), with its one-line result. */
export async function compact(args: string[], out: Out): Promise<number> {
  const { values } = parseArgs({ args, options: { 'horizon-days': { type: 'string' }, 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  const days = horizonDaysOf(values['horizon-days']);
  if (days === null) throw new UsageError('--horizon-days must be a whole number of days (30 by default)');
  const { engine } = await bootEngine({ dataDir: resolve(values['data-dir'] ?? defaultDataDir()), database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    out(`Compacted: ${compactionLine(await engine.sync.compact(days * DAY_MS))}`);
  } finally {
    await engine.close();
  }
  return 0;
}
