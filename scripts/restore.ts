// `npm run restore -- FILE [--force]`: puts back a backup made by `npm run backup` (issue 34, item 5).
// Into an empty database only (a new DATA_DIR, or a new PostgreSQL database) unless --force, and
// never under a running server. It checks that the result opens; the server applies any newer
// migrations when it starts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/lib/environment';
import { restoreEmbedded } from '@/lib/db/backup/embedded';
import { restorePostgres } from '@/lib/db/backup/postgres';
import { BackupRefusal, describeContents } from '@/lib/db/backup/refusal';

const USAGE = `Usage: npm run restore -- FILE [--force]

Restores a backup made by npm run backup:
  embedded database (no DATABASE_URL): into DATA_DIR/pglite, which must be empty or absent;
                                       the server must be stopped
  PostgreSQL (DATABASE_URL set):       pg_restore into that database, which must have no tables
                                       (createdb a new one and point DATABASE_URL at it)
  --force                              replace the database that is there (embedded: kept beside it
                                       as pglite.before-restore-<date>; PostgreSQL: pg_restore --clean)

Exit status: 0 done, 1 refused or failed, 2 wrong usage.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.some((arg) => ['help', '--help', '-h'].includes(arg))) {
    console.log(USAGE);
    return 0;
  }
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  if (files.length !== 1 || files[0]!.startsWith('-')) {
    console.error(`${files.length === 0 ? 'Name the backup file to restore.' : `Unexpected arguments: ${args.join(' ')}`}\n\n${USAGE}`);
    return 2;
  }
  const postgres = Boolean(config.databaseUrl);
  if (!postgres && config.dataDir === 'memory://') {
    console.error('DATA_DIR=memory:// keeps the database in memory: set DATA_DIR to the folder to restore into.');
    return 2;
  }
  const file = path.resolve(files[0]!);
  try {
    if (postgres) {
      const done = await restorePostgres(config.databaseUrl!, file, { force });
      console.log(`Restored ${file} into the PostgreSQL database: ${describeContents(done)}.`);
    } else {
      const done = await restoreEmbedded(file, path.join(config.dataDir, 'pglite'), { force });
      console.log(`Restored ${file} into ${config.dataDir}: ${describeContents(done)}.`);
      if (done.movedAside) console.log(`The database that was there is kept in ${done.movedAside}.`);
      if (!process.env.DATA_KEY?.trim() && !process.env.SESSION_SECRET?.trim() && !existsSync(path.join(config.dataDir, 'session-secret'))) {
        console.log(
          `Without DATA_KEY, two-factor secrets open only with the session-secret file of the old DATA_DIR: copy it into ${config.dataDir} before starting.`,
        );
      }
    }
    console.log('Start the server (npm start): it applies the migrations of a newer release, if any.');
    return 0;
  } catch (error) {
    console.error(error instanceof BackupRefusal ? error.message : error);
    return 1;
  }
}

main().then((code) => process.exit(code));
