import { and, eq, sql } from 'drizzle-orm';
import { config } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import { auditLog, configuration, invitations, mailOutbox, users } from '@/lib/db/schema';
import { POST as register } from '@/app/register/route';
import { POST as login } from '@/app/login/route';
import { POST as invite } from '@/app/api/invitations/route';
import { POST as saveConfiguration } from '@/app/api/admin/configuration/route';
import { call, createUser, sessionCookies } from '../support/api';
import { fromIp, lastMailTo, mailCount, registration, uniqueEmail } from '../support/accounts';

// Issue 35, item 2: who may register. The environment gives the default, the admin's setting
// overrides it; POST /register refuses with catalogue codes and leaves nothing behind.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const env = config as unknown as { registration?: string; registrationDomains?: string };
afterEach(async () => {
  env.registration = undefined;
  env.registrationDomains = undefined;
  const db = await getDb();
  await db.update(configuration).set({ registration: null, registrationDomains: null, usersMayInvite: false }).where(eq(configuration.id, 1));
});

async function accountCount(email: string) {
  const db = await getDb();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return rows.length;
}
const registerAs = (body: Record<string, unknown>) => call(register, { body, headers: fromIp() });

/** A refusal: its code, 403, and neither an account nor a new mail for the address. */
async function expectRefused(body: ReturnType<typeof registration>, code: string) {
  const mailsBefore = await mailCount(body.email);
  const answer = await registerAs(body);
  expect(answer.status).toBe(403);
  expect(answer.json).toMatchObject({ status: 'error', errorCode: code });
  expect(answer.json.message).toEqual(expect.any(String));
  expect(await accountCount(body.email)).toBe(0);
  expect(await mailCount(body.email)).toBe(mailsBefore);
}

let admin: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  admin = await createUser({ role: 'admin', firstName: 'Grace', lastName: 'Hopper', lang: 'de' });
});
const configure = (body: Record<string, unknown>) => call(saveConfiguration, { body, cookies: sessionCookies(admin.cookie) });
const sendInvitation = (cookie: string, email: string) => call(invite, { body: { email }, cookies: sessionCookies(cookie) });

/** Invites `email` as the admin; answers the token of the mailed link. */
async function invitationFor(email: string) {
  const answer = await sendInvitation(admin.cookie, email);
  expect(answer.json).toMatchObject({ status: 'ok' });
  const { link } = await lastMailTo(email);
  const url = new URL(link!);
  expect(`${url.origin}${url.pathname}`).toBe(`${config.appUrl}/register`);
  return url.searchParams.get('invitation')!;
}

describe('open (the default: SPEC unchanged)', () => {
  it('registers anyone and mails the activation link', async () => {
    const body = registration();
    const answer = await registerAs(body);
    expect(answer.json).toMatchObject({ status: 'ok', errorCode: 'email_sent' });
    expect(await accountCount(body.email)).toBe(1);
  });
});

describe('closed', () => {
  it('refuses everyone with registration_closed, an invited address too', async () => {
    const email = uniqueEmail();
    const token = await invitationFor(email);
    env.registration = 'closed';
    await expectRefused(registration(), 'registration_closed');
    const invited = registration({ email, invitation: token });
    const answer = await registerAs(invited);
    expect(answer.json.errorCode).toBe('registration_closed');
    expect(await accountCount(email)).toBe(0);
    // The invitation is not used up by the refusal.
    const db = await getDb();
    const [row] = await db.select().from(invitations).where(eq(invitations.email, email));
    expect(row!.usedAt).toBeNull();
  });

  it('sends no invitations while closed', async () => {
    env.registration = 'closed';
    const email = uniqueEmail();
    const answer = await sendInvitation(admin.cookie, email);
    expect(answer.json.errorCode).toBe('registration_closed');
    expect(await mailCount(email)).toBe(0);
  });
});

