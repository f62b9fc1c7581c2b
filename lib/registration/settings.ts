import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { configuration, type User } from '@/lib/db/schema';
import { config } from '@/lib/environment';
import { parseDomains, policyFromSettings, type RegistrationPolicy } from './policy';

export interface RegistrationSettings extends RegistrationPolicy {
  /** Whether ordinary users may send invitations (admins always may). */
  usersMayInvite: boolean;
}

/** The environment's default (REGISTRATION, REGISTRATION_DOMAINS), read on every call so tests can switch it. */
export const defaultRegistrationPolicy = (): RegistrationPolicy => policyFromSettings(config.registration, config.registrationDomains);

/** The admin's setting where there is one, else the environment's: each column on its own. */
export async function registrationSettings(db?: Database | Transaction): Promise<RegistrationSettings> {
  const source = db ?? (await getDb());
  const [row] = await source
    .select({ mode: configuration.registration, domains: configuration.registrationDomains, usersMayInvite: configuration.usersMayInvite })
    .from(configuration)
    .where(eq(configuration.id, 1))
    .limit(1);
  const fallback = defaultRegistrationPolicy();
  return {
    mode: row?.mode ?? fallback.mode,
    domains: row?.domains ? parseDomains(row.domains) : fallback.domains,
    usersMayInvite: row?.usersMayInvite ?? false,
  };
}

/** Whether `user` may send registration invitations now: admins always, users when allowed; nobody while closed. */
export async function mayInvite(user: Pick<User, 'role'>): Promise<boolean> {
  const settings = await registrationSettings();
  return settings.mode !== 'closed' && (user.role === 'admin' || settings.usersMayInvite);
}
