import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The CLI as an operator runs it: its own process on its own embedded database, whichever database
// the test run uses, so it runs once, in the PGlite project. The domain functions it calls are
// tested on both databases in admin-cli.test.ts.
describe('issue 18: npm run admin (the CLI process, against its own embedded database)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'enclave-admin-cli-'));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_OPTIONS: '' };
  const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const run = (script: string, args: string[], extra: Record<string, string> = {}) =>
    spawnSync(tsx, ['--conditions=react-server', script, ...args], { env: { ...env, ...extra }, encoding: 'utf8', timeout: 120_000 });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // The process's part: its own database from DATA_DIR, the exit status, stdout and stderr apart.
  // What each command says is tested in-process, on both databases (admin-cli.test.ts): each run
  // here is a process that loads the app's modules and its database (3–6 s), 15 of them before.
  it('grants and lists on its own database, and exits 1 on a refusal and 2 on wrong usage, on stderr', () => {
    const seeded = run('scripts/seed.ts', [], { SEED_EMAIL: 'operator-test@enclave.local' });
    expect(seeded.status).toBe(0);

    const revoke = run('scripts/admin.ts', ['revoke-admin', 'operator-test@enclave.local']);
    expect([revoke.status, revoke.stdout.trim(), revoke.stderr]).toEqual([0, 'operator-test@enclave.local is now a plain user. Their sessions ended.', '']);

    const unknown = run('scripts/admin.ts', ['grant-admin', 'ghost@enclave.local']);
    expect([unknown.status, unknown.stdout, unknown.stderr.trim()]).toEqual([1, '', 'No account has the e-mail ghost@enclave.local.']);

    const command = run('scripts/admin.ts', ['launch-rockets']);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('Unknown command: launch-rockets');

    const grant = run('scripts/admin.ts', ['grant-admin', 'operator-test@enclave.local']);
    expect(grant.status).toBe(0);
    const admins = run('scripts/admin.ts', ['list-admins']);
    expect([admins.status, admins.stdout.trim()]).toEqual([0, 'operator-test@enclave.local\tDemo User\tactive']);
  }, 120_000);
});
