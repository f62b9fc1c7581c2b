import 'server-only';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/lib/auth/guard';
import { getBrandName } from '@/lib/configuration/brand';
import type { User } from '@/lib/db/schema';
import { redirect } from '@/lib/i18n/links';
import { defaultLocale, isLocale, type Locale } from '@/lib/i18n/locales';

export const adminTabs = ['users', 'configuration', 'support', 'ratings', 'audit'] as const;
export type AdminTab = (typeof adminTabs)[number];

/**
 * The admin area's pages: a login, and role "admin". A plain user is sent home, as the proxy's
 * role flag (SPEC point 2) does; this check next to the data is the one that counts.
 */
export async function requireAdminPage(locale: Locale, tab: AdminTab): Promise<User> {
  const user = await requirePageUser(locale, `/admin/${tab}`);
  if (user.role !== 'admin') redirect({ href: '/', locale });
  return user;
}

/** SPEC point 2's title rule: the product name, then the section's name. */
export function adminMetadata(tab: AdminTab) {
  return async ({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> => {
    const { locale } = await params;
    const t = await getTranslations({ locale: isLocale(locale) ? locale : defaultLocale, namespace: 'AdminArea' });
    return { title: `${await getBrandName()} – ${t(`tabs.${tab}`)}` };
  };
}
