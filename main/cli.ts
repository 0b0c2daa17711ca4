import { parseArgs } from 'node:util';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from './config';
import { bootEngine } from './boot';
import { startBackgroundSync } from './sync/background';
import { tuneV8ForServing } from './runtime';
import { createServer, LOOPBACK_NAMES } from './api/server';
import { startDailyBackups } from './backups';
import { readCertificate, selfSignedCertificate } from './tls';
import { claimServerLock } from './serverLock';
import { UsageError, databaseOf, describeUrl, type Out } from './commands/usage';
import { company, keys, vouchers } from './commands/supplier';
import { backup, restore } from './commands/backups';
import { compact, peer, syncNow } from './commands/sync';
import { horizonDaysOf, startDailyCompaction, DAY_MS } from './sync/compaction';

const HELP = `tourdesk — offline-first check-in and manifests for tour operators

Usage:
  tourdesk serve [--port 8080] [--host 127.0.0.1] [--data-dir DIR] [--demo]
                 [--allowed-host NAME]... [--instance N]
                 [--database postgres://USER@HOST/DB]   the office hub on PostgreSQL (docs/hub.md)
                 [--tls | --tls-cert FILE --tls-key FILE]   HTTPS, for guides' phones
                 [--compact-horizon-days 30]   daily, ops every peer holds and older than this go
  tourdesk keys create --role supplier|agent|checkin|sync --name "Hotel desk" [--rate RATE_ID] [--data-dir DIR]
  tourdesk keys list [--data-dir DIR]
  tourdesk keys revoke <key id, its listed prefix (sha256:...) or the key> [--data-dir DIR]
  tourdesk company show [--data-dir DIR]
  tourdesk company set [--name NAME] [--alias ALIAS] [--currency XXX] [--timezone Area/City]
                 [--locale en_AU] [--email E] [--phone P] [--website URL] [--data-dir DIR]
  tourdesk vouchers create --type VALUE|VALUE_LIMITPRODUCT|VALUE_LIMITCATALOG|PERCENT|PERCENT_LIMITPRODUCT|PERCENT_LIMITCATALOG|PRODUCT
                 [--value N] [--product CODE] [--category ID] [--expiry DATE] [--code CODE]
                 [--currency XXX] [--notes TEXT] [--reference TEXT] [--data-dir DIR]
  tourdesk backup <file> [--data-dir DIR]      a consistent copy (database and media, one file), also while serve runs
  tourdesk restore <file> [--data-dir DIR]     puts a backup in place; refused while the folder is in use

  tourdesk peer add <url> --key KEY [--data-dir DIR]     link this instance to a peer (the first peer of a fresh desk is its hub)
  tourdesk peer list [--data-dir DIR]
  tourdesk peer remove <url> [--data-dir DIR]
  tourdesk peer forget <instance> [--data-dir DIR]   a hub forgets a desk that will not come back
  tourdesk sync [--data-dir DIR]      one full exchange with every peer; exits 1 with the reason if one failed
  tourdesk compact [--horizon-days 30] [--data-dir DIR]   removes ops every peer holds, older than the horizon, now

Every command that opens the database takes --database postgres://… (or TOURDESK_DATABASE_URL) for a hub
on PostgreSQL; without it, SQLite in the data folder. On PostgreSQL, back up with pg_dump or base backups.

Environment: TOURDESK_API_KEY registers that supplier key; TOURDESK_DATA_DIR sets the data folder;
TOURDESK_DATABASE_URL names the hub's PostgreSQL database.`;

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_ROOT = resolve(here, '..', 'out', 'web');

export async function main(argv: string[], out: Out = console.log): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    out(HELP);
    return command ? 0 : 1;
  }
  if (command === 'serve') return serve(rest, out);
  if (command === 'keys') return keys(rest, out);
  if (command === 'vouchers') return vouchers(rest, out);
  if (command === 'company') return company(rest, out);
  if (command === 'backup') return backup(rest, out);
  if (command === 'restore') return restore(rest, out);
  if (command === 'peer') return peer(rest, out);
  if (command === 'sync') return syncNow(rest, out);
  if (command === 'compact') return compact(rest, out);
  out(`Unknown command "${command}".\n\n${HELP}`);
  return 1;
}

