import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { markState } from '../../db/queries/syncIncarnation';

/*
 * A database copied back by hand (serve stopped, yesterday's tourdesk.sqlite copied over today's,
 * serve started) carries no restore mark, yet it has forgotten what it gave out since. What it gave
 * out only grows: its own op sequence and, per origin, the ops it holds (its vector). So the data
 * folder keeps, beside the database, the last of these it saw committed (a file the copy does not
 * replace): at every start, after every exchange either side, and at a clean stop. A database that
 * opens with less than its folder saw went back in time, and takes a new incarnation as a restore
 * does (incarnation.ts). The file only ever records what the database had committed, so it can lag
 * (a crash before it was written), never lead: a lag can miss a copy from within that window (what was
 * made in it no peer received), never call a live database a copy.
 */

export const FOLDER_MARK_FILE = 'tourdesk.sync-mark.json';

export interface FolderMark {
  origin: string;
  lastSeq: number;
  vector: Record<string, number>;
}

/** The folder's mark, or null (none yet, or not readable: the next one written replaces it). */
export function readFolderMark(dir: string): FolderMark | null {
  try {
    const mark = JSON.parse(readFileSync(join(dir, FOLDER_MARK_FILE), 'utf8')) as FolderMark;
    return typeof mark.origin === 'string' && Number.isSafeInteger(mark.lastSeq) && typeof mark.vector === 'object' && mark.vector !== null ? mark : null;
  } catch {
    return null;
  }
}

/** Written whole or not at all (a rename), so a crash never leaves half a mark. */
export function writeFolderMark(dir: string, mark: FolderMark): void {
  const temporary = join(dir, `${FOLDER_MARK_FILE}.${process.pid}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(mark)}\n`, { mode: 0o600 });
  renameSync(temporary, join(dir, FOLDER_MARK_FILE));
}

/**
 * Whether the database, holding `now`, is older than what its folder saw: its own op sequence or any
 * origin's ops behind the mark, or another origin altogether (a copy from before an earlier
 * incarnation, or another instance's file) unless it is a new database that gave nothing out yet.
 */
export function wentBack(mark: FolderMark, now: FolderMark): boolean {
  if (now.origin !== mark.origin) return now.lastSeq > 0 || Object.keys(now.vector).length > 0;
  if (now.lastSeq < mark.lastSeq) return true;
  return Object.entries(mark.vector).some(([origin, seq]) => (now.vector[origin] ?? 0) < seq);
}

/** Keeps the folder's mark moving with the database: `keep()` after an exchange and at a stop. */
export function folderMarker(db: Kysely<Database>, dir: string) {
  let written = '';
  return {
    /** Never fails what it follows: a mark not written lags, which is the safe way to be wrong. */
    async keep(): Promise<void> {
      try {
        const mark = await markState(db);
        const text = JSON.stringify(mark);
        if (text === written) return;
        writeFolderMark(dir, mark);
        written = text;
      } catch {
        // the folder or the database went away (a stop under way): the mark stays as it was
      }
    },
  };
}
