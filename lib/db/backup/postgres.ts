import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, statSync } from 'node:fs';
import { writePrivateFile } from './private-file';
import { BackupRefusal, CONTENTS_SQL, type Contents } from './refusal';

// PostgreSQL's backup is its own: pg_dump --format=custom, read back by pg_restore. These wrap
// them so that `npm run backup` / `npm run restore` work the same for either database; an
// operator may as well run the two tools by hand (docs/self-hosting/backups-and-upgrades.md).

/** The URL without its password, which goes to the tools in PGPASSWORD (not on `ps`'s list). */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs the tool; `output`: a descriptor that receives its standard output (the dump). */
function run(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv, output?: number) {
  const result = spawnSync(tool, args, { env, encoding: 'utf8', stdio: ['ignore', output ?? 'pipe', 'pipe'] });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new BackupRefusal(
      `${tool} is not installed: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), of the server's major version or newer.`,
    );
  }
  if (result.status !== 0) throw new BackupRefusal(`${tool} failed: ${(result.stderr || result.stdout || '').trim()}`);
}

async function withClient<T>(url: string, work: (sql: import('postgres').Sql) => Promise<T>): Promise<T> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** pg_dump --format=custom of the whole database into `file`. */
export async function backupPostgres(url: string, file: string): Promise<Contents & { bytes: number }> {
  if (existsSync(file)) throw new BackupRefusal(`${file} exists already: name another file.`);
  const found = await withClient(url, async (sql) => (await sql.unsafe<Contents[]>(CONTENTS_SQL))[0]!);
  const { dbname, env } = connection(url);
  const partial = `${file}.partial`;
  // --no-owner: the backup restores into a database owned by whichever role restores it. The dump
  // goes to a file this process made owner-only (pg_dump --file would follow the umask).
  const args = ['--format=custom', '--no-owner', '--no-privileges', `--dbname=${dbname}`];
  writePrivateFile(partial, (fd) => run('pg_dump', args, env, fd));
  renameSync(partial, file);
  return { ...found, bytes: statSync(file).size };
}

/**
 * pg_restore into the database of `url`, which must have no tables (a new database: createdb),
 * else `force` replaces what is there (--clean) — refused while anyone else is connected to it.
 */
export async function restorePostgres(url: string, file: string, options: { force: boolean }): Promise<Contents> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupRefusal(`No backup file at ${file}.`);
  const { tables, others } = await withClient(url, async (sql) => {
    const [row] = await sql<{ tables: number; others: number }[]>`select
      (select count(*) from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema'))::int as tables,
      (select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid())::int as others`;
    return row!;
  });
  if (tables > 0 && !options.force) {
    throw new BackupRefusal(
      'The database in DATABASE_URL already has tables. Restore into a new, empty database (createdb enclave_restored), ' +
        'then point DATABASE_URL at it; or add --force to replace what is there.',
    );
  }
  if (others > 0) {
    throw new BackupRefusal(`${others} other connection(s) use this database, most likely the Enclave server: stop it first, then restore.`);
  }
  const { dbname, env } = connection(url);
  const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`];
  if (tables > 0) args.push('--clean', '--if-exists');
  run('pg_restore', [...args, file], env);
  return withClient(url, async (sql) => (await sql.unsafe<Contents[]>(CONTENTS_SQL))[0]!);
}
