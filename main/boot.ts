import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { openDatabase, type DbHandle } from '../db/connection';
import { openPostgres } from '../db/postgres/connection';
import { createEngine, type Engine } from './engine';
import { incarnateIfRestored, incarnationLine } from './sync/incarnation';
import { DATABASE_FILE, KEY_FILE } from './config';
import { loadDemo } from './demo';
import { makeDataFolderPrivate } from './dataFolder';
import { findSetting, insertSetting, insertSettingIfAbsent, readSetting } from '../db/queries/settings';

export interface BootOptions {
  dataDir: string;
  /** postgres://… : the office hub's engine on PostgreSQL (db/postgres/); without it, SQLite in the data folder. */
  database?: string;
  demo?: boolean;
  instanceNo?: number;
  apiKey?: string;
  companyName?: string;
  timezone?: string;
  currency?: string;
  say?: (line: string) => void;
}

/**
 * Opens (or creates) a data folder and returns a ready engine: schema migrated, supplier company
 * configured, demo data loaded on request, and a supplier API key that the operator can use.
 * Shared by `tourdesk serve` and the Electron main process.
 */
export async function bootEngine(options: BootOptions): Promise<{ engine: Engine; keyFile: string }> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  if (options.database) return bootPostgres(options, options.database);
  const handle = await openDatabase(join(options.dataDir, DATABASE_FILE), { migrate: true, checkpointInBackground: true });
  makeDataFolderPrivate(options.dataDir);
  if (options.instanceNo !== undefined) {
    const existing = readSetting(handle.sqlite, 'instance_no');
    if (existing !== null && Number(existing) !== options.instanceNo) {
      await handle.close();
      throw new Error(`This data folder belongs to instance ${existing}; the instance number cannot change`);
    }
    if (existing === null) insertSetting(handle.sqlite, 'instance_no', String(options.instanceNo));
  } else if (readSetting(handle.sqlite, 'instance_no') === null) {
    // A new data folder gets its own number at random (1..999), so two desks set up without
    // --instance almost never share one; pairing refuses the rare clash and says what to do.
    insertSetting(handle.sqlite, 'instance_no', String(randomInt(1, 1000)));
  }
  await incarnate(handle, options);
  const engine = createEngine({ db: handle, config: { dataDir: options.dataDir } });
  return prepareEngine(engine, options);
}

/**
 * The hub on PostgreSQL: the database holds the instance number (every hub process on it is the
 * same instance); the data folder keeps this process's key file, TLS certificate and media.
 */
async function bootPostgres(options: BootOptions, url: string): Promise<{ engine: Engine; keyFile: string }> {
  makeDataFolderPrivate(options.dataDir);
  const handle: DbHandle = await openPostgres(url, { migrate: true });
  let instanceNo: number;
  try {
    const existing = await findSetting(handle.db, 'instance_no');
    if (options.instanceNo !== undefined && existing !== null && Number(existing) !== options.instanceNo) {
      throw new Error(`This database belongs to instance ${existing}; the instance number cannot change`);
    }
    instanceNo = Number(existing ?? (await insertSettingIfAbsent(handle.db, 'instance_no', String(options.instanceNo ?? randomInt(1, 1000)))));
    await incarnate(handle, options);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const engine = createEngine({ db: handle, config: { dataDir: options.dataDir, instanceNo } });
  return prepareEngine(engine, options);
}

/** A restored database takes a new incarnation before the engine reads its origin (main/sync/incarnation.ts). */
async function incarnate(handle: DbHandle, options: BootOptions): Promise<void> {
  const taken = await incarnateIfRestored(handle, Date.now(), { folder: options.dataDir });
  if (taken) (options.say ?? (() => {}))(incarnationLine(taken));
}

/** Company, demo and first key: the same on both dialects. */
async function prepareEngine(engine: Engine, options: BootOptions): Promise<{ engine: Engine; keyFile: string }> {
  const say = options.say ?? (() => {});
  const company = await engine.companies.supplierOrNull();
  const empty = !company && (await engine.products.search({ limit: 1, offset: 0 }).catch(() => [])).length === 0;
  if (!company && engine.replica.followsHub()) {
    // A desk paired with its hub and not yet synced: the hub's company comes with the first
    // exchange. A placeholder (or the demo) made here would be catalogue this desk may not author,
    // refused by its own sync, and every command after the pairing would fail on it.
    say(options.demo ? 'This desk follows its hub’s catalogue: --demo is not loaded; the hub’s company and products arrive with the first sync.' : 'This desk follows its hub’s catalogue; the hub’s company and products arrive with the first sync.');
  } else if (options.demo && empty) {
    await loadDemo(engine);
    say('Loaded the demo: a company, products, a week of sessions, bookings, vouchers and rates.');
  } else if (!company) {
    await engine.companies.configure({
      companyName: options.companyName ?? 'My Tour Company',
      currency: options.currency ?? 'USD',
      timezone: options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    });
  } else if (options.demo) {
    say('The database already has data; --demo only fills an empty one.');
  }

  const keyFile = join(options.dataDir, KEY_FILE);
  if (options.apiKey) {
    await engine.apiKeys.ensure(options.apiKey, 'supplier', 'TOURDESK_API_KEY');
  } else if ((await engine.apiKeys.count('supplier')) === 0) {
    const { key } = await engine.apiKeys.create({ role: 'supplier', name: 'First supplier key' });
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    say(`Created your supplier API key (shown once; also saved in ${keyFile}):\n  ${key}`);
  } else if (existsSync(keyFile)) {
    say(`Your supplier API key is in ${keyFile}`);
  }
  return { engine, keyFile };
}
