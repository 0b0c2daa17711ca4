import { parseArgs } from 'node:util';
import { existsSync, rmSync } from 'node:fs';
import { resolve, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATABASE_FILE, defaultDataDir } from './config';
import { bootEngine } from './boot';
import { startBackgroundSync } from './sync/background';
import { tuneV8ForServing } from './runtime';
import { createServer, LOOPBACK_NAMES } from './api/server';
import type { Role } from './domain/platform/apiKeys';
import { SYSTEM_ACTOR } from './domain/context';
import { voucherBodySchema } from './contract/vouchers';
import { BackupError, createBackup, restoreBackup, startDailyBackups } from './backups';
import BetterSqlite3 from 'better-sqlite3';
import { readCertificate, selfSignedCertificate } from './tls';
import { isPostgresUrl } from '../db/dialect';
import { claimServerLock } from './serverLock';

const HELP = `tourdesk — offline-first check-in and manifests for tour operators

Usage:
  tourdesk serve [--port 8080] [--host 127.0.0.1] [--data-dir DIR] [--demo]
                 [--allowed-host NAME]... [--instance N]
                 [--database postgres://USER@HOST/DB]   the office hub on PostgreSQL (docs/hub.md)
                 [--tls | --tls-cert FILE --tls-key FILE]   HTTPS, for guides' phones
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
  tourdesk sync [--data-dir DIR]      one full exchange with every peer; exits 1 with the reason if one failed

Every command that opens the database takes --database postgres://… (or TOURDESK_DATABASE_URL) for a hub
on PostgreSQL; without it, SQLite in the data folder. On PostgreSQL, back up with pg_dump or base backups.

Environment: TOURDESK_API_KEY registers that supplier key; TOURDESK_DATA_DIR sets the data folder;
TOURDESK_DATABASE_URL names the hub's PostgreSQL database.`;

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_ROOT = resolve(here, '..', 'out', 'web');

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
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
  out(`Unknown command "${command}".\n\n${HELP}`);
  return 1;
}

async function serve(args: string[], out: (line: string) => void): Promise<number> {
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
    },
  });
  const port = Number(values.port);
  if (Boolean(values['tls-cert']) !== Boolean(values['tls-key'])) throw new UsageError('--tls-cert and --tls-key go together');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${values.port} is not a port number`);
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
      await engine.close();
      lock?.release();
      resolveStop();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
  await app.listen({ port, host: values.host });
  background.stop = startBackgroundSync(() => engine.sync.syncAll(), (line) => app.log.warn(line)).stop;
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = values.host!.includes(':') ? `[${values.host}]` : values.host;
  const listeningOn = `${tls ? 'https' : 'http'}://${shownHost}:${boundPort}`;
  lock?.listening(listeningOn);
  out(`TourDesk listening on ${listeningOn}`);
  await stopped;
  return 0;
}

async function keys(args: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { role: { type: 'string' }, name: { type: 'string' }, rate: { type: 'string' }, 'data-dir': { type: 'string' }, database: { type: 'string' } },
  });
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    if (sub === 'create') {
      if (!values.role || !values.name) throw new UsageError('keys create needs --role and --name');
      const rateId = values.rate === undefined ? null : Number(values.rate);
      if (rateId !== null) {
        if (values.role !== 'agent') throw new UsageError('--rate is for agent keys only');
        if (!Number.isSafeInteger(rateId) || rateId <= 0) throw new UsageError(`--rate ${values.rate} is not a rate id`);
        await engine.rates.rowOrThrow(engine.ctx.db, rateId); // an unknown rate stops us before a key exists
      }
      const { id, key } = await engine.apiKeys.create({ role: values.role as Role, name: values.name });
      if (rateId !== null) {
        const resellerId = (await engine.apiKeys.list()).find((k) => k.id === id)!.resellerId!;
        await engine.resellers.attachRate(rateId, resellerId, SYSTEM_ACTOR);
      }
      out(`Created ${values.role} key ${id} "${values.name}"${rateId === null ? '' : ` on rate ${rateId}`}. Keep it safe; it is shown only now:\n${key}`);
    } else if (sub === 'list') {
      for (const k of await engine.apiKeys.list()) {
        out(`${k.id}\t${k.prefix}…\t${k.role}\t${k.name}${k.resellerName ? ` (agent: ${k.resellerName})` : ''}${k.revoked ? '\tREVOKED' : ''}`);
      }
    } else if (sub === 'revoke') {
      if (!positionals[0]) throw new UsageError('keys revoke needs a key id or prefix');
      // Named by its id and listed prefix: the key itself, when that is what was typed, is not printed back.
      const id = await engine.apiKeys.revoke(positionals[0]);
      const revoked = (await engine.apiKeys.list()).find((k) => k.id === id);
      out(`Revoked key ${id}${revoked ? ` (${revoked.prefix}…, ${revoked.role}, ${revoked.name})` : ''}.`);
    } else {
      throw new UsageError('keys takes create, list or revoke');
    }
  } finally {
    await engine.close();
  }
  return 0;
}

