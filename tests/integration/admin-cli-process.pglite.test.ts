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

  it('grants, refuses bad input with a clear message and a non-zero exit, and lists admins', () => {
    const seeded = run('scripts/seed.ts', [], { SEED_EMAIL: 'operator-test@enclave.local' });
    expect(seeded.status).toBe(0);

    const revoke = run('scripts/admin.ts', ['revoke-admin', 'operator-test@enclave.local']);
    expect([revoke.status, revoke.stdout.trim()]).toEqual([0, 'operator-test@enclave.local is now a plain user. Their sessions ended.']);

    const unknown = run('scripts/admin.ts', ['grant-admin', 'ghost@enclave.local']);
    expect([unknown.status, unknown.stderr.trim()]).toEqual([1, 'No account has the e-mail ghost@enclave.local.']);

    const rooms = run('scripts/admin.ts', ['set-plan', 'operator-test@enclave.local', 'executive', '31']);
    expect([rooms.status, rooms.stderr.trim()]).toEqual([1, 'The executive plan takes 2 to 30 rooms; got 31.']);

    const plan = run('scripts/admin.ts', ['set-plan', 'operator-test@enclave.local', 'platinum']);
    expect(plan.status).toBe(2);
    expect(plan.stderr).toContain('PLAN must be one of individual, executive, enterprise; got platinum.');

    const command = run('scripts/admin.ts', ['launch-rockets']);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('Unknown command: launch-rockets');

    const grant = run('scripts/admin.ts', ['grant-admin', 'operator-test@enclave.local']);
    expect(grant.status).toBe(0);
    const admins = run('scripts/admin.ts', ['list-admins']);
    expect([admins.status, admins.stdout.trim()]).toEqual([0, 'operator-test@enclave.local\tDemo User\tactive']);

    const help = run('scripts/admin.ts', ['help']);
    expect(help.status).toBe(0);
    for (const name of ['grant-admin', 'revoke-admin', 'set-plan', 'disable', 'enable', 'issue-card', 'invite', 'list-admins'])
      expect(help.stdout).toContain(name);

    // Issue 35: the operator invites by mail from the CLI, and the link is printed for them too.
    const invite = run('scripts/admin.ts', ['invite', 'newcomer@enclave.local', 'de'], { REGISTRATION: 'invitation' });
    expect(invite.status).toBe(0);
    expect(invite.stdout).toMatch(
      /^Invitation mailed to newcomer@enclave\.local \(works once, until \d{4}-.*\):\nhttp:\/\/\S+\/register\?invitation=[\w-]{43}$/m,
    );
    const taken = run('scripts/admin.ts', ['invite', 'operator-test@enclave.local']);
    expect([taken.status, taken.stderr.trim()]).toEqual([1, 'operator-test@enclave.local already has an account.']);
    const closed = run('scripts/admin.ts', ['invite', 'other@enclave.local'], { REGISTRATION: 'closed' });
    expect(closed.status).toBe(1);
    expect(closed.stderr).toContain('Registration is closed on this server');
    const language = run('scripts/admin.ts', ['invite', 'other@enclave.local', 'klingon']);
    expect([language.status, language.stderr]).toEqual([2, expect.stringContaining('LANG must be one of en,')]);
    const address = run('scripts/admin.ts', ['invite', 'not-an-address']);
    expect([address.status, address.stderr.trim()]).toEqual([1, '"not-an-address" is not an e-mail address.']);
  }, 240_000);
});
