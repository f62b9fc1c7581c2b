import fc from 'fast-check';
import { count } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { mailOutbox, tokens, users } from '@/lib/db/schema';
import { POST as register } from '@/app/register/route';
import { POST as login } from '@/app/login/route';
import { POST as forgot } from '@/app/api/password/route';
import { POST as reset } from '@/app/api/password/reset/route';
import { POST as check } from '@/app/2fa/g2f/check/route';
import { POST as finish } from '@/app/2fa/g2f/finish/route';
import { POST as updateMe } from '@/app/api/me/route';
import { POST as resendActivation } from '@/app/invitation/route';
import { POST as cardLink } from '@/app/vip/route';
import { POST as cardLogin } from '@/app/vip/activate/route';
import { POST as contact } from '@/app/contact/route';
import { call, sessionCookies } from '../support/api';
import { activeAccount, logInAs } from '../support/accounts';

// Opening and migrating the database takes a while on a busy machine.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

/** Rows that an account endpoint could create or change. */
async function snapshot() {
  const db = await getDb();
  const [u] = await db.select({ n: count() }).from(users);
  const [t] = await db.select({ n: count() }).from(tokens);
  const [m] = await db.select({ n: count() }).from(mailOutbox);
  const all = await db
    .select({
      id: users.id,
      email: users.email,
      hash: users.passwordHash,
      v: users.sessionVersion,
      lang: users.lang,
    })
    .from(users);
  return {
    users: u!.n,
    tokens: t!.n,
    mails: m!.n,
    rows: JSON.stringify(all.sort((a, b) => a.id.localeCompare(b.id))),
  };
}

// Bodies of every shape: JSON values, objects with the right keys and wrong values, raw text.
const keys = [
  'email',
  'password',
  'passwordConfirm',
  'firstName',
  'lastName',
  'agree',
  'code',
  'link',
  'oldPassword',
  'newPassword1',
  'lang',
  'timezone',
  'phone',
  'theme',
];
const body = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom(...keys), fc.oneof(fc.jsonValue(), fc.string({ maxLength: 300 }))),
  fc.string({ maxLength: 200 }),
);

describe('property: random bodies never cause a 5xx and never create or change data', () => {
  let cookie = '';
  beforeAll(async () => {
    const account = await activeAccount();
    cookie = (await logInAs(account.email, account.password)).cookie!;
  }, 30_000);

  it.each([
    ['POST /register', register],
    ['POST /login', login],
    ['POST /api/password', forgot],
    ['POST /api/password/reset', reset],
    ['POST /2fa/g2f/check', check],
    ['POST /2fa/g2f/finish', finish],
    ['POST /api/me', updateMe],
    ['POST /invitation', resendActivation],
    ['POST /vip', cardLink],
    ['POST /vip/activate', cardLogin],
    ['POST /contact', contact],
  ] as const)(
    '%s',
    async (_name, handler) => {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const before = await snapshot();
          const answer = await call(handler as never, {
            method: 'POST',
            body: typeof value === 'string' ? value : JSON.stringify(value),
            cookies: sessionCookies(cookie),
            headers: {
              'x-enclave-peer': `172.16.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
            },
          });
          expect(answer.status).toBeLessThan(500);
          if (answer.status >= 400) expect(await snapshot()).toEqual(before);
        }),
        { numRuns: 60 },
      );
    },
    60_000,
  );
});
