// Issue 48, point 6: several single-use recovery codes, a mail and a count when one is used, new
// ones for a person who proves again who they are, and the one old six-digit code still working.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { closeDb, getDb } from '@/lib/db/client';
import { mailOutbox, recoveryCodes } from '@/lib/db/schema';
import { hashPassword } from '@/lib/auth/password';
import { openSecret } from '@/lib/security/data-key';
import { call, cookieFrom, sessionCookies } from '../support/api';
import { activeAccount, logInAs, userByEmail } from '../support/accounts';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const { POST: check } = jest.requireActual('@/app/2fa/g2f/check/route') as typeof import('@/app/2fa/g2f/check/route');
const { POST: finish } = jest.requireActual('@/app/2fa/g2f/finish/route') as typeof import('@/app/2fa/g2f/finish/route');
const { GET: setup } = jest.requireActual('@/app/2fa/g2f/setup/route') as typeof import('@/app/2fa/g2f/setup/route');
const recovery = jest.requireActual('@/app/2fa/g2f/recovery/route') as typeof import('@/app/2fa/g2f/recovery/route');

const CODE_SHAPE = /^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/;

async function enableTwoFactor() {
  const account = await activeAccount();
  const { cookie } = await logInAs(account.email, account.password);
  await call(setup, { cookies: sessionCookies(cookie!) });
  const stored = await userByEmail(account.email);
  const secret = openSecret(stored.totpSecret!, stored.id);
  const code = await generate({ secret });
  expect((await call(check, { body: { code }, cookies: sessionCookies(cookie!) })).json.status).toBe('ok');
  const finished = await call(finish, { body: { code }, cookies: sessionCookies(cookie!) });
  expect(finished.json.status).toBe('ok');
  return { ...account, secret, codes: finished.json.recoveryCode as string[] };
}

/** A login's password step, then `code` as its second factor. */
async function logInWith(email: string, password: string, code: string) {
  const pending = await logInAs(email, password);
  const answer = await call(check, { body: { code }, cookies: sessionCookies(pending.cookie!) });
  return { answer, session: cookieFrom(answer, 'enclave_session') };
}

async function newestMailTo(to: string) {
  const db = await getDb();
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return mail;
}

const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

