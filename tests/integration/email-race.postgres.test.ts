// Two requests for one address at the same instant (lib/db/unique-violation.ts): each looks the
// address up, finds it free, and writes it; the unique index on lower(users.email) refuses the
// later write. That must answer the catalogue's email_exists, not a 500. The race is made exact
// with a second connection that holds an uncommitted row with the address while the app's
// request runs: the app's look-up cannot see it, its write waits on the index, and the commit
// then makes that write fail. PostgreSQL only: PGlite has a single connection.
import postgres from 'postgres';
import { closeDb, getDb } from '@/lib/db/client';
import { GET as confirm } from '@/app/invitation/confirm-email/route';
import { POST as register } from '@/app/register/route';
import { call, sessionCookies } from '../support/api';
import { activeAccount, fromIp, lastMailTo, logInAs, registration, uniqueEmail, userByEmail } from '../support/accounts';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const { POST: updateMe } = jest.requireActual('@/app/api/me/route') as typeof import('@/app/api/me/route');

/** Runs `request` while another connection holds an uncommitted account with `email`, then commits it. */
async function racing<T>(email: string, request: () => Promise<T>): Promise<T> {
  const other = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const holding = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = other.begin(async (tx) => {
      await tx`insert into users (email, first_name, last_name, password_hash, hash, trial_ends_at)
               values (${email}, 'Other', 'Person', 'x', ${`race-${Date.now()}-${Math.random()}`}, now())`;
      inserted();
      await committed;
    });
    await Promise.race([holding, transaction]);
    const answer = request();
    // The app's write is now waiting on the index (or will be): let the other row win.
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await transaction;
    return await answer;
  } finally {
    await other.end({ timeout: 1 });
  }
}

it('a confirmation link for an address another account takes at that instant answers email_exists and is used up', async () => {
  const account = await activeAccount();
  const { cookie } = await logInAs(account.email, account.password);
  const fresh = uniqueEmail('raced');
  await call(updateMe, { body: { email: fresh, oldPassword: account.password }, cookies: sessionCookies(cookie!) });
  const link = new URL((await lastMailTo(fresh)).link!);
  const open = () => call(confirm, { path: link.pathname + link.search, headers: fromIp() });

  const answer = await racing(fresh, open);
  expect(answer.status).toBe(303);
  expect(new URL(answer.headers.get('location')!).searchParams.get('status')).toBe('email_exists');
  expect((await userByEmail(account.email)).id).toBe(account.user.id);
  expect((await userByEmail(fresh)).firstName).toBe('Other');
  // The savepoint kept the link's use: opening it again is an invalid link, not a second try.
  const again = await open();
  expect(new URL(again.headers.get('location')!).searchParams.get('status')).toBe('invalid_reset_link');
});

it('a registration for an address another registration takes at that instant answers email_exists', async () => {
  const body = registration();
  const answer = await racing(body.email, () => call(register, { body, headers: fromIp() }));
  expect(answer.json).toMatchObject({ status: 'error', errorCode: 'email_exists' });
  expect(answer.status).toBeLessThan(500);
});