async function vouchers(args: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('vouchers takes create');
  const { values } = parseArgs({
    args: rest,
    options: {
      type: { type: 'string' },
      value: { type: 'string' },
      product: { type: 'string' },
      category: { type: 'string' },
      expiry: { type: 'string' },
      code: { type: 'string' },
      currency: { type: 'string' },
      notes: { type: 'string' },
      reference: { type: 'string' },
      'data-dir': { type: 'string' },
      database: { type: 'string' },
    },
  });
  if (!values.type) throw new UsageError('vouchers create needs --type');
  // The same schema as POST /v1/vouchers, so the CLI and the API accept exactly the same vouchers.
  const parsed = voucherBodySchema.safeParse({
    valueType: values.type,
    value: values.value,
    productCode: values.product,
    categoryId: values.category,
    expiryDate: values.expiry,
    code: values.code,
    currency: values.currency,
    internalNotes: values.notes,
    internalReference: values.reference,
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    const voucher = await engine.vouchers.create(parsed.data, SYSTEM_ACTOR);
    const worth = voucher.value === undefined ? `product ${voucher.productCode}` : voucher.valueType.startsWith('PERCENT') ? `${voucher.value}%` : `${voucher.value} ${voucher.currency}`;
    out(`Created voucher ${voucher.code} (${voucher.valueType}, ${worth}${voucher.expiryDate ? `, expires ${voucher.expiryDate}` : ''}).`);
  } finally {
    await engine.close();
  }
  return 0;
}

/** The supplier company: shown, or changed field by field (fields not given keep their value). */
async function company(args: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'show' && sub !== 'set') throw new UsageError('company takes show or set');
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      alias: { type: 'string' },
      currency: { type: 'string' },
      timezone: { type: 'string' },
      locale: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      website: { type: 'string' },
      'data-dir': { type: 'string' },
      database: { type: 'string' },
    },
  });
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    if (engine.replica.followsHub() && !(await engine.companies.supplierOrNull())) {
      throw new Error('This desk follows its hub’s catalogue and has not synced with it yet: run `tourdesk sync` (or start `tourdesk serve`, which syncs in the background) and the hub’s company arrives.');
    }
    let current = await engine.companies.supplier();
    if (sub === 'set') {
      current = await engine.companies.configure(
        {
          ...current,
          companyName: values.name ?? current.companyName,
          alias: values.alias ?? current.alias,
          currency: values.currency ?? current.currency,
          timezone: values.timezone ?? current.timezone,
          locale: values.locale ?? current.locale,
          email: values.email ?? current.email,
          phone: values.phone ?? current.phone,
          website: values.website ?? current.website,
        },
        SYSTEM_ACTOR,
      );
    }
    out(`${current.companyName} (alias ${current.alias}) · ${current.currency} · ${current.timezone} · ${current.locale}`);
  } finally {
    await engine.close();
  }
  return 0;
}

