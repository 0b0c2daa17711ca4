import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (100 on every Linux this runs on; asked once). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's /proc stat fields after its name (which may hold spaces): [state, ppid, …]; null once it has gone. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

// Field numbers of proc(5) minus 3 (the fields before the state).
const PPID = 1;
const UTIME = 11;
const STIME = 12;
const CUTIME = 13;
const CSTIME = 14;

/** CPU time (user + system) a process has used so far, in milliseconds; its threads included. */
export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  if (!fields) throw new Error(`process ${pid} has gone: its CPU time cannot be read`);
  return ((Number(fields[UTIME]) + Number(fields[STIME])) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time of a process and all its children, in milliseconds: its own, its reaped children's
 * (cutime, cstime) and its live children's. PostgreSQL runs a process per connection under the
 * postmaster, so this is the whole server's CPU; a backend that exits between two readings moves
 * from the live sum into the reaped one, so a difference of two readings still counts it once.
 */
export function processTreeCpuMs(pid: number): number {
  const own = statFields(pid);
  if (!own) throw new Error(`process ${pid} has gone: its CPU time cannot be read`);
  let ticks = Number(own[UTIME]) + Number(own[STIME]) + Number(own[CUTIME]) + Number(own[CSTIME]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[PPID]) === pid) ticks += Number(fields[UTIME]) + Number(fields[STIME]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