describe('domains', () => {
  beforeEach(() => {
    env.registration = 'domains';
    env.registrationDomains = 'Example.ORG,team.example.com';
  });

  it('admits the listed domains in any letter case, refuses others and unlisted subdomains', async () => {
    const ok = registration({ email: `ann.${Date.now()}@EXAMPLE.org` });
    expect((await registerAs(ok)).json).toMatchObject({ status: 'ok' });
    expect(await accountCount(ok.email)).toBe(1);
    expect((await registerAs(registration({ email: `bo.${Date.now()}@team.example.com` }))).json.status).toBe('ok');
    await expectRefused(registration({ email: `cy.${Date.now()}@mail.example.org` }), 'registration_domain_not_allowed');
    await expectRefused(registration({ email: `di.${Date.now()}@example.com` }), 'registration_domain_not_allowed');
    await expectRefused(registration({ email: `ed.${Date.now()}@example.org.evil.test` }), 'registration_domain_not_allowed');
  });

  it('admits an invited address outside the domains: the inviter vouches for it', async () => {
    const email = uniqueEmail('guest');
    const token = await invitationFor(email);
    expect((await registerAs(registration({ email, invitation: token }))).json.status).toBe('ok');
  });
});

describe('invitation', () => {
  beforeEach(() => {
    env.registration = 'invitation';
  });

  it('refuses without an invitation, and with a made-up one', async () => {
    await expectRefused(registration(), 'registration_invitation_required');
    await expectRefused(registration({ invitation: 'x'.repeat(43) }), 'registration_invitation_required');
  });

  it('registers the invited address once: a second use is refused and leaves nothing', async () => {
    const email = uniqueEmail('invited');
    const token = await invitationFor(email);
    const db = await getDb();
    // Only a hash of the token is stored.
    const [stored] = await db.select().from(invitations).where(eq(invitations.email, email));
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await registerAs(registration({ email: email.toUpperCase(), invitation: token }))).json).toMatchObject({ status: 'ok' });
    expect(await accountCount(email)).toBe(1);
    const [used] = await db.select().from(invitations).where(eq(invitations.email, email));
    expect(used!.usedAt).not.toBeNull();

    // The same link again, for the same (now registered) address and for another one.
    const again = await registerAs(registration({ email, invitation: token }));
    expect(again.json.errorCode).toBe('registration_invitation_required');
    await expectRefused(registration({ invitation: token }), 'registration_invitation_required');
    expect(await accountCount(email)).toBe(1);
  });

  it('refuses an expired invitation', async () => {
    const email = uniqueEmail('late');
    const token = await invitationFor(email);
    const db = await getDb();
    await db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.email, email));
    await expectRefused(registration({ email, invitation: token }), 'registration_invitation_required');
  });

  it('the link lives 14 days', async () => {
    const email = uniqueEmail('ttl');
    const before = Date.now();
    await invitationFor(email);
    const db = await getDb();
    const [row] = await db.select().from(invitations).where(eq(invitations.email, email));
    const days = (row!.expiresAt.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(13.99);
    expect(days).toBeLessThan(14.01);
  });

  it('refuses an invitation for another address, and does not use it up', async () => {
    const email = uniqueEmail('meant');
    const token = await invitationFor(email);
    await expectRefused(registration({ invitation: token }), 'registration_invitation_required');
    expect((await registerAs(registration({ email, invitation: token }))).json.status).toBe('ok');
  });

  it('the invitation proved the address (issue 48): the account is active at once, no activation mail, and it logs in', async () => {
    const email = uniqueEmail('proved');
    const token = await invitationFor(email);
    const mailsBefore = await mailCount(email);
    const body = registration({ email, invitation: token });
    const answer = await registerAs(body);
    expect(answer.json).toMatchObject({ status: 'ok', errorCode: 'success' });
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ state: 'active', verifiedAt: expect.any(Date) });
    expect(await mailCount(email)).toBe(mailsBefore);
    const loggedIn = await call(login, { body: { email, password: body.password }, headers: fromIp() });
    expect(loggedIn.json).toMatchObject({ status: 'ok' });
  });

  it('only that invitation for that address activates: registering without one still needs the mail', async () => {
    env.registration = undefined;
    const email = uniqueEmail('plain');
    const answer = await registerAs(registration({ email }));
    expect(answer.json).toMatchObject({ status: 'ok', errorCode: 'email_sent' });
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user!.state).toBe('unverified');
    expect((await lastMailTo(email)).link).toContain('/invitation/activate?token=');
    // Someone else's invitation does not vouch for this address either (refused, nothing made).
    const other = uniqueEmail('other');
    const token = await invitationFor(other);
    const stranger = uniqueEmail('stranger');
    const refused = await registerAs(registration({ email: stranger, invitation: token }));
    expect(refused.json.errorCode).toBe('registration_invitation_required');
    expect(await accountCount(stranger)).toBe(0);
  });

  it('mails the link in the inviter\u2019s language', async () => {
    const email = uniqueEmail('lang');
    await invitationFor(email);
    const { mail } = await lastMailTo(email);
    expect(mail!.subject).toBe('Grace Hopper lädt Sie zu Enclave ein');
  });
});

