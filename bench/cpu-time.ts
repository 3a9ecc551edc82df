/**
 * CPU time a process spent (user and system), from /proc/<pid>/stat on Linux. Unlike a CPU
 * profile's samples, which count wall time and so charge a process for the moments it waited for
 * a core, this is what the process itself consumed; per request, it compares the service with the
 * baseline even when the load generator, not the server, limits the rate.
 */
import { readFileSync } from 'node:fs';

// USER_HZ: the unit of utime and stime; 100 on every Linux this runs on.
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU, or null where /proc is not available. */
export function cpuMillis(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
