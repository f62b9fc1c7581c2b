import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { auditLog, tokens, users } from '@/lib/db/schema';
import { disableAccount, enableAccount } from '@/lib/admin/account-state';
import { OPERATOR } from '@/lib/audit/audit-log';
import { issueMeetingCard } from '@/lib/admin/meeting-card';
import { setPlan } from '@/lib/admin/plans';
import { grantAdmin, listAdmins, revokeAdmin } from '@/lib/admin/roles';
import { ApiError } from '@/lib/errors';
import { createUser } from '../support/api';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error) => (error instanceof ApiError ? `${error.code}${error.field ? `:${error.field}` : ''}` : String(error)),
  );

async function row(id: string) {
  const [user] = await (await getDb()).select().from(users).where(eq(users.id, id));
  return user!;
}

describe('issue 18: the operator domain functions (shared by the CLI and the admin area)', () => {
  it('grant-admin and revoke-admin change the role, end the sessions and are audited as "operator (CLI)"', async () => {
    const { user } = await createUser();
    expect(await grantAdmin({ email: user.email.toUpperCase() }, OPERATOR)).toEqual({ email: user.email, changed: true });
    expect(await row(user.id)).toMatchObject({ role: 'admin', sessionVersion: user.sessionVersion + 1 });
    expect((await listAdmins()).map((a) => a.email)).toContain(user.email);
    expect(await grantAdmin({ email: user.email }, OPERATOR)).toEqual({ email: user.email, changed: false });
    await revokeAdmin({ email: user.email }, OPERATOR);
    expect((await row(user.id)).role).toBe('user');
    const entries = await (await getDb()).select().from(auditLog).where(eq(auditLog.targetUserId, user.id));
    expect(entries.map((e) => [e.action, e.actor, e.actorId])).toEqual(
      expect.arrayContaining([
        ['grant_admin', 'operator (CLI)', null],
        ['revoke_admin', 'operator (CLI)', null],
      ]),
    );
    expect(entries).toHaveLength(2);
  });

  it.each([
    { plan: 'individual', rooms: undefined, expected: 'ok', stored: 1 },
    { plan: 'individual', rooms: 2, expected: 'incorrect_data:numberOfRooms', stored: null },
    { plan: 'executive', rooms: 2, expected: 'ok', stored: 2 },
    { plan: 'executive', rooms: 30, expected: 'ok', stored: 30 },
    { plan: 'executive', rooms: 31, expected: 'incorrect_data:numberOfRooms', stored: null },
    { plan: 'executive', rooms: 1, expected: 'incorrect_data:numberOfRooms', stored: null },
    { plan: 'executive', rooms: undefined, expected: 'ok', stored: 2 },
    { plan: 'enterprise', rooms: 250, expected: 'ok', stored: 250 },
    { plan: 'enterprise', rooms: 0, expected: 'incorrect_data:numberOfRooms', stored: null },
    { plan: 'gold', rooms: 1, expected: 'incorrect_data:accountType', stored: null },
  ])('set-plan $plan $rooms → $expected', async ({ plan, rooms, expected, stored }) => {
    const { user } = await createUser();
    expect(await code(setPlan({ email: user.email }, plan as 'individual', rooms, OPERATOR))).toBe(expected);
    const after = await row(user.id);
    if (stored === null) expect(after).toMatchObject({ accountType: 'individual', numberOfRooms: 1, isTrial: true });
    else expect(after).toMatchObject({ accountType: plan, numberOfRooms: stored, isTrial: false });
  });

  it('an unknown e-mail is user_not_found for every command', async () => {
    const ref = { email: 'nobody-here@example.test' };
    // One at a time: promises made up front would reject before anyone awaits them (on
    // PostgreSQL they run in parallel), which Node reports as unhandled.
    const attempts = [
      () => grantAdmin(ref, OPERATOR),
      () => revokeAdmin(ref, OPERATOR),
      () => setPlan(ref, 'executive', 5, OPERATOR),
      () => disableAccount(ref, OPERATOR),
      () => enableAccount(ref, OPERATOR),
    ];
    for (const attempt of attempts) expect(await code(attempt())).toBe('user_not_found');
  });

  it('disable ends the sessions (session version +1); enable makes the account active again', async () => {
    const { user } = await createUser();
    await disableAccount({ email: user.email }, OPERATOR);
    expect(await row(user.id)).toMatchObject({ state: 'disabled', sessionVersion: user.sessionVersion + 1 });
    await enableAccount({ email: user.email }, OPERATOR);
    expect((await row(user.id)).state).toBe('active');
  });

  it('issue-card creates an active meeting-card account with a one-time link; again, it voids the older link', async () => {
    const email = `card-${Date.now()}@example.test`;
    const first = await issueMeetingCard({ email }, OPERATOR);
    expect(first).toMatchObject({ email, created: true, link: expect.stringMatching(/\/login#card=[\w-]{40,}$/) });
    const [account] = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect(account).toMatchObject({ enableMCard: true, state: 'active', role: 'user' });
    const second = await issueMeetingCard({ email }, OPERATOR);
    expect(second.created).toBe(false);
    const links = await (await getDb()).select().from(tokens).where(eq(tokens.userId, account!.id));
    expect(links.filter((t) => t.usedAt === null)).toHaveLength(1);
    expect(await code(issueMeetingCard({ email: 'nope' }, OPERATOR))).toBe('format_email:email');
  });
});

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