async function serve(args: string[], out: Out): Promise<number> {
  tuneV8ForServing();
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      database: { type: 'string' },
      demo: { type: 'boolean', default: false },
      'allowed-host': { type: 'string', multiple: true },
      instance: { type: 'string' },
      tls: { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'compact-horizon-days': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (Boolean(values['tls-cert']) !== Boolean(values['tls-key'])) throw new UsageError('--tls-cert and --tls-key go together');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${values.port} is not a port number`);
  const horizonDays = horizonDaysOf(values['compact-horizon-days']);
  if (horizonDays === null) throw new UsageError('--compact-horizon-days must be a whole number of days (30 by default)');
  const instanceNo = values.instance === undefined ? undefined : Number(values.instance);
  if (instanceNo !== undefined && !(Number.isInteger(instanceNo) && instanceNo >= 1 && instanceNo <= 999)) throw new UsageError('--instance must be 1..999');
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const database = databaseOf(values);
  // One server per SQLite data folder; hub processes on PostgreSQL share their database by design (docs/hub.md).
  const lock = database ? null : claimServerLock(dataDir, 'serve');
  const { engine } = await bootEngine({ dataDir, database, demo: values.demo, instanceNo, apiKey: process.env.TOURDESK_API_KEY, say: out });
  if (database) out(`Database: PostgreSQL at ${describeUrl(database)} (several hub processes may share it; back it up with pg_dump or base backups)`);

  // On a loopback address only loopback names may reach us (DNS rebinding); on another address,
  // the operator lists the names with --allowed-host (none listed: any name).
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(values.host!);
  const allowedHosts = values['allowed-host'] ?? (loopback ? LOOPBACK_NAMES : []);
  const tls = values['tls-cert'] ? readCertificate(values['tls-cert'], values['tls-key']!) : values.tls ? await selfSignedCertificate(dataDir, [values.host!, ...(values['allowed-host'] ?? [])]) : null;
  if (tls) out(`TLS certificate ${tls.source}\n  SHA-256 fingerprint ${tls.fingerprint}\n  (a phone shows a warning for a certificate TourDesk made: check this fingerprint, then accept it once)`);
  const app = await createServer({ engine, allowedHosts, webRoot: WEB_ROOT, logger: { level: process.env.TOURDESK_LOG ?? 'warn' }, ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}) });
  // Daily backups copy a SQLite data folder; PostgreSQL is backed up with its own tools (docs/hub.md).
  const dailyBackups = database ? { stop: async () => {} } : startDailyBackups({ sqlite: engine.ctx.handle.sqlite, dataDir, say: out });
  // The op log stays bounded (docs/sync.md), on both dialects: daily, like the backup.
  const dailyCompaction = startDailyCompaction(() => engine.sync.compact(horizonDays * DAY_MS), out);
  // Background sync starts once listening; a signal before that has nothing to stop.
  const background = { stop: () => {} };
  // Handlers go in before listening, so a signal at any moment stops cleanly.
  const stopped = new Promise<void>((resolveStop) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      out(`Stopping (${signal})…`);
      background.stop();
      // Finish in-flight requests, then checkpoint the WAL and close the file.
      await app.close();
      await dailyBackups.stop();
      dailyCompaction.stop();
      await engine.close();
      lock?.release();
      resolveStop();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
  await app.listen({ port, host: values.host });
  background.stop = startBackgroundSync(() => engine.sync.syncAll(), (line) => app.log.warn(line)).stop;
  // Images uploaded before content hashes get theirs, so desks can fetch their files (docs/sync.md, "Images").
  void engine.sync.hashOlderImages().then((n) => n > 0 && out(`Hashed ${n} older product image${n === 1 ? '' : 's'} so desks can fetch them`), (error) => app.log.warn(`hashing older images failed: ${String(error)}`));
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = values.host!.includes(':') ? `[${values.host}]` : values.host;
  const listeningOn = `${tls ? 'https' : 'http'}://${shownHost}:${boundPort}`;
  lock?.listening(listeningOn);
  out(`TourDesk listening on ${listeningOn}`);
  await stopped;
  return 0;
}

// Run when executed directly (bin/tourdesk.mjs imports this file).
if (process.env.TOURDESK_CLI_ENTRY === '1') {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`tourdesk: ${message}`);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}
