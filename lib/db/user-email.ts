import { inArray, sql, type SQL } from 'drizzle-orm';
import { users } from './schema';

// How an account is found by its e-mail address, in one place (issue 45: it was written four
// times). Addresses are stored as typed and compared without case, which is also what the unique
// index `users_email_key` on lower(email) enforces and serves.

/** The condition "the user's address is `email`", whatever its case or surrounding spaces. */
export function userEmailIs(email: string): SQL {
  return sql`lower(${users.email}) = ${email.trim().toLowerCase()}`;
}

/** The condition "the user's address is one of `emails`", the same way. */
export function userEmailIn(emails: readonly string[]): SQL {
  return inArray(
    sql`lower(${users.email})`,
    emails.map((email) => email.trim().toLowerCase()),
  );
}
