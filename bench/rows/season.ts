import { copyFileSync, fsyncSync, mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aSeasonNode, DAY_MS, listen, seasonClock, syncDesk, type SeasonNode } from '../season/world';
import { simulateSeason } from '../season/simulate';
import { mb, opLogShare, rowsIn, syncTableSizes, vacuumedCopy, withoutSyncData, withSyncTablesOnly } from '../season/sizes';
import type { BenchRow } from '../types';

const BOOKINGS = Number(process.env.BENCH_SEASON_BOOKINGS ?? 100_000);
const DAYS = 60;
const HORIZON_DAYS = 30;

const say = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;

/** A part of sync measured on its own: the rows with only this sync table beside them. */
interface Floor {
  table: string;
  /** "merge states alone" */
  words: string;
  /** "states" */
  unit: string;
  /** Small tables the part needs beside it (SQLite's numbers that key the merge states). */
  with?: readonly string[];
}
const MERGE_STATES: Floor = { table: 'sync_rows', words: 'merge states alone', unit: 'states', with: ['sync_entities', 'sync_origins'] };
const OPS: Floor = { table: 'sync_op_rows', words: "the op log's ops alone", unit: 'ops', with: ['sync_entities', 'sync_origins'] };

/**
 * The database file of each instance, vacuumed, against the same rows without sync data; then each
 * floor (the rows with only one sync table kept), so the table shows which part stands between the
 * file and 1.5×, with its bytes a row (table and indexes, as vacuumed).
 */
function sizeRows(nodes: SeasonNode[], scratch: string, when: string, floors: readonly Floor[]): BenchRow[] {
  return nodes.flatMap((node) => {
    const copy = join(scratch, `${node.name}-${when}.sqlite`);
    const size = vacuumedCopy(node.engine.ctx.handle.sqlite, copy);
    const tables = syncTableSizes(copy);
    const parts = floors.map((floor) => {
      const floorCopy = join(scratch, `${node.name}-${when}-${floor.table}-copy.sqlite`);
      copyFileSync(copy, floorCopy);
      const rows = rowsIn(copy, floor.table);
      const bytes = tables.find((t) => t.table === floor.table)?.bytes ?? 0;
      const floorSize = withSyncTablesOnly(floorCopy, join(scratch, `${node.name}-${when}-${floor.table}.sqlite`), [floor.table, ...(floor.with ?? [])]);
      rmSync(floorCopy);
      return { floor, rows, bytesEach: rows ? bytes / rows : 0, floorSize };
    });
    const bare = withoutSyncData(copy, join(scratch, `${node.name}-${when}-bare.sqlite`));
    const log = opLogShare(node.engine.ctx.handle.sqlite);
    say(
      `season ${when}: ${node.name} ${mb(size)} against ${mb(bare)} without sync data (${(size / bare).toFixed(2)}×); op log ${log.ops} ops, changes ${mb(log.changeBytes)}, ` +
        `of which ${log.unchangedInserts} inserts whose row has not changed since: ${mb(log.insertChangeBytes)} (${((100 * log.insertChangeBytes) / size).toFixed(1)}% of the file; by reference the file would be ~${((size - log.insertChangeBytes) / bare).toFixed(2)}×)`,
    );
    say(`  its sync tables: ${tables.slice(0, 5).map((t) => `${t.table} ${mb(t.bytes)}`).join(', ')}`);
    const bareName = 'the same file without sync tables, vacuumed';
    return [
      { name: `season ${when}: ${node.name}'s database (vacuumed, ${BOOKINGS.toLocaleString('en-AU')} bookings)`, unit: 'bytes', subject: size, baseline: bare, baselineName: bareName, higherIsBetter: false, goal: 1.5 },
      ...parts.map(({ floor, rows, bytesEach, floorSize }) => ({
        name: `season ${when}: ${node.name}'s floor: ${floor.words} (${rows.toLocaleString('en-AU')} ${floor.unit}, ${bytesEach.toFixed(0)} bytes each)`,
        unit: 'bytes',
        subject: floorSize,
        baseline: bare,
        baselineName: bareName,
        higherIsBetter: false,
      })),
    ];
  });
}

/**
 * A simulated season (issue 38): a hub and two desks, real engines on real SQLite files, desks paired
 * with the hub over loopback HTTP and exchanging as `serve` does; BENCH_SEASON_BOOKINGS bookings
 * (100,000 by default, the issue's season: the season's writes go to the engine's services in process,
 * ~7 ms a booking with its edits, check-ins and syncs, so it takes 12-14 minutes of this 2-core machine) over 60
 * days with edits, cancels and check-ins, all synced; the late desk
 * offline for the last 30 days and catching up; every instance compacted with the 30-day horizon
 * (in season: the last 30 days' ops stay) and again a horizon after the season (everything goes).
 * Prints each database's size against the same rows without sync data, a new desk's join against
 * copying the hub's file, and the late desk's catch-up against that join.
 */
