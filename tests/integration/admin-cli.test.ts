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