/** `tourdesk backup <file>`: its own connection to the database, so it works beside a running server. */
async function backup(args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  if (databaseOf(values)) throw new PostgresBackupError('backup');
  if (positionals.length !== 1) throw new UsageError('backup needs the file to write: tourdesk backup <file> [--data-dir DIR]');
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const dbFile = join(dataDir, DATABASE_FILE);
  if (!existsSync(dbFile)) throw new UsageError(`No TourDesk database in ${dataDir}`);
  const target = resolve(positionals[0]);
  if (existsSync(target)) throw new UsageError(`${target} exists already; choose a new file name`);
  const sqlite = new BetterSqlite3(dbFile, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    const record = await createBackup({ sqlite, dataDir, target });
    out(`Backed up ${dataDir} to ${record.file} (${record.bytes} bytes, ${record.mediaFiles} media files) at ${record.time}.`);
  } catch (error) {
    if (error instanceof BackupError) throw new UsageError(error.message);
    throw error;
  } finally {
    sqlite.close();
  }
  return 0;
}

async function peer(args: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { key: { type: 'string' }, 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  if (sub !== 'add' && sub !== 'list' && sub !== 'remove') throw new UsageError('peer takes add, list or remove');
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
      const { peers, seenBy } = await engine.sync.status();
      if (peers.length === 0) out(seenBy.length === 0 ? 'No peers.' : 'No peers of its own (desks pair with it).');
      for (const p of peers) out(`${p.url}\tinstance ${p.instanceNo ?? '?'}\t${p.summary}`);
      // A hub's desks: they pair with it, so they are not its peers, but an operator asks here who syncs.
      if (seenBy.length > 0) out('Instances that sync with this one:');
      for (const s of seenBy) out(`instance ${s.instanceNo}\t${s.origin}\tlast exchange ${s.lastSeenAt}`);
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

async function restore(args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  if (databaseOf(values)) throw new PostgresBackupError('restore');
  if (positionals.length !== 1) throw new UsageError('restore needs the backup file: tourdesk restore <file> [--data-dir DIR]');
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  try {
    const result = await restoreBackup({ file: positionals[0], dataDir });
    out(`Restored ${resolve(positionals[0])} into ${dataDir} (${result.mediaFiles} media files).`);
    for (const path of result.movedAside) out(`Kept what was there as ${path}`);
  } catch (error) {
    if (error instanceof BackupError) throw new UsageError(error.message);
    throw error;
  }
  return 0;
}

async function syncNow(args: string[], out: (line: string) => void): Promise<number> {
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

class UsageError extends Error {}

/** --database or TOURDESK_DATABASE_URL: the hub on PostgreSQL; neither: SQLite in the data folder. */
function databaseOf(values: { database?: string }): string | undefined {
  const url = values.database ?? process.env.TOURDESK_DATABASE_URL;
  if (url === undefined || url === '') return undefined;
  if (!isPostgresUrl(url)) throw new UsageError('--database (or TOURDESK_DATABASE_URL) takes a postgres:// URL; without it TourDesk keeps its SQLite database in the data folder');
  return url;
}

/** The URL without its password, for messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the given URL';
  }
}

/**
 * `tourdesk backup`/`restore` copy a SQLite data folder. A hub on PostgreSQL is backed up with
 * PostgreSQL's own tools, which do it properly (consistent while every hub process writes,
 * point-in-time with WAL archiving); a copy made here would only pretend.
 */
class PostgresBackupError extends Error {
  constructor(command: 'backup' | 'restore') {
    super(
      command === 'backup'
        ? 'this hub keeps its data in PostgreSQL, and `tourdesk backup` only copies a SQLite data folder. Back PostgreSQL up with its own tools: ' +
            '`pg_dump --format=custom --file=tourdesk.dump "$TOURDESK_DATABASE_URL"` for a consistent logical copy while the hub runs, or base backups ' +
            '(pg_basebackup) with WAL archiving for point-in-time recovery; copy the data folder (keys file, TLS certificate, media) beside it. See docs/hub.md.'
        : 'this hub keeps its data in PostgreSQL, and `tourdesk restore` only restores a SQLite data folder. Restore with PostgreSQL\'s own tools: ' +
            '`pg_restore --clean --if-exists --dbname="$TOURDESK_DATABASE_URL" tourdesk.dump` with every hub process stopped, or recover a base backup ' +
            '(with its WAL) into a new cluster. See docs/hub.md.',
    );
  }
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
