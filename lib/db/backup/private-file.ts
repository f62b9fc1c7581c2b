import { closeSync, openSync, rmSync } from 'node:fs';

// A backup holds every password hash, the sealed two-factor secrets, recovery-code hashes,
// e-mails and contacts: only the user who made it may read it (issue 44, item 4). The file is
// created with mode 0600, never chmod-ed afterwards, so it is never readable by others, not
// even for a moment, whatever the shell's umask.

/** Mode of a backup file: read and write for its owner only. */
export const BACKUP_FILE_MODE = 0o600;

/**
 * Creates `file` (a backup's `.partial`) for writing, owner-only, and returns its descriptor. A
 * leftover of an interrupted run is removed first: reusing it would keep its old mode, and
 * O_EXCL never follows a link someone left at that name.
 */
export function createPrivateFile(file: string): number {
  rmSync(file, { force: true });
  return openSync(file, 'wx', BACKUP_FILE_MODE);
}

/** Runs `write` on a new owner-only `file`; removes the file if `write` throws. */
export function writePrivateFile(file: string, write: (fd: number) => void): void {
  const fd = createPrivateFile(file);
  try {
    write(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
}
