// Issue 44, item 4: `npm run backup` writes a file only its owner can read (0600), whatever the
// shell's umask: the backup holds every password hash, the sealed two-factor secrets,
// recovery-code hashes, e-mails and contacts. Run as an operator runs it (tsx, the script's own
// process) under umask 000, the most permissive: on the embedded database in the PGlite project,
// on PostgreSQL (pg_dump) in the integration-postgres project.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDb, getDb } from '@/lib/db/client';

const postgres = Boolean(process.env.DATABASE_URL);
const folder = mkdtempSync(path.join(os.tmpdir(), 'enclave-backup-mode-'));
const dataDir = path.join(folder, 'data');
const env = { ...process.env, NODE_OPTIONS: '', ...(postgres ? { DATA_DIR: '' } : { DATA_DIR: dataDir, DATABASE_URL: '' }) };
const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

/** `npm run backup -- FILE` in a shell whose umask lets anyone read what it makes. */
function backup(file: string) {
  return spawnSync('sh', ['-c', 'umask 000 && exec "$0" --conditions=react-server scripts/backup.ts "$1"', tsx, file], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
}
const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

beforeAll(async () => {
  // The database to back up: PostgreSQL's is the suite's own (migrated on opening); the embedded
  // one a seeded DATA_DIR of its own.
  if (postgres) return void (await getDb());
  expect(spawnSync(tsx, ['--conditions=react-server', 'scripts/seed.ts'], { env, encoding: 'utf8', timeout: 120_000 }).status).toBe(0);
}, 180_000);
afterAll(async () => {
  if (postgres) await closeDb();
  rmSync(folder, { recursive: true, force: true });
});

describe(`npm run backup (${postgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('writes the backup owner-only under umask 000', () => {
    // The umask really is permissive: what the shell makes itself is world-readable.
    const probe = path.join(folder, 'probe');
    expect(spawnSync('sh', ['-c', 'umask 000 && : > "$0"', probe]).status).toBe(0);
    expect(modeOf(probe)).toBe('666');

    const file = path.join(folder, postgres ? 'enclave.dump' : 'enclave.tar.gz');
    const done = backup(file);
    expect([done.status, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain(`to ${file}`);
    expect(modeOf(file)).toBe('600');
    expect(existsSync(`${file}.partial`)).toBe(false);
  }, 120_000);

  it('does not reuse the mode of a .partial an interrupted run left behind', () => {
    const file = path.join(folder, postgres ? 'again.dump' : 'again.tar.gz');
    writeFileSync(`${file}.partial`, 'cut short');
    chmodSync(`${file}.partial`, 0o666);
    const done = backup(file);
    expect([done.status, done.stderr]).toEqual([0, '']);
    expect(modeOf(file)).toBe('600');
    expect(statSync(file).size).toBeGreaterThan(1_000);
  }, 120_000);
});