describe('the admin setting', () => {
  it('overrides the environment default, and null returns to it', async () => {
    env.registration = 'open';
    const saved = await configure({ registration: 'closed' });
    expect(saved.json).toMatchObject({ status: 'ok', configuration: { registration: 'closed', defaultRegistration: { mode: 'open' } } });
    await expectRefused(registration(), 'registration_closed');

    env.registration = 'closed';
    await configure({ registration: 'open' });
    expect((await registerAs(registration())).json.status).toBe('ok');

    await configure({ registration: null });
    await expectRefused(registration(), 'registration_closed');
  });

  it('sets its own domains over REGISTRATION_DOMAINS, refuses a bad domain and domains without any', async () => {
    env.registrationDomains = 'example.org';
    expect((await configure({ registration: 'domains', registration_domains: 'Other.test, @second.test' })).json).toMatchObject({
      configuration: { registration: 'domains', registration_domains: ['other.test', 'second.test'] },
    });
    expect((await registerAs(registration({ email: `a.${Date.now()}@second.test` }))).json.status).toBe('ok');
    await expectRefused(registration({ email: `b.${Date.now()}@example.org` }), 'registration_domain_not_allowed');

    const bad = await configure({ registration_domains: 'not a domain' });
    expect(bad.json).toMatchObject({ errorCode: 'incorrect_data' });
    env.registrationDomains = undefined;
    const none = await configure({ registration_domains: null });
    expect(none.json).toMatchObject({ errorCode: 'incorrect_data', field: 'registration_domains' });
  });

  it('is written to the audit log', async () => {
    await configure({ registration: 'invitation', users_may_invite: true });
    const db = await getDb();
    const rows = await db.select().from(auditLog).where(eq(auditLog.action, 'update_configuration'));
    const last = rows.map((row) => row.details as Record<string, unknown>).find((details) => 'users_may_invite' in details);
    expect(last).toMatchObject({ registration: { from: null, to: 'invitation' }, users_may_invite: { from: false, to: true } });
  });

  it('cannot be changed by a plain user', async () => {
    const { cookie } = await createUser();
    const answer = await call(saveConfiguration, { body: { registration: 'open' }, cookies: sessionCookies(cookie) });
    expect(answer.status).toBe(403);
  });
});

describe('who may send invitations', () => {
  it('a user only when the admin allows it', async () => {
    const { cookie, user } = await createUser();
    const email = uniqueEmail('friend');
    const refused = await sendInvitation(cookie, email);
    expect(refused.status).toBe(403);
    expect(refused.json.errorCode).toBe('invitation_not_allowed');
    expect(await mailCount(email)).toBe(0);

    await configure({ users_may_invite: true });
    expect((await sendInvitation(cookie, email)).json).toMatchObject({ status: 'ok' });
    expect(await mailCount(email)).toBe(1);
    // Who invited which address is in the audit log; a refused invitation left no entry.
    const entries = await (
      await getDb()
    )
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'send_invitation'), eq(auditLog.target, email)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: user.id, actor: user.email });
  });

  it('nobody without a session, and not to an address that has an account', async () => {
    expect((await call(invite, { body: { email: uniqueEmail() } })).status).toBe(401);
    const { user } = await createUser();
    const answer = await sendInvitation(admin.cookie, user.email);
    expect(answer.json.errorCode).toBe('email_exists');
    const db = await getDb();
    expect(await db.select().from(invitations).where(eq(invitations.email, user.email))).toHaveLength(0);
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).toHaveLength(0);
  });

  it('refuses a malformed address', async () => {
    expect((await sendInvitation(admin.cookie, 'not-an-address')).json.errorCode).toBe('invite_incorrect_email_format');
  });
});

describe('the order of refusals', () => {
  it('a closed server says so before judging the password', async () => {
    env.registration = 'closed';
    await expectRefused(registration({ password: 'Password1', passwordConfirm: 'Password1' }), 'registration_closed');
  });
});
