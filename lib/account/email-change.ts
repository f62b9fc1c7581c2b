import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { findUserByEmail } from '@/lib/auth/accounts';
import { consumeTokenRecord, issueToken } from '@/lib/auth/tokens';
import { config } from '@/lib/environment';
import { getDb, type Transaction } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { isUniqueViolation, USERS_EMAIL_INDEX } from '@/lib/db/unique-violation';
import { isLocale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';

/**
 * A new address must be proven before it becomes the account's (docs/security.md): single sign-on
 * links a provider's verified e-mail to the account holding that address (lib/auth/oidc/sign-in.ts).
 * The pending address rides on the e-mail-change token's payload; a newer request voids older links.
 */
export async function requestEmailChange(tx: Transaction, user: User, email: string): Promise<void> {
  const token = await issueToken(tx, user.id, 'email_change', undefined, undefined, { email });
  await enqueueMail(tx, {
    to: email,
    locale: isLocale(user.lang) ? user.lang : 'en',
    template: 'emailChangeConfirm',
    data: { firstName: user.firstName, link: `${config.appUrl}/invitation/confirm-email?token=${token}` },
  });
}

/** What /confirm-email shows; the codes are the error catalogue's (SPEC point 8). */
export type EmailConfirmation = 'confirmed' | 'invalid_reset_link' | 'email_exists';

const plausibleToken = (token: string) => token.length >= 16 && token.length <= 128;

/**
 * Opens an e-mail-change link: the account takes the address if it is still free, every session
 * ends (the session version goes up) and the old address hears of it. The link is used up either way.
 */
export async function confirmEmailChange(token: string, client: string): Promise<EmailConfirmation> {
  // A wrong token counts against the client's attempts, as an activation link's does.
  await consumeAttempt(limits.activation, client);
  if (!plausibleToken(token)) return 'invalid_reset_link';
  const db = await getDb();
  const outcome = await db.transaction(async (tx): Promise<EmailConfirmation> => {
    const link = await consumeTokenRecord(tx, token, 'email_change');
    const email = link?.payload?.email;
    if (!link || !email) return 'invalid_reset_link';
    const [user] = await tx.select().from(users).where(eq(users.id, link.userId));
    if (!user) return 'invalid_reset_link';
    if (await findUserByEmail(tx, email)) return 'email_exists';
    try {
      // A savepoint: another account may take the address between the look-up and now (it
      // confirmed the same address at the same instant); the link is still used up, and the
      // answer is the catalogue's, not a 500.
      await tx.transaction((savepoint) =>
        savepoint
          .update(users)
          .set({ email, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
          .where(eq(users.id, user.id)),
      );
    } catch (error) {
      if (isUniqueViolation(error, USERS_EMAIL_INDEX)) return 'email_exists';
      throw error;
    }
    // The old address hears about the change, so a hijacked session cannot hide it.
    await enqueueMail(tx, {
      to: user.email,
      locale: isLocale(user.lang) ? user.lang : 'en',
      template: 'emailChanged',
      data: { firstName: user.firstName, newEmail: email },
    });
    return 'confirmed';
  });
  if (outcome === 'confirmed') kickMailWorker();
  return outcome;
}
