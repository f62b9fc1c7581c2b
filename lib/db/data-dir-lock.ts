import { hostname } from 'node:os';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processSlot } from '../process-slot';
import { isShared, markShared } from '../shared-class';

// The embedded database (PGlite) serves one process and has no lock of its own: a second process
// opening the same folder (a second server, `npm run admin`, `npm run backup`) would write the
// same files from two copies of PostgreSQL's memory and corrupt them. Whoever opens the folder
// first writes `<folder>.lock` (DATA_DIR/pglite.lock) with its process id; the others refuse.
// A lock left by a process that died (kill -9, a crash) is taken over: its process id is gone.

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${folder} is in use by process ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.since}). ` +
        `PGlite serves one process at a time: stop that process first. If none is running, remove ${lockFile(folder)}.`,
    );
    markShared(this, 'DataDirInUseError');
  }

  /** Recognises one thrown by another copy of this module (lib/shared-class.ts). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return isShared(value, 'DataDirInUseError');
  }
}

export const lockFile = (folder: string) => `${folder.replace(/\/+$/, '')}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function read(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The process that holds the folder, if another one does. Another machine's lock (a folder shared
 * over the network, another container) cannot be checked: it counts as held.
 */
export function lockHolder(folder: string): LockHolder | undefined {
  const holder = read(lockFile(folder));
  if (!holder || holder.pid === process.pid) return undefined;
  if (holder.host === hostname() && !alive(holder.pid)) return undefined;
  return holder;
}

/** How many holders in this process per lock file: one count per process (lib/process-slot.ts), or one copy's release would free another's lock. */
const held = processSlot<Map<string, number>>('data-dir-locks').getOrCreate(() => new Map());

/** Takes the folder for this process (again, if it has it already); answers the release. */
export function lockDataDir(folder: string): () => void {
  const file = lockFile(folder);
  const holder = lockHolder(folder);
  if (holder) throw new DataDirInUseError(folder, holder);
  if (!held.has(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const mine: LockHolder = { pid: process.pid, host: hostname(), command: process.argv.slice(1, 3).join(' ').slice(0, 200), since: new Date().toISOString() };
    // Created only if absent ('wx'), so two processes starting in the same instant cannot both
    // have it; a stale lock (its process is gone) is removed first.
    if (existsSync(file) && read(file)?.pid !== process.pid) unlinkSync(file);
    try {
      writeFileSync(file, JSON.stringify(mine), { mode: 0o600, flag: read(file)?.pid === process.pid ? 'w' : 'wx' });
    } catch (error) {
      const other = (error as NodeJS.ErrnoException).code === 'EEXIST' ? read(file) : undefined;
      if (other) throw new DataDirInUseError(folder, other);
      throw error;
    }
  }
  held.set(file, (held.get(file) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const count = (held.get(file) ?? 1) - 1;
    if (count > 0) return void held.set(file, count);
    held.delete(file);
    removeIfMine(file);
  };
}

function removeIfMine(file: string) {
  if (existsSync(file) && read(file)?.pid === process.pid) {
    try {
      unlinkSync(file);
    } catch {
      // Gone already.
    }
  }
}

// A process that exits without closing the database still leaves no lock behind.
process.once('exit', () => {
  for (const file of held.keys()) removeIfMine(file);
});
