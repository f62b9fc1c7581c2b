// `npm run backup -- [FILE]`: a backup of the database Enclave uses (issue 34, item 5).
// The embedded database (DATA_DIR/pglite) is written as PGlite's gzipped tarball, with the server
// stopped: PGlite serves one process, so while the server runs this refuses and says so.
// With DATABASE_URL it runs pg_dump --format=custom, which is consistent while the server runs.
import path from 'node:path';
import { config } from '@/lib/environment';
import { backupEmbedded } from '@/lib/db/backup/embedded';
import { backupPostgres } from '@/lib/db/backup/postgres';
import { BackupRefusal, describeContents } from '@/lib/db/backup/refusal';

const USAGE = `Usage: npm run backup -- [FILE]

Writes a backup of Enclave's database to FILE:
  embedded database (no DATABASE_URL): DATA_DIR/pglite as a .tar.gz; stop the server first
                                       (default FILE: enclave-backup-<date>.tar.gz)
  PostgreSQL (DATABASE_URL set):       pg_dump --format=custom; the server may keep running
                                       (default FILE: enclave-backup-<date>.dump)
Restore it with npm run restore -- FILE. Secrets (SESSION_SECRET, DATA_KEY) are not in it: keep them apart.

Exit status: 0 done, 1 refused or failed, 2 wrong usage.`;

const stamp = () => new Date().toISOString().replace(/\..*$/, '').replace(/[-:]/g, '').replace('T', '-');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.some((arg) => ['help', '--help', '-h'].includes(arg))) {
    console.log(USAGE);
    return 0;
  }
  if (args.length > 1 || args.some((arg) => arg.startsWith('-'))) {
    console.error(`Unexpected arguments: ${args.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  const postgres = Boolean(config.databaseUrl);
  if (!postgres && config.dataDir === 'memory://') {
    console.error('DATA_DIR=memory:// keeps the database in memory: there is nothing to back up.');
    return 2;
  }
  const file = path.resolve(args[0] ?? `enclave-backup-${stamp()}.${postgres ? 'dump' : 'tar.gz'}`);
  const started = Date.now();
  try {
    const done = postgres ? await backupPostgres(config.databaseUrl!, file) : await backupEmbedded(path.join(config.dataDir, 'pglite'), file);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`Backed up ${postgres ? 'the PostgreSQL database' : `the embedded database in ${config.dataDir}`} to ${file}`);
    console.log(`${(done.bytes / 1024).toFixed(0)} KiB in ${seconds} s: ${describeContents(done)}.`);
    return 0;
  } catch (error) {
    console.error(error instanceof BackupRefusal ? error.message : error);
    return 1;
  }
}

main().then((code) => process.exit(code));