export default async function (): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'tourdesk-bench-season-'));
  const scratch = mkdtempSync(join(root, 'scratch-'));
  const clock = seasonClock();
  const nodes: SeasonNode[] = [];
  try {
    const hub = await aSeasonNode(root, 'hub', 1, clock);
    nodes.push(hub);
    const url = await listen(hub);
    const desk = await aSeasonNode(root, 'desk', 2, clock);
    const late = await aSeasonNode(root, 'late desk', 3, clock);
    nodes.push(desk, late);
    for (const d of [desk, late]) await d.engine.sync.addPeer(url, hub.key);

    const started = process.hrtime.bigint();
    const counts = await simulateSeason({ bookings: BOOKINGS, days: DAYS, offlineDays: 30 }, clock, hub, desk, late, say);
    say(`season: ${counts.bookings} bookings, ${counts.edits} edits, ${counts.cancels} cancels, ${counts.checkins} check-ins in ${seconds(started).toFixed(0)} s`);

    const catchUpStarted = process.hrtime.bigint();
    const caughtUp = await late.engine.sync.syncAll();
    const catchUpSeconds = seconds(catchUpStarted);
    const report = caughtUp[0]?.report;
    if (!report || caughtUp[0].error) throw new Error(`the late desk's catch-up failed: ${caughtUp[0]?.error}`);
    const catchUpOps = report.received + report.sent;
    say(`season: the late desk, ${30} days behind, caught up in ${catchUpSeconds.toFixed(1)} s: received ${report.received}, sent ${report.sent} = ${(catchUpOps / catchUpSeconds).toFixed(0)} ops/s`);

    // Twice round, so the hub has heard every desk's vector and each desk the hub's; then compaction in season.
    for (let round = 0; round < 2; round++) for (const d of [desk, late]) await syncDesk(d);
    for (const node of nodes) say(`season: ${node.name} compacted in season: removed ${(await node.engine.sync.compact(HORIZON_DAYS * DAY_MS)).removed} ops`);
    const inSeason = sizeRows(nodes, scratch, 'in season', [OPS, MERGE_STATES]);

    clock.advance((HORIZON_DAYS + 1) * DAY_MS);
    for (let round = 0; round < 2; round++) for (const d of [desk, late]) await syncDesk(d);
    for (const node of nodes) say(`season: ${node.name} compacted after the season: removed ${(await node.engine.sync.compact(HORIZON_DAYS * DAY_MS)).removed} ops`);
    const after = sizeRows(nodes, scratch, 'after', [MERGE_STATES]);

    // A new desk joins (the hub's snapshot over HTTP) against copying the hub's vacuumed file and syncing it to disk.
    const fresh = await aSeasonNode(root, 'new desk', 4, clock);
    nodes.push(fresh);
    const joinStarted = process.hrtime.bigint();
    await fresh.engine.sync.addPeer(url, hub.key);
    const joined = await syncDesk(fresh);
    const joinSeconds = seconds(joinStarted);
    const hubCopy = join(scratch, 'hub-after.sqlite');
    const copyStarted = process.hrtime.bigint();
    copyFileSync(hubCopy, join(scratch, 'copied.sqlite'));
    const fd = openSync(join(scratch, 'copied.sqlite'), 'r+');
    fsyncSync(fd);
    closeSync(fd);
    const copySeconds = seconds(copyStarted);
    say(`season: a new desk joined in ${joinSeconds.toFixed(1)} s (${joined} ops after its snapshot); copying the hub's file ${copySeconds.toFixed(2)} s`);

    return [
      ...inSeason,
      ...after,
      { name: "season: a new desk's join (snapshot over HTTP, then its ops)", unit: 's', subject: joinSeconds, baseline: copySeconds, baselineName: "copying the hub's vacuumed file and fsyncing it", higherIsBetter: false },
      { name: `season: a desk 30 days behind catching up (${catchUpOps} ops both ways, ${(catchUpOps / catchUpSeconds).toFixed(0)} ops/s)`, unit: 's', subject: catchUpSeconds, baseline: joinSeconds, baselineName: "a new desk's join of the whole season (above)", higherIsBetter: false },
    ];
  } finally {
    for (const node of nodes.reverse()) await node.close().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}
