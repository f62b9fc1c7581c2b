import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DataDirInUseError, lockDataDir } from '../data-dir-lock';
import { writePrivateFile } from './private-file';
import { BackupRefusal, CONTENTS_SQL, type Contents } from './refusal';

// The embedded database's backup is PGlite's own dumpDataDir(): a gzipped tarball of the whole
// database folder, which PGlite.create({ loadDataDir }) opens again. It is taken with the folder
// locked (data-dir-lock.ts): PGlite serves one process, so while the server has the folder open
// the backup refuses instead of opening it a second time (which would corrupt it).

type PGliteClass = typeof import('@electric-sql/pglite').PGlite;
const pglite = async (): Promise<PGliteClass> => (await import('@electric-sql/pglite')).PGlite;

function lock(folder: string, doing: string): () => void {
  try {
    return lockDataDir(folder);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const { pid, command } = error.holder;
    throw new BackupRefusal(
      `The embedded database in ${folder} is open in process ${pid} (${command}), most likely the Enclave server. ` +
        `Stop it, ${doing}, then start it again: PGlite serves one process at a time. ` +
        `(If no such process runs, remove ${folder}.lock.)`,
    );
  }
}

async function contents(db: InstanceType<PGliteClass>): Promise<Contents> {
  const { rows } = await db.query<Contents>(CONTENTS_SQL);
  return rows[0]!;
}

/** Writes the database folder to `file` (.tar.gz); refuses while another process has it open. */
export async function backupEmbedded(folder: string, file: string): Promise<Contents & { bytes: number }> {
  if (!existsSync(path.join(folder, 'PG_VERSION'))) {
    throw new BackupRefusal(`No embedded database in ${folder}. Set DATA_DIR to the folder the server uses (the one that holds pglite/).`);
  }
  if (existsSync(file)) throw new BackupRefusal(`${file} exists already: name another file.`);
  const unlock = lock(folder, 'run npm run backup again');
  try {
    const db = await (await pglite()).create(folder);
    try {
      const found = await contents(db);
      const dump = await db.dumpDataDir('gzip');
      const bytes = Buffer.from(await dump.arrayBuffer());
      // Whole or not at all: a backup cut short by a full disk is never left under its name.
      const partial = `${file}.partial`;
      writePrivateFile(partial, (fd) => {
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      });
      renameSync(partial, file);
      return { ...found, bytes: bytes.length };
    } finally {
      await db.close();
    }
  } finally {
    unlock();
  }
}

/**
 * Opens the backup into `folder`, which must be empty or absent (else `force`: the database there
 * is moved aside, never deleted), and checks that it opens and holds Enclave's tables. It is
 * loaded into a folder beside the target first, so a bad file leaves the target as it was.
 */
export async function restoreEmbedded(file: string, folder: string, options: { force: boolean }): Promise<Contents & { movedAside?: string }> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupRefusal(`No backup file at ${file}.`);
  const unlock = lock(folder, 'restore');
  const staging = `${folder}.restoring-${process.pid}`;
  try {
    const occupied = existsSync(folder) && readdirSync(folder).length > 0;
    if (occupied && !options.force) {
      throw new BackupRefusal(
        `${folder} already holds a database. Restore into an empty DATA_DIR, or add --force to replace it (the current one is kept beside it).`,
      );
    }
    rmSync(staging, { recursive: true, force: true });
    let found: Contents;
    try {
      const db = await (await pglite()).create(staging, { loadDataDir: new Blob([readFileSync(file)]) });
      try {
        found = await contents(db);
      } finally {
        await db.close();
      }
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw new BackupRefusal(`${file} is not a backup of Enclave's embedded database (${(error as Error).message}); nothing was changed.`);
    }
    let movedAside: string | undefined;
    if (occupied) {
      movedAside = `${folder}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(folder, movedAside);
    } else {
      rmSync(folder, { recursive: true, force: true });
    }
    renameSync(staging, folder);
    return { ...found, movedAside };
  } finally {
    unlock();
  }
}
