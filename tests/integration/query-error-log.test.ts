import { inspect } from 'node:util';
import { closeDb, getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { insertUser } from '@/lib/users/create';
import { databaseUnavailableCode } from '@/lib/db/unavailable';
import { describeError, log } from '@/lib/log';

// Issue 44, point 2: a failed query never brings the values it was sent into a log, whoever logs
// it: the app's log lines (describeError), or anything that prints the error itself (Next.js,
// the scripts). Before, drizzle's message carried "params: …" (a password hash, a provider's
// claims), PGlite's error its `params`, and PostgreSQL's detail the failing row or key.

afterAll(async () => {
  await closeDb();
});

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$hash-marker-value';

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the query did not fail');
}

/** The error as every printer shows it: the app's log line, util.inspect (console.error) and its stack. */
function printed(error: unknown): string {
  const lines: string[] = [];
  const spy = jest.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
  try {
    log.error('unhandled error in route handler', describeError(error));
  } finally {
    spy.mockRestore();
  }
  return [...lines, inspect(error, { depth: 8 }), String((error as Error).stack)].join('\n');
}

it('a failing insert (NUL in a name) is logged with its statement and the database message, without its values', async () => {
  const db = await getDb();
  const error = await failure(() =>
    insertUser(db, { email: `nul-${Date.now()}@example.test`, firstName: 'Name\u0000-marker', lastName: 'Lovelace', passwordHash: HASH }),
  );
  const text = printed(error);
  expect(text).toContain('insert into "users"');
  expect(text).not.toMatch(/hash-marker|-marker|nul-\d+@example\.test|params:/);
  // The database's own message stays, for the operator.
  expect((error as { cause?: { message?: string } }).cause?.message).toMatch(/\S/);
});

it('a unique violation does not quote the duplicate key (PostgreSQL detail), and still reads as one', async () => {
  const db = await getDb();
  const email = `taken-${Date.now()}@example.test`;
  await insertUser(db, { email, firstName: 'Ada', lastName: 'Lovelace', passwordHash: HASH });
  const error = await failure(() =>
    db
      .insert(users)
      .values({ email: email.toUpperCase(), firstName: 'Eve', lastName: 'Doe', passwordHash: HASH, hash: `h${Date.now()}`, trialEndsAt: new Date() }),
  );
  const text = printed(error);
  expect(text).not.toMatch(new RegExp(`hash-marker|${email.split('@')[0]}|params:`, 'i'));
  // What the app reads of it is kept: the SQLSTATE on the cause.
  expect((error as { cause?: { code?: string } }).cause?.code).toBe('23505');
  expect(databaseUnavailableCode(error)).toBeUndefined();
});