describe('two-factor recovery codes', () => {
  it('turning 2FA on answers ten different twelve-character codes as a list, and stores only their hashes', async () => {
    const { email, codes } = await enableTwoFactor();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(CODE_SHAPE);
    const db = await getDb();
    const user = await userByEmail(email);
    const rows = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace(/-/g, ''));
    }
  });

  it('each code works once, in any case and with or without dashes; the login says how many are left, and the address is mailed', async () => {
    const { email, password, codes } = await enableTwoFactor();
    const first = await logInWith(email, password, codes[0]!.toUpperCase().replace(/-/g, ' '));
    expect(first.answer.json).toMatchObject({ status: 'ok', recoveryCodesLeft: 9 });
    const mail = await newestMailTo(email);
    expect(mail?.subject).toMatch(/recovery code was used/i);
    expect(mail?.text).toContain('You have 9 recovery codes left.');

    // Used: refused the second time, whichever way it is written.
    expect((await logInWith(email, password, codes[0]!)).answer.status).toBe(401);
    // Another one still works, and counts down.
    expect((await logInWith(email, password, codes[1]!.replace(/-/g, ''))).answer.json).toMatchObject({ recoveryCodesLeft: 8 });
    const status = await call(recovery.GET, { cookies: sessionCookies(first.session!) });
    expect(status.json).toEqual({ status: 'ok', has2FA: true, recoveryCodesLeft: 8 });
    // An app code answers no count, and mails nothing.
    const before = await newestMailTo(email);
    const app = await logInWith(email, password, await nextCode((await enableSecret(email))!));
    expect(app.answer.json.status).toBe('ok');
    expect(app.answer.json).not.toHaveProperty('recoveryCodesLeft');
    expect((await newestMailTo(email))?.id).toBe(before?.id);
  });

  it('the last code used says none are left', async () => {
    const { email, password, codes } = await enableTwoFactor();
    for (const code of codes.slice(0, 9)) expect((await logInWith(email, password, code)).answer.json.status).toBe('ok');
    expect((await logInWith(email, password, codes[9]!)).answer.json).toMatchObject({
      recoveryCodesLeft: 0,
    });
    expect((await newestMailTo(email))?.text).toContain('You have no recovery codes left.');
  });

  it('new codes need the password or a current app code; they replace the old ones', async () => {
    const { email, password, secret, codes } = await enableTwoFactor();
    const { session } = await logInWith(email, password, codes[0]!);
    const cookies = sessionCookies(session!);
    for (const [body, errorCode] of [
      [{}, 'fill_old_password'],
      [{ password: 'Wrong-Horse-99' }, 'invalid_old_password'],
      [{ code: '000000' }, 'incorrect_data'],
      // A recovery code does not make new recovery codes.
      [{ code: codes[1] }, 'incorrect_data'],
    ] as const) {
      const refused = await call(recovery.POST, { body, cookies });
      expect([body, refused.status, refused.json.errorCode]).toEqual([body, 400, errorCode]);
    }
    // No session: refused.
    expect((await call(recovery.POST, { body: { password } })).status).toBe(401);

    const byPassword = await call(recovery.POST, { body: { password }, cookies });
    expect(byPassword.json.status).toBe('ok');
    const renewed = byPassword.json.recoveryCode as string[];
    expect(renewed).toHaveLength(10);
    // The old codes are gone.
    expect((await logInWith(email, password, codes[2]!)).answer.status).toBe(401);
    const byApp = await call(recovery.POST, { body: { code: await nextCode(secret) }, cookies });
    expect(byApp.json.status).toBe('ok');
    const again = byApp.json.recoveryCode as string[];
    expect(again.some((code) => renewed.includes(code))).toBe(false);
    expect((await logInWith(email, password, renewed[0]!)).answer.status).toBe(401);
    expect((await logInWith(email, password, again[0]!)).answer.json).toMatchObject({
      status: 'ok',
      recoveryCodesLeft: 9,
    });
  });

  it('an account without 2FA has no codes to renew', async () => {
    const { email, password } = await activeAccount();
    const { cookie } = await logInAs(email, password);
    expect((await call(recovery.POST, { body: { password }, cookies: sessionCookies(cookie!) })).json.errorCode).toBe('incorrect_data');
    expect((await call(recovery.GET, { cookies: sessionCookies(cookie!) })).json).toEqual({
      status: 'ok',
      has2FA: false,
      recoveryCodesLeft: 0,
    });
  });

  it('the one six-digit code of an account set up before issue 48 still works, once', async () => {
    const { email, password } = await enableTwoFactor();
    const db = await getDb();
    const user = await userByEmail(email);
    // As drizzle/0015_recovery_codes.sql carries it over: the old password hash, the only code.
    await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await db.insert(recoveryCodes).values({ userId: user.id, codeHash: await hashPassword('482913') });
    expect((await logInWith(email, password, '482-913')).answer.json).toMatchObject({
      status: 'ok',
      recoveryCodesLeft: 0,
    });
    expect((await logInWith(email, password, '482913')).answer.status).toBe(401);
  });
});

/** The account's TOTP secret in clear. */
async function enableSecret(email: string): Promise<string | null> {
  const user = await userByEmail(email);
  return user.totpSecret ? openSecret(user.totpSecret, user.id) : null;
}

describe('migration 0015', () => {
  it("moves each account's old recovery code hash into recovery_codes and drops the column", async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create();
    const folder = path.join(process.cwd(), 'drizzle');
    const files = readdirSync(folder)
      .filter((name) => name.endsWith('.sql'))
      .sort();
    const run = async (file: string) => {
      for (const statement of readFileSync(path.join(folder, file), 'utf8').split('--> statement-breakpoint')) {
        if (statement.trim()) await db.exec(statement);
      }
    };
    const target = files.findIndex((name) => name.startsWith('0015_'));
    for (const file of files.slice(0, target)) await run(file);
    await db.exec(`INSERT INTO users (email, first_name, last_name, password_hash, trial_ends_at, hash, has_2fa, recovery_code_hash)
      VALUES ('old@example.test', 'Old', 'Timer', 'x', now(), 'h-old', true, '$scrypt$old-hash'),
             ('none@example.test', 'No', 'Code', 'x', now(), 'h-none', false, NULL)`);
    await run(files[target]!);
    const moved = await db.query<{ email: string; code_hash: string; used_at: string | null }>(
      'SELECT u.email, r.code_hash, r.used_at FROM recovery_codes r JOIN users u ON u.id = r.user_id',
    );
    expect(moved.rows).toEqual([{ email: 'old@example.test', code_hash: '$scrypt$old-hash', used_at: null }]);
    const column = await db.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'recovery_code_hash'");
    expect(column.rows).toEqual([]);
    await db.close();
  }, 60_000);
});
