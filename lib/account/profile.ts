import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError } from '@/lib/errors';
import { assertUncommonPassword, findUserByEmail } from '@/lib/auth/accounts';
import { hashPassword, verifyPassword } from '@/lib/auth/password';
import { accountEmailField, firstNameField, lastNameField, newPasswordField } from '@/lib/auth/schemas';
import { accountSummary } from '@/lib/billing/summary';
import { getPublicConfiguration } from '@/lib/configuration/configuration';
import { config } from '@/lib/environment';
import { countryFromHeaders, regionForCountry } from '@/lib/location/region';
import { getDb } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { locales } from '@/lib/i18n/locales';
import { kickMailWorker } from '@/lib/mail';
import { requestEmailChange } from '@/lib/account/email-change';
import { isValidTimezone, normalizeTimezone } from '@/lib/time/timezones';

/**
 * GET /api/me: the user of SPEC point 3, as the client reads it. Never a password hash or secret.
 * One source of truth for plan, trial and rooms: the account summary, which knows the billing
 * mode (issue 48: a server without billing answered a trial and 1 room at the top level).
 */
export async function profileOf(user: User, headers?: Headers) {
  const [{ enable2fa }, account] = await Promise.all([getPublicConfiguration(), accountSummary(user)]);
  // The visitor's country and region, as GET /api/location answers them (request headers only).
  const country = headers ? countryFromHeaders(headers) : null;
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    settings: {
      timezone: normalizeTimezone(user.timezone),
      timezoneSet: user.timezone !== null,
      tip: user.tooltips,
      preferredRegion: user.preferredRegion,
      lang: user.lang,
    },
    theme: user.theme,
    avatar: user.avatar,
    role: user.role,
    // Billing off has no plan: null, as the account summary has no plan row.
    accountType: account.billingOn ? user.accountType : null,
    numberOfRooms: account.rooms,
    isTrial: account.isTrial,
    trialEndsAt: account.trialEndsAt,
    // The host of SPEC's meeting link form {meetServer}/{hash}: this server (one server, no regions).
    meetServer: config.appUrl,
    registrationDate: user.registrationDate.toISOString(),
    hash: user.hash,
    user2FA: { has2FA: user.has2fa },
    enable2fa,
    enableMCard: user.enableMCard,
    // Never stored: where the request comes from, as GET /api/location answers it.
    location: { country, region: country ? regionForCountry(country) : (user.preferredRegion ?? 'ot') },
    account,
  };
}

const phoneField = z
  .string()
  .trim()
  .max(32, 'incorrect_data')
  .regex(/^\+?[0-9 ()-]*$/, 'incorrect_data');

/** POST /api/me: every field optional; password and e-mail changes need the current password. */
export const profileUpdateSchema = z.object({
  firstName: firstNameField.optional(),
  lastName: lastNameField.optional(),
  timezone: z
    .string()
    .max(64)
    .refine((zone) => isValidTimezone(zone), 'incorrect_data')
    .optional(),
  lang: z.enum(locales).optional(),
  tooltips: z.boolean().optional(),
  preferredRegion: z.enum(['na', 'eu']).optional(),
  theme: z.enum(['green', 'blue']).optional(),
  phone: phoneField.optional(),
  email: accountEmailField.optional(),
  oldPassword: z.string().max(256).optional(),
  newPassword1: newPasswordField.optional(),
});
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

/**
 * Applies a profile change. Returns the new session version when the password changed (the
 * caller re-issues its own cookie; every other session ends). A new e-mail is not applied: it
 * waits, as `emailPending`, for the link mailed to it (lib/account/email-change.ts).
 */
export async function updateProfile(user: User, change: ProfileUpdate): Promise<{ sessionVersion: number; emailPending?: string }> {
  const emailChanges = change.email !== undefined && change.email !== user.email.toLowerCase();
  // Meeting-card accounts have no current password to give (SPEC point 6).
  if ((emailChanges || change.newPassword1) && !user.enableMCard) {
    if (!change.oldPassword) throw new ApiError('fill_old_password', { field: 'oldPassword' });
    if (!(await verifyPassword(user.passwordHash, change.oldPassword))) {
      throw new ApiError('invalid_old_password', { field: 'oldPassword' });
    }
  }
  if (change.newPassword1) assertUncommonPassword(change.newPassword1);

  const db = await getDb();
  const newHash = change.newPassword1 ? await hashPassword(change.newPassword1) : undefined;
  const [row] = await db.transaction(async (tx) => {
    if (emailChanges && (await findUserByEmail(tx, change.email!))) throw new ApiError('email_exists', { field: 'email' });
    const updated = await tx
      .update(users)
      .set({
        firstName: change.firstName,
        lastName: change.lastName,
        timezone: change.timezone ? normalizeTimezone(change.timezone) : undefined,
        lang: change.lang,
        tooltips: change.tooltips,
        preferredRegion: change.preferredRegion,
        theme: change.theme,
        phone: change.phone,
        passwordHash: newHash,
        sessionVersion: newHash ? sql`${users.sessionVersion} + 1` : undefined,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning({ sessionVersion: users.sessionVersion });
    if (emailChanges) await requestEmailChange(tx, { ...user, lang: change.lang ?? user.lang, firstName: change.firstName ?? user.firstName }, change.email!);
    return updated;
  });
  if (!emailChanges) return { sessionVersion: row!.sessionVersion };
  kickMailWorker();
  return { sessionVersion: row!.sessionVersion, emailPending: change.email! };
}
