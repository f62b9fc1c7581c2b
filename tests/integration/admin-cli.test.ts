import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { auditLog, tokens, users } from '@/lib/db/schema';
import { disableAccount, enableAccount } from '@/lib/admin/account-state';
import { OPERATOR } from '@/lib/audit/audit-log';
import { issueMeetingCard } from '@/lib/admin/meeting-card';
import { setPlan } from '@/lib/admin/plans';
import { grantAdmin, listAdmins, revokeAdmin } from '@/lib/admin/roles';
import { ApiError } from '@/lib/errors';
import { runAdminCli } from '@/lib/admin/cli';
import { config } from '@/lib/environment';
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

/** Runs the CLI in this process: its exit status and what it wrote where. */
async function cli(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await runAdminCli(argv, { log: (line) => stdout.push(line), error: (line) => stderr.push(line) });
  return { status, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

describe("issue 18: the CLI's words and exit codes (0 done, 1 refused, 2 wrong usage)", () => {
  // The environment's REGISTRATION as lib/environment.ts read it (registration-policy.test.ts does the same).
  const env = config as unknown as { registration?: string };
  afterEach(() => {
    env.registration = undefined;
  });

  it('says what it changed, and why it refused in words an operator reads', async () => {
    const { user } = await createUser();
    expect(await cli('revoke-admin', user.email)).toEqual({ status: 0, stdout: `${user.email} was not an admin.`, stderr: '' });
    expect(await cli('grant-admin', user.email)).toMatchObject({
      status: 0,
      stdout: `${user.email} is now an admin. Their sessions ended; they log in again to use the admin area.`,
    });
    expect((await cli('list-admins')).stdout).toContain(`${user.email}\tTest User\tactive`);
    expect(await cli('grant-admin', 'ghost@enclave.local')).toEqual({ status: 1, stdout: '', stderr: 'No account has the e-mail ghost@enclave.local.' });
    expect(await cli('set-plan', user.email, 'executive', '31')).toMatchObject({ status: 1, stderr: 'The executive plan takes 2 to 30 rooms; got 31.' });
    expect(await cli('set-plan', user.email, 'executive', '3')).toMatchObject({ status: 0, stdout: `${user.email}: executive plan, 3 room(s), trial ended.` });
  });

  it('wrong usage exits 2 with the usage text; help lists every command', async () => {
    const plan = await cli('set-plan', 'someone@enclave.local', 'platinum');
    expect(plan.status).toBe(2);
    expect(plan.stderr).toContain('PLAN must be one of individual, executive, enterprise; got platinum.');
    expect(plan.stderr).toContain('Usage: npm run admin');
    expect(await cli('set-plan', 'someone@enclave.local', 'executive', 'many')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('ROOMS must be a whole number; got many.'),
    });
    expect(await cli('grant-admin')).toMatchObject({ status: 2, stderr: expect.stringContaining('This command needs an e-mail address.') });
    expect(await cli('launch-rockets')).toMatchObject({ status: 2, stderr: expect.stringContaining('Unknown command: launch-rockets') });
    const help = await cli('help');
    expect(help.status).toBe(0);
    for (const name of ['grant-admin', 'revoke-admin', 'set-plan', 'disable', 'enable', 'issue-card', 'invite', 'list-admins'])
      expect(help.stdout).toContain(name);
  });

  it('invite mails an invitation and prints its link, also when registration is by invitation only; refuses a taken address, a closed server, a bad language or address', async () => {
    const { user } = await createUser();
    const newcomer = `newcomer-${Date.now()}@enclave.local`;
    env.registration = 'invitation';
    const invite = await cli('invite', newcomer, 'de');
    expect(invite.status).toBe(0);
    expect(invite.stdout).toMatch(
      new RegExp(`^Invitation mailed to ${newcomer.replace(/[.]/g, '\\.')} \\(works once, until \\d{4}-.*\\):\\nhttp://\\S+/register\\?invitation=[\\w-]{43}$`),
    );
    expect(await cli('invite', user.email)).toMatchObject({ status: 1, stderr: `${user.email} already has an account.` });
    env.registration = 'closed';
    expect(await cli('invite', 'other@enclave.local')).toMatchObject({ status: 1, stderr: expect.stringContaining('Registration is closed on this server') });
    env.registration = undefined;
    expect(await cli('invite', 'other@enclave.local', 'klingon')).toMatchObject({ status: 2, stderr: expect.stringContaining('LANG must be one of en,') });
    expect(await cli('invite', 'not-an-address')).toEqual({ status: 1, stdout: '', stderr: '"not-an-address" is not an e-mail address.' });
  });
});
