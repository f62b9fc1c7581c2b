import { PEER_HEADER } from '@/lib/security/client-address';
import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { mailOutbox, users } from '@/lib/db/schema';
import { POST as register } from '@/app/register/route';
import { POST as login } from '@/app/login/route';
import { GET as activate } from '@/app/invitation/activate/route';
import { call, cookieFrom, type Answer } from './api';

export const STRONG_PASSWORD = 'Blue-Harbour-42';
let counter = 0;

export function uniqueEmail(prefix = 'person') {
  counter += 1;
  return `${prefix}${counter}.${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

export function registration(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: uniqueEmail(),
    password: STRONG_PASSWORD,
    passwordConfirm: STRONG_PASSWORD,
    agree: true,
    ...overrides,
  };
}

/**
 * Each call from its own address, so per-client limits do not mix tests: the TCP peer's address,
 * as the app's server (server/server.mjs) writes it; a forwarded header alone would not count.
 */
export const fromIp = (ip = `10.${counter % 250}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) => ({
  [PEER_HEADER]: ip,
});

/** The newest mail to `to` in the outbox, and the first link in its text. */
export async function lastMailTo(to: string) {
  const db = await getDb();
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  const link = mail ? /https?:\/\/\S+/.exec(mail.text)?.[0] : undefined;
  return { mail, link };
}

export async function mailCount(to: string) {
  const db = await getDb();
  const rows = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(sql`lower(${mailOutbox.to})`, to.toLowerCase())));
  return rows.length;
}

/** Registers and activates an account through the API; answers its e-mail. */
export async function activeAccount(overrides: Record<string, unknown> = {}) {
  const body = registration(overrides);
  const registered = await call(register, { body, headers: fromIp() });
  if (registered.status !== 200) throw new Error(`register failed: ${registered.text}`);
  const { link } = await lastMailTo(body.email);
  const url = new URL(link!);
  await call(activate, { path: url.pathname + url.search, headers: fromIp() });
  const db = await getDb();
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, body.email));
  return { email: body.email, password: body.password as string, user: user! };
}

export async function logInAs(email: string, password: string): Promise<{ answer: Answer; cookie: string | undefined }> {
  const answer = await call(login, { body: { email, password }, headers: fromIp() });
  return { answer, cookie: cookieFrom(answer, 'enclave_session') };
}

/** The stored row of the account with this address. */
export async function userByEmail(email: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user!;
}
