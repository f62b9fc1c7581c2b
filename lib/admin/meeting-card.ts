import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { validate } from '@/lib/api/validation';
import { emailField } from '@/lib/email-field';
import { hashPassword } from '@/lib/auth/password';
import { issueToken } from '@/lib/auth/tokens';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { userEmailIs } from '@/lib/db/user-email';
import { users } from '@/lib/db/schema';
import { insertUser } from '@/lib/users/create';
import { writeAudit, type Actor } from '@/lib/audit/audit-log';

/** A card handed out by an admin may wait a while before its holder opens it. */
export const CARD_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const name = z.string({ error: 'incorrect_data' }).trim().max(100, 'incorrect_data').optional();

export const cardSchema = z.object({ email: emailField({ required: 'email_required', invalid: 'format_email' }), firstName: name, lastName: name });

export interface IssuedCard {
  email: string;
  created: boolean;
  /** The one-time login link ({APP_URL}/login#card=…); the code rides in the fragment. */
  link: string;
  expiresAt: string;
}

/**
 * SPEC point 6, meeting cards: an account with enableMCard (created, active, with an unusable
 * random password, if the address has none yet) and a one-time login link for it. A new link
 * voids the card's older ones.
 */
export async function issueMeetingCard(input: z.input<typeof cardSchema>, actor: Actor): Promise<IssuedCard> {
  const { email, firstName, lastName } = validate(cardSchema, input);
  const db = await getDb();
  // Nobody knows this password: the card logs in by its link only (and "forgot password").
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  const now = new Date();
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(userEmailIs(email)).for('update').limit(1);
    const user =
      existing ??
      (await insertUser(tx, {
        email,
        firstName: firstName || email.split('@')[0]!.slice(0, 100),
        lastName: lastName ?? '',
        passwordHash,
        state: 'active',
        verifiedAt: now,
        enableMCard: true,
      }));
    if (existing) {
      await tx.update(users).set({ enableMCard: true, updatedAt: now }).where(eq(users.id, existing.id));
    }
    const code = await issueToken(tx, user.id, 'card_login', now, CARD_LINK_TTL_MS);
    await writeAudit(tx, actor, 'issue_card', { userId: user.id, label: user.email }, { created: !existing });
    return {
      email: user.email,
      created: !existing,
      link: `${config.appUrl}/login#card=${code}`,
      expiresAt: new Date(now.getTime() + CARD_LINK_TTL_MS).toISOString(),
    };
  });
}
