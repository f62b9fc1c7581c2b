// Issue 34, item 5: `npm run backup` / `npm run restore`. A database filled through the app's own
// functions is backed up, restored into an empty one, and a real server (the suite's build) opens
// the restored copy: the account logs in with its password and finds its meeting, room and
// contact. For the embedded database and for PostgreSQL (pg_dump/pg_restore, custom format); and
// the embedded one refuses while the server has it open.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectUsable, fill, runScript } from './support/backup';
import { migrationFiles } from './support/previous-release';
import { createDatabase, extraPort, startInstance, tempDataDir } from './support/instances';

test.describe.configure({ timeout: 180_000 });

test('embedded database: backup, restore into an empty DATA_DIR, and the restored copy serves the account', async () => {
  const source = tempDataDir();
  const target = tempDataDir();
  const files = tempDataDir();
  try {
    const filled = fill({ DATA_DIR: source.dir, FILL_TAG: 'embedded' });
    const file = path.join(files.dir, 'enclave.tar.gz');

    const backup = runScript('scripts/backup.ts', [file], { DATA_DIR: source.dir });
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toContain(`1 account(s), 1 room(s), 1 meeting(s), ${migrationFiles(process.cwd()).length} migration(s) applied`);
    test.info().annotations.push({ type: 'backup', description: `${statSync(file).size} bytes in ${backup.seconds.toFixed(1)} s` });
    // The same file again is refused rather than written over.
    expect(runScript('scripts/backup.ts', [file], { DATA_DIR: source.dir }).status).toBe(1);

    const restore = runScript('scripts/restore.ts', [file], { DATA_DIR: target.dir, SESSION_SECRET: 'x'.repeat(40) });
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain(`Restored ${file} into ${target.dir}: 1 account(s)`);
    test.info().annotations.push({ type: 'restore', description: `${restore.seconds.toFixed(1)} s` });
    // Into a folder that holds a database: refused without --force.
    const again = runScript('scripts/restore.ts', [file], { DATA_DIR: target.dir });
    expect([again.status, again.stderr.trim()]).toEqual([
      1,
      `${path.join(target.dir, 'pglite')} already holds a database. Restore into an empty DATA_DIR, or add --force to replace it (the current one is kept beside it).`,
    ]);

    const server = await startInstance(extraPort(40), { DATA_DIR: target.dir });
    try {
      await expectUsable(server.url, filled);
      // While the server has the folder open, both commands refuse and say what to do.
      const online = runScript('scripts/backup.ts', [path.join(files.dir, 'online.tar.gz')], { DATA_DIR: target.dir });
      expect(online.status).toBe(1);
      expect(online.stderr).toMatch(/^The embedded database in .* is open in process \d+ .*Stop it, run npm run backup again, then start it again/);
      expect(existsSync(path.join(files.dir, 'online.tar.gz'))).toBe(false);
      const forced = runScript('scripts/restore.ts', [file, '--force'], { DATA_DIR: target.dir });
      expect(forced.status).toBe(1);
      expect(forced.stderr).toContain('Stop it, restore, then start it again');
      // So does a second server on the same folder.
      const second = await startInstance(extraPort(41), { DATA_DIR: target.dir }).then(
        (instance) => instance.stop().then(() => 'started'),
        (error: Error) => error.message,
      );
      expect(second).toMatch(/Enclave will not start: The embedded database in .* is in use by process \d+/);
    } finally {
      await server.stop();
    }
    // Stopped, the folder is free again: --force replaces it and keeps the old one beside it.
    const forced = runScript('scripts/restore.ts', [file, '--force'], { DATA_DIR: target.dir });
    expect(forced.status).toBe(0);
    expect(readdirSync(target.dir).filter((name) => name.startsWith('pglite.before-restore-'))).toHaveLength(1);
  } finally {
    [source, target, files].forEach((folder) => folder.remove());
  }
});

test('PostgreSQL: pg_dump --format=custom, pg_restore into a new database, and the server opens it', async () => {
  const source = await createDatabase();
  const target = await createDatabase();
  const files = tempDataDir();
  try {
    const filled = fill({ DATABASE_URL: source.url, FILL_TAG: 'postgres' });
    const file = path.join(files.dir, 'enclave.dump');
    const backup = runScript('scripts/backup.ts', [file], { DATABASE_URL: source.url });
    expect(backup.status).toBe(0);
    expect(backup.stdout).toContain(`1 account(s), 1 room(s), 1 meeting(s), ${migrationFiles(process.cwd()).length} migration(s) applied`);
    test.info().annotations.push({ type: 'backup', description: `${statSync(file).size} bytes in ${backup.seconds.toFixed(1)} s` });

    const restore = runScript('scripts/restore.ts', [file], { DATABASE_URL: target.url });
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain('Restored');
    test.info().annotations.push({ type: 'restore', description: `${restore.seconds.toFixed(1)} s` });
    const again = runScript('scripts/restore.ts', [file], { DATABASE_URL: target.url });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already has tables. Restore into a new, empty database');

    const server = await startInstance(extraPort(42), { DATABASE_URL: target.url });
    try {
      await expectUsable(server.url, filled);
      // --force under a running server: refused.
      const forced = runScript('scripts/restore.ts', [file, '--force'], { DATABASE_URL: target.url });
      expect(forced.status).toBe(1);
      expect(forced.stderr).toMatch(/other connection\(s\) use this database.*stop it first/);
    } finally {
      await server.stop();
    }
  } finally {
    files.remove();
    await Promise.all([source.drop(), target.drop()]);
  }
});

test('the commands answer wrong usage with exit status 2', () => {
  const folder = tempDataDir();
  try {
    mkdirSync(path.join(folder.dir, 'x'));
    expect(runScript('scripts/restore.ts', [], { DATA_DIR: folder.dir }).status).toBe(2);
    expect(runScript('scripts/backup.ts', ['a', 'b'], { DATA_DIR: folder.dir }).status).toBe(2);
    const missing = runScript('scripts/backup.ts', [], { DATA_DIR: folder.dir });
    expect([missing.status, missing.stderr.trim()]).toEqual([
      1,
      `No embedded database in ${path.join(folder.dir, 'pglite')}. Set DATA_DIR to the folder the server uses (the one that holds pglite/).`,
    ]);
  } finally {
    folder.remove();
  }
});
